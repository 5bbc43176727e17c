//===- PropertyTest.cpp - Seeded random problems against a brute force ----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Thousands of small random problems (pins, reserved ranges, alignments,
// separations, colocations, several intervals per buffer, two pools) are
// solved by every algorithm and checked:
//  - whatever an algorithm does not call infeasible validates;
//  - the lower bound never exceeds the optimum;
//  - `exact` and `auto` (minimising the peak) reach the optimum, and claim
//    optimality only when the peak is the optimum;
//  - with the capacity set to the optimum they place everything, one byte
//    below it everybody reports the pool infeasible;
//  - on larger problems (beyond the brute force), the exact search with
//    dynamic decomposition finds and proves the same optimum as without,
//    and answers the same feasibility questions.
// The optimum comes from a brute force written here, sharing nothing with
// the solver: every order of the buffers, each placed at its lowest free
// offset. Any placement is reached that way without raising its peak (list
// its buffers by offset; placing them in that order at their lowest free
// offsets moves none of them up), so the best order gives the optimum.
//
//===----------------------------------------------------------------------===//

#include "PoolInstance.h"
#include "TestProblems.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

/// A small deterministic generator (the standard distributions are not
/// specified bit for bit, so they would differ between libraries).
class Random {
public:
  explicit Random(uint64_t seed) : state(seed * 2654435761ULL + 1) {}
  int64_t below(int64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(bound));
  }
  bool chance(int percent) { return below(100) < percent; }

private:
  uint64_t state;
};

//===----------------------------------------------------------------------===//
// Brute force
//===----------------------------------------------------------------------===//

/// A colocation group of the brute force: members share one offset.
struct Group {
  int64_t size = 0;
  int64_t alignment = 1;
  std::vector<size_t> members;
  std::optional<int64_t> pin;
  bool contradictoryPin = false;
};

bool intervalsMeet(const std::vector<Interval> &a,
                   const std::vector<Interval> &b) {
  for (const Interval &x : a)
    for (const Interval &y : b)
      if (x.lower < y.upper && y.lower < x.upper)
        return true;
  return false;
}

class BruteForce {
public:
  BruteForce(const Problem &problem, size_t pool)
      : problem(problem), pool(problem.pools[pool]) {
    buildGroups(pool);
    buildConflicts();
  }

  /// The smallest peak of any valid placement, ignoring the capacity;
  /// nullopt when no valid placement exists at all.
  std::optional<int64_t> optimum() {
    offsets.assign(groups.size(), -1);
    int64_t fixedPeak = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].contradictoryPin)
        return std::nullopt;
      if (!groups[g].pin)
        continue;
      if (lowestFreeOffset(g, *groups[g].pin) != *groups[g].pin)
        return std::nullopt;
      offsets[g] = *groups[g].pin;
      fixedPeak = std::max(fixedPeak, offsets[g] + groups[g].size);
    }
    for (const Group &group : groups)
      for (size_t a : group.members)
        for (size_t b : group.members)
          if (a < b && (separated(a, b) ||
                        intervalsMeet(problem.buffers[a].live,
                                      problem.buffers[b].live)))
            return std::nullopt; // one offset, yet they may not share bytes
    best = std::numeric_limits<int64_t>::max();
    search(fixedPeak);
    return best;
  }

  /// The placement that reached the optimum (members of a group share the
  /// group's offset); buffers of other pools stay unplaced.
  Placement bestPlacement() const {
    Placement placement(problem.buffers.size(), kUnplaced);
    for (size_t g = 0; g < groups.size(); ++g)
      for (size_t b : groups[g].members)
        placement[b] = bestOffsets[g];
    return placement;
  }

