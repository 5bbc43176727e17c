//===- Simulate.cpp - Run a synchronised kernel pipe by pipe --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The pass around lib/Sync/Simulate: options in, diagnostics out. The
// simulator returns its findings rather than emitting them, so that the
// findings of several runs are reported once each, in the order found:
//
//   memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}     // note: the earlier access
//   linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a ...) ... // error: simulated race, ...
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/CalledFunction.h"
#include "DsaPlan/Support/ReportFiles.h"

#include "DsaPlan/Sync/Simulate/Simulator.h"
#include "DsaPlan/Sync/Simulate/SlowLoops.h"
#include "DsaPlan/Sync/Simulate/TraceEvents.h"
#include "DsaPlan/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANSIMULATE
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

void emitFinding(const SimulationFinding &finding) {
  InFlightDiagnostic diag = finding.isError()
                                ? finding.op->emitError(finding.message)
                                : finding.op->emitWarning(finding.message);
  if (finding.other)
    diag.attachNote(finding.other->getLoc()) << finding.note;
}

/// "1.23": a ratio for the summary, "-" when the denominator is zero.
std::string ratio(int64_t num, int64_t den) {
  if (den == 0)
    return "-";
  return llvm::formatv("{0:F2}", static_cast<double>(num) / den).str();
}

/// "12:5" of a loop, or its op name when it has no file location.
std::string loopName(Operation *loop) {
  if (auto file = dyn_cast<FileLineColLoc>(loop->getLoc()))
    return (Twine(file.getLine()) + ":" + Twine(file.getColumn())).str();
  return loop->getName().getStringRef().str();
}

/// "serial 750, ideal 400 cycles: makespan / serial 0.86, ...; loop 12:5
/// 700 cycles of work in 600 (1.17x overlap)".
void emitTiming(InFlightDiagnostic &diag, const SimulationResult &result) {
  const SimulationRun &worst = result.worst;
  diag << "; serial " << worst.serial << " cycles";
  if (worst.ideal)
    diag << ", dataflow ideal " << worst.ideal << ": makespan / serial "
         << ratio(worst.makespan, worst.serial) << ", ideal / serial "
         << ratio(worst.ideal, worst.serial) << ", makespan / ideal "
         << ratio(worst.makespan, worst.ideal);
  // One pass over the run explains every slow loop: made at the first.
  std::optional<SlowLoops> slowLoops;
  for (const LoopOverlap &loop : result.loops) {
    diag << "; loop " << loopName(loop.loop) << ": " << loop.serial
         << " cycles of work in " << loop.span << " ("
         << ratio(loop.serial, loop.span) << "x overlap";
    // Below kSlowLoopOverlap, the summary says what held the loop back.
    if (!result.executed.entries.empty() &&
        loop.serial < kSlowLoopOverlap * loop.span) {
      if (!slowLoops)
        slowLoops.emplace(result.executed);
      diag << "; " << slowLoops->explain(loop.loop);
    }
    diag << ")";
  }
}

/// "makespan 512 cycles; busy v 200, mte2 120; 12 ops, 6 flags set".
void emitSummary(func::FuncOp func, const SimulationResult &result) {
  const SimulationRun &worst = result.worst;
  InFlightDiagnostic diag = mlir::emitRemark(func.getLoc());
  diag << "@" << func.getSymName() << ": simulated " << result.runs
       << (result.runs == 1 ? " run" : " runs") << ", worst seed "
       << worst.seed << ": makespan " << worst.makespan << " cycles; busy";
  bool any = false;
  for (unsigned pipe = 0; pipe < kNumUnits; ++pipe)
    if (worst.busy[pipe]) {
      diag << (any ? ", " : " ") << unitName(pipe)
           << " " << worst.busy[pipe];
      any = true;
    }
  if (!any)
    diag << " none";
  diag << "; " << worst.opsExecuted << " ops, " << worst.flagsSet
       << " flags set; " << result.findings.size() << " findings"
       << (worst.gaveUp ? " (gave up: max-trace-length)" : "");
  emitTiming(diag, result);
}

