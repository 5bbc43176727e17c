//===- SettledCalls.h - No flag in flight across a settled call -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A settled call's callee plans its own flags over the core's one set of
// flags, so none of the caller's may be in flight while it runs. The pairs
// the inserter places around an op that holds a settled call (an scf.if
// with the call in one branch, a loop whose pair spans the body) are
// parked: the flag is consumed before the call and raised again after it.
//
//   dsaplan.set_flag <mte3 -> v>, 0          dsaplan.set_flag <mte3 -> v>, 0
//   scf.if %c {                              scf.if %c {
//     dsaplan.barrier_all                      dsaplan.wait_flag <mte3 -> v>, 0
//     call @f() {dsaplan.settled}     =>       dsaplan.barrier_all
//     dsaplan.barrier_all                      call @f() {dsaplan.settled}
//   }                                          dsaplan.barrier_all
//   dsaplan.wait_flag <mte3 -> v>, 0           dsaplan.set_flag <mte3 -> v>, 0
//                                            }
//                                            dsaplan.wait_flag <mte3 -> v>, 0
//
// The barrier_all after the call orders the new set after the parking
// wait, so the flag's one bit is never raised twice; the later wait learns
// more than before (everything before the call), never less.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_SETTLEDCALLS_H
#define DSAPLAN_SYNC_INSERT_SETTLEDCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// Parks every flag in flight at a settled call of `func`; returns how many
/// (flag, call) pairs were parked.
unsigned parkFlagsAtSettledCalls(func::FuncOp func);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_SETTLEDCALLS_H
