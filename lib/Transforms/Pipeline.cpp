//===- Pipeline.cpp - The --dsa-plan pass pipeline ------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {
struct DsaPlanPipelineOptions
    : public PassPipelineOptions<DsaPlanPipelineOptions> {};
} // namespace

void mlir::dsaplan::registerDsaPlanPipeline() {
  PassPipelineRegistration<DsaPlanPipelineOptions>(
      "dsa-plan",
      "Place every on-chip tile at a fixed offset: import, lifetimes, "
      "offsets, materialize",
      [](OpPassManager &pm, const DsaPlanPipelineOptions &) {
        pm.addNestedPass<func::FuncOp>(createDsaPlanImport());
      });
}
