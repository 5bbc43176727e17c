//===- Heuristics.cpp - Constructive placement ----------------------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// All heuristics place items one at a time, each at a position that avoids
// its already placed neighbours (and the reserved ranges): first fit takes
// the lowest such offset, best fit the smallest gap. They differ in the
// order. The default, multi-start, tries several orders and then repairs the
// best one: the items that reach the peak are moved to the front of the
// order and everything is placed again, as long as that helps (a
// deterministic "squeaky wheel").
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "PoolInstance.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>
#include <tuple>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {



/// The lowest aligned offset at or above `start` clear of `blocked`.
int64_t firstFit(const std::vector<AddressRange> &blocked, int64_t size,
                 int64_t alignment, int64_t start = 0) {
  int64_t candidate = roundUp(start, alignment);
  for (const AddressRange &range : blocked) {
    if (range.end <= candidate)
      continue;
    if (range.begin >= candidate + size)
      break;
    candidate = roundUp(range.end, alignment);
  }
  return candidate;
}

int64_t bestFit(const std::vector<AddressRange> &blocked, int64_t size,
                int64_t alignment) {
  int64_t best = -1, bestGap = 0, cursor = 0;
  for (const AddressRange &range : blocked) {
    if (range.begin > cursor) {
      int64_t start = roundUp(cursor, alignment);
      int64_t gap = range.begin - cursor;
      if (start + size <= range.begin && (best < 0 || gap < bestGap)) {
        best = start;
        bestGap = gap;
      }
    }
    cursor = std::max(cursor, range.end);
  }
  return best >= 0 ? best : roundUp(cursor, alignment);
}


/// The items by decreasing `key`, equal keys in item order. The keys are
/// computed once per item, not twice per comparison (an item's length
/// sums its intervals).
template <typename Key>
std::vector<uint32_t> orderBy(const PoolInstance &instance, Key key) {
  using Value = decltype(key(uint32_t()));
  std::vector<Value> keys;
  keys.reserve(instance.items.size());
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    keys.push_back(key(i));
  std::vector<uint32_t> order(instance.items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return keys[a] > keys[b];
  });
  return order;
}

/// Multi-start's starting orders, each a strong heuristic on some family
/// of instances, made when first asked for: most components reach their
/// own bound from the first, and the others cost a sort each (the
/// pressure order a sweep more).
class StartingOrders {
public:
  explicit StartingOrders(const PoolInstance &instance) : instance(instance) {}
  static constexpr size_t kCount = 5;

  std::vector<uint32_t> get(size_t k) {
    const std::vector<Item> &items = instance.items;
    using Key = std::pair<int64_t, int64_t>;
    switch (k) {
    case 0:
      return orderBy(instance, [&](uint32_t i) {
        return Key(items[i].size, items[i].length());
      });
    case 1:
      return orderBy(instance, [&](uint32_t i) {
        return Key(saturatingProduct(items[i].size, items[i].length()),
                   items[i].size);
      });
    case 2: {
      std::vector<int64_t> pressure = pressureOf(instance);
      return orderBy(instance,
                     [&](uint32_t i) { return Key(pressure[i], items[i].size); });
    }
    case 3:
      return orderBy(instance, [&](uint32_t i) {
        return Key(items[i].length(), items[i].size);
      });
    default:
      return orderBy(instance, [&](uint32_t i) {
        return Key(-items[i].start(), items[i].size);
      });
    }
  }

private:
  const PoolInstance &instance;
};

/// Items that end at the peak, in order.
std::vector<uint32_t> itemsAtPeak(const PoolInstance &instance,
                                  const ItemOffsets &offsets, int64_t peak) {
  std::vector<uint32_t> top;
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    if (offsets[i] + instance.items[i].size == peak)
      top.push_back(i);
  return top;
}

/// `order` with `first` moved to the front, the rest in their order.
std::vector<uint32_t> promote(const std::vector<uint32_t> &order,
                              const std::vector<uint32_t> &first) {
  std::vector<char> moved(order.size(), 0);
  std::vector<uint32_t> result;
  for (uint32_t i : first)
    if (!moved[i]) {
      moved[i] = 1;
      result.push_back(i);
    }
  for (uint32_t i : order)
    if (!moved[i])
      result.push_back(i);
  return result;
}

} // namespace