private:
  void buildGroups(size_t poolIndex) {
    std::vector<size_t> root(problem.buffers.size());
    std::iota(root.begin(), root.end(), 0);
    auto find = [&](size_t b) {
      while (root[b] != b)
        b = root[b];
      return b;
    };
    for (const Colocation &c : problem.colocations)
      root[find(c.first)] = find(c.second);
    std::vector<int64_t> groupOf(problem.buffers.size(), -1);
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      const Buffer &buffer = problem.buffers[b];
      if (buffer.pool != poolIndex)
        continue;
      size_t r = find(b);
      if (groupOf[r] < 0) {
        groupOf[r] = static_cast<int64_t>(groups.size());
        groups.emplace_back();
      }
      Group &group = groups[groupOf[r]];
      group.members.push_back(b);
      group.size = std::max(group.size, buffer.size);
      group.alignment =
          std::max({group.alignment, buffer.alignment, pool.alignment});
      if (buffer.pinnedOffset) {
        if (group.pin && *group.pin != *buffer.pinnedOffset)
          group.contradictoryPin = true;
        group.pin = buffer.pinnedOffset;
      }
    }
  }

  bool separated(size_t a, size_t b) const {
    for (const Separation &s : problem.separations)
      if ((s.first == a && s.second == b) || (s.first == b && s.second == a))
        return true;
    return false;
  }

  /// Groups conflict when any two members are live together or separated.
  void buildConflicts() {
    conflict.assign(groups.size(), std::vector<bool>(groups.size(), false));
    for (size_t g = 0; g < groups.size(); ++g)
      for (size_t h = g + 1; h < groups.size(); ++h)
        for (size_t a : groups[g].members)
          for (size_t b : groups[h].members)
            if (separated(a, b) || intervalsMeet(problem.buffers[a].live,
                                                 problem.buffers[b].live))
              conflict[g][h] = conflict[h][g] = true;
  }

  bool blockedAt(size_t g, int64_t offset) const {
    int64_t end = offset + groups[g].size;
    for (const AddressRange &range : pool.reserved)
      if (offset < range.end && range.begin < end)
        return true;
    for (size_t h = 0; h < groups.size(); ++h)
      if (h != g && offsets[h] >= 0 && conflict[g][h] &&
          offset < offsets[h] + groups[h].size && offsets[h] < end)
        return true;
    return false;
  }

  /// The lowest aligned offset >= `from` where `g` meets nothing placed.
  int64_t lowestFreeOffset(size_t g, int64_t from) const {
    int64_t alignment = groups[g].alignment;
    int64_t offset = (from + alignment - 1) / alignment * alignment;
    while (blockedAt(g, offset))
      offset += alignment;
    return offset;
  }

  void search(int64_t peak) {
    if (peak >= best)
      return;
    bool complete = true;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (offsets[g] >= 0)
        continue;
      complete = false;
      offsets[g] = lowestFreeOffset(g, 0);
      search(std::max(peak, offsets[g] + groups[g].size));
      offsets[g] = -1;
    }
    if (complete) {
      best = peak;
      bestOffsets = offsets;
    }
  }

  const Problem &problem;
  const Pool &pool;
  std::vector<Group> groups;
  std::vector<std::vector<bool>> conflict;
  std::vector<int64_t> offsets, bestOffsets;
  int64_t best = 0;
};

//===----------------------------------------------------------------------===//
// Random problems
//===----------------------------------------------------------------------===//

std::vector<Interval> randomLifetime(Random &random, int64_t horizon) {
  int64_t lower = random.below(horizon);
  std::vector<Interval> live = {{lower, lower + 1 + random.below(5)}};
  if (random.chance(20)) {
    int64_t next = live[0].upper + 1 + random.below(3);
    live.push_back({next, next + 1 + random.below(3)});
  }
  return live;
}

