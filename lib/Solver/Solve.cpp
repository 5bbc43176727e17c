//===- Solve.cpp - The solver driver --------------------------------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// For each pool: build the item instance (colocations merged), split it into
// independent components (no conflict joins two of them, so they may share
// addresses), place each component with the selected algorithm, and report
// the peak against the lower bound. When buffers allow several pools, the
// pools are solved under assignments of those buffers and the best
// assignment is kept (see "Choosing pools").
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"
#include "Control.h"
#include "PoolInstance.h"
#include "ReuseCost.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

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
  /// The exact search exhausted every placement within the capacity.
  bool provedInfeasible = false;
  /// Whether the last search proved that nothing fits its limit.
  bool lastProvedInfeasible = false;
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

/// Adds the search nodes the heuristic spends (multi-start's probes, within
/// `nodeBudget`) to `nodes`.
ItemOffsets placeHeuristically(const PoolInstance &instance,
                               Algorithm algorithm, int64_t bound,
                               int64_t ownBound, uint64_t nodeBudget,
                               uint64_t &nodes,
                               SearchControl &control) {
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
                           bound, ownBound, nodeBudget, nodes, &control);
  }
  return {};
}

/// Runs the exact search from `result.offsets`: with `stopWithinLimit`, for
/// any placement within `limit`; otherwise for the smallest peak. Keeps the
/// better placement.
void searchFrom(const PoolInstance &instance, int64_t bound, int64_t limit,
                bool stopWithinLimit, uint64_t budget,
                SearchControl &control, ComponentResult &result) {
  ExactResult exact = searchExact(instance, result.offsets, bound, limit,
                                  stopWithinLimit, budget,
                                  /*decompose=*/true, &control);
  if (exact.peak >= 0 && !exact.offsets.empty() &&
      exact.peak <= itemPeak(instance, result.offsets))
    result.offsets = exact.offsets;
  result.nodes += exact.nodes;
  result.lastProvedInfeasible = exact.provedInfeasible;
  result.provedOptimal = result.provedOptimal || exact.provedOptimal ||
                         itemPeak(instance, result.offsets) <= bound;
}

