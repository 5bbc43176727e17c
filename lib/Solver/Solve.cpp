//===- Solve.cpp - The solver driver --------------------------------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// For each pool: build the item instance (colocations merged), split it into
// independent components (no conflict joins two of them, so they may share
// addresses), place each component with the selected algorithm, and report
// the peak against the lower bound.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"
#include "PoolInstance.h"
#include "ReuseCost.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

struct AlgorithmName {
  Algorithm algorithm;
  const char *name;
};
constexpr AlgorithmName kAlgorithms[] = {
    {Algorithm::Bump, "bump"},
    {Algorithm::FirstFit, "first-fit"},
    {Algorithm::BestFit, "best-fit"},
    {Algorithm::MultiStart, "multi-start"},
    {Algorithm::Exact, "exact"},
    {Algorithm::Auto, "auto"},
};

/// Repair rounds of multi-start: generous on kernel-sized pools, a few on
/// huge ones so that the heuristic stays close to n log n.
int repairRounds(size_t items) {
  if (items <= 2000)
    return 8;
  return items <= 20000 ? 4 : 0;
}

/// Components of the conflict graph, each listed in increasing item order.
std::vector<std::vector<uint32_t>> components(const PoolInstance &instance) {
  size_t n = instance.items.size();
  std::vector<int> component(n, -1);
  std::vector<std::vector<uint32_t>> result;
  for (uint32_t start = 0; start < n; ++start) {
    if (component[start] >= 0)
      continue;
    int id = static_cast<int>(result.size());
    result.emplace_back();
    std::vector<uint32_t> stack = {start};
    component[start] = id;
    while (!stack.empty()) {
      uint32_t item = stack.back();
      stack.pop_back();
      result.back().push_back(item);
      for (uint32_t n2 : instance.conflicts[item])
        if (component[n2] < 0) {
          component[n2] = id;
          stack.push_back(n2);
        }
    }
    std::sort(result.back().begin(), result.back().end());
  }
  return result;
}

PoolInstance subInstance(const PoolInstance &instance,
                         const std::vector<uint32_t> &items) {
  PoolInstance sub;
  sub.pool = instance.pool;
  sub.hasSeparations = instance.hasSeparations;
  sub.hasTemporalExclusions = instance.hasTemporalExclusions;
  sub.capacity = instance.capacity;
  sub.reserved = instance.reserved;
  std::vector<int64_t> local(instance.items.size(), -1);
  for (uint32_t i = 0; i < items.size(); ++i) {
    local[items[i]] = i;
    sub.items.push_back(instance.items[items[i]]);
  }
  sub.conflicts.resize(items.size());
  for (uint32_t i = 0; i < items.size(); ++i)
    for (uint32_t n : instance.conflicts[items[i]])
      sub.conflicts[i].push_back(static_cast<uint32_t>(local[n]));
  return sub;
}

std::vector<uint32_t> bySizeDescending(const PoolInstance &instance) {
  std::vector<uint32_t> order(instance.items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return instance.items[a].size > instance.items[b].size;
  });
  return order;
}

struct ComponentResult {
  ItemOffsets offsets;
  /// Nodes of the exact search, which the node budget bounds.
  uint64_t nodes = 0;
  /// Nodes of multi-start's probes, which bound themselves.
  uint64_t probeNodes = 0;
  bool provedOptimal = false;
};

/// Components larger than this keep their heuristic placement: a search
/// node costs time linear in the component size.
constexpr size_t kExactMaxItems = 1000;

/// Nodes `auto` spends, unless asked to minimise the capacity, on a
/// placement that fits from the start but is above the lower bound: first
/// asking whether the bound can be met (MiniMalloc's A and E, exported with
/// a first-fit capacity, take 58,000 and 424,000 nodes to say yes; a pool
/// whose bound is out of reach costs a quarter of the default budget, not
/// all of it), then polishing the peak down from the best placement.
constexpr uint64_t kAutoBoundNodes = 500'000;
constexpr uint64_t kAutoPolishNodes = 20'000;

/// Adds the search nodes the heuristic spends (multi-start's probes) to
/// `nodes`.
ItemOffsets placeHeuristically(const PoolInstance &instance,
                               Algorithm algorithm, uint64_t &nodes) {
  switch (algorithm) {
  case Algorithm::Bump:
    return placeBump(instance);
  case Algorithm::FirstFit:
  case Algorithm::Exact:
    return placeInOrder(instance, bySizeDescending(instance), FitRule::First);
  case Algorithm::BestFit:
    return placeInOrder(instance, bySizeDescending(instance), FitRule::Best);
  case Algorithm::MultiStart:
  case Algorithm::Auto:
    return placeMultiStart(instance, repairRounds(instance.items.size()),
                           nodes);
  }
  return {};
}

