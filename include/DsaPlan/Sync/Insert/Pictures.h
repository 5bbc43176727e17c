//===- Pictures.h - Memory maps with the syncs drawn in ---------*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//
//
// One picture per memory space: dsaplan-assign-offsets draws the placement
// (`<function>.<space>.svg`, with `<function>.json`); dsaplan-insert-sync
// draws the same picture again, from that JSON, with its syncs on top. For
// the arrows to land on the placement's x axis, the placement marks every
// access op with its program point (markPlacementPoints), and the sync
// pictures read and remove the marks.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PICTURES_H
#define DSAPLAN_SYNC_INSERT_PICTURES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// Gives every op of `func` that accesses memory its program point (the
/// numbering the live ranges of the placement count in) as the attribute
/// `dsaplan.report_point`. Clones made later (an unrolled loop body) keep
/// the point of the op they copy.
///
///   memref.copy %a, %a_ub {dsaplan.pipe = ..., dsaplan.report_point = 6}
void markPlacementPoints(func::FuncOp func);

/// Draws the memory maps of `dir/<function>.json` again, each over its
/// `dir/<function>.<space>.svg`, with an arrow per flag pair from the access
/// its set follows to the access its wait guards and a mark per
/// pipe_barrier, all at the marked program points; then removes the marks.
/// Without marks (the placement did not make them), warns and leaves the
/// pictures as placed; without marks or report (a function without tiles),
/// does nothing.
LogicalResult writeSyncPictures(func::FuncOp func, StringRef dir);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PICTURES_H
