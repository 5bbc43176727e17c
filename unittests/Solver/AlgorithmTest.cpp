//===- AlgorithmTest.cpp - Units for every placement algorithm ------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Small hand-made problems whose answer is known, one property of an
// algorithm per test. Every solution is also checked by the validator.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

/// Asserts that `solution` validates against `problem`.
void expectValid(const Problem &problem, const Solution &solution,
                 Algorithm algorithm) {
  std::vector<Violation> violations = validate(problem, solution.offsets);
  EXPECT_TRUE(violations.empty())
      << algorithmName(algorithm) << ":\n" << describe(violations);
}

/// Five buffers where first-fit by decreasing size wastes space: the optimum
/// (12) equals the bytes live at points 3 and 5, first fit needs more.
Problem firstFitTrap() {
  ProblemBuilder builder(1024);
  builder.add(5, {{5, 7}});
  builder.add(5, {{0, 3}});
  builder.add(5, {{3, 6}});
  builder.add(5, {{2, 5}});
  builder.add(2, {{3, 7}});
  return builder.problem;
}

TEST(AlgorithmNames, RoundTrip) {
  for (Algorithm algorithm : allAlgorithms()) {
    std::optional<Algorithm> parsed = parseAlgorithm(algorithmName(algorithm));
    ASSERT_TRUE(parsed.has_value()) << algorithmName(algorithm);
    EXPECT_EQ(*parsed, algorithm);
    EXPECT_NE(std::string(algorithmNames()).find(algorithmName(algorithm)),
              std::string::npos);
  }
  EXPECT_FALSE(parseAlgorithm("fastest").has_value());
  EXPECT_FALSE(parseAlgorithm("").has_value());
  EXPECT_STREQ(algorithmName(Algorithm::MultiStart), "multi-start");
  EXPECT_STREQ(algorithmName(Algorithm::FirstFit), "first-fit");
}

TEST(AlgorithmNames, Statuses) {
  EXPECT_STREQ(poolStatusName(PoolStatus::Optimal), "optimal");
  EXPECT_STREQ(poolStatusName(PoolStatus::Feasible), "feasible");
  EXPECT_STREQ(poolStatusName(PoolStatus::Infeasible), "infeasible");
}

TEST(Bump, NeverReusesBytes) {
  ProblemBuilder builder(1024);
  builder.add(8, {{0, 2}});
  builder.add(16, {{2, 4}});
  builder.add(4, {{4, 6}});
  Solution solution = solveWith(builder.problem, Algorithm::Bump);
  expectValid(builder.problem, solution, Algorithm::Bump);
  EXPECT_EQ(solution.pools[0].peak, 8 + 16 + 4);
  // Lifetimes are disjoint, so the lower bound is the largest buffer.
  EXPECT_EQ(solution.pools[0].lowerBound, 16);
  EXPECT_EQ(solution.pools[0].status, PoolStatus::Feasible);
}

TEST(FirstFit, PlacesLargestFirstAtLowestAddress) {
  ProblemBuilder builder(1024);
  size_t small = builder.add(1, {{0, 4}});
  size_t large = builder.add(5, {{0, 4}});
  Solution solution = solveWith(builder.problem, Algorithm::FirstFit);
  expectValid(builder.problem, solution, Algorithm::FirstFit);
  EXPECT_EQ(solution.offsets[large], 0);
  EXPECT_EQ(solution.offsets[small], 5);
}

TEST(FirstFit, ReusesBytesOfDeadBuffers) {
  ProblemBuilder builder(1024);
  size_t a = builder.add(4, {{0, 2}});
  size_t b = builder.add(4, {{2, 4}});
  Solution solution = solveWith(builder.problem, Algorithm::FirstFit);
  EXPECT_EQ(solution.offsets[a], 0);
  EXPECT_EQ(solution.offsets[b], 0);
  EXPECT_EQ(solution.pools[0].peak, 4);
  EXPECT_EQ(solution.pools[0].status, PoolStatus::Optimal);
}

TEST(FirstFit, TakesLowestGapBestFitTakesSmallest) {
  // Free gaps below the capacity: [0, 3) and [4, 6).
  ProblemBuilder builder(100);
  builder.reserve(3, 4).reserve(6, 100);
  size_t buffer = builder.add(2, {{0, 1}});
  Solution first = solveWith(builder.problem, Algorithm::FirstFit);
  Solution best = solveWith(builder.problem, Algorithm::BestFit);
  expectValid(builder.problem, first, Algorithm::FirstFit);
  expectValid(builder.problem, best, Algorithm::BestFit);
  EXPECT_EQ(first.offsets[buffer], 0);
  EXPECT_EQ(best.offsets[buffer], 4);
}