/// Up to `maxBuffers` buffers over one or two pools.
Problem randomProblem(Random &random, size_t maxBuffers, int64_t horizon) {
  const int64_t alignments[] = {1, 1, 1, 2, 4};
  ProblemBuilder builder(int64_t(1) << 30, alignments[random.below(5)]);
  if (random.chance(20))
    builder.addPool(int64_t(1) << 30, alignments[random.below(5)]);
  for (size_t p = 0; p < builder.problem.pools.size(); ++p)
    if (random.chance(15)) {
      int64_t begin = random.below(9);
      builder.reserve(begin, begin + 1 + random.below(4), p);
    }
  size_t count = 1 + random.below(static_cast<int64_t>(maxBuffers));
  for (size_t b = 0; b < count; ++b) {
    size_t pool = random.below(static_cast<int64_t>(builder.problem.pools.size()));
    builder.add(1 + random.below(10), randomLifetime(random, horizon),
                alignments[random.below(5)], pool);
  }
  Problem &problem = builder.problem;
  auto samePool = [&](size_t a, size_t b) {
    return a != b && problem.buffers[a].pool == problem.buffers[b].pool;
  };
  for (int64_t s = random.below(3); s > 0; --s) {
    size_t a = random.below(count), b = random.below(count);
    if (samePool(a, b))
      builder.separate(a, b);
  }
  // Colocated buffers get one size: then merging them into one block with
  // the union of their lifetimes is exact, and the brute force may treat
  // them as one group.
  if (random.chance(15)) {
    size_t a = random.below(count), b = random.below(count);
    bool separated = std::any_of(
        problem.separations.begin(), problem.separations.end(),
        [&](const Separation &s) {
          return (s.first == a && s.second == b) ||
                 (s.first == b && s.second == a);
        });
    if (samePool(a, b) && !separated &&
        !intervalsMeet(problem.buffers[a].live, problem.buffers[b].live)) {
      problem.buffers[b].size = problem.buffers[a].size;
      builder.colocate(a, b);
    }
  }
  if (random.chance(12)) {
    size_t b = random.below(count);
    int64_t alignment = effectiveAlignment(problem, b);
    builder.pin(b, alignment * random.below(12 / alignment + 1));
  }
  return problem;
}

/// Violations of `solution` that involve a buffer of `pool`.
std::vector<Violation> violationsIn(const Problem &problem,
                                    const Solution &solution, size_t pool) {
  std::vector<Violation> result;
  for (const Violation &violation : validate(problem, solution.offsets))
    if (std::any_of(violation.buffers.begin(), violation.buffers.end(),
                    [&](size_t b) { return problem.buffers[b].pool == pool; }))
      result.push_back(violation);
  return result;
}

struct Failure {
  std::string text;
  void add(uint64_t seed, size_t pool, Algorithm algorithm,
           const std::string &what) {
    if (count++ < 20)
      text += "seed " + std::to_string(seed) + " pool " +
              std::to_string(pool) + " " + algorithmName(algorithm) + ": " +
              what + "\n";
  }
  int count = 0;
};

/// Checks every algorithm on `problem` against the brute-force optima.
void checkAgainstBruteForce(uint64_t seed, const Problem &problem,
                            Failure &failure) {
  std::vector<std::optional<int64_t>> optimum;
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    BruteForce bruteForce(problem, p);
    optimum.push_back(bruteForce.optimum());
    if (!optimum.back())
      continue;
    // The brute force is checked too: its best placement must validate.
    Solution reference;
    reference.offsets = bruteForce.bestPlacement();
    reference.pools.resize(problem.pools.size());
    std::vector<Violation> violations = violationsIn(problem, reference, p);
    if (!violations.empty() ||
        peakOf(problem, reference.offsets, p) != *optimum.back())
      failure.add(seed, p, Algorithm::Exact,
                  "the brute force itself is wrong: " +
                      (violations.empty() ? std::string("peak")
                                          : violations.front().message));
  }

  for (Algorithm algorithm : allAlgorithms())
    for (bool minimize : {false, true}) {
      if (minimize && algorithm != Algorithm::Exact &&
          algorithm != Algorithm::Auto)
        continue;
      Solution solution = solveWith(problem, algorithm, minimize);
      for (size_t p = 0; p < problem.pools.size(); ++p) {
        const PoolResult &result = solution.pools[p];
        if (!isPlaced(result.status)) {
          // Giving up claims nothing; "infeasible" claims a proof.
          if (optimum[p] && result.status == PoolStatus::Infeasible)
            failure.add(seed, p, algorithm, "infeasible, optimum " +
                                                std::to_string(*optimum[p]));
          continue;
        }
        if (!optimum[p]) {
          failure.add(seed, p, algorithm,
                      "claims a placement where none is valid");
          continue;
        }
        std::vector<Violation> violations = violationsIn(problem, solution, p);
        if (!violations.empty())
          failure.add(seed, p, algorithm, violations.front().message);
        if (result.lowerBound > *optimum[p] ||
            lowerBound(problem, p) > *optimum[p])
          failure.add(seed, p, algorithm,
                      "lower bound " + std::to_string(result.lowerBound) +
                          " > optimum " + std::to_string(*optimum[p]));
        if (result.status == PoolStatus::Optimal && result.peak != *optimum[p])
          failure.add(seed, p, algorithm,
                      "claims optimal peak " + std::to_string(result.peak) +
                          ", optimum " + std::to_string(*optimum[p]));
        if (minimize && (result.peak != *optimum[p] ||
                         result.status != PoolStatus::Optimal))
          failure.add(seed, p, algorithm,
                      "peak " + std::to_string(result.peak) + " (" +
                          poolStatusName(result.status) + "), optimum " +
                          std::to_string(*optimum[p]));
      }
    }
}

