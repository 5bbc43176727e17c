//===- ExactDriver.cpp - Driving the exact search -------------------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Driving the search. Asking for any placement within a limit, the search
// restarts over seven candidate rankings with node budgets that start at
// about twice the item count and double every round (a bad early choice
// under one ranking is often no choice under another). Each ranking is a
// list of keys that the search evaluates again for every independent group
// it splits off, so that the pressure counts what is left (Exact.cpp). The smallest peak is found as a
// series of such questions: first whether the lower bound can be met, then
// whether one byte less than the best placement can; a question proved
// infeasible proves the best placement optimal.
//
// Every run counts nodes and stops at its budget (or when SearchControl
// says stop); all of it is deterministic.
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "PoolInstance.h"

#include <algorithm>
#include <limits>
#include <tuple>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Candidate rankings the feasibility search restarts with: a bad early
/// choice deep in one ranking's tree is often no choice at all in another's.
/// Keys mix the pressure (T), the lifetime (W), the area (A), the size (Z)
/// and a late start (L).
std::vector<CandidateRanking> restartRankings() {
  using K = RankKey;
  return {
      {{K::Size, K::Width}, {}},
      {{K::Area, K::Size}, {}},
      {{K::Width, K::Size}, {}},
      {{K::LateStart, K::Size}, {}},
      {{K::Pressure, K::Width, K::Area}, {}},
      {{K::Width, K::Area, K::Pressure}, {}},
      {{K::Pressure, K::Area, K::Width}, {}},
  };
}

/// Looks for any placement within `limit`, restarting over several orders
/// with budgets that double each round, until one is found, the first order
/// proves there is none, or the budget is spent.
ExactResult searchFeasible(const PoolInstance &instance,
                           const ItemOffsets &incumbent, int64_t lowerBound,
                           int64_t limit, uint64_t nodeBudget,
                           bool decompose, SearchControl *control) {
  std::vector<CandidateRanking> rankings = restartRankings();
  uint64_t spent = 0;
  uint64_t slice = 2 * instance.items.size() + 16;
  ExactResult last;
  last.offsets = incumbent;
  last.peak = incumbent.empty() ? -1 : itemPeak(instance, incumbent);
  while (spent < nodeBudget) {
    for (const CandidateRanking &ranking : rankings) {
      // A run may count one node past its budget: saturate.
      uint64_t left = spent < nodeBudget ? nodeBudget - spent : 0;
      uint64_t budget = std::min(slice, left);
      if (budget == 0 || (control && control->stopRequested()))
        break;
      last = runCanonicalSearch(instance, incumbent, lowerBound, limit,
                                /*stopWithinLimit=*/true, budget, ranking,
                                decompose, control);
      spent += last.nodes;
      bool found = last.peak >= 0 && last.peak <= limit;
      if (found || last.provedInfeasible) {
        last.nodes = spent;
        return last;
      }
    }
    if (control && control->stopRequested())
      break;
    slice *= 2;
  }
  last.nodes = spent;
  return last;
}

} // namespace

namespace {

/// The smallest peak as a series of feasibility questions, each answered by
/// the restarting search: first whether the lower bound itself can be met
/// (half the budget), then, from the best placement down, whether one byte
/// less can. A question proved infeasible proves the best placement
/// optimal.
ExactResult minimizePeak(const PoolInstance &instance,
                         const ItemOffsets &incumbent, int64_t lowerBound,
                         int64_t limit, uint64_t nodeBudget, bool decompose,
                         SearchControl *control) {
  ExactResult best;
  best.offsets = incumbent;
  best.peak = incumbent.empty() ? -1 : itemPeak(instance, incumbent);
  if (best.peak >= 0 && best.peak > limit) {
    best = searchFeasible(instance, incumbent, lowerBound, limit, nodeBudget,
                          decompose, control);
    if (best.peak < 0 || best.peak > limit)
      return best;
  }
  uint64_t spent = best.nodes;
  /// Whether some placement has a peak of at most `question`; the best one
  /// is kept. `provedNone` tells a proof of "no" from a spent budget.
  auto ask = [&](int64_t question, uint64_t budget, bool &provedNone) {
    ExactResult answer =
        searchFeasible(instance, best.offsets, lowerBound, question, budget,
                       decompose, control);
    spent += answer.nodes;
    provedNone = answer.provedInfeasible;
    if (answer.peak < 0 || answer.peak > question)
      return false;
    best.offsets = std::move(answer.offsets);
    best.peak = answer.peak;
    return true;
  };
  bool atBound = best.peak >= 0 && best.peak <= lowerBound;
  if (best.peak < 0 || atBound) {
    best.provedOptimal = atBound;
    best.nodes = spent;
    return best;
  }
  // Nothing can be below `floor`: the lower bound, or one more when the
  // bound itself was proved out of reach.
  bool nothingAtBound = false;
  bool proved = ask(lowerBound, nodeBudget / 4, nothingAtBound);
  int64_t floor = nothingAtBound ? lowerBound + 1 : lowerBound;
  while (!proved && spent < nodeBudget && best.peak > floor &&
         !(control && control->stopRequested())) {
    bool nothingBelow = false;
    if (!ask(best.peak - 1, nodeBudget - spent, nothingBelow)) {
      proved = nothingBelow; // else the budget ran out
      break;
    }
  }
  proved = proved || best.peak <= floor;
  best.provedOptimal = proved;
  best.provedInfeasible = false;
  best.nodes = spent;
  return best;
}

} // namespace

ExactResult dsaplan::solver::detail::searchExact(
    const PoolInstance &instance, const ItemOffsets &incumbent,
    int64_t lowerBound, int64_t limit, bool stopWithinLimit,
    uint64_t nodeBudget, bool decompose, SearchControl *control) {
  bool incumbentFits = !incumbent.empty() && itemPeak(instance, incumbent) <= limit;
  if (stopWithinLimit)
    return incumbentFits ? runCanonicalSearch(
                               instance, incumbent, lowerBound, limit,
                               /*stopWithinLimit=*/true, nodeBudget,
                               CandidateRanking{{RankKey::Size, RankKey::Width}, {}}, decompose,
                               control)
                         : searchFeasible(instance, incumbent, lowerBound,
                                          limit, nodeBudget, decompose,
                                          control);
  return minimizePeak(instance, incumbent, lowerBound, limit, nodeBudget,
                      decompose, control);
}
