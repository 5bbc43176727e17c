//===- LowerBound.cpp - Lower bounds on the peak of a pool ----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The peak of any valid placement is at least
//  - at every point, the bytes live there: all those items stack, each
//    rounded up to the smallest alignment (every offset is a multiple of
//    it), less the padding of the topmost one;
//  - for every separated pair, the two sizes (they never share bytes);
//  - for every pinned item, its pin plus its size.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Solve.h"
#include "PoolInstance.h"

#include <algorithm>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {
int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}
} // namespace

int64_t dsaplan::solver::detail::itemLowerBound(const PoolInstance &instance) {
  if (instance.items.empty())
    return 0;
  int64_t grain = instance.items.front().alignment;
  for (const Item &item : instance.items)
    grain = std::min(grain, item.alignment);
  int64_t maxPadding = 0;
  for (const Item &item : instance.items)
    maxPadding = std::max(maxPadding, roundUp(item.size, grain) - item.size);

  // Sweep: ends before starts at the same point (intervals are half-open).
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const Item &item : instance.items)
    for (const Interval &interval : item.live) {
      events.push_back({interval.lower, roundUp(item.size, grain)});
      events.push_back({interval.upper, -roundUp(item.size, grain)});
    }
  std::sort(events.begin(), events.end());
  int64_t live = 0, bound = 0;
  for (const auto &event : events) {
    live += event.second;
    bound = std::max(bound, live - maxPadding);
  }

  for (uint32_t a = 0; a < instance.items.size(); ++a) {
    const Item &item = instance.items[a];
    bound = std::max(bound, item.size + item.pin.value_or(0));
    for (uint32_t b : instance.conflicts[a])
      if (b > a)
        bound = std::max(
            bound, std::min(roundUp(item.size, instance.items[b].alignment) +
                                instance.items[b].size,
                            roundUp(instance.items[b].size, item.alignment) +
                                item.size));
  }
  return bound;
}

int64_t dsaplan::solver::lowerBound(const Problem &problem, size_t pool) {
  return itemLowerBound(buildPoolInstance(problem, pool));
}
