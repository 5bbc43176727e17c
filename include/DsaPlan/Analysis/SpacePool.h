//===- SpacePool.h - A memory space as the solver's pool --------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What the IR-free solver sees of one on-chip memory space of the target:
// its capacity, alignment and reserved ranges. The placement builds its
// problem from these pools, and the sync pictures draw the placed tiles on
// the same pools, so both describe a space the same way.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_SPACEPOOL_H
#define DSAPLAN_ANALYSIS_SPACEPOOL_H

#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Problem.h"

namespace mlir {
namespace dsaplan {

/// The pool of `space` on `target`, named after the space:
///
///   UB on the 910B  ->  Pool{id = name = "ub", capacity = 196608, ...}
::dsaplan::solver::Pool getSpacePool(MemorySpace space,
                                     const TargetDescription &target);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_SPACEPOOL_H
