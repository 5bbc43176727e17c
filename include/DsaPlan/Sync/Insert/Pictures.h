//===- Pictures.h - Memory maps with the syncs drawn in ---------*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//
//
// One picture per memory space, `<function>.<space>.svg`, drawn by
// dsaplan-insert-sync from its own input: the tiles (placed allocs, or the
// arena views of dsaplan-materialize) at their offsets, their live ranges
// by the placement's lifetime rules (BufferLifetimes), and the syncs it
// inserted, all on the program points of that input (ProgramPoints, the
// one numbering every report counts in).
//
// Why the input's own numbering rather than the placement's: between the
// two passes the IR changes (materialize adds arenas, offsets and views;
// unroll-rotations clones loop bodies, whose clones are new accesses the
// placement never numbered). Carrying the placement's points across would
// need an op identity that survives those rewrites: an attribute on every
// access op (what this file once read back, with the placement's JSON)
// breaks on clones, which keep their original's point, and leaks into the
// IR of every pass in between. The tiles and live ranges are facts of the
// input, so the picture is drawn from the input alone and its points are
// the ones a reader of this IR counts.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PICTURES_H
#define DSAPLAN_SYNC_INSERT_PICTURES_H

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// The memory maps of one function: numbered, and its tiles' live ranges
/// taken, before the syncs go in; drawn, with the syncs, once they are in.
///
///   SyncPictures pictures(func, target);   // insert-sync's input
///   ... insert the syncs ...
///   pictures.write(dir);           // arrows between the numbered accesses
class SyncPictures {
public:
  SyncPictures(func::FuncOp func, const TargetDescription &target);

  /// Writes `dir/<function>.<space>.svg` for each space with tiles: the
  /// tiles at their offsets over their live ranges, an arrow per flag pair
  /// from the access its set follows to the access its wait guards (on
  /// each space where the two share bytes, one of them writing), and a mark
  /// per pipe_barrier (barrier_all: on every space) at the access it holds
  /// back, all at the points numbered on construction. Writes nothing for
  /// a function without placed tiles.
  LogicalResult write(StringRef dir) const;

private:
  /// Mutable as MLIR's op handles are: walking the function does not
  /// change it.
  mutable func::FuncOp func;
  TargetDescription target;
  BufferLifetimes lifetimes;
  /// The ops that define placed tiles (isTileOp, with a known offset), in
  /// program order.
  SmallVector<Operation *> tiles;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PICTURES_H
