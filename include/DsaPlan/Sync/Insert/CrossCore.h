//===- CrossCore.h - Cross-core flag pairs of a mixed kernel ----*- C++ -*-===//
//
// Part of dsaplan. The inserter's cross-core job (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//
//
// A function holding ops of the cube core and of the vector core runs on
// both: each core runs its control flow and its own ops, and the two meet
// only in GM. A dependency between an access of one core and one of the
// other (the cube's FIX store of a workspace slot and the vector core's
// MTE2 load of it) is ordered by a cross-core flag pair: the producing core
// sets, on the producer's pipe, after the producer; the consuming core
// waits, which holds all of its pipes, before the consumer. The pairs are
// placed as the intra-core ones are: in the innermost block holding both
// ops, or, around the back edge of an scf.for, with a set before the loop
// and a wait after it so that the counter balances for any trip count:
//
//   dsaplan.cross_core_set vector <mte2>, mode 2, id 0   // slot 0 is free
//   scf.for ... {
//     dsaplan.cross_core_wait cube, mode 2, id 0         // WAR on slot 0
//     memref.copy %acc, %ws0 {fix}
//     dsaplan.cross_core_set cube <fix>, mode 2, id 0
//     dsaplan.cross_core_wait vector, mode 2, id 0       // RAW on slot 0
//     memref.copy %ws0, %x {mte2}
//     dsaplan.cross_core_set vector <mte2>, mode 2, id 0
//     ...
//   }
//   dsaplan.cross_core_wait cube, mode 2, id 0           // drain
//
// Each core has a counter per id, so the two directions number their ids
// apart; a pair keeps its id for the whole function (the target's 11).
//
// A counter holds 15 signals: a producer must not run more iterations ahead
// of its consumer. The dependency analysis takes GM bytes reused by the
// next iteration as a dependency around the back edge (it does not tell a
// slot's iterations apart), so every slot a loop writes on one core and
// reads on the other gets a pair each way, and the producer stays within
// an iteration of the consumer. Were the analysis to separate iterations,
// a loop with pairs one way only would need a credit pair back.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_CROSSCORE_H
#define DSAPLAN_SYNC_INSERT_CROSSCORE_H

#include "DsaPlan/Sync/Insert/Plan.h"

namespace mlir {
namespace dsaplan {
namespace sync {

/// Core `from` sets flag `id` on `pipe` after op number `after` of `block`;
/// core `to` waits for it before op number `before`. With `loop` (an
/// scf.for whose body is `block`) the wait is in the next iteration, and
/// the pair is also set before the loop and waited after it.
struct CrossCorePair {
  Block *block = nullptr;
  Operation *loop = nullptr;
  unsigned after = 0, before = 0;
  Core from = Core::cube, to = Core::vector;
  Pipe pipe = Pipe::fix;
  int64_t id = -1;
};

struct CrossCorePlan {
  SmallVector<CrossCorePair> pairs;
  unsigned numDependencies = 0;
};

/// The pairs that order `requirements.crossCore`, without those another
/// pair implies, each with an id. An error on the function when a dependency has no
/// place for a pair (two regions of one op, an scf.while back edge, a
/// producer on pipe s) or the ids run out.
FailureOr<CrossCorePlan>
planCrossCoreSyncs(func::FuncOp func, const TargetDescription &target,
                   const ProgramOrder &order,
                   const SyncRequirements &requirements);

/// Creates the ops of `plan` (Codegen.cpp): mode 2 sets and waits.
void createCrossCoreOps(func::FuncOp func, const ProgramOrder &order,
                        const CrossCorePlan &plan);

} // namespace sync
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_CROSSCORE_H
