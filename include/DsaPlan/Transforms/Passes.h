//===- Passes.h - dsaplan passes --------------------------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PASSES_H
#define DSAPLAN_TRANSFORMS_PASSES_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Transforms/PassOptions.h"
#include "DsaPlan/Transforms/PlacementObjective.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace dsaplan {

#define GEN_PASS_DECL
#include "DsaPlan/Transforms/Passes.h.inc"

/// Registers `--dsa-plan`: the whole placement pipeline.
void registerDsaPlanPipeline();

#define GEN_PASS_REGISTRATION
#include "DsaPlan/Transforms/Passes.h.inc"

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PASSES_H
