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
//  - for every pinned item, its pin plus its size;
//  - for every clique of the conflict graph (items that pairwise may not
//    share bytes, through lifetimes or separations), the clique stacks.
//    Cliques are grown greedily from each item, largest neighbours first;
//    any clique gives a valid bound, and separations make them larger than
//    what is live at one point.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Solve.h"
#include "PoolInstance.h"

#include <algorithm>
#include <numeric>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {
} // namespace

namespace {

/// Above this many items the clique bound is skipped: it is quadratic in
/// the degree, and huge pools are solved by the heuristic anyway.
constexpr size_t kCliqueBoundMaxItems = 5000;

/// The largest stack over greedy cliques, one grown from each item.
int64_t greedyCliqueBound(const PoolInstance &instance, int64_t grain,
                          int64_t maxPadding) {
  const std::vector<Item> &items = instance.items;
  int64_t bound = 0;
  std::vector<uint32_t> clique;
  for (uint32_t seed = 0; seed < items.size(); ++seed) {
    std::vector<uint32_t> neighbours = instance.conflicts[seed];
    std::stable_sort(neighbours.begin(), neighbours.end(),
                     [&](uint32_t a, uint32_t b) {
                       return items[a].size > items[b].size;
                     });
    clique.assign(1, seed);
    int64_t stack = roundUp(items[seed].size, grain);
    for (uint32_t n : neighbours) {
      bool joinsAll = std::all_of(clique.begin() + 1, clique.end(),
                                  [&](uint32_t member) {
                                    return std::binary_search(
                                        instance.conflicts[n].begin(),
                                        instance.conflicts[n].end(), member);
                                  });
      if (!joinsAll)
        continue;
      clique.push_back(n);
      stack += roundUp(items[n].size, grain);
    }
    bound = std::max(bound, stack - maxPadding);
  }
  return bound;
}

} // namespace

int64_t dsaplan::solver::detail::itemLowerBound(const PoolInstance &instance) {
  if (instance.items.empty())
    return 0;
  // Every offset is a multiple of the alignments' greatest common divisor.
  int64_t grain = instance.items.front().alignment;
  for (const Item &item : instance.items)
    grain = std::gcd(grain, item.alignment);
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
  // Temporal exclusions let co-live items share bytes: only cliques count.
  if (!instance.hasTemporalExclusions)
    for (const auto &event : events) {
      live += event.second;
      bound = std::max(bound, live - maxPadding);
    }

  // Without separations two items conflict only when live together, and
  // the busiest point already is the largest clique (of items live there):
  // the greedy cliques only pay off when separations join items.
  if ((instance.hasSeparations || instance.hasTemporalExclusions) &&
      instance.items.size() <= kCliqueBoundMaxItems)
    bound = std::max(bound, greedyCliqueBound(instance, grain, maxPadding));
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
