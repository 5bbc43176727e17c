//===- RaceChecker.cpp - The simulator's races over one execution ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Happens-before over the execution the timing model produced: vector
// clocks carried by set_flag to the wait_flag that takes its signal, and
// by barriers; and a shadow of memory per byte range holding the accesses
// a later one may conflict with. Two conflicting accesses (same bytes, one
// a write) that neither orders are a race, reported once per pair of ops:
//
//   copy gm -> ub[0, 1024) on mte2;  exp ub[0, 1024) on v, no wait between
//   -> simulated race, read after write on bytes [0, 1024) of ub
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "DsaPlan/Support/SegmentMap.h"

#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

/// Per pipe, how many of each pipe's ops are known to have finished: what
/// is known finished is always a prefix of a pipe's ops, since a set covers
/// all earlier ops of its pipe and a barrier all earlier ops of its own.
using Clock = std::array<int64_t, kNumUnits>;

/// One access in the shadow of memory.
struct Record {
  int64_t entry;
  Operation *op;
  unsigned pipe;
  int64_t index; // among the ops of its pipe
  bool write;
  bool operator==(const Record &o) const {
    return entry == o.entry && write == o.write;
  }
};

/// The accesses that later ones may conflict with, per byte range of one
/// memory: disjoint segments, each with the records still exposed there.
class Shadow {
public:
  using Records = SmallVector<Record, 4>;
  /// Calls `fn(begin, end, records)` on every segment that overlaps
  /// [begin, end), clipped to it.
  template <typename Fn>
  void visit(int64_t begin, int64_t end, Fn fn) const {
    segments.visit(begin, end, fn);
  }
  /// Calls `fn(records)` on every piece of [begin, end), creating the
  /// pieces no access touched yet, then merges equal neighbours.
  template <typename Fn>
  void update(int64_t begin, int64_t end, Fn fn) {
    segments.update(begin, end, fn);
    segments.coalesce(begin, end,
                      [](const Records &records) { return records.empty(); });
  }

private:
  SegmentMap<Records> segments;
};

/// One unordered pair, as found: the bytes are widened over all segments.
struct Race {
  int64_t earlier, later;
  int memory;
  bool earlierWrites, laterWrites;
  int64_t begin, end;
};

/// `into` learns what `clock` knows.
void acquire(Clock &into, const Clock &clock) {
  for (size_t q = 0; q < kNumUnits; ++q)
    into[q] = std::max(into[q], clock[q]);
}

class RaceChecker {
public:
  RaceChecker(const Trace &trace, const Timeline &timeline, uint64_t seed,
              std::vector<SimulationFinding> &findings)
      : trace(trace), timeline(timeline), seed(seed), findings(findings) {}
  void run();

private:
  void check(int64_t entry, const Clock &clock);
  void record(int64_t entry, unsigned pipe, int64_t index, const Clock &clock);
  void report(const Race &race);
  bool overlapInTime(int64_t a, int64_t b) const {
    return timeline.start[a] < timeline.end[b] &&
           timeline.start[b] < timeline.end[a];
  }

  const Trace &trace;
  const Timeline &timeline;
  uint64_t seed;
  std::vector<SimulationFinding> &findings;
  std::map<int, Shadow> shadows;
  /// The pipe-local index of each executed op.
  DenseMap<int64_t, int64_t> opIndex;
  llvm::MapVector<std::pair<Operation *, Operation *>, Race> races;
};

/// Walks the entries in the order they took effect (a set before the wait
/// that takes its signal, and each pipe in program order):
///   op on p:      checked against the shadow with what p knows; on S it
///                 first knows all its earlier ops (S runs in order);
///   barrier on p: p knows all its earlier ops;
///   set on p:     captures what p knows plus all p's earlier ops (a
///                 cross_core_set too);
///   wait on q:    q learns what the set it took captured (a
///                 cross_core_wait: every pipe of its core does);
///   barrier_all:  every pipe of its core knows what every pipe of it issued.
void RaceChecker::run() {
  std::array<Clock, kNumUnits> known{};
  Clock issued{};
  DenseMap<int64_t, Clock> captured;
  for (int64_t entry : timeline.order) {
    const Entry &e = trace.entries[entry];
    unsigned p = e.pipe;
    switch (e.kind) {
    case EntryKind::Op: {
      if (trace.inOrder[p])
        known[p][p] = issued[p];
      int64_t index = issued[p]++;
      opIndex[entry] = index;
      check(entry, known[p]);
      record(entry, p, index, known[p]);
      break;
    }
    case EntryKind::Barrier:
      known[p][p] = issued[p];
      break;
    case EntryKind::BarrierAll:
      // Every pipe of the core knows all that every pipe of it issued.
      for (unsigned q = coreBase(p), end = q + kNumPipes; q < end; ++q)
        for (unsigned r = coreBase(p); r < end; ++r)
          known[q][r] = issued[r];
      break;
    case EntryKind::Set:
    case EntryKind::CrossSet:
      captured[entry] = known[p];
      captured[entry][p] = issued[p];
      break;
    case EntryKind::Wait:
      if (timeline.consumed[entry] >= 0)
        acquire(known[p], captured[timeline.consumed[entry]]);
      break;
    case EntryKind::CrossWait:
      // The whole core waited: each of its pipes learns what the set took.
      if (timeline.consumed[entry] >= 0)
        for (unsigned q = coreBase(p), end = q + kNumPipes; q < end; ++q)
          acquire(known[q], captured[timeline.consumed[entry]]);
      break;
    }
  }
  for (auto &[pair, race] : races)
    report(race);
}

