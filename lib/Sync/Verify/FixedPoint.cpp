//===- FixedPoint.cpp - Where a quick walk may leave a loop early ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The walk unrolls each loop three times, so an op in a nest of three loops
// is visited 27 times. Most of those visits repeat one already made: once
// the state an iteration begins from is no riskier than the state the one
// before began from, the iterations left can find no race, lost signal or
// hang that the earlier one did not. A quick walk (SyncChecker's `quick`)
// leaves the loop there; verifySync runs it first, without diagnostics,
// and runs the full unrolled walk, with them, only when the quick one
// fails. So the diagnostics are the full walk's whatever the quick walk
// skipped; what has to hold is that the quick walk fails whenever the full
// one would.
//
//   scf.for %i = %c0 to %c4 step %c1 {     // S1 begins iteration 1
//     wait_flag <mte3 -> mte2>, 0          // (the loop's entry sets it)
//     memref.copy %gm, %ub {pipe = mte2}   // writes ub [0, 4096)
//     set_flag <mte2 -> v>, 0
//     wait_flag <mte2 -> v>, 0
//     linalg.exp ins(%ub) outs(%ub2) {pipe = v}
//     set_flag <v -> mte3>, 0  ...  set_flag <mte3 -> mte2>, 0
//   }
//
// S2, the state iteration 2 begins from, holds iteration 1's copy where S1
// held iteration 0's, known to the same pipes (and iteration 0's copy is
// known to every pipe by then, or cut by iteration 1's); the same flags are
// raised. Iteration 2 then does from S2 what iteration 1 did from S1.
//
// The argument, on the facts the walk keeps of an access with sequence
// number x of unit p (its "knowledge"): which sets hold x (known[q][p] for
// each q, and each raised flag's knowledge[p]; executed[p] always does).
// Every later step of the walk changes them pointwise and monotonically
// (unions, and at a merge intersections of what each path knows), and a
// check asks only them and the access's op, pipe, unit, kind and bytes: an
// access A is "no riskier than" an access B when they agree on op, pipe,
// unit, cores and kind, A's bytes lie within B's and every set that holds
// B's number in its state holds A's in A's state. A state T is no riskier
// than S when they raise the same flags, each access of T is no riskier
// than one of S's (or settled: known to every unit that accesses memory, or
// of a unit that keeps its order, which no later step can undo), and each
// unsettled wait of a consumer of T is no riskier than one of the same
// consumer in S. Then:
//
//  1. Walking the same ops from T and from S, a check that fails from T
//     fails from S (the covering access overlaps and is not ordered either),
//     and after each step the states are again no riskier (the same pointwise
//     steps; a cut leaves A's pieces inside B's). Inner loops the quick walk
//     leaves early are this claim one level in.
//  2. The quick walk checks S_k (iteration k's start) against S_(k-1) and
//     has found nothing so far (it stops at the first failure). If S_k is no
//     riskier, iteration k from S_k finds nothing (by 1, iteration k-1 did
//     not), S_(k+1) is no riskier than S_k, and so on: the full walk's
//     iterations k to 2 find nothing.
//  3. The loop's exits: the full walk merges S_0 .. S_3 (scf.while: the
//     states after each "before" region), the quick walk S_0 .. S_k.
//     Knowledge only grows along a path without failures (a flag is raised
//     again only after its earlier raise, capturing more), so the merge keeps
//     of a number what the first exit that ran it knew: the same in both
//     merges. What the full merge holds beyond the quick one are accesses
//     and waits of iterations k and later, each no riskier than one of S_k
//     (by 2), which the quick merge holds knowing no more. So the full
//     merge is no riskier than the quick one, and by 1 whatever fails after
//     the loop in the full walk fails in the quick one.
//
// The bytes an op touches must not move with the loop (a GM offset of its
// induction variable): mayLeaveEarly refuses such loops, and functions of
// both cores (cross-core counters are not compared).
//
//===----------------------------------------------------------------------===//

#include "SyncChecker.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

namespace {

/// Waits of one consumer compared at most.
constexpr int64_t kComparedWaits = 16;

/// Whether number `later` of unit `p` in `laterState` is held by every set
/// that holds number `earlier` of `p` in `earlierState` (the two raise the
/// same flags); rows from `units` on are empty in both.
bool knowsNoLess(const PathState &laterState, int64_t later,
                 const PathState &earlierState, int64_t earlier, unsigned p,
                 unsigned units) {
  for (size_t q = 0; q < units; ++q)
    if (earlierState.known[q][p].contains(earlier) &&
        !laterState.known[q][p].contains(later))
      return false;
  auto flag = laterState.flags.begin();
  for (const auto &[key, earlierFlag] : earlierState.flags) {
    if (earlierFlag[p].contains(earlier) && !flag->second[p].contains(later))
      return false;
    ++flag;
  }
  return true;
}

/// Whether the two maps hold the same keys.
template <typename Map> bool sameKeys(const Map &a, const Map &b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](const auto &x, const auto &y) {
                                              return x.first == y.first;
                                            });
}

} // namespace