ItemOffsets dsaplan::solver::detail::placeInOrder(
    const PoolInstance &instance, const std::vector<uint32_t> &order,
    FitRule rule) {
  ItemOffsets offsets(instance.items.size(), kUnplaced);
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    if (instance.items[i].pin)
      offsets[i] = *instance.items[i].pin;
  std::vector<AddressRange> blocked;
  for (uint32_t i : order) {
    if (offsets[i] != kUnplaced)
      continue;
    const Item &item = instance.items[i];
    blockedRanges(instance, offsets, i, blocked);
    offsets[i] = rule == FitRule::First
                     ? firstFit(blocked, item.size, item.alignment)
                     : bestFit(blocked, item.size, item.alignment);
  }
  return offsets;
}

ItemOffsets dsaplan::solver::detail::placeBump(const PoolInstance &instance) {
  ItemOffsets offsets(instance.items.size(), kUnplaced);
  std::vector<AddressRange> blocked = instance.reserved;
  int64_t top = 0;
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    if (instance.items[i].pin) {
      offsets[i] = *instance.items[i].pin;
      blocked.push_back({offsets[i], offsets[i] + instance.items[i].size});
      top = std::max(top, offsets[i] + instance.items[i].size);
    }
  std::sort(blocked.begin(), blocked.end(),
            [](const AddressRange &a, const AddressRange &b) {
              return a.begin < b.begin;
            });
  // Every item above the previous one: no reuse at all.
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    if (offsets[i] != kUnplaced)
      continue;
    const Item &item = instance.items[i];
    offsets[i] = firstFit(blocked, item.size, item.alignment, top);
    top = offsets[i] + item.size;
  }
  return offsets;
}

/// Above this many items the level-by-level greedy (quadratic) is skipped.
constexpr size_t kLevelGreedyMaxItems = 400;
/// Work the target probes may spend, in steps: a search node scans the
/// items (one step each) and updates the neighbours of the item it places
/// and their sections (about twelve steps each, fitted to the time per node
/// on MiniMalloc's instances).
constexpr uint64_t kProbeSteps = 2'400'000;
constexpr uint64_t kStepsPerNeighbour = 12;
/// At most this many probe nodes per item (small pools need few).
constexpr uint64_t kProbeNodesPerItem = 50;