/// Places one component. `bound` is a lower bound on the pool's peak: the
/// component's own (`ownBound`), or the pool's when that is higher (a
/// component below the pool's bound cannot lower the pool's peak). With
/// `fitOnly` (the reuse-cost objective, where the peak only has to fit) the
/// first placement within capacity ends it.
ComponentResult placeComponent(const PoolInstance &instance,
                               const SolveOptions &options, int64_t bound,
                               int64_t ownBound, uint64_t nodeBudget,
                               bool fitOnly,
                               SearchControl &control) {
  ComponentResult result;
  result.offsets =
      placeHeuristically(instance, options.algorithm, bound, ownBound,
                         nodeBudget, result.probeNodes, control);
  // The probes' nodes come out of the same budget.
  uint64_t spent = std::min(nodeBudget, result.probeNodes);
  bool searches = options.algorithm == Algorithm::Exact ||
                  options.algorithm == Algorithm::Auto;
  result.provedOptimal = itemPeak(instance, result.offsets) <= bound;
  // Above the capacity, a bound there is already the proof that nothing
  // fits: no search can help. The exact search stacks co-live items:
  // temporal exclusions break that.
  if (!searches || instance.items.size() > kExactMaxItems ||
      result.provedOptimal || bound > instance.capacity ||
      instance.hasTemporalExclusions)
    return result;

  bool minimize =
      options.minimizeCapacity || options.algorithm == Algorithm::Exact;
  auto budgetLeft = [&](uint64_t cap) {
    return std::min(cap, nodeBudget - std::min(nodeBudget, spent + result.nodes));
  };
  if (itemPeak(instance, result.offsets) > instance.capacity) {
    // First anything that fits: the capacity is the target.
    searchFrom(instance, bound, instance.capacity, /*stopWithinLimit=*/true,
               budgetLeft(nodeBudget), control, result);
    if (itemPeak(instance, result.offsets) > instance.capacity) {
      result.provedInfeasible = result.lastProvedInfeasible;
      return result;
    }
    if (!minimize || fitOnly)
      return result;
  }
  // Under the reuse-cost objective the peak only has to fit.
  if (fitOnly)
    return result;
  constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max() / 4;
  if (!minimize) {
    searchFrom(instance, bound, bound, /*stopWithinLimit=*/true,
               budgetLeft(kAutoBoundNodes), control, result);
    if (result.provedOptimal)
      return result;
    searchFrom(instance, bound, kNoLimit, /*stopWithinLimit=*/false,
               budgetLeft(kAutoPolishNodes), control, result);
    return result;
  }
  if (!result.provedOptimal)
    searchFrom(instance, bound, kNoLimit, /*stopWithinLimit=*/false,
               budgetLeft(nodeBudget), control, result);
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

/// The buffers behind `items`: every member of each (colocated) item.
std::vector<size_t> buffersOf(const PoolInstance &instance,
                              const std::vector<uint32_t> &items) {
  std::vector<size_t> buffers;
  for (uint32_t i : items)
    buffers.insert(buffers.end(), instance.items[i].members.begin(),
                   instance.items[i].members.end());
  std::sort(buffers.begin(), buffers.end());
  return buffers;
}

/// A component's own bound can beat the pool's when the pool's clique
/// search ran out of nodes: then it, and its clique, become the pool's.
/// Returns the component's own.
int64_t strengthenBound(const PoolInstance &sub, PoolResult &result) {
  BoundProof proof = itemBoundProof(sub);
  if (proof.bound <= result.lowerBound)
    return proof.bound;
  result.lowerBound = proof.bound;
  // The component's items are the pool's: the same buffers.
  result.certificate = buffersOf(sub, proof.items);
  return proof.bound;
}

/// Constraints of the pool that no placement can meet, or "" when none.
std::string contradiction(const Problem &problem, const PoolInstance &instance) {
  if (instance.contradictoryPins)
    return "colocated buffers are pinned at different offsets";
  if (instance.separatedColocation)
    return "two buffers are both colocated and separated";
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    const Item &item = instance.items[i];
    if (!item.pin)
      continue;
    const std::string &id = problem.buffers[item.members.front()].id;
    int64_t begin = *item.pin, end = begin + item.size;
    if (begin % item.alignment)
      return "buffer " + id + " is pinned at " + std::to_string(begin) +
             ", not a multiple of its alignment " +
             std::to_string(item.alignment);
    for (const AddressRange &range : instance.reserved)
      if (range.begin < end && begin < range.end)
        return "buffer " + id + " is pinned into the reserved range [" +
               std::to_string(range.begin) + ", " +
               std::to_string(range.end) + ")";
    for (uint32_t n : instance.conflicts[i]) {
      const Item &other = instance.items[n];
      if (n > i && other.pin && *other.pin < end &&
          begin < *other.pin + other.size)
        return "buffers " + id + " and " +
               problem.buffers[other.members.front()].id +
               " may not share bytes but are pinned over each other";
    }
  }
  return "";
}

/// Sets the status of a pool whose placement (peak already set) is known,
/// from the proofs at hand: the bound's certificate, an exhausted search, or
/// contradicting constraints.
void decideStatus(const Problem &problem, const PoolInstance &instance,
                  bool provedOptimal, bool searchProvedInfeasible,
                  PoolResult &result) {
  result.contradiction = contradiction(problem, instance);
  if (!result.contradiction.empty()) {
    result.status = PoolStatus::Infeasible;
    result.proof = InfeasibilityProof::Constraints;
  } else if (result.peak <= instance.capacity) {
    result.status = provedOptimal || result.peak <= result.lowerBound
                        ? PoolStatus::Optimal
                        : PoolStatus::Feasible;
    return;
  } else if (result.lowerBound > instance.capacity) {
    result.status = PoolStatus::Infeasible;
    result.proof = InfeasibilityProof::Certificate;
  } else {
    result.status =
        searchProvedInfeasible ? PoolStatus::Infeasible : PoolStatus::GaveUp;
    result.proof = searchProvedInfeasible ? InfeasibilityProof::Search
                                          : InfeasibilityProof::None;
  }
  result.overflow = std::max<int64_t>(0, result.peak - instance.capacity);
  result.liveAtPeak = buffersAtBusiestPoint(problem, instance.pool);
}

