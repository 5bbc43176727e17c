//===- ProgramPoints.h - The one numbering of a function's ops --*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The program points every report counts in: the live ranges of the
// placement (dsaplan-compute-lifetimes, the `live` attribute, the placement
// report and its memory maps) and the sync pictures of dsaplan-insert-sync.
// Each pass numbers the IR it has: there is no op identity carried from one
// pass to the next, so the memory maps that insert-sync draws count the
// points of its own input (the arenas and views of dsaplan-materialize, the
// clones of dsaplan-unroll-rotations), not the placement's.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_PROGRAMPOINTS_H
#define DSAPLAN_ANALYSIS_PROGRAMPOINTS_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir {
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
///
/// The numbering is of the IR as it was when constructed: an op created
/// later is not numbered (contains() says so), and must not be asked for.
class ProgramPoints {
public:
  explicit ProgramPoints(Operation *root);

  int64_t readPoint(Operation *op) const { return 2 * numbered(op).index; }
  int64_t writePoint(Operation *op) const { return readPoint(op) + 1; }
  /// First point of `op`'s subtree and one past its last point.
  int64_t begin(Operation *op) const { return readPoint(op); }
  int64_t end(Operation *op) const {
    return 2 * (numbered(op).lastNested + 1);
  }
  /// begin(op) and end(op), found with one look-up (readPoint is `begin`,
  /// writePoint `begin + 1`).
  struct Span {
    int64_t begin, end;
  };
  Span span(Operation *op) const {
    const Numbers &found = numbered(op);
    return {2 * found.index, 2 * (found.lastNested + 1)};
  }
  /// One past the last point of the root.
  int64_t size() const { return 2 * numOps; }
  /// Whether `op` or an ancestor was numbered: false for an op created
  /// after the numbering (a sync inserted since), whose ancestors were.
  bool contains(Operation *op) const;

private:
  /// An op's number and the last number of the ops nested in it.
  struct Numbers {
    int64_t index, lastNested;
  };

  void numberRegion(Region &region);
  /// The numbers of `op` or of its closest numbered ancestor.
  const Numbers &numbered(Operation *op) const;

  llvm::DenseMap<Operation *, Numbers> numbers;
  int64_t numOps = 0;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_PROGRAMPOINTS_H
