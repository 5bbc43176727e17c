//===- Pipeline.cpp - The --dsa-plan pass pipeline ------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/Pipeline.h"
#include "DsaPlan/Transforms/Passes.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

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

/// The option of `names` closest to the misspelled `key`, if one is close.
std::string closestOption(StringRef key, ArrayRef<std::string> names) {
  std::string best;
  unsigned bestDistance = std::max<unsigned>(2, key.size() / 3) + 1;
  for (const std::string &name : names) {
    unsigned distance = key.edit_distance(name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/// What the pass-options parser said about `text`, in the pipeline's terms:
/// MLIR names itself ("<Pass-Options-Parser>: no such option algoritm"), and
/// says nothing here about a refused value (llvm::cl has printed why on
/// stderr).
std::string describeOptionError(StringRef text, StringRef parserText) {
  StringRef message = parserText.trim();
  message.consume_front("<Pass-Options-Parser>: ");
  if (message.empty())
    return ("--dsa-plan=\"" + text + "\": a value is refused").str();
  if (!message.consume_front("no such option "))
    return ("--dsa-plan: " + message).str();
  SmallVector<std::string> names = getDsaPlanPipelineOptionNames();
  std::string error = ("--dsa-plan has no option '" + message + "'").str();
  std::string closest = closestOption(message, names);
  if (!closest.empty())
    error += " (did you mean '" + closest + "'?)";
  return error + "; its options: " + llvm::join(names, ", ");
}

} // namespace

SmallVector<std::string> mlir::dsaplan::getDsaPlanPipelineOptionNames() {
  // PassOptions lists its options only by printing them: {a=1 b=x ...}.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  DsaPlanPipelineOptions().print(os);
  SmallVector<StringRef> entries;
  StringRef(printed).trim("{}").split(entries, ' ', -1, false);
  SmallVector<std::string> names;
  for (StringRef entry : entries)
    names.push_back(entry.split('=').first.str());
  llvm::sort(names);
  return names;
}

LogicalResult mlir::dsaplan::parseDsaPlanPipelineOptions(
    StringRef text, DsaPlanPipelineOptions &options, std::string &error) {
  std::string parserText;
  llvm::raw_string_ostream os(parserText);
  if (succeeded(options.parseFromString(text, os)))
    return success();
  error = describeOptionError(text, parserText);
  return failure();
}

void mlir::dsaplan::registerDsaPlanDialects(DialectRegistry &registry) {
  registry.insert<DsaPlanDialect, affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  ub::UBDialect, vector::VectorDialect>();
}

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
  // PassPipelineRegistration, with the options parsed by
  // parseDsaPlanPipelineOptions for its messages.
  registerPassPipeline(
      "dsa-plan",
      "Place every on-chip tile at a fixed offset: lift-control-flow, import, "
      "rotate-carried, multi-buffer, compute-lifetimes, assign-offsets, "
      "materialize, settle-calls, insert-sync, verify-sync",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        DsaPlanPipelineOptions options;
        std::string error;
        if (failed(parseDsaPlanPipelineOptions(text, options, error)))
          return errorHandler(error);
        buildDsaPlanPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionsHandler) {
        optionsHandler(DsaPlanPipelineOptions());
      });
}