/// Second objective of a pool that fits: the lowest reuse cost. Never gives
/// up the fit: every placement the cost search returns fits. Bump keeps its
/// placement (it is the no-reuse baseline).
void placeForReuseCost(const Problem &problem, const PoolInstance &instance,
                       const SolveOptions &options, SearchControl &control,
                       ItemOffsets &itemOffsets, Placement &offsets,
                       PoolResult &result) {
  CostInstance costs = buildCostInstance(problem, instance);
  control.startPhase(SolveProgress::Phase::ReuseCost,
                     itemReuseCost(costs, itemOffsets), 0);
  CostResult placed = minimizeReuseCost(
      costs, itemOffsets,
      options.algorithm == Algorithm::Bump ? 0 : options.reuseCostNodeBudget,
      /*greedy=*/true, &control);
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
  BoundProof bound = itemBoundProof(instance);
  result.lowerBound = bound.bound;
  result.certificate = buffersOf(instance, bound.items);
  SearchControl control(options, pool);
  control.startPhase(SolveProgress::Phase::Peak, -1, result.lowerBound);

  ItemOffsets itemOffsets(instance.items.size(), kUnplaced);
  bool optimal = true, searchProvedInfeasible = false;
  int64_t worstPeak = -1;
  uint64_t budgetLeft = options.nodeBudget;
  if (options.algorithm == Algorithm::Bump) {
    itemOffsets = placeBump(instance);
    optimal = false;
  } else {
    std::vector<std::vector<uint32_t>> parts = components(instance);
    std::vector<uint32_t> local;
    if (parts.size() > 1)
      local = indicesInComponents(instance.items.size(), parts);
    for (const std::vector<uint32_t> &items : parts) {
      // One component is the whole instance (its items in order): no copy.
      PoolInstance copy = parts.size() == 1
                              ? PoolInstance()
                              : subInstance(instance, items, local);
      const PoolInstance &sub = parts.size() == 1 ? instance : copy;
      int64_t ownBound =
          parts.size() > 1 ? strengthenBound(sub, result) : result.lowerBound;
      int64_t partBound = result.lowerBound;
      control.setBound(partBound);
      control.setFloor(worstPeak);
      ComponentResult placed =
          placeComponent(sub, options, partBound, ownBound, budgetLeft,
                         problem.objective == Objective::ReuseCost, control);
      budgetLeft -= std::min(budgetLeft, placed.nodes + placed.probeNodes);
      result.nodes += placed.nodes + placed.probeNodes;
      searchProvedInfeasible |= placed.provedInfeasible;
      int64_t peak = itemPeak(sub, placed.offsets);
      // The pool's peak is proved optimal when its highest component is.
      if (peak > worstPeak)
        optimal = placed.provedOptimal;
      else if (peak == worstPeak)
        optimal = optimal || placed.provedOptimal;
      worstPeak = std::max(worstPeak, peak);
      for (uint32_t i = 0; i < items.size(); ++i)
        itemOffsets[items[i]] = placed.offsets[i];
      if (parts.size() > 1)
        returnItems(copy, items, instance);
    }
  }
  for (size_t i = 0; i < instance.items.size(); ++i)
    for (size_t member : instance.items[i].members)
      offsets[member] = itemOffsets[i];

  result.peak = itemPeak(instance, itemOffsets);
  decideStatus(problem, instance, optimal, searchProvedInfeasible, result);
  // Once the pool fits, the second objective: the lowest reuse cost (the
  // status then speaks of the cost).
  if (problem.objective == Objective::ReuseCost &&
      (result.status == PoolStatus::Optimal ||
       result.status == PoolStatus::Feasible))
    placeForReuseCost(problem, instance, options, control, itemOffsets,
                      offsets, result);
  result.stopped = control.stopped();
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
  case PoolStatus::GaveUp:
    return "gave-up";
  }
  return "unknown";
}

