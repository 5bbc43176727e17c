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
  Option<PlacementObjective> objective{
      *this, "objective",
      llvm::cl::desc("What to optimise once every space fits"),
      llvm::cl::init(PlacementObjective::Waits),
      llvm::cl::values(
          clEnumValN(PlacementObjective::Waits, "waits",
                     "fewest cross-pipe waits (default)"),
          clEnumValN(PlacementObjective::Peak, "peak",
                     "smallest peak of each space"))};
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
  Option<bool> verifySync{
      *this, "verify-sync",
      llvm::cl::desc("Check the synchronisation with dsaplan-verify-sync"),
      llvm::cl::init(true)};
  Option<bool> keepAllocs{
      *this, "keep-allocs",
      llvm::cl::desc("Keep placed dsaplan.alloc ops instead of arena views"),
      llvm::cl::init(false)};
};

void buildDsaPlanPipeline(OpPassManager &pm,
                          const DsaPlanPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createDsaPlanImport());
  pm.addNestedPass<func::FuncOp>(createDsaPlanComputeLifetimes());
  DsaPlanAssignOffsetsOptions assign;
  assign.algorithm = options.algorithm;
  assign.nodeBudget = options.nodeBudget;
  assign.objective = options.objective;
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
    DsaPlanInsertSyncOptions sync;
    sync.mode = options.syncMode;
    sync.pruneBudget = options.syncPruneBudget;
    sync.reportDir = options.reportDir;
    sync.summary = options.summary;
    pm.addNestedPass<func::FuncOp>(createDsaPlanInsertSync(sync));
  }
  if (options.verifySync)
    pm.addNestedPass<func::FuncOp>(createDsaPlanVerifySync());
}
} // namespace

void mlir::dsaplan::registerDsaPlanPipeline() {
  PassPipelineRegistration<DsaPlanPipelineOptions>(
      "dsa-plan",
      "Place every on-chip tile at a fixed offset: import, compute-lifetimes, "
      "assign-offsets, materialize",
      buildDsaPlanPipeline);
}
