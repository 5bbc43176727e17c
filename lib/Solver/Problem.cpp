//===- Problem.cpp - Small queries on the placement problem ---------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Problem.h"

#include <algorithm>
#include <numeric>

using namespace dsaplan::solver;

int64_t dsaplan::solver::effectiveAlignment(const Problem &problem, size_t b) {
  const Buffer &buffer = problem.buffers[b];
  int64_t poolAlignment =
      buffer.pool < problem.pools.size() ? problem.pools[buffer.pool].alignment
                                         : 1;
  int64_t own = std::max<int64_t>(buffer.alignment, 1);
  poolAlignment = std::max<int64_t>(poolAlignment, 1);
  return own / std::gcd(own, poolAlignment) * poolAlignment;
}

bool dsaplan::solver::mayGoIn(const Problem &problem, size_t b, size_t pool) {
  const Buffer &buffer = problem.buffers[b];
  if (buffer.allowedPools.empty())
    return buffer.pool == pool;
  return std::find(buffer.allowedPools.begin(), buffer.allowedPools.end(),
                   pool) != buffer.allowedPools.end();
}

Problem dsaplan::solver::withPools(const Problem &problem,
                                   const std::vector<size_t> &poolOf) {
  Problem moved = problem;
  for (size_t b = 0; b < moved.buffers.size() && b < poolOf.size(); ++b)
    moved.buffers[b].pool = poolOf[b];
  return moved;
}

int64_t dsaplan::solver::peakOf(const Problem &problem,
                                const Placement &placement, size_t pool) {
  int64_t peak = 0;
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (problem.buffers[b].pool == pool && b < placement.size() &&
        placement[b] != kUnplaced)
      peak = std::max(peak, placement[b] + problem.buffers[b].size);
  return peak;
}

std::vector<Interval>
dsaplan::solver::unionOfIntervals(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval &a, const Interval &b) {
              return a.lower < b.lower;
            });
  std::vector<Interval> merged;
  for (const Interval &interval : intervals) {
    if (!merged.empty() && interval.lower <= merged.back().upper)
      merged.back().upper = std::max(merged.back().upper, interval.upper);
    else
      merged.push_back(interval);
  }
  return merged;
}

bool dsaplan::solver::liveRangesOverlap(const std::vector<Interval> &a,
                                        const std::vector<Interval> &b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].lower < b[j].upper && b[j].lower < a[i].upper)
      return true;
    if (a[i].upper <= b[j].upper)
      ++i;
    else
      ++j;
  }
  return false;
}
