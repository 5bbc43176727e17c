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
/// The options of `--dsa-plan`, forwarded to the passes that own them.
struct DsaPlanPipelineOptions
    : public PassPipelineOptions<DsaPlanPipelineOptions> {
  Option<std::string> algorithm{
      *this, "algorithm",
      llvm::cl::desc("Solver algorithm: bump, first-fit, best-fit, "
                     "multi-start, exact, auto"),
      llvm::cl::init("auto")};
  Option<uint64_t> nodeBudget{
      *this, "node-budget",
      llvm::cl::desc("Branch-and-bound nodes per space"),
      llvm::cl::init(2000000)};
  Option<std::string> exportProblem{
      *this, "export-problem",
      llvm::cl::desc("Directory to write each function's problem to")};
  Option<std::string> exportSolution{
      *this, "export-solution",
      llvm::cl::desc("Directory to write each function's solution to")};
  Option<std::string> importSolution{
      *this, "import-solution",
      llvm::cl::desc("schema-v1 solution (file or directory) to apply")};
  Option<bool> summary{
      *this, "summary",
      llvm::cl::desc("Remark per function and space: peak, lower bound"),
      llvm::cl::init(false)};
  Option<std::string> reportDir{
      *this, "report-dir",
      llvm::cl::desc("Directory for memory-map SVGs and JSON reports")};
  Option<std::string> syncMode{
      *this, "sync-mode",
      llvm::cl::desc("dsaplan-insert-sync mode: all or reuse-only"),
      llvm::cl::init("all")};
  Option<int64_t> syncPruneBudget{
      *this, "sync-prune-budget",
      llvm::cl::desc("dsaplan-insert-sync prune-budget: ops the checks that "
                     "drop implied syncs may walk (0: never)"),
      llvm::cl::init(500000)};
  Option<bool> insertSync{
      *this, "insert-sync",
      llvm::cl::desc("Insert set_flag/wait_flag/pipe_barrier"),
      llvm::cl::init(true)};
  Option<bool> unrollRotations{
      *this, "unroll-rotations",
      llvm::cl::desc("Unroll loops whose tiles rotate through iter_args by "
                     "the rotation period before inserting syncs"),
      llvm::cl::init(true)};
  Option<bool> verifySync{
      *this, "verify-sync",
      llvm::cl::desc("Check the synchronisation with dsaplan-verify-sync"),
      llvm::cl::init(true)};
  Option<bool> simulate{
      *this, "simulate",
      llvm::cl::desc("With summary, report-dir or trace-file: run "
                     "dsaplan-simulate on the result and report its makespan, "
                     "serial time, dataflow ideal and loop overlap"),
      llvm::cl::init(true)};
  Option<std::string> simulateCosts{
      *this, "simulate-costs",
      llvm::cl::desc("dsaplan-simulate costs: overrides of the target's "
                     "cycle estimates")};
  Option<std::string> traceFile{
      *this, "trace-file",
      llvm::cl::desc("Write the simulated run as Chrome trace-event JSON "
                     "({func} is replaced by the function name)")};
  Option<bool> keepAllocs{
      *this, "keep-allocs",
      llvm::cl::desc("Keep placed dsaplan.alloc ops instead of arena views"),
      llvm::cl::init(false)};
};

/// The simulator's timing in the summary and the reports, when they are
/// asked for and the kernel is synchronised. GM is not checked: the
/// inserter orders only the on-chip spaces.
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
  simulate.checkGm = false;
  pm.addNestedPass<func::FuncOp>(createDsaPlanSimulate(simulate));
}

void buildDsaPlanPipeline(OpPassManager &pm,
                          const DsaPlanPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createDsaPlanImport());
  DsaPlanMultiBufferOptions multiBuffer;
  multiBuffer.summary = options.summary;
  pm.addNestedPass<func::FuncOp>(createDsaPlanMultiBuffer(multiBuffer));
  pm.addNestedPass<func::FuncOp>(createDsaPlanComputeLifetimes());
  DsaPlanAssignOffsetsOptions assign;
  assign.algorithm = options.algorithm;
  assign.nodeBudget = options.nodeBudget;
  assign.exportProblem = options.exportProblem;
  assign.exportSolution = options.exportSolution;
  assign.importSolution = options.importSolution;
  assign.summary = options.summary;
  assign.reportDir = options.reportDir;
  pm.addPass(createDsaPlanAssignOffsets(assign));
  DsaPlanMaterializeOptions materialize;
  materialize.keepAllocs = options.keepAllocs;
  pm.addNestedPass<func::FuncOp>(createDsaPlanMaterialize(materialize));
  if (options.insertSync) {
    if (options.unrollRotations)
      pm.addNestedPass<func::FuncOp>(createDsaPlanUnrollRotations());
    DsaPlanInsertSyncOptions sync;
    sync.mode = options.syncMode;
    sync.pruneBudget = options.syncPruneBudget;
    sync.reportDir = options.reportDir;
    sync.summary = options.summary;
    pm.addNestedPass<func::FuncOp>(createDsaPlanInsertSync(sync));
  }
  if (options.verifySync)
    pm.addNestedPass<func::FuncOp>(createDsaPlanVerifySync());
  addSimulation(pm, options);
}
} // namespace

void mlir::dsaplan::registerDsaPlanPipeline() {
  PassPipelineRegistration<DsaPlanPipelineOptions>(
      "dsa-plan",
      "Place every on-chip tile at a fixed offset: import, compute-lifetimes, "
      "assign-offsets, materialize",
      buildDsaPlanPipeline);
}
