//===- CalledFunction.cpp - The func.func a call names --------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/CalledFunction.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;

func::FuncOp mlir::dsaplan::getCalledFunction(CallOpInterface call) {
  auto symbol = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
  if (!symbol)
    return {};
  return dyn_cast_if_present<func::FuncOp>(
      SymbolTable::lookupNearestSymbolFrom(call, symbol));
}
