//===- Timing.cpp - The simulator's pipes: timing, flags, hangs -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// An event-driven timing model of the pipes of each core: in-order issue
// with seeded durations, flags of one bit, barriers and the cross-core
// counters. It finds the errors that show in time rather than in bytes: a
// set that fires while its flag is still set, or a cross-core signal past
// the counter's limit (an overrun: the signal is lost), a pipe blocked for
// ever on a wait or a barrier_all (a hang), a flag still set or a counter
// still holding signals at the end (never waited for); and it records the
// order in which the entries took effect, for the race check.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/ADT/DenseSet.h"

#include <deque>
#include <map>
#include <queue>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

///  - an op starts at the pipe's issue time and runs for its duration; the
///    next entry may issue a cycle later (V, M, MTE1/2/3 and FIX issue
///    without waiting for the op to finish; S waits, it runs in order);
///  - pipe_barrier holds the pipe until its earlier ops have finished;
///  - set_flag fires once the pipe's earlier ops have finished (without
///    holding the pipe); a flag is one bit, a set that fires while it is
///    still set is an overrun: that signal is lost;
///  - wait_flag holds its pipe until the flag is set, then clears it; a
///    wait that was blocked goes on the cycle after the flag fired;
///  - cross_core_set fires like set_flag and adds a signal to the other
///    core's counter (at most the target's limit: one more is an overrun);
///    cross_core_wait holds every pipe of its core from when they have all
///    been issued what comes before it until the counter has a signal, and
///    takes the oldest.
/// Events are taken in time order.
class PipeSimulator {
public:
  PipeSimulator(const Trace &trace, const CostModel &costs, uint64_t seed,
                uint64_t runSeed, std::vector<SimulationFinding> &findings,
                SimulationRun &stats);
  void run(Timeline &timeline);

private:
  struct PipeState {
    std::vector<int64_t> entries;
    size_t cursor = 0;
    int64_t maxEnd = 0;  // when the ops issued so far have finished
    int64_t busyEnd = 0; // end of the busy time counted so far
  };
  struct Flag {
    int64_t setter = -1; // the set whose signal the bit holds, -1: clear
    int64_t waiter = -1; // the wait blocked on it
  };
  /// A barrier_all (or a cross_core_wait) being reached by the pipes of its
  /// core: by how many, and when the last of their earlier ops finishes (a
  /// cross_core_wait: when the last of them reached it).
  struct Rendezvous {
    unsigned arrived = 0;
    int64_t ready = 0;
  };
  /// A cross-core counter: the sets whose signals it holds, oldest first,
  /// and the cross_core_wait its core is held at, if any.
  struct Counter {
    std::deque<int64_t> signals;
    int64_t waiter = -1;
  };
  /// (time, kind, sequence, pipe or entry): at one time, issues first,
  /// then waits waking up, then flags firing.
  using Event = std::tuple<int64_t, int, int64_t, int64_t>;
  enum { kIssue = 0, kWake = 1, kFire = 2, kCrossWake = 3 };

  void issue(unsigned pipe, int64_t time);
  void issueOp(PipeState &state, int64_t entry, int64_t time);
  void arrive(PipeState &state, int64_t entry, int64_t time);
  void fire(int64_t set, int64_t time);
  void pass(int64_t wait, int64_t time);
  void arriveCrossWait(PipeState &state, int64_t entry, int64_t time);
  void fireCross(int64_t set, int64_t time);
  void passCross(int64_t wait, int64_t time);
  void reportCounters();
  void schedule(unsigned pipe, int64_t time);
  void finish();

  const Trace &trace;
  int64_t syncLatency;
  bool pipeOverlap;
  uint64_t seed;
  std::vector<SimulationFinding> &findings;
  SimulationRun &stats;
  std::vector<int64_t> durations;
  std::array<PipeState, kNumUnits> pipes;
  std::map<FlagKey, Flag> flags;
  std::map<FlagKey, Counter> counters;
  DenseMap<int64_t, Rendezvous> rendezvous;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  int64_t sequence = 0;
  Timeline *timeline = nullptr;
};

