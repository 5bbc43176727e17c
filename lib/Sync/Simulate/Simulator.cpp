//===- Simulator.cpp - Pipe-level execution of a synchronised kernel ------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The runs: each seed is one run of the three stages of Trace.h, each on
// the output of the one before:
//
//   buildTrace   the scalar unit (Interpreter.cpp, Values.cpp): interprets
//                the function and emits a trace entry per pipe op and sync
//                op, with the byte runs each op reads and writes;
//   timePipes    the pipes (Timing.cpp): an event-driven timing model of
//                in-order issue, flags of one bit and barriers; finds
//                overruns (lost signals), hangs and flags left set, and
//                records the order in which the entries took effect;
//   checkRaces   (RaceChecker.cpp) vector clocks over that order, and a
//                shadow of memory per byte range: conflicting accesses
//                that neither orders.
//
// The findings of all runs are merged here, each distinct one once, and
// the worst run is kept.
//
// Nothing in lib/Sync/Simulate includes or calls the inserter, the
// pruning, the verifier or lib/Analysis: agreement between this and them
// is evidence, not an echo.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulate/Simulator.h"
#include "Trace.h"

#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Sync/Simulate/IdealSchedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <set>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

SimulationRun simulateOnce(func::FuncOp func, const TargetDescription &target,
                           const SimulationOptions &options,
                           uint64_t seed,
                           std::vector<SimulationFinding> &findings,
                           ExecutedRun &executed) {
  SimulationRun stats;
  stats.seed = seed;
  Trace trace;
  for (unsigned unit = 0; unit < kNumUnits; ++unit)
    trace.inOrder[unit] = !target.needsBarrier(pipeOfUnit(unit));
  if (failed(buildTrace(func, target, options, seed, trace, findings))) {
    stats.errors = 1;
    return stats;
  }
  stats.traceLength = static_cast<int64_t>(trace.entries.size());
  stats.gaveUp = trace.gaveUp;
  if (trace.gaveUp) {
    SimulationFinding finding;
    finding.kind = FindingKind::GaveUp;
    finding.op = func;
    finding.message =
        "simulation gave up after " + std::to_string(options.maxTraceLength) +
        " trace entries (max-trace-length): the rest of the function was not "
        "run, and hangs and flags left set are not reported";
    findings.push_back(std::move(finding));
  }
  // Durations come from a stream apart from the scalar unit's choices.
  Timeline timeline;
  timePipes(trace, options.costs, seed, seed ^ 0x5deece66dULL, findings, stats,
            timeline);
  checkRaces(trace, timeline, seed, findings);
  executed = toExecutedRun(trace, timeline, seed);
  executed.pipeOverlap = options.costs.pipeOverlap;
  executed.inOrder = trace.inOrder;
  if (!timeline.hung && !trace.gaveUp)
    stats.ideal = idealMakespan(executed);
  stats.errors = llvm::count_if(
      findings, [](const SimulationFinding &f) { return f.isError(); });
  return stats;
}

bool worse(const SimulationRun &a, const SimulationRun &b) {
  return std::make_pair(a.errors, a.makespan) >
         std::make_pair(b.errors, b.makespan);
}

} // namespace

unsigned SimulationResult::count(FindingKind kind) const {
  return llvm::count_if(
      findings, [&](const SimulationFinding &f) { return f.kind == kind; });
}

bool SimulationResult::failed() const {
  return llvm::any_of(findings,
                      [](const SimulationFinding &f) { return f.isError(); });
}

SimulationResult mlir::dsaplan::simulate(func::FuncOp func,
                                         const SimulationOptions &options) {
  SimulationResult result;
  TargetDescription target = TargetDescription::getForOp(func);
  // Membership only: the findings keep the order in which they were found.
  std::set<std::tuple<int, Operation *, Operation *>> seen;
  for (unsigned k = 0; k < std::max(1u, options.runs); ++k) {
    std::vector<SimulationFinding> findings;
    ExecutedRun executed;
    SimulationRun run =
        simulateOnce(func, target, options, options.seed + k, findings,
                     executed);
    bool unsupported = false;
    for (SimulationFinding &finding : findings) {
      unsupported |= finding.kind == FindingKind::Unsupported;
      if (seen.insert({static_cast<int>(finding.kind), finding.op,
                       finding.other})
              .second)
        result.findings.push_back(std::move(finding));
    }
    if (k == 0 || worse(run, result.worst)) {
      result.worst = run;
      result.loops = loopOverlaps(executed);
      if (options.keepRun)
        result.executed = std::move(executed);
    }
    ++result.runs;
    if (unsupported)
      break; // every run would stop at the same op
  }
  return result;
}