/// Runs the exact search from `result.offsets`: with `stopWithinLimit`, for
/// any placement within `limit`; otherwise for the smallest peak. Keeps the
/// better placement.
void searchFrom(const PoolInstance &instance, int64_t bound, int64_t limit,
                bool stopWithinLimit, uint64_t budget,
                ComponentResult &result) {
  ExactResult exact = searchExact(instance, result.offsets, bound, limit,
                                  stopWithinLimit, budget);
  if (exact.peak >= 0 && !exact.offsets.empty() &&
      exact.peak <= itemPeak(instance, result.offsets))
    result.offsets = exact.offsets;
  result.nodes += exact.nodes;
  result.provedOptimal = result.provedOptimal || exact.provedOptimal ||
                         itemPeak(instance, result.offsets) <= bound;
}

/// Places one component. `bound` is a lower bound on the pool's peak: the
/// component's own, or the pool's when that is higher (a component below the
/// pool's bound cannot lower the pool's peak). With `fitOnly` (the reuse-cost
/// objective, where the peak only has to fit) the first placement within
/// capacity ends it.
ComponentResult placeComponent(const PoolInstance &instance,
                               const SolveOptions &options, int64_t bound,
                               uint64_t nodeBudget, bool fitOnly) {
  ComponentResult result;
  result.offsets =
      placeHeuristically(instance, options.algorithm, result.probeNodes);
  bool searches = options.algorithm == Algorithm::Exact ||
                  options.algorithm == Algorithm::Auto;
  result.provedOptimal = itemPeak(instance, result.offsets) <= bound;
  // The exact search stacks co-live items: temporal exclusions break that.
  if (!searches || instance.items.size() > kExactMaxItems ||
      result.provedOptimal || instance.hasTemporalExclusions)
    return result;

  bool minimize =
      options.minimizeCapacity || options.algorithm == Algorithm::Exact;
  if (itemPeak(instance, result.offsets) > instance.capacity) {
    // First anything that fits: the capacity is the target.
    searchFrom(instance, bound, instance.capacity, /*stopWithinLimit=*/true,
               nodeBudget, result);
    if (itemPeak(instance, result.offsets) > instance.capacity || !minimize ||
        fitOnly)
      return result;
  }
  if (fitOnly)
    return result;
  auto budgetLeft = [&](uint64_t cap) {
    return std::min(cap, nodeBudget - std::min(nodeBudget, result.nodes));
  };
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max() / 4;
  if (!minimize) {
    searchFrom(instance, bound, bound, /*stopWithinLimit=*/true,
               budgetLeft(kAutoBoundNodes), result);
    if (result.provedOptimal)
      return result;
    searchFrom(instance, bound, kNoLimit, /*stopWithinLimit=*/false,
               budgetLeft(kAutoPolishNodes), result);
    return result;
  }
  if (!result.provedOptimal)
    searchFrom(instance, bound, kNoLimit, /*stopWithinLimit=*/false,
               budgetLeft(nodeBudget), result);
  return result;
}

/// The buffers live where the most bytes are live, for diagnostics.
std::vector<size_t> buffersAtBusiestPoint(const Problem &problem, size_t pool) {
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const Buffer &buffer : problem.buffers)
    if (buffer.pool == pool)
      for (const Interval &interval : buffer.live) {
        events.push_back({interval.lower, buffer.size});
        events.push_back({interval.upper, -buffer.size});
      }
  std::sort(events.begin(), events.end());
  int64_t live = 0, most = -1, point = 0;
  for (const auto &event : events) {
    live += event.second;
    if (live > most) {
      most = live;
      point = event.first;
    }
  }
  std::vector<size_t> result;
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (problem.buffers[b].pool == pool)
      for (const Interval &interval : problem.buffers[b].live)
        if (interval.lower <= point && point < interval.upper)
          result.push_back(b);
  return result;
}

/// Second objective of a pool that fits: the lowest reuse cost. Never gives
/// up the fit: every placement the cost search returns fits. Bump keeps its
/// placement (it is the no-reuse baseline).
void placeForReuseCost(const Problem &problem, const PoolInstance &instance,
                       const SolveOptions &options, ItemOffsets &itemOffsets,
                       Placement &offsets, PoolResult &result) {
  CostInstance costs = buildCostInstance(problem, instance);
  CostResult placed = minimizeReuseCost(
      costs, itemOffsets,
      options.algorithm == Algorithm::Bump ? 0 : options.reuseCostNodeBudget);
  if (options.algorithm != Algorithm::Bump)
    itemOffsets = placed.offsets;
  for (size_t i = 0; i < instance.items.size(); ++i)
    for (size_t member : instance.items[i].members)
      offsets[member] = itemOffsets[i];
  result.peak = itemPeak(instance, itemOffsets);
  result.reuseCost = itemReuseCost(costs, itemOffsets);
  result.reuseCostBound = std::min(placed.bound, result.reuseCost);
  result.reuseCostNodes = placed.nodes;
  result.sharedPenaltyPairs =
      reuseCostOf(problem, offsets, instance.pool).sharedPairs;
  result.status = result.reuseCost <= result.reuseCostBound
                      ? PoolStatus::Optimal
                      : PoolStatus::Feasible;
}

