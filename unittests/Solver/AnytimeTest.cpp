//===- AnytimeTest.cpp - Stopping a solve early, and its progress ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// SolveOptions::stop and SolveOptions::progress. A stop request ends every
// search as a spent budget would: the pool keeps the best placement found,
// and its status says only what was proved. The tests stop from inside the
// progress callback, after a given number of nodes, so they are
// deterministic.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "gtest/gtest.h"

#include <atomic>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

/// Solves `problem` with `options`, setting the stop flag at the first
/// progress report with at least `stopAfter` nodes.
Solution solveStoppingAfter(const Problem &problem, SolveOptions options,
                            uint64_t stopAfter,
                            std::vector<SolveProgress> *reports = nullptr) {
  std::atomic<bool> stop{false};
  options.stop = &stop;
  options.progress = [&](const SolveProgress &report) {
    if (reports)
      reports->push_back(report);
    if (report.nodes >= stopAfter)
      stop = true;
  };
  return solve(problem, options);
}

TEST(Anytime, StopBeforeAnySearchKeepsTheHeuristicPlacement) {
  // A perfect packing at its optimum: the heuristics rarely reach it, the
  // search usually does. Stopped at once, no pool may claim more than the
  // placement shows, and the placement must be valid where it fits.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Problem problem = perfectPacking(seed, 40, 64, 1024);
    Solution stopped = solveStoppingAfter(problem, {}, 0);
    const PoolResult &pool = stopped.pools.front();
    EXPECT_TRUE(stopped.stopped);
    EXPECT_NE(pool.status, PoolStatus::Infeasible) << "seed " << seed;
    if (pool.status == PoolStatus::Optimal) {
      EXPECT_EQ(pool.peak, pool.lowerBound) << "seed " << seed;
    }
    if (isPlaced(pool.status)) {
      EXPECT_TRUE(validate(problem, stopped.offsets).empty())
          << "seed " << seed;
    } else {
      EXPECT_EQ(pool.status, PoolStatus::GaveUp) << "seed " << seed;
    }
  }
}

TEST(Anytime, StopMidSearchClaimsNothingItDidNotProve) {
  // Perfect packings at their optimum whose search (to fit, then to prove
  // the bound met) takes a while: stopped after the first report, the
  // search spends fewer nodes, and the pool says only what its placement
  // shows.
  SolveOptions options;
  options.minimizeCapacity = true;
  options.nodeBudget = 50'000'000;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 200 && checked < 3; ++seed) {
    Problem problem = perfectPacking(seed, 90, 96, 4096);
    Solution full = solve(problem, options);
    if (full.pools.front().nodes < 4 * SolveOptions::kProgressNodes)
      continue;
    ++checked;
    EXPECT_FALSE(full.stopped);
    Solution stopped =
        solveStoppingAfter(problem, options, SolveOptions::kProgressNodes);
    const PoolResult &pool = stopped.pools.front();
    EXPECT_TRUE(stopped.stopped);
    EXPECT_TRUE(pool.stopped);
    EXPECT_LT(pool.nodes, full.pools.front().nodes) << "seed " << seed;
    EXPECT_NE(pool.status, PoolStatus::Infeasible) << "seed " << seed;
    if (pool.status == PoolStatus::Optimal) {
      EXPECT_EQ(pool.peak, pool.lowerBound) << "seed " << seed;
    }
    if (isPlaced(pool.status)) {
      EXPECT_TRUE(validate(problem, stopped.offsets).empty())
          << "seed " << seed;
    }
  }
  EXPECT_EQ(checked, 3) << "too few instances need a long search";
}

TEST(Anytime, ProgressReportsEachPhaseWithItsIncumbentAndBound) {
  // Two buffers never live together, with a reuse penalty, in a pool that
  // cannot hold both apart: the peak phase, then the cost phase.
  ProblemBuilder builder(96);
  size_t a = builder.add(64, {{0, 2}});
  size_t b = builder.add(64, {{2, 4}});
  builder.problem.objective = Objective::ReuseCost;
  builder.problem.reusePenalties.push_back({a, b, 3, "cross_pipe"});
  std::vector<SolveProgress> reports;
  Solution solution =
      solveStoppingAfter(builder.problem, {}, UINT64_MAX, &reports);
  ASSERT_GE(reports.size(), 2u);
  EXPECT_EQ(reports.front().phase, SolveProgress::Phase::Peak);
  EXPECT_EQ(reports.front().incumbent, -1);
  EXPECT_EQ(reports.front().bound, 64);
  EXPECT_EQ(reports.back().phase, SolveProgress::Phase::ReuseCost);
  EXPECT_EQ(reports.back().incumbent, 3);
  for (size_t i = 1; i < reports.size(); ++i)
    EXPECT_GE(reports[i].nodes, reports[i - 1].nodes);
  EXPECT_FALSE(solution.stopped);
  EXPECT_EQ(solution.pools.front().reuseCost, 3);
  EXPECT_EQ(solution.pools.front().status, PoolStatus::Optimal);
}

TEST(Anytime, AFlagNeverSetChangesNothing) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Problem problem = perfectPacking(seed, 40, 64, 1024);
    Solution plain = solve(problem);
    Solution watched = solveStoppingAfter(problem, {}, UINT64_MAX);
    EXPECT_EQ(plain.offsets, watched.offsets) << "seed " << seed;
    EXPECT_EQ(plain.pools.front().nodes, watched.pools.front().nodes);
    EXPECT_EQ(plain.pools.front().status, watched.pools.front().status);
  }
}

} // namespace
