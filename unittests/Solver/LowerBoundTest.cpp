//===- LowerBoundTest.cpp - Units for the per-pool lower bound ------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The bound must never exceed the optimum (the property test checks that on
// thousands of instances); these tests check that it is as strong as the
// cheap arguments allow: live bytes, alignment, separations, colocations.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "gtest/gtest.h"

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

} // namespace
