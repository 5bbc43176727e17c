//===- LowerBoundTest.cpp - Units for the per-pool lower bound ------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The bound must never exceed the optimum (the property test checks that on
// thousands of instances); these tests check that it is as strong as the
// arguments allow: live bytes, alignment, separations, colocations, reserved
// ranges and pins, and that on small instances it is exactly the heaviest
// set of pairwise conflicting buffers a brute force finds.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "gtest/gtest.h"

#include <random>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

TEST(LowerBound, EmptyPoolIsZero) {
  ProblemBuilder builder(1024);
  EXPECT_EQ(lowerBound(builder.problem, 0), 0);
}

TEST(LowerBound, LargestSumOfLiveBytes) {
  ProblemBuilder builder(1024);
  builder.add(10, {{0, 4}});
  builder.add(20, {{2, 6}});
  builder.add(40, {{5, 9}});
  builder.add(1, {{8, 12}});
  // Point 5: 20 + 40; point 8: 40 + 1; point 2: 10 + 20.
  EXPECT_EQ(lowerBound(builder.problem, 0), 60);
}

TEST(LowerBound, HalfOpenIntervalsThatTouchDoNotAddUp) {
  ProblemBuilder builder(1024);
  builder.add(10, {{0, 4}});
  builder.add(20, {{4, 6}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 20);
}

TEST(LowerBound, SeveralIntervalsPerBuffer) {
  ProblemBuilder builder(1024);
  builder.add(10, {{0, 2}, {6, 8}});
  builder.add(20, {{2, 6}});
  builder.add(5, {{7, 9}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 20);
  builder.add(7, {{1, 3}});
  // Point 7: 10 + 5; point 2: 20 + 7.
  EXPECT_EQ(lowerBound(builder.problem, 0), 27);
}

TEST(LowerBound, AlignmentPaddingBelowTheTopBufferCounts) {
  // Two co-live 20-byte buffers at alignment 32: the upper one starts at 32
  // or above, so every placement reaches at least 52.
  ProblemBuilder builder(1024, 32);
  builder.add(20, {{0, 2}});
  builder.add(20, {{0, 2}});
  int64_t bound = lowerBound(builder.problem, 0);
  EXPECT_GT(bound, 40);
  EXPECT_LE(bound, 52);
}

TEST(LowerBound, SeparationsAddUpWhateverTheLifetimes) {
  ProblemBuilder builder(1024);
  size_t a = builder.add(30, {{0, 2}});
  size_t b = builder.add(25, {{5, 7}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 30);
  builder.separate(a, b);
  EXPECT_EQ(lowerBound(builder.problem, 0), 55);
}

TEST(LowerBound, ColocationsMergeLifetimesAndTakeTheLargestSize) {
  // b0 and b1 share an offset, so 30 bytes are taken over [0, 4); b2 must
  // sit beside them at point 3.
  ProblemBuilder builder(1024);
  size_t a = builder.add(30, {{0, 2}});
  size_t b = builder.add(10, {{2, 4}});
  builder.add(5, {{3, 4}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 30);
  builder.colocate(a, b);
  EXPECT_EQ(lowerBound(builder.problem, 0), 35);
}

TEST(LowerBound, PoolsAreIndependent) {
  ProblemBuilder builder(1024);
  size_t second = builder.addPool(1024);
  builder.add(10, {{0, 4}});
  builder.add(10, {{0, 4}});
  builder.add(100, {{0, 4}}, 1, second);
  EXPECT_EQ(lowerBound(builder.problem, 0), 20);
  EXPECT_EQ(lowerBound(builder.problem, second), 100);
}

TEST(LowerBound, MatchesWhatSolveReports) {
  ProblemBuilder builder(1 << 20, 32);
  for (int i = 0; i < 40; ++i)
    builder.add(32 + 7 * i, {{i % 9, i % 9 + 1 + i % 5}});
  int64_t bound = lowerBound(builder.problem, 0);
  for (Algorithm algorithm : allAlgorithms()) {
    Solution solution = solveWith(builder.problem, algorithm);
    EXPECT_EQ(solution.pools[0].lowerBound, bound) << algorithmName(algorithm);
    EXPECT_GE(solution.pools[0].peak, bound) << algorithmName(algorithm);
  }
}

TEST(LowerBound, ReservedRangesTakeTheirBytesOut) {
  // [0, 64) reserved: two co-live 32-byte buffers start at 64 or above.
  ProblemBuilder builder(1024);
  builder.add(32, {{0, 2}});
  builder.add(32, {{1, 3}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 64);
  builder.reserve(0, 64);
  EXPECT_EQ(lowerBound(builder.problem, 0), 128);
  // A hole of 16 bytes below a second range holds no more than 16 bytes.
  builder.reserve(80, 100);
  EXPECT_EQ(lowerBound(builder.problem, 0), 64 + 16 + 20 + 48);
}

TEST(LowerBound, ReservedRangeAboveTheStackChangesNothing) {
  ProblemBuilder builder(1024);
  builder.add(32, {{0, 2}});
  builder.reserve(512, 1024);
  EXPECT_EQ(lowerBound(builder.problem, 0), 32);
}

TEST(LowerBound, PinnedConflictsAreBlocks) {
  // b0 pinned at [40, 48); b1 and b2 (30 B each) are co-live with it: 60
  // bytes outside [40, 48) end at 68 at the lowest.
  ProblemBuilder builder(1024);
  size_t pinned = builder.add(8, {{0, 4}});
  builder.add(30, {{0, 4}});
  builder.add(30, {{0, 4}});
  builder.pin(pinned, 40);
  EXPECT_EQ(lowerBound(builder.problem, 0), 68);
  // A pin reaches its own end, whatever else is live.
  builder.pin(pinned, 200);
  EXPECT_EQ(lowerBound(builder.problem, 0), 208);
}

TEST(LowerBound, ColocatedGroupsCountOnce) {
  // b0 and b1 share an offset: they are one 24-byte block beside b2.
  ProblemBuilder builder(1024);
  size_t a = builder.add(24, {{0, 4}});
  size_t b = builder.add(16, {{0, 4}});
  builder.add(8, {{0, 4}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 48);
  builder.colocate(a, b);
  EXPECT_EQ(lowerBound(builder.problem, 0), 32);
}

TEST(LowerBound, SeparationsJoinCliquesAcrossTime) {
  // b0 and b1 are live together; b2 is live apart from both, but separated
  // from both: all three stack. No point has more than 40 bytes live.
  ProblemBuilder builder(1024);
  size_t a = builder.add(20, {{0, 2}});
  size_t b = builder.add(20, {{0, 2}});
  size_t c = builder.add(50, {{5, 7}});
  EXPECT_EQ(lowerBound(builder.problem, 0), 50);
  builder.separate(a, c).separate(b, c);
  EXPECT_EQ(lowerBound(builder.problem, 0), 90);
}

/// The heaviest clique by brute force: every subset of the buffers of pool
/// 0 (alignment 1, no pins, no colocations), kept when pairwise live
/// together or separated; its height is found by walking addresses one by
/// one until the free bytes below hold it.
int64_t bruteForceClique(const Problem &problem) {
  size_t n = problem.buffers.size();
  auto conflict = [&](size_t a, size_t b) {
    if (liveRangesOverlap(problem.buffers[a].live, problem.buffers[b].live))
      return true;
    for (const Separation &s : problem.separations)
      if ((s.first == a && s.second == b) || (s.first == b && s.second == a))
        return true;
    return false;
  };
  auto reserved = [&](int64_t address) {
    for (const AddressRange &range : problem.pools[0].reserved)
      if (range.begin <= address && address < range.end)
        return true;
    return false;
  };
  int64_t best = 0;
  for (uint32_t mask = 1; mask < (1u << n); ++mask) {
    int64_t bytes = 0;
    bool clique = true;
    for (size_t a = 0; a < n && clique; ++a) {
      if (!(mask >> a & 1))
        continue;
      bytes += problem.buffers[a].size;
      for (size_t b = 0; b < a && clique; ++b)
        clique = !(mask >> b & 1) || conflict(a, b);
    }
    if (!clique)
      continue;
    int64_t address = 0;
    for (int64_t free = 0; free < bytes; ++address)
      free += !reserved(address);
    best = std::max(best, address);
  }
  return best;
}

TEST(LowerBound, HeaviestCliqueMatchesBruteForce) {
  std::mt19937 random(17);
  auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  int nonInterval = 0;
  for (int instance = 0; instance < 400; ++instance) {
    ProblemBuilder builder(1 << 20);
    size_t n = uniform(1, 10);
    for (size_t i = 0; i < n; ++i) {
      int start = uniform(0, 12);
      std::vector<Interval> live = {{start, start + uniform(1, 5)}};
      if (uniform(0, 3) == 0) // a second interval, after a gap
        live.push_back({live[0].upper + 1, live[0].upper + 1 + uniform(1, 4)});
      builder.add(uniform(1, 64), live);
    }
    for (int s = uniform(0, 3); s > 0; --s) {
      size_t a = uniform(0, n - 1), b = uniform(0, n - 1);
      if (a != b)
        builder.separate(a, b);
    }
    if (uniform(0, 2) == 0) {
      int begin = uniform(0, 100);
      builder.reserve(begin, begin + uniform(1, 60));
    }
    nonInterval += !builder.problem.separations.empty();
    EXPECT_EQ(lowerBound(builder.problem, 0), bruteForceClique(builder.problem))
        << "instance " << instance;
  }
  EXPECT_GT(nonInterval, 100); // separations were exercised
}

} // namespace
