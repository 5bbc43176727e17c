//===- BufferLifetimes.h - Live ranges of dsaplan allocations ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The live range of every tile of a function (a `dsaplan.alloc`, or after
// dsaplan-materialize a `memref.view` of a `dsaplan.arena`), as sorted,
// disjoint, half-open intervals of its program points (ProgramPoints.h).
// See the description of `dsaplan-compute-lifetimes` in Passes.td for the
// rules.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H
#define DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H

#include "DsaPlan/Analysis/ProgramPoints.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/RegionWalk.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
class BufferViewFlowAnalysis;

namespace dsaplan {

/// The operands of an op marked `dsaplan.in_place` that may share a start
/// address: the hardware lets a vector instruction's source and destination
/// be the same bytes (same start, same element layout) or disjoint, never a
/// partial overlap (Ascend C's address-overlap rule). So only a read-only
/// input and a written output that are whole tiles (dsaplan.alloc results)
/// of one memref type form a pair; the input's read then ends at the op's
/// read point and the placement colocates the two when the input dies there.
///
///   linalg.exp {dsaplan.in_place} ins(%a : memref<256xf32>)
///                                 outs(%b : memref<256xf32>)  // a pair
///   linalg.copy {dsaplan.in_place} ins(%h : memref<256xf16>)
///                                  outs(%f : memref<256xf32>) // none: a
///                                       // cast, the tiles stay disjoint
///
/// Other inputs of the op are co-live with its outputs, as without the
/// attribute. The first eligible (input, output) pair in operand order wins.
struct InPlacePair {
  AllocOp input;
  AllocOp output;
};
std::optional<InPlacePair> getInPlacePair(Operation *op);

/// The same pair among tiles of either kind (isTileOp), as the input and
/// output values: after dsaplan-materialize, the views the placement's
/// pair became. Equals getInPlacePair's on IR whose tiles are allocs.
struct InPlaceTiles {
  Value input;
  Value output;
};
std::optional<InPlaceTiles> getInPlaceTiles(Operation *op);

/// The values that may hold `root`'s bytes: `aliases`' (views, region-branch
/// values: scf.if results, loop iter_args), closed under the results that
/// getAliasSources says name their operand's bytes without being views to
/// MLIR (memref.transpose):
///
///   %t = memref.transpose %a ...   // no ViewLikeOpInterface, no effects
///   linalg.add ins(%t, ...)        // an access of %a
SmallVector<Value> resolveAliases(BufferViewFlowAnalysis &aliases, Value root);

/// A half-open interval of program points.
struct PointInterval {
  int64_t lower = 0;
  int64_t upper = 0;
};

/// Why a buffer was made live over a whole function.
struct ConservativeUse {
  Operation *user = nullptr;
  std::string reason;
};

/// Whether `op` defines a tile: a dsaplan.alloc, or a memref.view of a
/// dsaplan.arena (what dsaplan-materialize turns a placed alloc into).
///
///   %t = dsaplan.alloc : memref<64xf32, #dsaplan.space<ub>>      // a tile
///   %v = memref.view %ub[%c0][] : memref<196608xi8, ...> to ...  // a tile
///   %s = memref.subview %v[0] [16] [1] : ...                     // a view
bool isTileOp(Operation *op);

/// The live range of each tile (isTileOp) in one function: of the
/// dsaplan.alloc ops before materialisation, of the arena views after it
/// (the sync pictures draw them), by the same rules.
class BufferLifetimes {
public:
  explicit BufferLifetimes(Operation *function);

  const ProgramPoints &getPoints() const { return points; }
  /// Sorted, disjoint, non-empty intervals of the tile `tile` defines;
  /// empty for an op that is not a tile of the function.
  ArrayRef<PointInterval> getLiveRange(Operation *tile) const;
  /// The live range as the `live` attribute dsaplan.alloc carries.
  LiveAttr getLiveAttr(AllocOp alloc) const;
  /// Set when the range was widened to the whole function.
  const ConservativeUse *getConservativeUse(Operation *tile) const;

private:
  ProgramPoints points;
  llvm::DenseMap<Operation *, SmallVector<PointInterval, 2>> ranges;
  llvm::DenseMap<Operation *, ConservativeUse> conservative;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H