TEST(BestFit, FillsTheTightestHoleLeftByLargerBuffers) {
  // b0 and b1 leave a 2-byte hole at [4, 6) during [0, 4); above them there
  // is room too, but b2 (2 bytes) belongs in the hole.
  ProblemBuilder builder(1024);
  builder.add(4, {{0, 4}});
  size_t upper = builder.add(4, {{0, 4}});
  builder.pin(upper, 6);
  size_t small = builder.add(2, {{1, 3}});
  Solution solution = solveWith(builder.problem, Algorithm::BestFit);
  expectValid(builder.problem, solution, Algorithm::BestFit);
  EXPECT_EQ(solution.offsets[small], 4);
  EXPECT_EQ(solution.pools[0].peak, 10);
}

TEST(Exact, FindsTheOptimumFirstFitMisses) {
  Problem problem = firstFitTrap();
  Solution exact = solveWith(problem, Algorithm::Exact, true);
  expectValid(problem, exact, Algorithm::Exact);
  EXPECT_EQ(exact.pools[0].peak, 12);
  EXPECT_EQ(exact.pools[0].lowerBound, 12);
  EXPECT_EQ(exact.pools[0].status, PoolStatus::Optimal);

  Solution automatic = solveWith(problem, Algorithm::Auto);
  expectValid(problem, automatic, Algorithm::Auto);
  EXPECT_EQ(automatic.pools[0].peak, 12);
  EXPECT_EQ(automatic.pools[0].status, PoolStatus::Optimal);
}

TEST(Exact, ProvesOptimumAboveTheLowerBound) {
  // Three pairwise-conflicting buffers of 3 in a ring of lifetimes cannot
  // all pair up: b0-b1 live together, b1-b2, b2-b0 (through separation).
  // The live-bytes bound says 6; any placement needs 9 since all three
  // pairwise conflict.
  ProblemBuilder builder(1024);
  size_t a = builder.add(3, {{0, 2}});
  size_t b = builder.add(3, {{1, 4}});
  size_t c = builder.add(3, {{3, 5}});
  builder.separate(a, c);
  Solution exact = solveWith(builder.problem, Algorithm::Exact, true);
  expectValid(builder.problem, exact, Algorithm::Exact);
  (void)b;
  EXPECT_EQ(exact.pools[0].peak, 9);
  EXPECT_EQ(exact.pools[0].status, PoolStatus::Optimal);
  EXPECT_LE(exact.pools[0].lowerBound, 9);
}

TEST(Exact, UsesCapacityAsAFeasibilityTarget) {
  Problem problem = firstFitTrap();
  problem.pools[0].capacity = 12;
  for (Algorithm algorithm : {Algorithm::Exact, Algorithm::Auto}) {
    Solution solution = solveWith(problem, algorithm);
    expectValid(problem, solution, algorithm);
    EXPECT_LE(solution.pools[0].peak, 12) << algorithmName(algorithm);
    EXPECT_NE(solution.pools[0].status, PoolStatus::Infeasible);
  }
}

TEST(Exact, TinyBudgetStillReturnsAValidPlacement) {
  Problem problem = firstFitTrap();
  Solution solution = solveWith(problem, Algorithm::Exact, true, 1);
  expectValid(problem, solution, Algorithm::Exact);
  EXPECT_GE(solution.pools[0].peak, solution.pools[0].lowerBound);
  if (solution.pools[0].peak > solution.pools[0].lowerBound) {
    EXPECT_EQ(solution.pools[0].status, PoolStatus::Feasible);
  }
}

TEST(Exact, IndependentSegmentsAreSolvedSeparately) {
  // Two copies of the trap, one after the other in time: the optimum of the
  // whole is the optimum of one copy.
  Problem trap = firstFitTrap();
  ProblemBuilder builder(1024);
  for (int64_t shift : {0, 100})
    for (const Buffer &buffer : trap.buffers)
      builder.add(buffer.size, {{buffer.live[0].lower + shift,
                                 buffer.live[0].upper + shift}});
  Solution solution = solveWith(builder.problem, Algorithm::Exact, true);
  expectValid(builder.problem, solution, Algorithm::Exact);
  EXPECT_EQ(solution.pools[0].peak, 12);
  EXPECT_EQ(solution.pools[0].status, PoolStatus::Optimal);
}