/// Every earlier access in the shadow that conflicts with one of `entry`'s
/// and is not ordered before it (or, which the model should never allow,
/// ran at the same time) is a race.
void RaceChecker::check(int64_t entry, const Clock &clock) {
  const Entry &e = trace.entries[entry];
  for (const Access &access : e.accesses)
    for (const ByteRun &run : access.runs)
      shadows[access.memory].visit(
          run.begin, run.end,
          [&](int64_t begin, int64_t end, ArrayRef<Record> records) {
            for (const Record &r : records) {
              if (r.entry == entry || (!r.write && !access.write))
                continue;
              bool ordered = clock[r.pipe] > r.index;
              if (ordered && !overlapInTime(r.entry, entry))
                continue;
              // Named in program order (the scalar unit's), whichever
              // of the two took effect first.
              Race race{r.entry, entry, access.memory, r.write, access.write,
                        begin, end};
              if (r.entry > entry) {
                std::swap(race.earlier, race.later);
                std::swap(race.earlierWrites, race.laterWrites);
              }
              auto [it, inserted] = races.try_emplace(
                  {trace.entries[race.earlier].op,
                   trace.entries[race.later].op},
                  race);
              if (!inserted && it->second.memory == access.memory) {
                it->second.begin = std::min(it->second.begin, begin);
                it->second.end = std::max(it->second.end, end);
              }
            }
          });
}

/// Adds `entry`'s accesses to the shadow. What is ordered before a write
/// (before a read: the reads) is dropped where it covers them: a later
/// access that conflicts with the dropped one conflicts with this one too,
/// and is ordered after it only if ordered after this one. So is an earlier
/// execution of the same op: what is known finished of a pipe is a prefix,
/// so whatever is unordered with the earlier execution is unordered with
/// this one, and races are reported per pair of ops. The shadow then holds
/// at most one record per op and kind on any byte, however long the run.
void RaceChecker::record(int64_t entry, unsigned pipe, int64_t index,
                         const Clock &clock) {
  const Entry &e = trace.entries[entry];
  for (const Access &access : e.accesses)
    for (const ByteRun &run : access.runs)
      shadows[access.memory].update(
          run.begin, run.end, [&](SmallVector<Record, 4> &records) {
            llvm::erase_if(records, [&](const Record &r) {
              if (r.entry == entry)
                return false;
              return (r.op == e.op && r.write == access.write) ||
                     ((access.write || !r.write) && clock[r.pipe] > r.index);
            });
            Record mine{entry, e.op, pipe, index, access.write};
            if (!llvm::is_contained(records, mine))
              records.push_back(mine);
          });
}

void RaceChecker::report(const Race &race) {
  const Entry &earlier = trace.entries[race.earlier];
  const Entry &later = trace.entries[race.later];
  const char *kind = race.earlierWrites
                         ? (race.laterWrites ? "write after write"
                                             : "read after write")
                         : "write after read";
  std::string when;
  if (overlapInTime(race.earlier, race.later))
    when = "; in this run they overlapped in time, cycles [" +
           std::to_string(timeline.start[race.earlier]) + ", " +
           std::to_string(timeline.end[race.earlier]) + ") and [" +
           std::to_string(timeline.start[race.later]) + ", " +
           std::to_string(timeline.end[race.later]) + ")";
  SimulationFinding finding;
  finding.kind = FindingKind::Race;
  finding.op = later.op;
  finding.other = earlier.op;
  auto name = trace.memoryNames.find(race.memory);
  finding.message =
      std::string("simulated race, ") + kind + " on bytes [" +
      std::to_string(race.begin) + ", " + std::to_string(race.end) + ") of " +
      (name == trace.memoryNames.end() ? std::string("memory") : name->second) +
      ": " + describe(later) + " is not ordered after " + describe(earlier) +
      when + " (seed " + std::to_string(seed) + ")";
  finding.note = "the earlier access, " + describe(earlier);
  findings.push_back(std::move(finding));
}

} // namespace

void simulator::checkRaces(const Trace &trace, const Timeline &timeline,
                           uint64_t seed,
                           std::vector<SimulationFinding> &findings) {
  RaceChecker(trace, timeline, seed, findings).run();
}
