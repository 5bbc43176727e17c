//===- DsaPlanOps.h - dsaplan operations and interfaces ---------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLAN_DSAPLANOPS_H
#define DSAPLAN_DIALECT_DSAPLAN_DSAPLANOPS_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanInterfaces.h.inc"

#define GET_OP_CLASSES
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h.inc"

namespace mlir {
namespace dsaplan {

/// The pipe `op` runs on: its `dsaplan.pipe` attribute, else its
/// PipeOpInterface, else none.
std::optional<Pipe> getOpPipe(Operation *op);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_DIALECT_DSAPLAN_DSAPLANOPS_H
