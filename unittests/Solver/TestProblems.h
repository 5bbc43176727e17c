//===- TestProblems.h - Building small problems in solver tests -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A terse builder for the hand-written problems of the unit tests, and the
// helpers every test file uses to check a solution against the validator.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_UNITTESTS_SOLVER_TESTPROBLEMS_H
#define DSAPLAN_UNITTESTS_SOLVER_TESTPROBLEMS_H

#include "DsaPlan/Solver/Problem.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <ostream>
#include <string>
#include <vector>

namespace dsaplan::solver {
/// Lets GoogleTest print statuses by name.
inline void PrintTo(PoolStatus status, std::ostream *os) {
  *os << poolStatusName(status);
}
} // namespace dsaplan::solver

namespace dsaplan::solver::test {

/// Builds a Problem one pool or buffer at a time; buffers are named b0, b1,
/// ... in the order they are added.
class ProblemBuilder {
public:
  explicit ProblemBuilder(int64_t capacity = 1 << 20, int64_t alignment = 1) {
    addPool(capacity, alignment);
  }

  size_t addPool(int64_t capacity, int64_t alignment = 1) {
    Pool pool;
    pool.id = std::to_string(problem.pools.size());
    pool.name = "pool" + pool.id;
    pool.capacity = capacity;
    pool.alignment = alignment;
    problem.pools.push_back(pool);
    return problem.pools.size() - 1;
  }

  ProblemBuilder &reserve(int64_t begin, int64_t end, size_t pool = 0) {
    problem.pools[pool].reserved.push_back({begin, end});
    return *this;
  }

  /// Adds a buffer live over `live` (sorted, disjoint) and returns its index.
  size_t add(int64_t size, std::vector<Interval> live, int64_t alignment = 1,
             size_t pool = 0) {
    Buffer buffer;
    buffer.id = "b" + std::to_string(problem.buffers.size());
    buffer.size = size;
    buffer.alignment = alignment;
    buffer.live = std::move(live);
    buffer.pool = pool;
    problem.buffers.push_back(buffer);
    return problem.buffers.size() - 1;
  }

  ProblemBuilder &pin(size_t buffer, int64_t offset) {
    problem.buffers[buffer].pinnedOffset = offset;
    return *this;
  }
  ProblemBuilder &separate(size_t a, size_t b) {
    problem.separations.push_back({a, b, "generic"});
    return *this;
  }
  ProblemBuilder &colocate(size_t a, size_t b) {
    problem.colocations.push_back({a, b});
    return *this;
  }

  Problem problem;
};

/// Every algorithm name, in the order of the Algorithm enum.
inline std::vector<Algorithm> allAlgorithms() {
  return {Algorithm::Bump,       Algorithm::FirstFit, Algorithm::BestFit,
          Algorithm::MultiStart, Algorithm::Exact,    Algorithm::Auto};
}

inline Solution solveWith(const Problem &problem, Algorithm algorithm,
                          bool minimizeCapacity = false,
                          uint64_t nodeBudget = 2'000'000) {
  SolveOptions options;
  options.algorithm = algorithm;
  options.minimizeCapacity = minimizeCapacity;
  options.nodeBudget = nodeBudget;
  return solve(problem, options);
}

/// The validator's messages joined, for readable test failures.
inline std::string describe(const std::vector<Violation> &violations) {
  std::string text;
  for (const Violation &violation : violations)
    text += violation.message + "\n";
  return text;
}

} // namespace dsaplan::solver::test

#endif // DSAPLAN_UNITTESTS_SOLVER_TESTPROBLEMS_H
