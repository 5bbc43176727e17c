//===- CalledFunction.h - The func.func a call names ------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The one lookup from a call to its callee that the placement, the settling
// of calls and the simulator share.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_CALLEDFUNCTION_H
#define DSAPLAN_SUPPORT_CALLEDFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir {
namespace dsaplan {

/// The func.func in `call`'s symbol scope that `call` names, or null for an
/// indirect call or a callee that is not a func.func. A function pass must
/// not use it on another function's body (see dsaplan-settle-calls).
func::FuncOp getCalledFunction(CallOpInterface call);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_CALLEDFUNCTION_H