namespace {

/// Search nodes the probes of `instance` may spend.
uint64_t probeNodes(const PoolInstance &instance) {
  uint64_t items = instance.items.size(), neighbours = 0;
  for (const std::vector<uint32_t> &list : instance.conflicts)
    neighbours += list.size();
  uint64_t stepsPerNode =
      items + kStepsPerNeighbour * neighbours / std::max<uint64_t>(items, 1);
  return std::min(kProbeSteps / std::max<uint64_t>(stepsPerNode, 1),
                  kProbeNodesPerItem * items);
}

/// Improves `best` by asking the exact search, with small node budgets,
/// for placements within targets between the lower bound and the best
/// peak: first the bound itself, with two thirds of the budget (tight
/// instances often meet it, and a placement there is optimal), then by
/// bisection, until two questions in a row get no placement. A question the
/// budget cannot answer counts as "no": this is a heuristic, it proves
/// nothing.
/// Returns the nodes spent.
uint64_t probeTargets(const PoolInstance &instance, int64_t bound,
                      uint64_t nodeBudget, ItemOffsets &best,
                      SearchControl *control) {
  int64_t low = bound, high = itemPeak(instance, best);
  uint64_t budget = std::min(probeNodes(instance), nodeBudget), spent = 0;
  // Two "no"s in a row say the search is weak here (say, a loose bound or
  // many separations): the rest of the budget would buy nothing.
  int noes = 0;
  for (int64_t target = low; low < high && spent < budget && noes < 2 &&
                            !(control && control->stopRequested());
       target = low + (high - low) / 2) {
    uint64_t share = target == bound ? budget * 2 / 3 : budget / 3;
    ExactResult answer =
        searchExact(instance, {}, low, target, /*stopWithinLimit=*/true,
                    std::max<uint64_t>(1, std::min(share, budget - spent)),
                    /*decompose=*/true, control);
    spent += answer.nodes;
    if (answer.peak >= 0 && answer.peak <= target) {
      best = std::move(answer.offsets);
      high = answer.peak;
      noes = 0;
    } else {
      low = target + 1;
      ++noes;
    }
  }
  return spent;
}

/// placeByLevels without the search, where it may do without: when every
/// unpinned item has bytes and `order` names each item once, the search's
/// first descent places, step by step, the unplaced item of the lowest
/// gravity (the lowest offset clear of its placed neighbours, the reserved
/// ranges and its pinned neighbours), the first in `order` among equals,
/// and nothing else of the search acts. A heap of (gravity, rank) finds
/// that item where the search scans every item at every step. The property
/// tests hold both to the same offsets (LevelDescentMatchesTheSearch).
std::optional<ItemOffsets> descendByLevels(const PoolInstance &instance,
                                           const std::vector<uint32_t> &order) {
  size_t n = instance.items.size();
  constexpr uint32_t kNoRank = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> rank(n, kNoRank);
  if (order.size() != n)
    return std::nullopt;
  for (uint32_t r = 0; r < n; ++r) {
    if (order[r] >= n || rank[order[r]] != kNoRank)
      return std::nullopt;
    rank[order[r]] = r;
  }
  ItemOffsets offsets(n, kUnplaced);
  for (uint32_t i = 0; i < n; ++i) {
    if (instance.items[i].pin)
      offsets[i] = *instance.items[i].pin;
    else if (instance.items[i].size <= 0)
      return std::nullopt; // the search's dominance rule may act
  }
  // The fixed ranges an item steps over, sorted by begin: the reserved
  // ones, and its pinned neighbours where it has some.
  auto byBegin = [](const AddressRange &a, const AddressRange &b) {
    return a.begin < b.begin;
  };
  std::vector<AddressRange> reserved = instance.reserved;
  std::sort(reserved.begin(), reserved.end(), byBegin);
  std::vector<std::vector<AddressRange>> fixedOf(n);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t other : instance.conflicts[i])
      if (!instance.items[i].pin && instance.items[other].pin) {
        if (fixedOf[i].empty())
          fixedOf[i] = reserved;
        fixedOf[i].push_back(
            {offsets[other], offsets[other] + instance.items[other].size});
      }
  for (std::vector<AddressRange> &fixed : fixedOf)
    std::sort(fixed.begin(), fixed.end(), byBegin);
  std::vector<int64_t> base(n, 0), position(n, 0);
  auto gravity = [&](uint32_t i) {
    const Item &item = instance.items[i];
    return firstFit(fixedOf[i].empty() ? reserved : fixedOf[i], item.size,
                    item.alignment, base[i]);
  };
  using Candidate = std::tuple<int64_t, uint32_t, uint32_t>; // at, rank, item
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>>
      lowest;
  for (uint32_t i = 0; i < n; ++i)
    if (!instance.items[i].pin) {
      position[i] = gravity(i);
      lowest.push({position[i], rank[i], i});
    }
  while (!lowest.empty()) {
    auto [at, itemRank, i] = lowest.top();
    lowest.pop();
    if (offsets[i] != kUnplaced || at != position[i])
      continue; // placed, or lifted since
    offsets[i] = at;
    int64_t end = at + instance.items[i].size;
    for (uint32_t other : instance.conflicts[i])
      if (offsets[other] == kUnplaced && base[other] < end) {
        base[other] = end;
        position[other] = gravity(other);
        lowest.push({position[other], rank[other], other});
      }
  }
  return offsets;
}

} // namespace

std::vector<uint32_t> dsaplan::solver::detail::orderBySizeThenLength(
    const PoolInstance &instance) {
  std::vector<uint32_t> order(instance.items.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Item &x = instance.items[a], &y = instance.items[b];
    if (x.size != y.size)
      return x.size > y.size;
    if (x.length() != y.length())
      return x.length() > y.length();
    return a < b;
  });
  return order;
}

ItemOffsets dsaplan::solver::detail::placeByLevels(
    const PoolInstance &instance, const std::vector<uint32_t> &order) {
  if (std::optional<ItemOffsets> offsets = descendByLevels(instance, order))
    return std::move(*offsets);
  return placeByLevelsBySearch(instance, order);
}