const char *dsaplan::solver::infeasibilityProofName(InfeasibilityProof proof) {
  switch (proof) {
  case InfeasibilityProof::None:
    return "none";
  case InfeasibilityProof::Certificate:
    return "certificate";
  case InfeasibilityProof::Search:
    return "exhaustive-search";
  case InfeasibilityProof::Constraints:
    return "contradicting-constraints";
  }
  return "unknown";
}

namespace {

/// A placement that breaks anything but the capacity in a pool not known
/// to be infeasible would be an algorithm's bug: the pool is not placed,
/// and nothing is claimed about it.
void demoteInvalidPools(const Problem &problem, Solution &solution) {
  for (const Violation &violation : validate(problem, solution.offsets)) {
    if (violation.kind == Violation::Kind::OutOfCapacity ||
        violation.buffers.empty())
      continue;
    PoolResult &result =
        solution.pools[problem.buffers[violation.buffers.front()].pool];
    if (!isPlaced(result.status))
      continue;
    result.status = PoolStatus::GaveUp;
    result.overflow = std::max<int64_t>(
        0, result.peak - problem.pools[result.pool].capacity);
    result.liveAtPeak = buffersAtBusiestPoint(problem, result.pool);
  }
}

/// The pool of every buffer where `problem` puts it.
std::vector<size_t> poolsOf(const Problem &problem) {
  std::vector<size_t> poolOf;
  for (const Buffer &buffer : problem.buffers)
    poolOf.push_back(buffer.pool);
  return poolOf;
}

/// Solves every pool with the buffers where `problem` puts them
/// (`malformed`: checkProblem found errors; each pool gives up).
Solution solveFixedPools(const Problem &problem, const SolveOptions &options,
                         bool malformed) {
  Solution solution;
  solution.offsets.assign(problem.buffers.size(), kUnplaced);
  solution.poolOf = poolsOf(problem);
  for (size_t pool = 0; pool < problem.pools.size(); ++pool) {
    if (malformed) {
      PoolResult result;
      result.pool = pool;
      result.status = PoolStatus::GaveUp;
      solution.pools.push_back(result);
      continue;
    }
    solution.pools.push_back(solvePool(problem, pool, options, solution.offsets));
  }
  if (!malformed)
    demoteInvalidPools(problem, solution);
  return solution;
}

//===----------------------------------------------------------------------===//
// Choosing pools
//===----------------------------------------------------------------------===//
//
// Buffers that allow several pools are grouped with the buffers colocated
// with them (which allow the same pools) into choice units. An assignment
// gives every unit one of its pools; each is judged by solving the pools it
// fills, lexicographically: the bytes over capacity first, then the reuse
// cost (Objective::ReuseCost), then the sum of the peaks. A pool's answer
// depends only on its buffers, so answers are cached by pool and members.
//
// For two units, each allowing pools {0, 1}, and a budget of at least 4,
// the four assignments (0,0) (0,1) (1,0) (1,1) are all solved and the best
// kept; with a smaller budget, the descent starts at (0,0) and moves one
// unit at a time while that improves the score.

/// Buffers that move together between the pools they all allow.
struct ChoiceUnit {
  std::vector<size_t> buffers;
  std::vector<size_t> pools;
  int64_t size = 0; // of the largest member: larger units move first
};

std::vector<ChoiceUnit> choiceUnits(const Problem &problem) {
  std::vector<size_t> parent(problem.buffers.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](size_t b) {
    while (parent[b] != b)
      b = parent[b] = parent[parent[b]];
    return b;
  };
  for (const Colocation &c : problem.colocations)
    parent[root(c.first)] = root(c.second);
  std::vector<ChoiceUnit> units;
  std::vector<size_t> unitOfRoot(problem.buffers.size(), SIZE_MAX);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    if (buffer.allowedPools.size() < 2)
      continue;
    size_t &unit = unitOfRoot[root(b)];
    if (unit == SIZE_MAX) {
      unit = units.size();
      units.push_back({{}, buffer.allowedPools, 0});
    }
    units[unit].buffers.push_back(b);
    units[unit].size = std::max(units[unit].size, buffer.size);
  }
  std::stable_sort(units.begin(), units.end(),
                   [](const ChoiceUnit &a, const ChoiceUnit &b) {
                     return a.size > b.size;
                   });
  return units;
}