PipeSimulator::PipeSimulator(const Trace &trace, const CostModel &costs,
                             uint64_t seed, uint64_t runSeed,
                             std::vector<SimulationFinding> &findings,
                             SimulationRun &stats)
    : trace(trace), syncLatency(costs.syncLatency),
      pipeOverlap(costs.pipeOverlap), seed(seed),
      findings(findings), stats(stats) {
  // Durations in trace order, from a stream of their own: the cost model's
  // cycles for the pipe and the bytes, scaled by a factor uniform in
  // [100 - jitter, 100 + jitter] percent.
  Random rng(runSeed);
  int64_t jitter = costs.jitterPercent;
  for (const Entry &entry : trace.entries) {
    int64_t duration = 0;
    if (entry.kind == EntryKind::Op) {
      int64_t base = costs.baseCycles(pipeOfUnit(entry.pipe), entry.bytes);
      int64_t percent = rng.uniform(100 - jitter, 100 + jitter);
      duration = std::max<int64_t>(1, base * percent / 100);
    }
    durations.push_back(duration);
    stats.serial += duration;
  }
  for (auto [index, entry] : llvm::enumerate(trace.entries)) {
    if (entry.kind != EntryKind::BarrierAll &&
        entry.kind != EntryKind::CrossWait) {
      pipes[entry.pipe].entries.push_back(index);
      continue;
    }
    // Held by every pipe of its core.
    for (unsigned unit = coreBase(entry.pipe), end = unit + kNumPipes;
         unit < end; ++unit)
      pipes[unit].entries.push_back(index);
  }
}

void PipeSimulator::schedule(unsigned pipe, int64_t time) {
  if (pipes[pipe].cursor < pipes[pipe].entries.size())
    events.push({time, kIssue, sequence++, pipe});
}

void PipeSimulator::run(Timeline &out) {
  timeline = &out;
  size_t n = trace.entries.size();
  out.start.assign(n, -1);
  out.end.assign(n, -1);
  out.consumed.assign(n, -1);
  for (unsigned pipe = 0; pipe < kNumUnits; ++pipe)
    schedule(pipe, 0);
  while (!events.empty()) {
    auto [time, kind, seq, what] = events.top();
    events.pop();
    if (kind == kIssue)
      issue(static_cast<unsigned>(what), time);
    else if (kind == kWake)
      pass(what, time);
    else if (kind == kCrossWake)
      passCross(what, time);
    else if (trace.entries[what].kind == EntryKind::CrossSet)
      fireCross(what, time);
    else
      fire(what, time);
  }
  finish();
}

void PipeSimulator::issueOp(PipeState &state, int64_t entry, int64_t time) {
  unsigned pipe = trace.entries[entry].pipe;
  bool inOrder = trace.inOrder[pipe] || !pipeOverlap;
  int64_t start = inOrder ? std::max(time, state.maxEnd) : time;
  int64_t end = start + durations[entry];
  timeline->start[entry] = start;
  timeline->end[entry] = end;
  state.maxEnd = std::max(state.maxEnd, end);
  // Busy time: the union of the pipe's op intervals (starts never go down).
  stats.busy[pipe] += std::max<int64_t>(0, end - std::max(start, state.busyEnd));
  state.busyEnd = std::max(state.busyEnd, end);
  stats.makespan = std::max(stats.makespan, end);
  ++stats.opsExecuted;
  timeline->order.push_back(entry);
  ++state.cursor;
  schedule(pipe, start + 1);
}

/// A pipe reaches a barrier_all and stops; the last pipe of its core to
/// reach it, once every such pipe's earlier ops have finished, lets them
/// all go on.
void PipeSimulator::arrive(PipeState &state, int64_t entry, int64_t time) {
  Rendezvous &at = rendezvous[entry];
  at.ready = std::max({at.ready, time, state.maxEnd});
  if (++at.arrived < kNumPipes)
    return;
  timeline->start[entry] = timeline->end[entry] = at.ready;
  timeline->order.push_back(entry);
  for (unsigned unit = coreBase(trace.entries[entry].pipe),
                end = unit + kNumPipes;
       unit < end; ++unit) {
    ++pipes[unit].cursor;
    schedule(unit, at.ready);
  }
}

/// The scalar unit of a core reaches a cross_core_wait once every pipe of
/// the core has been issued what comes before it (their ops need not have
/// finished); it takes a signal then, or, with the counter empty, holds the
/// core until a set fires.
void PipeSimulator::arriveCrossWait(PipeState &state, int64_t entry,
                                    int64_t time) {
  Rendezvous &at = rendezvous[entry];
  at.ready = std::max(at.ready, time);
  if (++at.arrived < kNumPipes)
    return;
  timeline->start[entry] = at.ready;
  Counter &counter = counters[trace.entries[entry].flag];
  if (counter.signals.empty()) {
    counter.waiter = entry;
    return;
  }
  passCross(entry, at.ready);
}

