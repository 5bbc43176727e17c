//===- Checker.h - Independent race check of pipe syncs --------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The static sync check. It shares no code with the inserter (lib/Sync/Insert)
// nor with the analyses (lib/Analysis): the build links it against the
// dialect and lib/Support only, so that a blind spot of the inserter cannot
// hide here too.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_VERIFY_CHECKER_H
#define DSAPLAN_SYNC_VERIFY_CHECKER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// Checks that every two conflicting accesses of `func` (same bytes, one a
/// write) are ordered by happens-before on every path, and that every flag
/// balances; emits an error on each op that breaks this (with a note at the
/// other op). `checked` counts the conflicting pairs checked. A declaration
/// succeeds with nothing checked.
LogicalResult verifySync(func::FuncOp func, unsigned &checked);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_VERIFY_CHECKER_H