/// The problem restricted to the certificate's buffers (with the
/// constraints among them) has no placement within the capacity: removing
/// buffers never raises the optimum, so neither has the whole problem.
void checkCertificateByBruteForce(uint64_t seed, const Problem &problem,
                                  const PoolResult &result,
                                  Algorithm algorithm, Failure &failure) {
  std::string conflicts = checkCertificate(problem, result);
  if (!conflicts.empty())
    return failure.add(seed, result.pool, algorithm,
                       "bad certificate: " + conflicts);
  Problem sub;
  sub.pools = problem.pools;
  std::vector<int64_t> index(problem.buffers.size(), -1);
  for (size_t b : result.certificate) {
    index[b] = static_cast<int64_t>(sub.buffers.size());
    sub.buffers.push_back(problem.buffers[b]);
  }
  for (const Separation &s : problem.separations)
    if (index[s.first] >= 0 && index[s.second] >= 0)
      sub.separations.push_back(
          {size_t(index[s.first]), size_t(index[s.second]), s.reason});
  for (const Colocation &c : problem.colocations)
    if (index[c.first] >= 0 && index[c.second] >= 0)
      sub.colocations.push_back({size_t(index[c.first]), size_t(index[c.second])});
  std::optional<int64_t> optimum = BruteForce(sub, result.pool).optimum();
  if (optimum && *optimum <= problem.pools[result.pool].capacity)
    failure.add(seed, result.pool, algorithm,
                "the certificate's buffers alone fit at " +
                    std::to_string(*optimum));
}

/// With the capacity at the optimum, exact and auto fit; one byte below,
/// every algorithm reports the pool infeasible and says why.
void checkCapacityTargets(uint64_t seed, Problem problem, Failure &failure) {
  std::optional<int64_t> optimum = BruteForce(problem, 0).optimum();
  if (!optimum)
    return;
  int64_t largest = 0;
  for (const Buffer &buffer : problem.buffers)
    if (buffer.pool == 0)
      largest = std::max(largest, buffer.size);
  if (largest == 0)
    return;

  problem.pools[0].capacity = *optimum;
  for (Algorithm algorithm : {Algorithm::Exact, Algorithm::Auto}) {
    Solution solution = solveWith(problem, algorithm);
    if (!isPlaced(solution.pools[0].status) ||
        !violationsIn(problem, solution, 0).empty())
      failure.add(seed, 0, algorithm,
                  "no valid placement within capacity " +
                      std::to_string(*optimum));
  }

  if (*optimum - 1 < largest)
    return; // the problem would be malformed, not infeasible
  problem.pools[0].capacity = *optimum - 1;
  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(problem, algorithm);
    const PoolResult &result = solution.pools[0];
    // The searching algorithms prove it; the others may only give up.
    bool searches =
        algorithm == Algorithm::Exact || algorithm == Algorithm::Auto;
    if (isPlaced(result.status))
      failure.add(seed, 0, algorithm,
                  "placed below the optimum " + std::to_string(*optimum));
    else if (searches && result.status != PoolStatus::Infeasible)
      failure.add(seed, 0, algorithm, "no proof below the optimum");
    else if (result.overflow <= 0 || result.liveAtPeak.empty())
      failure.add(seed, 0, algorithm, "not placed without overflow or culprits");
    else if (result.status == PoolStatus::Infeasible &&
             result.proof == InfeasibilityProof::None)
      failure.add(seed, 0, algorithm, "infeasible without a proof");
    else if (result.proof == InfeasibilityProof::Certificate)
      checkCertificateByBruteForce(seed, problem, result, algorithm, failure);
  }
}

