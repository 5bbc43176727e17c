//===- Report.h - The syncs of a function as JSON ---------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What dsaplan-insert-sync's report-dir holds besides the pictures
// (Pictures.h): `<function>.syncs.json`, every sync of the function in
// program order with the location of its op, in the schema
// docs/schemas/syncs.json describes:
//
//   {"schema_version": 1, "function": "matmul",
//    "syncs": [{"op": "set_flag", "src": "mte2", "dst": "v", "event": 0,
//               "location": "matmul.mlir:12:5"}, ...]}
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_REPORT_H
#define DSAPLAN_SYNC_INSERT_REPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// Writes `dir/<function>.syncs.json` for `func`.
LogicalResult writeSyncList(func::FuncOp func, StringRef dir);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_REPORT_H