/// Lexicographic: bytes over capacity, reuse cost, sum of peaks.
struct AssignmentScore {
  int64_t overflow = 0;
  int64_t reuseCost = 0;
  int64_t peaks = 0;
  bool operator<(const AssignmentScore &other) const {
    return std::tie(overflow, reuseCost, peaks) <
           std::tie(other.overflow, other.reuseCost, other.peaks);
  }
};

/// Solves assignments of the choice units, reusing pool answers.
class AssignmentSolver {
public:
  AssignmentSolver(const Problem &problem, const std::vector<ChoiceUnit> &units,
                   const SolveOptions &options)
      : problem(problem), units(units), options(options) {}

  /// The solution under `choice` (an index into each unit's pools).
  Solution solveChoice(const std::vector<size_t> &choice) {
    Solution solution;
    solution.poolOf = poolsOf(problem);
    for (size_t u = 0; u < units.size(); ++u)
      for (size_t b : units[u].buffers)
        solution.poolOf[b] = units[u].pools[choice[u]];
    Problem moved = withPools(problem, solution.poolOf);
    solution.offsets.assign(problem.buffers.size(), kUnplaced);
    for (size_t pool = 0; pool < problem.pools.size(); ++pool)
      solution.pools.push_back(solveCached(moved, pool, solution.offsets));
    demoteInvalidPools(moved, solution);
    return solution;
  }

  AssignmentScore score(const Solution &solution) const {
    AssignmentScore score;
    for (const PoolResult &r : solution.pools) {
      int64_t capacity = problem.pools[r.pool].capacity;
      if (!isPlaced(r.status))
        score.overflow += std::max<int64_t>(1, r.peak - capacity);
      else if (problem.objective == Objective::ReuseCost)
        score.reuseCost += r.reuseCost;
      score.peaks += r.peak;
    }
    return score;
  }

private:
  struct Answer {
    PoolResult result;
    std::vector<std::pair<size_t, int64_t>> offsets;
  };

  PoolResult solveCached(const Problem &moved, size_t pool, Placement &offsets) {
    std::vector<size_t> members;
    for (size_t b = 0; b < moved.buffers.size(); ++b)
      if (moved.buffers[b].pool == pool)
        members.push_back(b);
    auto key = std::make_pair(pool, members);
    auto it = answers.find(key);
    if (it == answers.end()) {
      Answer answer;
      Placement placed(moved.buffers.size(), kUnplaced);
      answer.result = solvePool(moved, pool, options, placed);
      for (size_t b : members)
        answer.offsets.push_back({b, placed[b]});
      it = answers.emplace(std::move(key), std::move(answer)).first;
    }
    for (const auto &[b, offset] : it->second.offsets)
      offsets[b] = offset;
    return it->second.result;
  }

  const Problem &problem;
  const std::vector<ChoiceUnit> &units;
  const SolveOptions &options;
  std::map<std::pair<size_t, std::vector<size_t>>, Answer> answers;
};

/// The number of assignments of `units`, or UINT64_MAX beyond `limit`.
uint64_t assignmentCount(const std::vector<ChoiceUnit> &units, uint64_t limit) {
  uint64_t count = 1;
  for (const ChoiceUnit &unit : units) {
    if (count > limit / unit.pools.size())
      return UINT64_MAX;
    count *= unit.pools.size();
  }
  return count;
}

