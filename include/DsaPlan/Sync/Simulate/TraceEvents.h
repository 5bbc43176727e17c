//===- TraceEvents.h - A simulated run as Chrome trace-event JSON -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Writes one simulated run (ExecutedRun) in the Trace Event Format that
// Perfetto (ui.perfetto.dev) and chrome://tracing open: a track per pipe,
// each op a complete event ("ph": "X") named after it, each set_flag and
// wait_flag a complete event on the pipe's sync track, and each set/wait
// pair a flow arrow ("ph": "s" on the set, "ph": "f" on the wait that took
// its signal, with one id). Timestamps are cycles (shown as microseconds).
// docs/sync.md "Reading the reports and the trace" says how to read it.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_SIMULATE_TRACEEVENTS_H
#define DSAPLAN_SYNC_SIMULATE_TRACEEVENTS_H

#include "DsaPlan/Sync/Simulate/Simulator.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace dsaplan {

/// Writes `run`, the run `stats` measured, of the function named `function`
/// as a trace-event JSON object. `stats` goes into "otherData" (makespan,
/// serial, ideal, busy cycles per pipe).
void writeChromeTrace(const ExecutedRun &run, const SimulationRun &stats,
                      llvm::StringRef function, llvm::raw_ostream &os);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_SIMULATE_TRACEEVENTS_H
