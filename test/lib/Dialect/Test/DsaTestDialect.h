//===- DsaTestDialect.h - A foreign dialect for the sync tests --*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TEST_DSATESTDIALECT_H
#define DSAPLAN_TEST_DSATESTDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "DsaTestDialect.h.inc"

#define GET_OP_CLASSES
#include "DsaTestOps.h.inc"

#endif // DSAPLAN_TEST_DSATESTDIALECT_H
