//===- ReportFiles.h - Per-function report files ----------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_REPORTFILES_H
#define DSAPLAN_SUPPORT_REPORTFILES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir {
namespace dsaplan {

/// Writes `dir/<function><suffix>`, creating `dir`; errors on `func`.
LogicalResult writeFunctionFile(func::FuncOp func, StringRef dir,
                                const Twine &suffix, const std::string &text);

/// The name reports give `func`'s placement problem and memory maps:
/// `module::function` in a named module, else the function's name.
std::string reportInstanceName(func::FuncOp func);

/// `file:line:col` for a file location (also inside a NameLoc), else the
/// location as MLIR prints it: where a report says a tile or an op comes
/// from.
std::string locationText(Location loc);

/// The name reports give `op`: its `name` attribute, else the name of a
/// NameLoc in its location (possibly inside a FusedLoc or CallSiteLoc);
/// null if it has neither. Materialize names each tile's view so.
///
///   %t = memref.view %ub[%c0][] : ... loc("a_ub"("k.mlir":4:8))  // "a_ub"
StringAttr findName(Operation *op);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_REPORTFILES_H
