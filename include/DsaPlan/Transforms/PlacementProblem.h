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

/// Builds the problem of `func`: every dsaplan.alloc must carry a live range;
/// an existing offset becomes a pin; separate/colocate operands must be
/// (views of) dsaplan.allocs. Emits an error on the offending op and fails
/// otherwise.
FailureOr<PlacementProblem> buildPlacementProblem(func::FuncOp func,
                                                  const TargetDescription &target);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PLACEMENTPROBLEM_H