TEST(Property, SmallProblemsAgainstBruteForce) {
  Failure failure;
  const uint64_t kInstances = 3000;
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    Random random(seed);
    Problem problem = randomProblem(random, 8, 10);
    ASSERT_TRUE(checkProblem(problem).empty())
        << "seed " << seed << ": " << checkProblem(problem).front();
    checkAgainstBruteForce(seed, problem, failure);
    checkCapacityTargets(seed, problem, failure);
  }
  EXPECT_EQ(failure.count, 0) << failure.text;
}

TEST(Property, BruteForceAgreesWithHandCountedOptima) {
  // The brute force itself: three mutually live buffers stack (sum); two
  // buffers that never meet share bytes (max); a pin fixes the peak.
  ProblemBuilder stack(1024);
  for (int64_t size : {3, 5, 7})
    stack.add(size, {{0, 4}});
  EXPECT_EQ(BruteForce(stack.problem, 0).optimum(), 15);
  ProblemBuilder apart(1024);
  apart.add(3, {{0, 2}});
  apart.add(5, {{2, 4}});
  EXPECT_EQ(BruteForce(apart.problem, 0).optimum(), 5);
  apart.pin(0, 40);
  EXPECT_EQ(BruteForce(apart.problem, 0).optimum(), 43);
  ProblemBuilder clash(1024);
  clash.add(8, {{0, 2}});
  clash.add(8, {{1, 3}});
  clash.pin(0, 0).pin(1, 4);
  EXPECT_EQ(BruteForce(clash.problem, 0).optimum(), std::nullopt);
}

TEST(Property, MediumProblemsValidateForEveryAlgorithm) {
  Failure failure;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    Random random(seed + 1'000'000);
    Problem problem = randomProblem(random, 60, 40);
    for (Pool &pool : problem.pools)
      pool.capacity = int64_t(1) << 30;
    for (Algorithm algorithm : allAlgorithms()) {
      Solution solution = solveWith(problem, algorithm, false, 20'000);
      for (size_t p = 0; p < problem.pools.size(); ++p) {
        if (!isPlaced(solution.pools[p].status))
          continue; // a clashing pin; the small test checks those
        std::vector<Violation> violations = violationsIn(problem, solution, p);
        if (!violations.empty())
          failure.add(seed, p, algorithm, violations.front().message);
        if (solution.pools[p].peak < solution.pools[p].lowerBound)
          failure.add(seed, p, algorithm, "peak below the lower bound");
      }
    }
  }
  EXPECT_EQ(failure.count, 0) << failure.text;
}

/// `offsets` of the items of `instance` as a placement of `problem`.
Placement placementOf(const Problem &problem,
                      const detail::PoolInstance &instance,
                      const detail::ItemOffsets &offsets) {
  Placement placement(problem.buffers.size(), kUnplaced);
  for (size_t i = 0; i < instance.items.size(); ++i)
    for (size_t member : instance.items[i].members)
      placement[member] = offsets[i];
  return placement;
}

