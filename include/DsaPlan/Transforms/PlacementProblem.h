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

/// Reuse penalty of two tiles that different pipes touch (sharing bytes
/// makes a set/wait flag pair and the stall it implies), and of two tiles
/// that one pipe touches (a pipe_barrier at most; none for the scalar pipe).
inline constexpr int64_t kCrossPipeReuseCost = 4;
inline constexpr int64_t kSamePipeReuseCost = 1;
/// Spaces with more allocations get no penalties (the pairs are quadratic):
/// they are placed for the peak.
inline constexpr size_t kMaxPenalisedAllocs = 256;

/// Derives the reuse penalties of `pp` from the pipes that access each
/// allocation in `func` (through views, as the sync pass sees them) and
/// switches its objective to the reuse cost. Pairs live together get none:
/// they never share bytes.
void addReusePenalties(func::FuncOp func, PlacementProblem &pp);

/// Builds the problem of `func`: every dsaplan.alloc must carry a live range;
/// an existing offset becomes a pin; separate/colocate operands must be
/// (views of) dsaplan.allocs. Emits an error on the offending op and fails
/// otherwise.
FailureOr<PlacementProblem> buildPlacementProblem(func::FuncOp func,
                                                  const TargetDescription &target);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PLACEMENTPROBLEM_H
