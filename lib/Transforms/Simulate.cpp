//===- Simulate.cpp - Run a synchronised kernel pipe by pipe --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The pass around lib/Sync/Simulator: options in, diagnostics out. The
// simulator returns its findings rather than emitting them, so that the
// findings of several runs are reported once each, in the order found:
//
//   memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}     // note: the earlier access
//   linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a ...) ... // error: simulated race, ...
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulator.h"
#include "DsaPlan/Transforms/Passes.h"

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

/// "makespan 512 cycles; busy v 200, mte2 120; 12 ops, 6 flags set".
void emitSummary(func::FuncOp func, const SimulationResult &result) {
  const SimulationRun &worst = result.worst;
  InFlightDiagnostic diag = mlir::emitRemark(func.getLoc());
  diag << "@" << func.getSymName() << ": simulated " << result.runs
       << (result.runs == 1 ? " run" : " runs") << ", worst seed "
       << worst.seed << ": makespan " << worst.makespan << " cycles; busy";
  bool any = false;
  for (unsigned pipe = 0; pipe < kNumSimulatedPipes; ++pipe)
    if (worst.busy[pipe]) {
      diag << (any ? ", " : " ") << stringifyPipe(static_cast<Pipe>(pipe))
           << " " << worst.busy[pipe];
      any = true;
    }
  if (!any)
    diag << " none";
  diag << "; " << worst.opsExecuted << " ops, " << worst.flagsSet
       << " flags set; " << result.findings.size() << " findings"
       << (worst.gaveUp ? " (gave up: max-trace-length)" : "");
}

struct DsaPlanSimulatePass
    : public mlir::dsaplan::impl::DsaPlanSimulateBase<DsaPlanSimulatePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SimulationOptions options;
    options.seed = seed;
    options.runs = runs;
    options.maxTraceLength = maxTraceLength;
    options.maxWhileIterations = maxWhileIterations;
    options.checkGm = checkGm;
    options.argValues.assign(argValues.begin(), argValues.end());
    SimulationResult result = simulate(func, options);
    for (const SimulationFinding &finding : result.findings)
      emitFinding(finding);
    recordStatistics(result);
    if (summary)
      emitSummary(func, result);
    markAllAnalysesPreserved();
    if (result.failed())
      signalPassFailure();
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