/// `<function>.timing.json`: what the summary says, as numbers.
std::string timingReport(func::FuncOp func, const SimulationResult &result) {
  const SimulationRun &worst = result.worst;
  llvm::json::Object busy;
  for (unsigned pipe = 0; pipe < kNumUnits; ++pipe)
    if (worst.busy[pipe])
      busy[unitName(pipe)] = worst.busy[pipe];
  llvm::json::Array loops;
  for (const LoopOverlap &loop : result.loops)
    loops.push_back(llvm::json::Object{{"loop", loopName(loop.loop)},
                                       {"op", loop.loop->getName()
                                                  .getStringRef()},
                                       {"serial", loop.serial},
                                       {"span", loop.span}});
  // docs/schemas/timing.json is the schema of this version.
  llvm::json::Object report{
      {"schema_version", 1},
      {"function", func.getSymName()},
      {"runs", result.runs},
      {"seed", static_cast<int64_t>(worst.seed)},
      {"makespan", worst.makespan},
      {"serial", worst.serial},
      {"ideal", worst.ideal},
      {"busy", std::move(busy)},
      {"ops", worst.opsExecuted},
      {"flags_set", worst.flagsSet},
      {"findings", static_cast<int64_t>(result.findings.size())},
      {"loops", std::move(loops)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
  return text;
}

struct DsaPlanSimulatePass
    : public mlir::dsaplan::impl::DsaPlanSimulateBase<DsaPlanSimulatePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SimulationOptions options;
    options.seed = seed;
    options.runs = runs;
    options.maxTraceLength = maxTraceLength;
    options.maxWhileIterations = maxWhileIterations;
    options.checkGm = checkGm;
    options.argValues.assign(argValues.begin(), argValues.end());
    SmallVector<func::FuncOp> entries = getEntryFunctions(module);
    std::string error;
    if (!options.costs.applyOverrides(costs, error)) {
      for (func::FuncOp func : entries)
        func.emitError() << "dsaplan-simulate: " << error;
      return signalPassFailure();
    }
    // The summary reads the worst run for the causes of slow loops.
    options.keepRun = !traceFile.empty() || !reportDir.empty() || summary;
    bool failedAny = false;
    for (func::FuncOp func : entries)
      failedAny |= failed(simulateFunction(func, options, entries.size()));
    markAllAnalysesPreserved();
    if (failedAny)
      signalPassFailure();
  }

  /// The functions a run starts from: those with a body that no function
  /// of the module calls. A callee runs where it is called, with its
  /// caller's bytes behind its arguments.
  static SmallVector<func::FuncOp> getEntryFunctions(ModuleOp module) {
    llvm::DenseSet<Operation *> called;
    module.walk([&](CallOpInterface call) {
      if (func::FuncOp callee = getCalledFunction(call))
        called.insert(callee);
    });
    SmallVector<func::FuncOp> entries;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !called.contains(func))
        entries.push_back(func);
    return entries;
  }

  LogicalResult simulateFunction(func::FuncOp func,
                                 const SimulationOptions &options,
                                 size_t entries) {
    if (!traceFile.empty() && failed(checkTraceFile(func, entries)))
      return failure();
    SimulationResult result = simulate(func, options);
    for (const SimulationFinding &finding : result.findings)
      emitFinding(finding);
    recordStatistics(result);
    if (summary)
      emitSummary(func, result);
    if (failed(writeFiles(func, result)) || result.failed())
      return failure();
    return success();
  }

  /// Without `{func}` the path names one file: with several entry
  /// functions they would overwrite each other.
  LogicalResult checkTraceFile(func::FuncOp func, size_t entries) {
    if (StringRef(traceFile).contains("{func}") || entries <= 1)
      return success();
    return func.emitError()
           << "dsaplan-simulate: trace-file '" << traceFile
           << "' would be written by each of the " << entries
           << " functions of the module; put {func} in the path";
  }

  LogicalResult writeFiles(func::FuncOp func, const SimulationResult &result) {
    if (traceFile.empty() && reportDir.empty())
      return success();
    std::string trace;
    llvm::raw_string_ostream os(trace);
    writeChromeTrace(result.executed, result.worst, func.getSymName(), os);
    if (!reportDir.empty() &&
        (failed(writeFunctionFile(func, reportDir, ".timing.json",
                                  timingReport(func, result))) ||
         failed(writeFunctionFile(func, reportDir, ".trace.json", trace))))
      return failure();
    if (traceFile.empty())
      return success();
    std::string path = traceFile;
    for (size_t at; (at = path.find("{func}")) != std::string::npos;)
      path.replace(at, 6, func.getSymName().str());
    // Like report-dir, the path's missing directories are created.
    StringRef parent = llvm::sys::path::parent_path(path);
    std::error_code ec;
    if (!parent.empty())
      ec = llvm::sys::fs::create_directories(parent);
    if (ec)
      return func.emitError() << "dsaplan-simulate: cannot create the "
                              << "directory '" << parent << "' of '" << path
                              << "': " << ec.message();
    llvm::raw_fd_ostream file(path, ec);
    if (ec)
      return func.emitError() << "dsaplan-simulate: cannot write '" << path
                              << "': " << ec.message();
    file << trace;
    return success();
  }

  void recordStatistics(const SimulationResult &result) {
    numOps += result.worst.opsExecuted;
    numRaces += result.count(FindingKind::Race);
    numOverruns += result.count(FindingKind::Overrun);
    numHangs += result.count(FindingKind::Hang);
    numUnwaited += result.count(FindingKind::Unwaited);
    numGaveUp += result.count(FindingKind::GaveUp) ? 1 : 0;
    maxMakespan.updateMax(result.worst.makespan);
  }
};

} // namespace