/// placeByLevels takes a heap-driven shortcut for the canonical search's
/// first descent: on random pools (reserved ranges, pins, separations,
/// alignments) and several orders each, it must give the descent's offsets.
TEST(Property, LevelDescentMatchesTheSearch) {
  using namespace detail;
  Failure failure;
  int compared = 0, withPins = 0;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    Random random(seed + 3'000'000);
    Problem problem = randomProblem(random, 40, 12);
    for (size_t p = 0; p < problem.pools.size(); ++p) {
      PoolInstance instance = buildPoolInstance(problem, p);
      std::vector<uint32_t> order = orderBySizeThenLength(instance);
      for (int round = 0; round < 3; ++round) {
        ++compared;
        withPins += std::any_of(instance.items.begin(), instance.items.end(),
                                [](const Item &item) { return item.pin; });
        if (placeByLevels(instance, order) !=
            placeByLevelsBySearch(instance, order))
          failure.add(seed, p, Algorithm::MultiStart,
                      "order " + std::to_string(round) +
                          ": the shortcut places differently");
        for (size_t k = order.size(); k > 1; --k)
          std::swap(order[k - 1], order[random.below(k)]);
      }
    }
  }
  EXPECT_EQ(failure.count, 0) << failure.text;
  EXPECT_GT(withPins, 100); // the pinned neighbours were stepped over
}

TEST(Property, DecompositionKeepsTheOptimum) {
  using namespace detail;
  Failure failure;
  const int64_t kUnbounded = int64_t(1) << 40;
  const uint64_t kBudget = 1'000'000;
  int unproved = 0;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    Random random(seed + 2'000'000);
    // Long horizons and short lifetimes: the search meets many time cuts.
    Problem problem = randomProblem(random, 16, 24);
    PoolInstance instance = buildPoolInstance(problem, 0);
    if (instance.contradictoryPins || instance.items.empty())
      continue;
    int64_t bound = itemLowerBound(instance);
    ItemOffsets start = placeInOrder(
        instance, orderBySizeThenLength(instance), FitRule::First);
    Solution first;
    first.offsets = placementOf(problem, instance, start);
    if (!violationsIn(problem, first, 0).empty())
      continue; // a pin breaks a rule: no valid placement to search for
    ExactResult with = searchExact(instance, start, bound, kUnbounded,
                                   /*stopWithinLimit=*/false, kBudget, true);
    ExactResult without = searchExact(instance, start, bound, kUnbounded,
                                      /*stopWithinLimit=*/false, kBudget,
                                      false);
    // A proved optimum is below every placement the other run found.
    if ((with.provedOptimal && with.peak > without.peak) ||
        (without.provedOptimal && without.peak > with.peak))
      failure.add(seed, 0, Algorithm::Exact,
                  "optimum " + std::to_string(with.peak) +
                      (with.provedOptimal ? " (proved)" : "") +
                      " with decomposition, " + std::to_string(without.peak) +
                      (without.provedOptimal ? " (proved)" : "") +
                      " without");
    if (!with.provedOptimal) {
      ++unproved; // rare: a budget this size proves nearly all
      continue;
    }
    Solution solution;
    solution.offsets = placementOf(problem, instance, with.offsets);
    if (!violationsIn(problem, solution, 0).empty())
      failure.add(seed, 0, Algorithm::Exact,
                  violationsIn(problem, solution, 0).front().message);
    // The same feasibility questions, from no incumbent: at the optimum a
    // placement exists, one byte below none does.
    for (int64_t limit : {with.peak, with.peak - 1}) {
      ExactResult fit = searchExact(instance, {}, bound, limit,
                                    /*stopWithinLimit=*/true, kBudget, true);
      bool found = fit.peak >= 0 && fit.peak <= limit;
      if (found != (limit == with.peak) ||
          (!found && !fit.provedInfeasible))
        failure.add(seed, 0, Algorithm::Exact,
                    "decomposed feasibility at " + std::to_string(limit) +
                        (found ? " found" : " not found") +
                        ", optimum " + std::to_string(with.peak));
    }
  }
  EXPECT_EQ(failure.count, 0) << failure.text;
  EXPECT_LE(unproved, 5);
}

} // namespace