TEST(AllAlgorithms, HonourEveryKindOfConstraint) {
  ProblemBuilder builder(4096, 8);
  builder.reserve(0, 64);
  size_t pinned = builder.add(32, {{0, 10}});
  builder.pin(pinned, 256);
  size_t x = builder.add(40, {{0, 5}}, 32);
  size_t y = builder.add(24, {{5, 10}});
  builder.separate(x, y); // disjoint lifetimes, still address-disjoint
  size_t in = builder.add(64, {{0, 3}});
  size_t out = builder.add(48, {{3, 8}}, 64);
  builder.colocate(in, out);
  builder.add(100, {{2, 7}, {8, 9}});
  size_t other = builder.addPool(512, 32);
  builder.add(200, {{0, 10}}, 1, other);
  builder.add(200, {{0, 10}}, 1, other);

  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(builder.problem, algorithm);
    expectValid(builder.problem, solution, algorithm);
    ASSERT_EQ(solution.pools.size(), 2u);
    EXPECT_EQ(solution.offsets[pinned], 256) << algorithmName(algorithm);
    EXPECT_EQ(solution.offsets[in], solution.offsets[out])
        << algorithmName(algorithm);
    for (const PoolResult &result : solution.pools) {
      EXPECT_NE(result.status, PoolStatus::Infeasible)
          << algorithmName(algorithm);
      EXPECT_GE(result.peak, result.lowerBound) << algorithmName(algorithm);
      EXPECT_EQ(result.peak,
                peakOf(builder.problem, solution.offsets, result.pool));
    }
    EXPECT_EQ(solution.pools[0].buffers, 6u);
    EXPECT_EQ(solution.pools[1].buffers, 2u);
  }
}

TEST(AllAlgorithms, ReportOverflowAndTheBuffersLiveAtThePeak) {
  ProblemBuilder builder(10);
  builder.add(4, {{0, 3}});
  builder.add(4, {{1, 4}});
  builder.add(4, {{2, 5}});
  builder.add(2, {{6, 8}}); // not part of the crowd
  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(builder.problem, algorithm);
    const PoolResult &result = solution.pools[0];
    EXPECT_EQ(result.status, PoolStatus::Infeasible) << algorithmName(algorithm);
    // The three co-live buffers need 12 bytes: the certificate.
    EXPECT_EQ(result.proof, InfeasibilityProof::Certificate);
    EXPECT_EQ(result.certificate, (std::vector<size_t>{0, 1, 2}));
    EXPECT_EQ(checkCertificate(builder.problem, result), "");
    EXPECT_EQ(result.overflow, result.peak - 10) << algorithmName(algorithm);
    EXPECT_GE(result.overflow, 2) << algorithmName(algorithm);
    std::vector<size_t> live = result.liveAtPeak;
    std::sort(live.begin(), live.end());
    EXPECT_EQ(live, (std::vector<size_t>{0, 1, 2})) << algorithmName(algorithm);
  }
}

TEST(AllAlgorithms, EmptyPoolsAndEmptyProblems) {
  ProblemBuilder builder(1024);
  builder.addPool(2048);
  builder.add(16, {{0, 1}}, 1, 1);
  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(builder.problem, algorithm);
    ASSERT_EQ(solution.pools.size(), 2u);
    EXPECT_EQ(solution.pools[0].peak, 0);
    EXPECT_EQ(solution.pools[0].buffers, 0u);
    EXPECT_EQ(solution.pools[0].status, PoolStatus::Optimal);
    EXPECT_EQ(solution.offsets[0], 0);
  }
  Solution nothing = solve(Problem{});
  EXPECT_TRUE(nothing.pools.empty());
  EXPECT_TRUE(nothing.offsets.empty());
}

TEST(AllAlgorithms, MalformedProblemsDoNotCrash) {
  ProblemBuilder builder(1024);
  builder.add(0, {{0, 1}});
  builder.add(16, {{3, 1}}, 3);
  builder.problem.separations.push_back({0, 7, ""});
  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(builder.problem, algorithm);
    ASSERT_EQ(solution.pools.size(), 1u);
    // Nothing is proved about a malformed problem: it is not placed.
    EXPECT_EQ(solution.pools[0].status, PoolStatus::GaveUp);
  }
}