void PipeSimulator::passCross(int64_t wait, int64_t time) {
  Counter &counter = counters[trace.entries[wait].flag];
  timeline->consumed[wait] = counter.signals.front();
  counter.signals.pop_front();
  counter.waiter = -1;
  timeline->end[wait] = time;
  timeline->order.push_back(wait);
  stats.makespan = std::max(stats.makespan, time);
  for (unsigned unit = coreBase(trace.entries[wait].pipe),
                end = unit + kNumPipes;
       unit < end; ++unit) {
    ++pipes[unit].cursor;
    schedule(unit, time);
  }
}

/// A counter holds at most the target's limit of signals; one more is an
/// overrun (undefined on the hardware), reported and not counted.
void PipeSimulator::fireCross(int64_t set, int64_t time) {
  const Entry &entry = trace.entries[set];
  Counter &counter = counters[entry.flag];
  stats.makespan = std::max(stats.makespan, time);
  if (static_cast<int64_t>(counter.signals.size()) >= trace.crossCoreLimit) {
    SimulationFinding finding;
    finding.kind = FindingKind::Overrun;
    finding.op = entry.op;
    finding.other = trace.entries[counter.signals.front()].op;
    finding.message =
        "simulated overrun: " + flagName(entry.flag) + iterationText(entry) +
        " gets a signal at cycle " + std::to_string(time) + " while it holds " +
        std::to_string(counter.signals.size()) +
        ", the most a cross-core counter holds: the producing core runs "
        "ahead of the one waiting (seed " +
        std::to_string(seed) + ")";
    finding.note = "the oldest signal it holds";
    findings.push_back(std::move(finding));
    return;
  }
  ++stats.flagsSet;
  counter.signals.push_back(set);
  if (counter.waiter >= 0 && counter.signals.size() == 1)
    events.push({time + syncLatency, kCrossWake, sequence++, counter.waiter});
}

void PipeSimulator::issue(unsigned pipe, int64_t time) {
  PipeState &state = pipes[pipe];
  int64_t index = state.entries[state.cursor];
  const Entry &entry = trace.entries[index];
  switch (entry.kind) {
  case EntryKind::Op:
    return issueOp(state, index, time);
  case EntryKind::BarrierAll:
    return arrive(state, index, time);
  case EntryKind::CrossWait:
    return arriveCrossWait(state, index, time);
  case EntryKind::Barrier:
    time = std::max(time, state.maxEnd);
    timeline->start[index] = timeline->end[index] = time;
    timeline->order.push_back(index);
    ++state.cursor;
    return schedule(pipe, time);
  case EntryKind::Set:
  case EntryKind::CrossSet: {
    int64_t fires = std::max(time, state.maxEnd);
    timeline->start[index] = time;
    timeline->end[index] = fires;
    timeline->order.push_back(index);
    events.push({fires, kFire, sequence++, index});
    ++state.cursor;
    return schedule(pipe, time);
  }
  case EntryKind::Wait: {
    Flag &flag = flags[entry.flag];
    timeline->start[index] = time;
    if (flag.setter < 0) {
      flag.waiter = index; // held until the flag fires
      return;
    }
    pass(index, time);
    return;
  }
  }
}

/// `wait` takes its flag's signal at `time` and its pipe goes on.
void PipeSimulator::pass(int64_t wait, int64_t time) {
  const Entry &entry = trace.entries[wait];
  Flag &flag = flags[entry.flag];
  timeline->consumed[wait] = flag.setter;
  flag.setter = -1;
  flag.waiter = -1;
  timeline->end[wait] = time;
  timeline->order.push_back(wait);
  stats.makespan = std::max(stats.makespan, time);
  ++pipes[entry.pipe].cursor;
  schedule(entry.pipe, time);
}

void PipeSimulator::fire(int64_t set, int64_t time) {
  const Entry &entry = trace.entries[set];
  Flag &flag = flags[entry.flag];
  stats.makespan = std::max(stats.makespan, time);
  if (flag.setter >= 0) {
    const Entry &earlier = trace.entries[flag.setter];
    SimulationFinding finding;
    finding.kind = FindingKind::Overrun;
    finding.op = entry.op;
    finding.other = earlier.op;
    finding.message = "simulated overrun: " + flagName(entry.flag) +
                      iterationText(entry) + " fires at cycle " +
                      std::to_string(time) +
                      " while still set by an earlier set_flag that no "
                      "wait_flag has taken: the signal is lost (seed " +
                      std::to_string(seed) + ")";
    finding.note = "the earlier set_flag" + iterationText(earlier) +
                   ", fired at cycle " +
                   std::to_string(timeline->end[flag.setter]);
    findings.push_back(std::move(finding));
    return;
  }
  ++stats.flagsSet;
  flag.setter = set;
  // A blocked wait sees the flag syncLatency (at least one) cycles later: a
  // second set firing in the same cycle finds the bit still set.
  if (flag.waiter >= 0)
    events.push({time + syncLatency, kWake, sequence++, flag.waiter});
}

