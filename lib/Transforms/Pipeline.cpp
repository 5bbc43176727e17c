//===- Pipeline.cpp - The --dsa-plan pass pipeline ------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/Pipeline.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {
/// The simulator's timing in the summary and the reports, when they are
/// asked for and the kernel is synchronised. GM is checked unless the
/// inserter leaves it to the toolchain (sync-mode=reuse-only).
void addSimulation(OpPassManager &pm, const DsaPlanPipelineOptions &options) {
  bool wanted = options.summary || !options.reportDir.empty() ||
                !options.traceFile.empty();
  if (!options.insertSync || !options.simulate || !wanted)
    return;
  DsaPlanSimulateOptions simulate;
  simulate.summary = options.summary;
  simulate.reportDir = options.reportDir;
  simulate.traceFile = options.traceFile;
  simulate.costs = options.simulateCosts;
  simulate.checkGm = options.syncMode != DependencyScope::ReuseOnly;
  pm.addPass(createDsaPlanSimulate(simulate));
}

} // namespace

void mlir::dsaplan::buildDsaPlanPipeline(
    OpPassManager &pm, const DsaPlanPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createDsaPlanLiftControlFlow());
  pm.addNestedPass<func::FuncOp>(createDsaPlanImport());
  pm.addNestedPass<func::FuncOp>(createDsaPlanRotateCarried());
  DsaPlanMultiBufferOptions multiBuffer;
  multiBuffer.summary = options.summary;
  // A second slot is weighed in the waits assign-offsets will count.
  multiBuffer.objective = options.objective;
  multiBuffer.costs = options.simulateCosts;
  pm.addNestedPass<func::FuncOp>(createDsaPlanMultiBuffer(multiBuffer));
  pm.addNestedPass<func::FuncOp>(createDsaPlanComputeLifetimes());
  DsaPlanAssignOffsetsOptions assign;
  assign.algorithm = options.algorithm;
  assign.nodeBudget = options.nodeBudget;
  assign.objective = options.objective;
  // The penalties count the waits in the cycles the simulation runs with.
  assign.costs = options.simulateCosts;
  assign.exportProblem = options.exportProblem;
  assign.exportSolution = options.exportSolution;
  assign.importSolution = options.importSolution;
  assign.summary = options.summary;
  assign.reportDir = options.reportDir;
  // insert-sync draws its syncs on the memory maps at the marked points.
  assign.markPoints = options.insertSync && !options.reportDir.empty();
  pm.addPass(createDsaPlanAssignOffsets(assign));
  DsaPlanMaterializeOptions materialize;
  materialize.keepAllocs = options.keepAllocs;
  pm.addNestedPass<func::FuncOp>(createDsaPlanMaterialize(materialize));
  if (options.insertSync) {
    if (options.unrollRotations)
      pm.addNestedPass<func::FuncOp>(createDsaPlanUnrollRotations());
    pm.addPass(createDsaPlanSettleCalls());
    DsaPlanInsertSyncOptions sync;
    sync.mode = options.syncMode;
    sync.pruneBudget = options.syncPruneBudget;
    sync.reportDir = options.reportDir;
    sync.summary = options.summary;
    pm.addNestedPass<func::FuncOp>(createDsaPlanInsertSync(sync));
  }
  // Verifying an unsynchronised kernel fails: without insert-sync the
  // verifier runs only when asked for.
  bool verify = options.verifySync.hasValue() ? bool(options.verifySync)
                                              : bool(options.insertSync);
  if (verify)
    pm.addNestedPass<func::FuncOp>(createDsaPlanVerifySync());
  addSimulation(pm, options);
}

void mlir::dsaplan::registerDsaPlanPipeline() {
  PassPipelineRegistration<DsaPlanPipelineOptions>(
      "dsa-plan",
      "Place every on-chip tile at a fixed offset: lift-control-flow, import, "
      "rotate-carried, multi-buffer, compute-lifetimes, assign-offsets, "
      "materialize, settle-calls, insert-sync, verify-sync",
      [](OpPassManager &pm, const DsaPlanPipelineOptions &options) {
        buildDsaPlanPipeline(pm, options);
      });
}