PoolResult solvePool(const Problem &problem, size_t pool,
                     const SolveOptions &options, Placement &offsets) {
  PoolInstance instance = buildPoolInstance(problem, pool);
  PoolResult result;
  result.pool = pool;
  for (const Item &item : instance.items)
    result.buffers += item.members.size();
  result.lowerBound = itemLowerBound(instance);

  ItemOffsets itemOffsets(instance.items.size(), kUnplaced);
  bool optimal = true;
  int64_t worstPeak = -1;
  uint64_t budgetLeft = options.nodeBudget;
  if (options.algorithm == Algorithm::Bump) {
    itemOffsets = placeBump(instance);
  } else {
    std::vector<std::vector<uint32_t>> parts = components(instance);
    for (const std::vector<uint32_t> &items : parts) {
      PoolInstance sub = subInstance(instance, items);
      int64_t bound = parts.size() == 1
                          ? result.lowerBound
                          : std::max(itemLowerBound(sub), result.lowerBound);
      ComponentResult placed =
          placeComponent(sub, options, bound, budgetLeft,
                         problem.objective == Objective::ReuseCost);
      budgetLeft -= std::min(budgetLeft, placed.nodes);
      result.nodes += placed.nodes + placed.probeNodes;
      int64_t peak = itemPeak(sub, placed.offsets);
      // The pool's peak is proved optimal when its highest component is.
      if (peak > worstPeak)
        optimal = placed.provedOptimal;
      else if (peak == worstPeak)
        optimal = optimal || placed.provedOptimal;
      worstPeak = std::max(worstPeak, peak);
      for (uint32_t i = 0; i < items.size(); ++i)
        itemOffsets[items[i]] = placed.offsets[i];
    }
  }
  for (size_t i = 0; i < instance.items.size(); ++i)
    for (size_t member : instance.items[i].members)
      offsets[member] = itemOffsets[i];

  result.peak = itemPeak(instance, itemOffsets);
  if (instance.contradictoryPins || result.peak > instance.capacity) {
    result.status = PoolStatus::Infeasible;
    result.overflow = std::max<int64_t>(0, result.peak - instance.capacity);
    result.liveAtPeak = buffersAtBusiestPoint(problem, pool);
  } else if (problem.objective == Objective::ReuseCost) {
    placeForReuseCost(problem, instance, options, itemOffsets, offsets, result);
  } else if (result.peak <= result.lowerBound ||
             (optimal && options.algorithm != Algorithm::Bump)) {
    result.status = PoolStatus::Optimal;
  } else {
    result.status = PoolStatus::Feasible;
  }
  return result;
}

} // namespace

std::optional<Algorithm> dsaplan::solver::parseAlgorithm(std::string_view name) {
  for (const AlgorithmName &entry : kAlgorithms)
    if (name == entry.name)
      return entry.algorithm;
  return std::nullopt;
}

const char *dsaplan::solver::algorithmName(Algorithm algorithm) {
  for (const AlgorithmName &entry : kAlgorithms)
    if (entry.algorithm == algorithm)
      return entry.name;
  return "unknown";
}

const char *dsaplan::solver::algorithmNames() {
  return "bump, first-fit, best-fit, multi-start, exact, auto";
}

const char *dsaplan::solver::poolStatusName(PoolStatus status) {
  switch (status) {
  case PoolStatus::Optimal:
    return "optimal";
  case PoolStatus::Feasible:
    return "feasible";
  case PoolStatus::Infeasible:
    return "infeasible";
  }
  return "unknown";
}

namespace {

/// A pool whose placement breaks anything but the capacity (pins that
/// clash, a pair both colocated and separated, a pin in a reserved range)
/// has no valid placement the algorithms could find: say so.
void demoteInvalidPools(const Problem &problem, Solution &solution) {
  for (const Violation &violation : validate(problem, solution.offsets)) {
    if (violation.kind == Violation::Kind::OutOfCapacity ||
        violation.buffers.empty())
      continue;
    PoolResult &result =
        solution.pools[problem.buffers[violation.buffers.front()].pool];
    if (result.status == PoolStatus::Infeasible)
      continue;
    result.status = PoolStatus::Infeasible;
    result.overflow = std::max<int64_t>(
        0, result.peak - problem.pools[result.pool].capacity);
    result.liveAtPeak = buffersAtBusiestPoint(problem, result.pool);
  }
}

} // namespace

Solution dsaplan::solver::solve(const Problem &problem,
                                const SolveOptions &options) {
  Solution solution;
  solution.offsets.assign(problem.buffers.size(), kUnplaced);
  bool malformed = !checkProblem(problem).empty();
  for (size_t pool = 0; pool < problem.pools.size(); ++pool) {
    if (malformed) {
      PoolResult result;
      result.pool = pool;
      result.status = PoolStatus::Infeasible;
      solution.pools.push_back(result);
      continue;
    }
    solution.pools.push_back(solvePool(problem, pool, options, solution.offsets));
  }
  if (!malformed)
    demoteInvalidPools(problem, solution);
  return solution;
}