//===----------------------------------------------------------------------===//
// Pool choice
//===----------------------------------------------------------------------===//

namespace {

/// Two small pools; about half of the buffers may go in either (in a random
/// order of preference), the others in one.
Problem randomChoiceProblem(Random &random) {
  ProblemBuilder builder(10 + random.below(14));
  builder.addPool(10 + random.below(14));
  size_t count = 2 + random.below(5);
  for (size_t b = 0; b < count; ++b) {
    size_t pool = random.below(2);
    builder.add(1 + random.below(9), randomLifetime(random, 6), 1, pool);
    if (random.chance(50))
      builder.problem.buffers[b].allowedPools = {pool, 1 - pool};
  }
  if (random.chance(30)) {
    size_t a = random.below(count), b = random.below(count);
    if (a != b)
      builder.separate(a, b);
  }
  return builder.problem;
}

/// Whether some assignment of the buffers to their allowed pools lets every
/// pool fit, by brute force over assignments and placements.
bool someAssignmentFits(const Problem &problem) {
  std::vector<size_t> choosers;
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (problem.buffers[b].allowedPools.size() > 1)
      choosers.push_back(b);
  for (uint64_t mask = 0; mask < (uint64_t(1) << choosers.size()); ++mask) {
    Problem moved = problem;
    for (size_t i = 0; i < choosers.size(); ++i)
      moved.buffers[choosers[i]].pool =
          moved.buffers[choosers[i]].allowedPools[(mask >> i) & 1];
    bool fits = true;
    for (size_t p = 0; p < moved.pools.size() && fits; ++p) {
      std::optional<int64_t> optimum = BruteForce(moved, p).optimum();
      fits = optimum && *optimum <= moved.pools[p].capacity;
    }
    if (fits)
      return true;
  }
  return false;
}

} // namespace

TEST(PoolChoice, FitsExactlyWhenSomeAssignmentFits) {
  Failure failure;
  int fitting = 0, notFitting = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Random random(seed);
    Problem problem = randomChoiceProblem(random);
    ASSERT_TRUE(checkProblem(problem).empty())
        << "seed " << seed << ": " << checkProblem(problem).front();
    bool fits = someAssignmentFits(problem);
    (fits ? fitting : notFitting) += 1;
    Solution solution = solve(problem);
    bool placed = std::all_of(solution.pools.begin(), solution.pools.end(),
                              [](const PoolResult &r) { return isPlaced(r.status); });
    bool infeasible = std::any_of(
        solution.pools.begin(), solution.pools.end(),
        [](const PoolResult &r) { return r.status == PoolStatus::Infeasible; });
    if (placed != fits)
      failure.add(seed, 0, Algorithm::Auto,
                  fits ? "some assignment fits, yet not placed"
                       : "placed, yet no assignment fits");
    else if (!fits && !infeasible)
      failure.add(seed, 0, Algorithm::Auto,
                  "every assignment was tried and none fits, yet not infeasible");
    else if (placed && !validate(problem, solution.offsets, solution.poolOf).empty())
      failure.add(seed, 0, Algorithm::Auto,
                  "invalid: " + describe(validate(problem, solution.offsets,
                                                  solution.poolOf)));
  }
  EXPECT_EQ(failure.count, 0) << failure.text;
  // Both answers occur, so the comparison can fail either way.
  EXPECT_GT(fitting, 50);
  EXPECT_GT(notFitting, 20);
}