/// Above this many items multi-start tries fewer orders.
constexpr size_t kHugeItems = 20000;
/// Repair rounds of pools that the probes then improve.
constexpr int kRoundsBeforeProbes = 1;

ItemOffsets dsaplan::solver::detail::placeMultiStart(
    const PoolInstance &instance, int rounds, int64_t lowerBound,
    int64_t ownBound, uint64_t nodeBudget, uint64_t &nodes,
    SearchControl *control) {
  ItemOffsets best;
  int64_t bestPeak = 0;
  std::vector<uint32_t> bestOrder;
  bool levels = instance.items.size() <= kLevelGreedyMaxItems;
  auto consider = [&](const std::vector<uint32_t> &order, ItemOffsets offsets) {
    int64_t peak = itemPeak(instance, offsets);
    if (best.empty() || peak < bestPeak) {
      best = std::move(offsets);
      bestPeak = peak;
      bestOrder = order;
    }
  };
  // Huge pools get first fit over the three strongest orders only, which
  // keeps them near n log n. Pools small enough for the level greedy and
  // the probes get first fit over the first order only: the probes find
  // far better placements than the other fits, and cost less.
  bool huge = instance.items.size() > kHugeItems;
  bool firstOrder = true;
  auto tryOrder = [&](const std::vector<uint32_t> &order) {
    if (!levels || firstOrder)
      consider(order, placeInOrder(instance, order, FitRule::First));
    if (!huge && !levels)
      consider(order, placeInOrder(instance, order, FitRule::Best));
    if (levels)
      consider(order, placeByLevels(instance, order));
    firstOrder = false;
  };
  StartingOrders orders(instance);
  size_t numOrders = huge ? 3 : StartingOrders::kCount;
  // A placement at the instance's own bound is optimal: a later one is
  // kept only when lower.
  auto settled = [&] { return !best.empty() && bestPeak <= ownBound; };
  for (size_t k = 0; k < numOrders; ++k) {
    tryOrder(orders.get(k));
    if (settled())
      return best;
  }
  // Repair: the items that reach the peak go first, as long as it helps
  // (a deterministic "squeaky wheel"). Pools the probes improve need few
  // rounds.
  if (levels)
    rounds = std::min(rounds, kRoundsBeforeProbes);
  std::vector<uint32_t> order = bestOrder;
  ItemOffsets current = best;
  for (int round = 0; round < rounds && !instance.items.empty() && !settled();
       ++round) {
    order = promote(order, itemsAtPeak(instance, current,
                                       itemPeak(instance, current)));
    current = placeInOrder(instance, order, FitRule::First);
    consider(order, current);
    if (levels) {
      ItemOffsets byLevels = placeByLevels(instance, order);
      if (itemPeak(instance, byLevels) < itemPeak(instance, current))
        current = byLevels;
      consider(order, std::move(byLevels));
    }
  }
  if (levels)
    nodes += probeTargets(instance, lowerBound, nodeBudget, best, control);
  return best;
}

std::vector<int64_t>
dsaplan::solver::detail::pressureOf(const PoolInstance &instance) {
  std::vector<std::pair<int64_t, int64_t>> events;
  for (const Item &item : instance.items)
    for (const Interval &interval : item.live) {
      events.push_back({interval.lower, item.size});
      events.push_back({interval.upper, -item.size});
    }
  std::sort(events.begin(), events.end());
  std::vector<int64_t> points, load;
  int64_t live = 0;
  for (const auto &event : events) {
    live += event.second;
    if (!points.empty() && points.back() == event.first)
      load.back() = live;
    else {
      points.push_back(event.first);
      load.push_back(live);
    }
  }
  std::vector<int64_t> pressure(instance.items.size(), 0);
  for (size_t i = 0; i < instance.items.size(); ++i)
    for (const Interval &interval : instance.items[i].live) {
      auto first = std::lower_bound(points.begin(), points.end(),
                                    interval.lower) - points.begin();
      for (auto p = first; p < static_cast<ptrdiff_t>(points.size()) &&
                           points[p] < interval.upper;
           ++p)
        pressure[i] = std::max(pressure[i], load[p]);
    }
  return pressure;
}