/// Pipes left with entries are blocked on waits; flags left set are never
/// waited for. Neither is reported when the trace was cut short (the rest
/// of the function would have run them), and flags are not when a pipe hung.
void PipeSimulator::finish() {
  if (trace.gaveUp)
    return;
  llvm::DenseSet<int64_t> reportedBarriers;
  for (unsigned pipe = 0; pipe < kNumUnits; ++pipe) {
    PipeState &state = pipes[pipe];
    if (state.cursor == state.entries.size())
      continue;
    timeline->hung = true;
    int64_t blocked = state.entries[state.cursor];
    const Entry &wait = trace.entries[blocked];
    SimulationFinding finding;
    finding.kind = FindingKind::Hang;
    finding.op = wait.op;
    if (wait.kind == EntryKind::CrossWait) {
      if (!reportedBarriers.insert(blocked).second)
        continue;
      finding.message = "simulated hang: the " +
                        std::string(coreBase(pipe) ? "vector" : "cube") +
                        " core waits for ever at a cross_core_wait" +
                        iterationText(wait) + " on " + flagName(wait.flag) +
                        ", which no cross_core_set signals (seed " +
                        std::to_string(seed) + ")";
    } else if (wait.kind == EntryKind::BarrierAll) {
      // Once per barrier: the pipes that never reach it are the news.
      if (!reportedBarriers.insert(blocked).second)
        continue;
      std::string missing;
      for (unsigned other = coreBase(pipe), last = other + kNumPipes;
           other < last; ++other) {
        const PipeState &o = pipes[other];
        if (o.cursor == o.entries.size() || o.entries[o.cursor] != blocked)
          missing += (missing.empty() ? "" : ", ") + pipeName(other);
      }
      finding.message = "simulated hang: a barrier_all" + iterationText(wait) +
                        " waits for ever for pipe " + missing +
                        ", blocked before it (seed " + std::to_string(seed) +
                        ")";
    } else {
      finding.message = "simulated hang: pipe " + pipeName(pipe) +
                        " waits for ever for " + flagName(wait.flag) +
                        iterationText(wait) + ", which is never set (seed " +
                        std::to_string(seed) + ")";
    }
    findings.push_back(std::move(finding));
  }
  if (timeline->hung)
    return;
  reportCounters();
  for (const auto &[key, flag] : flags) {
    if (flag.setter < 0)
      continue;
    const Entry &set = trace.entries[flag.setter];
    SimulationFinding finding;
    finding.kind = FindingKind::Unwaited;
    finding.op = set.op;
    finding.message = "simulated run ends with " + flagName(key) +
                      " still set" + iterationText(set) +
                      ": it is never waited for (seed " +
                      std::to_string(seed) + ")";
    findings.push_back(std::move(finding));
  }
}

/// Signals left in a cross-core counter at the end were never waited for.
void PipeSimulator::reportCounters() {
  for (const auto &[key, counter] : counters) {
    if (counter.signals.empty())
      continue;
    const Entry &set = trace.entries[counter.signals.front()];
    SimulationFinding finding;
    finding.kind = FindingKind::Unwaited;
    finding.op = set.op;
    finding.message = "simulated run ends with " + flagName(key) +
                      " holding " + std::to_string(counter.signals.size()) +
                      " signal" + (counter.signals.size() == 1 ? "" : "s") +
                      " that no cross_core_wait took, the oldest set" +
                      iterationText(set) + " (seed " + std::to_string(seed) +
                      ")";
    findings.push_back(std::move(finding));
  }
}

} // namespace

void simulator::timePipes(const Trace &trace, const CostModel &costs,
                          uint64_t seed, uint64_t runSeed,
                          std::vector<SimulationFinding> &findings,
                          SimulationRun &stats, Timeline &timeline) {
  PipeSimulator(trace, costs, seed, runSeed, findings, stats).run(timeline);
}
