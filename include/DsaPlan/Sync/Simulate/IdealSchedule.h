//===- IdealSchedule.h - The dataflow ideal of a simulated run -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What a kernel could achieve if it were synchronised perfectly: the ops of
// a simulated run (ExecutedRun, concrete bytes and durations) scheduled
// again, each starting as soon as its pipe lets it issue and every earlier
// op whose bytes it truly conflicts with (same memory, overlapping bytes,
// one of the two a write) has finished, together with the ops of that op's
// pipe before it (no barrier or flag can hand an op over sooner). No flags, no barriers: the
// dependencies come from the bytes of this run, not from the sync passes,
// which this file neither includes nor calls. makespan / ideal is what the
// syncs cost.
//
// Also the per-loop overlap of a run: how many cycles of work a loop did
// per cycle of its span.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_SIMULATE_IDEALSCHEDULE_H
#define DSAPLAN_SYNC_SIMULATE_IDEALSCHEDULE_H

#include "DsaPlan/Sync/Simulate/Simulator.h"

#include <vector>

namespace mlir {
namespace dsaplan {

/// The makespan of `run`'s ops under the dataflow schedule: in program order
/// per pipe, an op issues a cycle after its pipe's previous op (S, and every
/// pipe without `run.pipeOverlap`: when it has finished) and starts once
/// every earlier conflicting op has been handed over, i.e. that op and every
/// op of its pipe before it have finished (what any barrier or flag after
/// it waits for), with the durations the run gave them. Ops that never ran
/// are skipped.
int64_t idealMakespan(const ExecutedRun &run);

/// Per `scf.for`/`scf.while` op whose body ran pipe ops, outermost and
/// earliest first: the sum of the durations of the ops it contains (over all
/// its iterations) and the cycles from the first one's start to the last
/// one's end.
std::vector<LoopOverlap> loopOverlaps(const ExecutedRun &run);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_SIMULATE_IDEALSCHEDULE_H