/// Whether pool `r`'s proof of infeasibility involves only buffers that
/// cannot leave it, so that it holds under every assignment.
bool proofHoldsForEveryChoice(const Problem &problem, const Solution &solution,
                              const PoolResult &r) {
  auto fixed = [&](size_t b) { return problem.buffers[b].allowedPools.size() < 2; };
  if (r.proof == InfeasibilityProof::Certificate)
    return std::all_of(r.certificate.begin(), r.certificate.end(), fixed);
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (solution.poolOf[b] == r.pool && !fixed(b))
      return false;
  return true;
}

/// Tries every assignment when there are few enough, else descends from
/// the first allowed pools one unit at a time; keeps the best (the first
/// found among equals). Infeasible pools become GaveUp where another
/// assignment might have fitted.
Solution choosePools(const Problem &problem, const std::vector<ChoiceUnit> &units,
                     const SolveOptions &options) {
  AssignmentSolver solver(problem, units, options);
  std::vector<size_t> choice(units.size(), 0), bestChoice = choice;
  Solution best = solver.solveChoice(choice);
  AssignmentScore bestScore = solver.score(best);
  uint64_t tried = 1;
  bool everyOneInfeasible = true;
  auto consider = [&](const std::vector<size_t> &candidate) {
    Solution solution = solver.solveChoice(candidate);
    ++tried;
    everyOneInfeasible &= std::any_of(
        solution.pools.begin(), solution.pools.end(), [](const PoolResult &r) {
          return r.status == PoolStatus::Infeasible;
        });
    AssignmentScore score = solver.score(solution);
    if (!(score < bestScore))
      return false;
    best = std::move(solution);
    bestScore = score;
    bestChoice = candidate;
    return true;
  };
  everyOneInfeasible = std::any_of(
      best.pools.begin(), best.pools.end(),
      [](const PoolResult &r) { return r.status == PoolStatus::Infeasible; });

  uint64_t count = assignmentCount(units, options.assignmentBudget);
  bool exhaustive = count != UINT64_MAX;
  if (exhaustive) {
    // Counts through every assignment after the first, like an odometer.
    for (uint64_t n = 1; n < count; ++n) {
      for (size_t u = 0; u < units.size(); ++u) {
        if (++choice[u] < units[u].pools.size())
          break;
        choice[u] = 0;
      }
      consider(choice);
    }
  } else {
    for (bool improved = true; improved;) {
      improved = false;
      for (size_t u = 0; u < units.size(); ++u)
        for (size_t c = 0; c < units[u].pools.size(); ++c) {
          if (c == bestChoice[u] || tried >= options.assignmentBudget)
            continue;
          std::vector<size_t> candidate = bestChoice;
          candidate[u] = c;
          improved |= consider(candidate);
        }
    }
  }

  best.poolChoices = units.size();
  best.assignmentsTried = tried;
  best.allAssignmentsTried = exhaustive;
  for (PoolResult &r : best.pools)
    if (r.status == PoolStatus::Infeasible && !(exhaustive && everyOneInfeasible) &&
        !proofHoldsForEveryChoice(problem, best, r)) {
      r.status = PoolStatus::GaveUp;
      r.proof = InfeasibilityProof::None;
    }
  return best;
}

} // namespace

Solution dsaplan::solver::solve(const Problem &problem,
                                const SolveOptions &options) {
  std::vector<ChoiceUnit> units;
  bool malformed = !checkProblem(problem).empty();
  if (!malformed)
    units = choiceUnits(problem);
  Solution solution = units.empty()
                          ? solveFixedPools(problem, options, malformed)
                          : choosePools(problem, units, options);
  // Set once it was asked for: some search (perhaps of an assignment not
  // kept) may have been cut short even where no kept pool says so.
  solution.stopped = options.stop && options.stop->load();
  for (const PoolResult &pool : solution.pools)
    solution.stopped |= pool.stopped;
  return solution;
}
