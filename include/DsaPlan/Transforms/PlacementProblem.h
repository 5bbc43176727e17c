//===- PlacementProblem.h - From a function to a solver Problem -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The bridge between the IR and the IR-free solver: one solver::Problem per
// function, one pool per used memory space, one buffer per dsaplan.alloc.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PLACEMENTPROBLEM_H
#define DSAPLAN_TRANSFORMS_PLACEMENTPROBLEM_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Problem.h"
#include "DsaPlan/Transforms/PlacementObjective.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// The IR-free solver lives in ::dsaplan::solver (it has no MLIR dependency).
namespace solver = ::dsaplan::solver;

struct PlacementProblem {
  solver::Problem problem;
  /// allocs[i] is problem.buffers[i].
  SmallVector<AllocOp> allocs;
  /// spaces[p] is problem.pools[p].
  SmallVector<MemorySpace> spaces;
};

/// Reuse penalty of two tiles that only one pipe orders (a pipe_barrier;
/// none for the scalar pipe). A pair that different pipes touch costs the
/// cycles of the op the reuse would wait for (addReusePenalties), which the
/// cost model never puts below 1.
inline constexpr int64_t kSamePipeReuseCost = 1;
/// Spaces with more allocations get no penalties (the pairs are quadratic):
/// they are placed for the peak.
inline constexpr size_t kMaxPenalisedAllocs = 256;

/// Derives the reuse penalties of `pp` from the ops that access each
/// allocation in `func` (through views, as the sync pass sees them) and
/// switches its objective to the reuse cost. A pair never live together
/// costs the wait a reuse of bytes would cause, in cycles of the target's
/// cost model: the longest op of the earlier tile that a conflicting access
/// of the later one on another pipe waits for, else kSamePipeReuseCost for
/// a barrier; both orders when one loop body allocates both. Pairs live
/// together get none: they never share bytes.
void addReusePenalties(func::FuncOp func, PlacementProblem &pp,
                       const TargetDescription &target,
                       const CostModel &costs);

/// The wait of a tile allocated in a loop body that keeps one slot: the
/// next iteration's tile reuses the bytes of this one's, so it costs what
/// addReusePenalties gives a pair of tiles, with the tile on both sides
/// (the longest op of one iteration that a conflicting access of the next
/// on another pipe waits for; kSamePipeReuseCost for a barrier; 0 when
/// nothing conflicts). What a second rotating slot saves:
///
///   %x = dsaplan.alloc   // MTE2 writes it (544 cycles), V reads it (less)
///   // one slot: the pipes of two iterations wait on each other: 544
int64_t getOneSlotWait(func::FuncOp func, AllocOp alloc,
                       const TargetDescription &target,
                       const CostModel &costs);

/// Builds the problem of `func`: every dsaplan.alloc must carry a live range;
/// an existing offset becomes a pin; separate/colocate operands must be
/// (views of) dsaplan.allocs. Emits an error on the offending op and fails
/// otherwise.
FailureOr<PlacementProblem> buildPlacementProblem(func::FuncOp func,
                                                  const TargetDescription &target);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PLACEMENTPROBLEM_H
