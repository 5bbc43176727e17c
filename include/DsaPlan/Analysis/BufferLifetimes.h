//===- BufferLifetimes.h - Live ranges of dsaplan allocations ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Program points and the live range of every `dsaplan.alloc` of a function,
// as sorted, disjoint, half-open intervals of points. See the description of
// `dsaplan-compute-lifetimes` in Passes.td for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H
#define DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/RegionWalk.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
class BufferViewFlowAnalysis;

namespace dsaplan {

/// Two points per op, numbered in pre-order over the ops nested in a root:
/// op number k reads at point 2k and writes at point 2k+1. Control-flow ops
/// (RegionBranchOpInterface) span their own two points and those of the ops
/// nested in them; the regions of other ops (a linalg body) are not
/// numbered, and their ops share the points of the op that holds them.
///
///   func.func @f() {          // (root, not numbered)
///     %a = dsaplan.alloc      // op 0: points 0, 1
///     scf.for ... {           // op 1: points 2, 3; spans [2, 8)
///       linalg.fill           // op 2: points 4, 5
///       scf.yield             // op 3: points 6, 7
///     }
///     func.return             // op 4: points 8, 9
///   }
class ProgramPoints {
public:
  explicit ProgramPoints(Operation *root);

  int64_t readPoint(Operation *op) const {
    return 2 * index.lookup(numbered(op));
  }
  int64_t writePoint(Operation *op) const { return readPoint(op) + 1; }
  /// First point of `op`'s subtree and one past its last point.
  int64_t begin(Operation *op) const { return readPoint(op); }
  int64_t end(Operation *op) const {
    return 2 * (lastNested.lookup(numbered(op)) + 1);
  }
  /// One past the last point of the root.
  int64_t size() const { return 2 * numOps; }

private:
  void numberRegion(Region &region);
  /// `op` or its closest numbered ancestor.
  Operation *numbered(Operation *op) const;

  llvm::DenseMap<Operation *, int64_t> index;
  llvm::DenseMap<Operation *, int64_t> lastNested;
  int64_t numOps = 0;
};

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

/// The live range of each dsaplan.alloc in one function.
class BufferLifetimes {
public:
  explicit BufferLifetimes(Operation *function);

  const ProgramPoints &getPoints() const { return points; }
  /// Sorted, disjoint, non-empty intervals; empty when the buffer is never
  /// accessed.
  ArrayRef<PointInterval> getLiveRange(AllocOp alloc) const;
  /// The live range as the `live` attribute dsaplan.alloc carries.
  LiveAttr getLiveAttr(AllocOp alloc) const;
  /// Set when the range was widened to the whole function.
  const ConservativeUse *getConservativeUse(AllocOp alloc) const;

private:
  ProgramPoints points;
  llvm::DenseMap<Operation *, SmallVector<PointInterval, 2>> ranges;
  llvm::DenseMap<Operation *, ConservativeUse> conservative;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_BUFFERLIFETIMES_H