TEST(AllAlgorithms, ColocatedAndSeparatedIsNeverPlaced) {
  // One offset for both, yet no shared byte: no placement exists. The
  // problem may be rejected as malformed or every pool reported infeasible.
  ProblemBuilder builder(1024);
  size_t a = builder.add(16, {{0, 2}});
  size_t b = builder.add(16, {{4, 6}});
  builder.colocate(a, b).separate(a, b);
  if (!checkProblem(builder.problem).empty())
    return;
  for (Algorithm algorithm : allAlgorithms()) {
    PoolResult result = solveWith(builder.problem, algorithm).pools[0];
    EXPECT_EQ(result.status, PoolStatus::Infeasible) << algorithmName(algorithm);
    EXPECT_EQ(result.proof, InfeasibilityProof::Constraints)
        << algorithmName(algorithm);
    EXPECT_FALSE(result.contradiction.empty()) << algorithmName(algorithm);
  }
}

TEST(AllAlgorithms, ClashingPinsAreInfeasible) {
  ProblemBuilder builder(1024);
  size_t a = builder.add(16, {{0, 2}});
  size_t b = builder.add(16, {{1, 3}});
  builder.pin(a, 0).pin(b, 8);
  for (Algorithm algorithm : allAlgorithms()) {
    PoolResult result = solveWith(builder.problem, algorithm).pools[0];
    EXPECT_EQ(result.status, PoolStatus::Infeasible) << algorithmName(algorithm);
    EXPECT_EQ(result.proof, InfeasibilityProof::Constraints)
        << algorithmName(algorithm);
    EXPECT_FALSE(result.contradiction.empty()) << algorithmName(algorithm);
  }
}

TEST(AllAlgorithms, AreDeterministic) {
  ProblemBuilder builder(1 << 20, 32);
  uint64_t state = 12345;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % bound);
  };
  for (int i = 0; i < 60; ++i) {
    int64_t lower = next(40);
    builder.add(32 * (1 + next(64)), {{lower, lower + 1 + next(10)}});
  }
  for (Algorithm algorithm : allAlgorithms()) {
    Solution first = solveWith(builder.problem, algorithm, false, 20000);
    Solution second = solveWith(builder.problem, algorithm, false, 20000);
    EXPECT_EQ(first.offsets, second.offsets) << algorithmName(algorithm);
    EXPECT_EQ(first.pools[0].nodes, second.pools[0].nodes);
    expectValid(builder.problem, first, algorithm);
  }
}

TEST(MultiStart, NeverWorseThanFirstFitOnTheTrap) {
  Problem problem = firstFitTrap();
  Solution first = solveWith(problem, Algorithm::FirstFit);
  Solution multi = solveWith(problem, Algorithm::MultiStart);
  expectValid(problem, multi, Algorithm::MultiStart);
  EXPECT_LE(multi.pools[0].peak, first.pools[0].peak);
  EXPECT_EQ(multi.pools[0].nodes, 0u);
}

TEST(MultiStart, ProbesReachTheBoundOfPerfectPackings) {
  // Greedy orders leave gaps in a perfect packing; the probes ask the
  // search for the bound itself and find it.
  int reached = 0, firstFitReached = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Problem problem = perfectPacking(seed, 40, 64, 1024);
    Solution multi = solveWith(problem, Algorithm::MultiStart);
    Solution first = solveWith(problem, Algorithm::FirstFit);
    expectValid(problem, multi, Algorithm::MultiStart);
    EXPECT_EQ(multi.pools[0].lowerBound, 1024) << "seed " << seed;
    EXPECT_LE(multi.pools[0].peak, first.pools[0].peak) << "seed " << seed;
    reached += multi.pools[0].peak == 1024;
    firstFitReached += first.pools[0].peak == 1024;
  }
  EXPECT_LT(firstFitReached, 10);
  EXPECT_GE(reached, 18);
}

TEST(Auto, StopsAtTheLowerBoundWithoutSearching) {
  // Every buffer conflicts with every other and sizes are distinct: any
  // stacking reaches the bound, so no search node is needed.
  ProblemBuilder builder(1024);
  for (int64_t size : {8, 16, 24, 32})
    builder.add(size, {{0, 10}});
  Solution solution = solveWith(builder.problem, Algorithm::Auto);
  EXPECT_EQ(solution.pools[0].peak, 80);
  EXPECT_EQ(solution.pools[0].lowerBound, 80);
  EXPECT_EQ(solution.pools[0].status, PoolStatus::Optimal);
  EXPECT_EQ(solution.pools[0].nodes, 0u);
}

} // namespace