TEST(PoolChoice, MovesWhatDoesNotFitAndNamesThePool) {
  // b2 prefers pool 0, where b0 and b1 already fill the 16 bytes.
  ProblemBuilder builder(16);
  builder.addPool(8);
  builder.add(8, {{0, 4}});
  builder.add(8, {{0, 4}});
  size_t b2 = builder.add(8, {{0, 4}});
  builder.problem.buffers[b2].allowedPools = {0, 1};
  Solution solution = solve(builder.problem);
  EXPECT_EQ(solution.poolOf, (std::vector<size_t>{0, 0, 1}));
  EXPECT_EQ(solution.poolChoices, 1u);
  EXPECT_EQ(solution.assignmentsTried, 2u);
  EXPECT_TRUE(solution.allAssignmentsTried);
  for (const PoolResult &r : solution.pools)
    EXPECT_EQ(r.status, PoolStatus::Optimal);
  EXPECT_TRUE(validate(builder.problem, solution.offsets, solution.poolOf).empty());
  // The validator checks the choice itself, independently of the solver.
  std::vector<size_t> wrong = {1, 0, 1};
  std::vector<Violation> violations =
      validate(builder.problem, solution.offsets, wrong);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].kind, Violation::Kind::PoolNotAllowed);
  EXPECT_NE(violations[0].message.find("b0 is placed in pool 1"), std::string::npos)
      << violations[0].message;
}

TEST(PoolChoice, ABudgetThatStopsTheChoiceGivesUpInsteadOfClaimingInfeasible) {
  // Both movable buffers prefer pool 0 (16 bytes); pool 1 already holds
  // 9 of its 16. With a budget of one assignment, only the first is tried.
  ProblemBuilder builder(16);
  builder.addPool(16);
  size_t a = builder.add(12, {{0, 4}});
  size_t b = builder.add(10, {{0, 4}});
  size_t c = builder.add(9, {{0, 4}}, 1, 1);
  builder.problem.buffers[a].allowedPools = {0, 1};
  builder.problem.buffers[b].allowedPools = {0, 1};
  (void)c;
  SolveOptions options;
  options.assignmentBudget = 1;
  Solution stopped = solve(builder.problem, options);
  EXPECT_FALSE(stopped.allAssignmentsTried);
  EXPECT_EQ(stopped.assignmentsTried, 1u);
  // Pool 0 holds 22 bytes > 16: its certificate names buffers that may
  // move, so it is not called infeasible.
  EXPECT_EQ(stopped.pools[0].status, PoolStatus::GaveUp);
  // With the default budget every assignment is tried and none fits
  // (12 + 10 + 9 bytes, all live together, in 16 + 16): proved infeasible.
  Solution all = solve(builder.problem);
  EXPECT_TRUE(all.allAssignmentsTried);
  EXPECT_TRUE(std::any_of(all.pools.begin(), all.pools.end(), [](const PoolResult &r) {
    return r.status == PoolStatus::Infeasible;
  }));
}

TEST(PoolChoice, ReuseCostComesBeforeThePeaks) {
  // b1 may reuse b0's bytes in pool 0 (both peaks then sum to 16) at a
  // penalty of 5, or take pool 1 at no cost (the peaks sum to 32).
  ProblemBuilder builder(16);
  builder.addPool(16);
  size_t b0 = builder.add(16, {{0, 4}});
  size_t b1 = builder.add(16, {{4, 8}});
  builder.problem.buffers[b1].allowedPools = {0, 1};
  builder.problem.reusePenalties.push_back({b0, b1, 5, "cross_pipe"});

  Solution peak = solve(builder.problem);
  EXPECT_EQ(peak.poolOf[b1], 0u);

  builder.problem.objective = Objective::ReuseCost;
  Solution cost = solve(builder.problem);
  EXPECT_EQ(cost.poolOf[b1], 1u);
  Problem chosen = withPools(builder.problem, cost.poolOf);
  for (size_t pool = 0; pool < 2; ++pool) {
    EXPECT_EQ(reuseCostOf(chosen, cost.offsets, pool).cost, 0);
    EXPECT_EQ(cost.pools[pool].status, PoolStatus::Optimal);
  }
  EXPECT_TRUE(validate(builder.problem, cost.offsets, cost.poolOf).empty());
}
