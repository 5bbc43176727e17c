//===- Pipeline.h - The --dsa-plan pass pipeline ----------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The whole placement pipeline as one call, for toolchains that build their
// own pass manager:
//
//   DsaPlanPipelineOptions options;
//   options.algorithm = ::dsaplan::solver::Algorithm::Exact;
//   buildDsaPlanPipeline(pm, options);
//
// `dsa-opt --dsa-plan="..."` parses the same options from text.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PIPELINE_H
#define DSAPLAN_TRANSFORMS_PIPELINE_H

#include "DsaPlan/Transforms/PassOptions.h"
#include "DsaPlan/Transforms/PlacementObjective.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace dsaplan {

/// The options of `--dsa-plan`, forwarded to the passes that own them.
struct DsaPlanPipelineOptions
    : public PassPipelineOptions<DsaPlanPipelineOptions> {
  Option<::dsaplan::solver::Algorithm> algorithm{
      *this, "algorithm", llvm::cl::desc("Solver algorithm"),
      llvm::cl::init(::dsaplan::solver::Algorithm::Auto), algorithmValues()};
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
  Option<DependencyScope> syncMode{
      *this, "sync-mode",
      llvm::cl::desc("Which dependencies dsaplan-insert-sync orders"),
      llvm::cl::init(DependencyScope::All), dependencyScopeValues()};
  Option<int64_t> syncPruneBudget{
      *this, "sync-prune-budget",
      llvm::cl::desc("dsaplan-insert-sync prune-budget: ops the checks that "
                     "drop implied syncs and move loop pairs and pre-sets "
                     "may walk (0: never)"),
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
  Option<bool> simulate{
      *this, "simulate",
      llvm::cl::desc("With summary, report-dir or trace-file: run "
                     "dsaplan-simulate on the result and report its makespan, "
                     "serial time, dataflow ideal and loop overlap"),
      llvm::cl::init(true)};
  Option<std::string> simulateCosts{
      *this, "simulate-costs",
      llvm::cl::desc("dsaplan-simulate costs: overrides of the target's "
                     "cycle estimates (also the cycles of the reuse "
                     "penalties of objective=waits)")};
  Option<std::string> traceFile{
      *this, "trace-file",
      llvm::cl::desc("Write the simulated run as Chrome trace-event JSON "
                     "({func} is replaced by the function name)")};
  Option<bool> verifySync{
      *this, "verify-sync",
      llvm::cl::desc("Check the synchronisation with dsaplan-verify-sync "
                     "(default: when insert-sync is on)"),
      llvm::cl::init(true)};
  Option<bool> keepAllocs{
      *this, "keep-allocs",
      llvm::cl::desc("Keep placed dsaplan.alloc ops instead of arena views"),
      llvm::cl::init(false)};
};

/// Parses `--dsa-plan`'s option text ("algorithm=exact summary=true") into
/// `options`. On failure `error` says what is wrong in the pipeline's terms:
/// a misspelled option is named with the closest one and every option of
/// `--dsa-plan` is listed. dsa-opt and the Python module both parse so.
LogicalResult parseDsaPlanPipelineOptions(StringRef text,
                                          DsaPlanPipelineOptions &options,
                                          std::string &error);

/// The names of `--dsa-plan`'s options, sorted.
SmallVector<std::string> getDsaPlanPipelineOptionNames();

/// The dialects kernels are written in (func, scf, cf, memref, arith,
/// linalg, vector, math, affine, bufferization, ub) and dsaplan: what a
/// driver of the pipeline registers.
void registerDsaPlanDialects(DialectRegistry &registry);

/// Adds the passes of `--dsa-plan` to `pm`, which must run on a module:
/// lift-control-flow, import, rotate-carried, multi-buffer, compute-lifetimes, assign-offsets, materialize, and unless
/// switched off insert-sync and verify-sync.
void buildDsaPlanPipeline(OpPassManager &pm,
                          const DsaPlanPipelineOptions &options);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PIPELINE_H