void SyncChecker::beginIteration(Operation &loop, unsigned iteration,
                                 PathState &state) {
  if (!mayLeaveEarly(loop))
    return;
  if (iteration == 0)
    iterationStarts.push_back(state);
  else
    iterationStarts.back() = state;
}

void SyncChecker::endLoop(Operation &loop) {
  if (mayLeaveEarly(loop))
    iterationStarts.pop_back();
}

bool SyncChecker::repeatsIteration(Operation &loop, unsigned,
                                   const PathState &state) {
  return mayLeaveEarly(loop) && !failedAny &&
         noRiskierThan(state, iterationStarts.back());
}

/// A quick walk, a function of one core, and a loop whose accesses touch
/// the same bytes in every iteration.
bool SyncChecker::mayLeaveEarly(Operation &loop) {
  if (!quick)
    return false;
  auto [known, first] = leavesEarly.try_emplace(&loop, false);
  if (!first)
    return known->second;
  bool allowed = mayWalkQuickly() && !survey().movingLoops.contains(&loop);
  leavesEarly[&loop] = allowed;
  return allowed;
}

bool SyncChecker::noRiskierThan(const PathState &later,
                                const PathState &earlier) {
  return sameKeys(later.flags, earlier.flags) &&
         consumersNoRiskier(later, earlier) && historyNoRiskier(later, earlier);
}

bool SyncChecker::settledForAll(const PathState &state, unsigned unit,
                                int64_t seq) {
  for (unsigned q : survey().accessUnits) {
    if (q == unit && !needsBarrier(static_cast<Pipe>(q % kNumPipes)))
      continue;
    if (!state.known[q][unit].contains(seq))
      return false;
  }
  return true;
}

std::array<int64_t, kNumUnits>
SyncChecker::settledPrefixes(const PathState &state) {
  ArrayRef<unsigned> accessUnits = survey().accessUnits;
  std::array<int64_t, kNumUnits> prefixes{};
  for (unsigned p = 0, e = liveUnits(); p < e; ++p) {
    // Numbers start at 1: a first interval that begins there or before
    // holds them up to its end.
    int64_t prefix = std::numeric_limits<int64_t>::max();
    for (unsigned q : accessUnits) {
      if (q == p && !needsBarrier(static_cast<Pipe>(q % kNumPipes)))
        continue;
      ArrayRef<IntervalSet::Interval> known = state.known[q][p].getIntervals();
      prefix = std::min(prefix, !known.empty() && known.front().first <= 1
                                    ? known.front().second
                                    : int64_t(1));
    }
    prefixes[p] = prefix;
  }
  return prefixes;
}

bool SyncChecker::historyNoRiskier(const PathState &later,
                                   const PathState &earlier) {
  unsigned units = liveUnits();
  auto live = [&](const Access &access) {
    return !settledForAll(later, access.unit, access.seq);
  };
  auto covers = [&](const Access &access, const Access &by) {
    const Bytes &a = access.touch.bytes, &b = by.touch.bytes;
    return access.op == by.op && access.unit == by.unit &&
           access.pipe == by.pipe && access.cores == by.cores &&
           access.touch.write == by.touch.write && a.sameMemory(b) &&
           b.begin <= a.begin && a.end <= b.end &&
           knowsNoLess(later, access.seq, earlier, by.seq, access.unit,
                       units);
  };
  return later.history.coveredBy(earlier.history, live, covers);
}

/// A consumer's wait matters to a later set of its flag until the setting
/// unit knows it finished.
bool SyncChecker::consumersNoRiskier(const PathState &later,
                                     const PathState &earlier) {
  unsigned units = liveUnits();
  for (const auto &[key, consumer] : *later.consumers) {
    unsigned setter = std::get<0>(key), waiter = std::get<1>(key);
    IntervalSet live = consumer.waits.minus(later.known[setter][waiter]);
    if (live.empty())
      continue;
    auto before = earlier.consumers->find(key);
    if (before == earlier.consumers->end())
      return false;
    auto waits = before->second.waits.getIntervals();
    int64_t count = 0;
    for (auto [begin, end] : live.getIntervals()) {
      count += end - begin;
      if (count > kComparedWaits)
        return false;
      for (int64_t wait = begin; wait < end; ++wait) {
        bool covered = llvm::any_of(waits, [&](const auto &range) {
          for (int64_t w = range.first;
               w < range.second && w < range.first + kComparedWaits; ++w)
            if (knowsNoLess(later, wait, earlier, w, waiter, units))
              return true;
          return false;
        });
        if (!covered)
          return false;
      }
    }
  }
  return true;
}
