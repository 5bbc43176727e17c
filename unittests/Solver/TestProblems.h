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

#include <algorithm>
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

/// A perfect packing: the rectangle of `height` bytes over `[0, horizon)`
/// cut, again and again, across time or across addresses at pseudo-random
/// points, until `pieces` buffers remain. Every point of time is exactly
/// full, so the lower bound `height` is the optimum, and greedy placement
/// rarely finds it.
inline Problem perfectPacking(uint64_t seed, size_t pieces, int64_t horizon,
                       int64_t height) {
  struct Piece {
    int64_t begin, end, low, high;
  };
  std::vector<Piece> parts = {{0, horizon, 0, height}};
  uint64_t state = seed;
  auto below = [&](int64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(bound));
  };
  while (parts.size() < pieces) {
    // Cut the largest piece that can still be cut.
    size_t pick = 0;
    for (size_t i = 1; i < parts.size(); ++i)
      if ((parts[i].end - parts[i].begin) * (parts[i].high - parts[i].low) >
          (parts[pick].end - parts[pick].begin) *
              (parts[pick].high - parts[pick].low))
        pick = i;
    Piece piece = parts[pick];
    bool acrossTime = below(2) == 0 ? piece.end - piece.begin > 1
                                    : piece.high - piece.low <= 1;
    Piece second = piece;
    if (acrossTime) {
      int64_t cut = piece.begin + 1 + below(piece.end - piece.begin - 1);
      parts[pick].end = second.begin = cut;
    } else {
      int64_t cut = piece.low + 1 + below(piece.high - piece.low - 1);
      parts[pick].high = second.low = cut;
    }
    parts.push_back(second);
  }
  ProblemBuilder builder(height);
  for (const Piece &piece : parts)
    builder.add(piece.high - piece.low, {{piece.begin, piece.end}});
  return builder.problem;
}

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

/// The part of an infeasibility certificate that needs no placement: the
/// certificate's buffers, colocated groups merged, pairwise live together
/// or separated. With one alignment among them (and reserved ranges
/// aligned to it), also that their sizes
/// (rounded to it, less the topmost's padding) exceed the bytes the
/// capacity leaves outside the reserved ranges. Returns "" when it holds,
/// else why not. (The property test checks whole certificates by brute
/// force.)
inline std::string checkCertificate(const Problem &problem,
                                    const PoolResult &result) {
  const std::vector<size_t> &members = result.certificate;
  if (members.empty())
    return "empty certificate";
  std::vector<size_t> group(problem.buffers.size());
  for (size_t b = 0; b < group.size(); ++b)
    group[b] = b;
  auto root = [&](size_t b) {
    while (group[b] != b)
      b = group[b];
    return b;
  };
  for (const Colocation &c : problem.colocations)
    group[root(c.first)] = root(c.second);
  auto separated = [&](size_t a, size_t b) {
    for (const Separation &s : problem.separations)
      if ((root(s.first) == a && root(s.second) == b) ||
          (root(s.first) == b && root(s.second) == a))
        return true;
    return false;
  };
  std::vector<size_t> roots;
  std::vector<int64_t> sizes;
  std::vector<std::vector<Interval>> lives;
  bool oneAlignment = true, pinned = false;
  int64_t alignment = effectiveAlignment(problem, members.front());
  for (size_t b : members) {
    oneAlignment &= effectiveAlignment(problem, b) == alignment;
    pinned |= problem.buffers[b].pinnedOffset.has_value();
    size_t r = root(b);
    size_t k = std::find(roots.begin(), roots.end(), r) - roots.begin();
    if (k == roots.size()) {
      roots.push_back(r);
      sizes.push_back(0);
      lives.emplace_back();
    }
    sizes[k] = std::max(sizes[k], problem.buffers[b].size);
    lives[k].insert(lives[k].end(), problem.buffers[b].live.begin(),
                    problem.buffers[b].live.end());
  }
  int64_t bytes = 0, padding = 0;
  for (size_t i = 0; i < roots.size(); ++i) {
    lives[i] = unionOfIntervals(lives[i]);
    int64_t rounded = (sizes[i] + alignment - 1) / alignment * alignment;
    bytes += rounded;
    padding = std::max(padding, rounded - sizes[i]);
    for (size_t j = 0; j < i; ++j)
      if (!liveRangesOverlap(lives[i], lives[j]) &&
          !separated(roots[i], roots[j]))
        return "buffers " + problem.buffers[roots[i]].id + " and " +
               problem.buffers[roots[j]].id + " may share bytes";
  }
  const Pool &pool = problem.pools[result.pool];
  for (const AddressRange &range : pool.reserved)
    oneAlignment &= range.begin % alignment == 0 && range.end % alignment == 0;
  if (!oneAlignment || pinned)
    return "";
  int64_t free = pool.capacity;
  for (const AddressRange &range : pool.reserved)
    free -= std::max<int64_t>(0, std::min(range.end, pool.capacity) -
                                     std::max<int64_t>(range.begin, 0));
  if (bytes - padding <= free)
    return std::to_string(bytes - padding) + " B fit in the " +
           std::to_string(free) + " B left";
  return "";
}

} // namespace dsaplan::solver::test

#endif // DSAPLAN_UNITTESTS_SOLVER_TESTPROBLEMS_H
