//===- ReuseCost.cpp - Placement for the lowest reuse cost ----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// See ReuseCost.h for the two algorithms and why the branch-and-bound is
// complete. The bound at a node of the search: the cost already charged,
// plus every penalty the remaining items cannot escape. Items still to place
// lie in [floor, capacity) (addresses only grow along a branch), so
//  - an item and a placed partner must share bytes when the item fits
//    neither below the partner nor above it in that range;
//  - two items still to place must share bytes when their sizes add up to
//    more than the range (two intervals in it longer than it intersect).
//
//===----------------------------------------------------------------------===//

#include "ReuseCost.h"
#include "Control.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>
#include <numeric>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max() / 4;

/// Pools with more items keep the placement that fits: the greedy is
/// quadratic per item.
constexpr size_t kGreedyMaxItems = 1000;
/// Groups of related items larger than this are not searched exactly.
constexpr size_t kSearchMaxItems = 64;
/// Item orders the greedy tries beyond the fixed ones.
constexpr int kShuffledOrders = 24;
/// Rounds of the single-item re-placement pass.
constexpr int kImproveRounds = 8;
/// Cliques whose penalised pairs cost at most this much together get the
/// exact covering bound (dynamic programming over the cost), the others
/// the fractional one.
constexpr int64_t kExactCoverCost = 256;
/// Steps per group for the clique bound (CliqueBound).
constexpr uint64_t kCliqueWork = 5'000'000;

bool overlaps(int64_t a, int64_t aSize, int64_t b, int64_t bSize) {
  return a < b + bSize && b < a + aSize;
}

/// Lowest aligned offset at or above `from` where `item` fits among the
/// placed items it conflicts with and the reserved ranges; -1 when that is
/// beyond the capacity.
int64_t lowestFit(const PoolInstance &instance, uint32_t item,
                  const ItemOffsets &offsets, int64_t from,
                  std::vector<AddressRange> &blocked) {
  const Item &it = instance.items[item];
  blockedRanges(instance, offsets, item, blocked);
  int64_t at = roundUp(std::max<int64_t>(from, 0), it.alignment);
  for (const AddressRange &range : blocked) {
    if (range.end <= at)
      continue;
    if (range.begin >= at + it.size)
      break;
    at = roundUp(range.end, it.alignment);
  }
  return at + it.size <= instance.capacity ? at : -1;
}

/// Whether `item` may sit exactly at `at`.
bool fitsAt(const PoolInstance &instance, uint32_t item,
            const ItemOffsets &offsets, int64_t at) {
  const Item &it = instance.items[item];
  if (at % it.alignment != 0 || at + it.size > instance.capacity)
    return false;
  for (const AddressRange &range : instance.reserved)
    if (overlaps(at, it.size, range.begin, range.end - range.begin))
      return false;
  for (uint32_t n : instance.conflicts[item])
    if (offsets[n] != kUnplaced &&
        overlaps(at, it.size, offsets[n], instance.items[n].size))
      return false;
  return true;
}

/// The cost `item` at `at` adds against the placed items.
int64_t addedCost(const CostInstance &costs, uint32_t item,
                  const ItemOffsets &offsets, int64_t at) {
  const std::vector<Item> &items = costs.instance->items;
  int64_t added = 0;
  for (auto [other, cost] : costs.penalties[item])
    if (offsets[other] != kUnplaced &&
        overlaps(at, items[item].size, offsets[other], items[other].size))
      added += cost;
  return added;
}

/// Addresses worth trying for `item`: 0, the end of each reserved range and
/// the top of each placed item it is related to. Sorted, unique.
void candidatesFor(const CostInstance &costs, uint32_t item,
                   const ItemOffsets &offsets, std::vector<int64_t> &out) {
  const PoolInstance &instance = *costs.instance;
  out.assign(1, 0);
  for (const AddressRange &range : instance.reserved)
    out.push_back(range.end);
  for (uint32_t other : costs.related[item])
    if (offsets[other] != kUnplaced)
      out.push_back(offsets[other] + instance.items[other].size);
  for (int64_t &at : out)
    at = roundUp(at, instance.items[item].alignment);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

//===----------------------------------------------------------------------===//
// The greedy
//===----------------------------------------------------------------------===//

/// The placement of `item` among the placed ones that adds the least cost,
/// then the lowest address: {cost, offset}, offset -1 when nothing fits.
std::pair<int64_t, int64_t> bestPlace(const CostInstance &costs, uint32_t item,
                                      const ItemOffsets &offsets,
                                      std::vector<int64_t> &candidates,
                                      std::vector<AddressRange> &blocked) {
  candidatesFor(costs, item, offsets, candidates);
  std::pair<int64_t, int64_t> best = {kInfinity, -1};
  for (int64_t from : candidates) {
    int64_t at = lowestFit(*costs.instance, item, offsets, from, blocked);
    if (at < 0)
      continue;
    std::pair<int64_t, int64_t> here = {addedCost(costs, item, offsets, at), at};
    best = std::min(best, here);
  }
  return best;
}

ItemOffsets placeGreedily(const CostInstance &costs,
                          const std::vector<uint32_t> &order) {
  const PoolInstance &instance = *costs.instance;
  ItemOffsets offsets(instance.items.size(), kUnplaced);
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    if (instance.items[i].pin)
      offsets[i] = *instance.items[i].pin;
  std::vector<int64_t> candidates;
  std::vector<AddressRange> blocked;
  for (uint32_t item : order) {
    if (instance.items[item].pin)
      continue;
    auto [cost, at] = bestPlace(costs, item, offsets, candidates, blocked);
    if (at < 0)
      return {};
    offsets[item] = at;
  }
  return offsets;
}

/// Re-places single items where that lowers the cost, a few rounds.
void improve(const CostInstance &costs, ItemOffsets &offsets) {
  const PoolInstance &instance = *costs.instance;
  std::vector<int64_t> candidates;
  std::vector<AddressRange> blocked;
  for (int round = 0; round < kImproveRounds; ++round) {
    bool changed = false;
    for (uint32_t item = 0; item < instance.items.size(); ++item) {
      if (instance.items[item].pin || costs.penalties[item].empty())
        continue;
      int64_t was = offsets[item];
      offsets[item] = kUnplaced;
      int64_t before = addedCost(costs, item, offsets, was);
      auto [cost, at] = bestPlace(costs, item, offsets, candidates, blocked);
      if (at >= 0 && cost < before) {
        offsets[item] = at;
        changed = true;
      } else {
        offsets[item] = was;
      }
    }
    if (!changed)
      return;
  }
}

/// Deterministic orders: by size, by start, by end, by penalty weight, by
/// conflict degree, then shuffles from a fixed seed.
std::vector<std::vector<uint32_t>> greedyOrders(const CostInstance &costs) {
  const std::vector<Item> &items = costs.instance->items;
  std::vector<uint32_t> base(items.size());
  std::iota(base.begin(), base.end(), 0);
  std::vector<int64_t> weight(items.size(), 0);
  for (uint32_t i = 0; i < items.size(); ++i)
    for (auto [other, cost] : costs.penalties[i])
      weight[i] += cost;
  auto sorted = [&](auto key) {
    std::vector<uint32_t> order = base;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    return order;
  };
  std::vector<std::vector<uint32_t>> orders = {
      sorted([&](uint32_t i) { return -items[i].size; }),
      sorted([&](uint32_t i) { return std::pair(items[i].start(), -items[i].size); }),
      sorted([&](uint32_t i) { return std::pair(items[i].end(), -items[i].size); }),
      sorted([&](uint32_t i) { return std::pair(-weight[i], -items[i].size); }),
      sorted([&](uint32_t i) {
        return std::pair(-static_cast<int64_t>(costs.instance->conflicts[i].size()),
                         -items[i].size);
      }),
  };
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int s = 0; s < kShuffledOrders; ++s) {
    std::vector<uint32_t> order = orders[s % 2];
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[next() % i]);
    orders.push_back(std::move(order));
  }
  return orders;
}

//===----------------------------------------------------------------------===//
// The clique bound
//===----------------------------------------------------------------------===//

/// Bytes of [0, capacity) no item may take: the reserved ranges, merged.
int64_t reservedBytes(const PoolInstance &instance) {
  std::vector<AddressRange> ranges = instance.reserved;
  std::sort(ranges.begin(), ranges.end(),
            [](const AddressRange &a, const AddressRange &b) {
              return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
            });
  int64_t bytes = 0, covered = 0;
  for (const AddressRange &range : ranges) {
    int64_t begin = std::max(range.begin, covered);
    int64_t end = std::min(range.end, instance.capacity);
    if (end > begin)
      bytes += end - begin;
    covered = std::max(covered, end);
  }
  return bytes;
}

/// Whether `item` has a penalty with `other`, and its cost (0 if none).
int64_t penaltyBetween(const CostInstance &costs, uint32_t item,
                       uint32_t other) {
  const auto &list = costs.penalties[item];
  auto it = std::lower_bound(
      list.begin(), list.end(), std::pair<uint32_t, int64_t>{other, 0},
      [](const auto &a, const auto &b) { return a.first < b.first; });
  return it != list.end() && it->first == other ? it->second : 0;
}

/// The least cost of the penalised pairs of `clique` (items that pairwise
/// conflict or have a penalty) that must share bytes for all of it to fit in
/// `usable` bytes. The clique's bytes in use are at least its summed sizes
/// less what each pair that shares bytes shares (a pair in conflict shares
/// none, a penalised pair at most its smaller size), so the pairs that share
/// must together save the excess: a covering problem. Its optimum, by
/// dynamic programming over the cost when the pairs cost at most
/// kExactCoverCost together, else its fractional optimum (cheapest cost per
/// byte saved first), is a lower bound.
///
///   three items of 64 B, pairwise penalised (cost 1), 128 B usable:
///   excess 64 B, each pair saves at most 64 B: at least one pair, cost 1
int64_t cliqueCost(const CostInstance &costs,
                   const std::vector<uint32_t> &clique, int64_t usable,
                   uint64_t &work) {
  const std::vector<Item> &items = costs.instance->items;
  int64_t excess = -usable;
  for (uint32_t item : clique)
    excess += items[item].size;
  work += clique.size() * clique.size();
  if (excess <= 0)
    return 0;
  struct Pair {
    int64_t cost, saving;
  };
  std::vector<Pair> pairs;
  for (size_t a = 0; a < clique.size(); ++a)
    for (size_t b = a + 1; b < clique.size(); ++b)
      if (int64_t cost = penaltyBetween(costs, clique[a], clique[b]))
        pairs.push_back({cost, std::min(items[clique[a]].size,
                                        items[clique[b]].size)});
  int64_t total = 0;
  for (const Pair &pair : pairs)
    total += pair.cost;
  work += pairs.size();
  if (total <= kExactCoverCost) {
    work += pairs.size() * static_cast<uint64_t>(total);
    // saved[c]: the most bytes pairs of summed cost c can save (-1: none).
    std::vector<int64_t> saved(total + 1, -1);
    saved[0] = 0;
    for (const Pair &pair : pairs)
      for (int64_t c = total; c >= pair.cost; --c)
        if (saved[c - pair.cost] >= 0)
          saved[c] = std::max(saved[c], saved[c - pair.cost] + pair.saving);
    for (int64_t c = 0; c <= total; ++c)
      if (saved[c] >= excess)
        return c;
    return total;
  }
  // Cheapest per byte saved first (cost_a / saving_a < cost_b / saving_b).
  std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) {
    return static_cast<__int128>(a.cost) * b.saving <
           static_cast<__int128>(b.cost) * a.saving;
  });
  int64_t bound = 0;
  for (const Pair &pair : pairs) {
    if (pair.saving >= excess) {
      // The fraction of this pair that covers the rest, rounded up: costs
      // are integers.
      __int128 part = static_cast<__int128>(pair.cost) * excess;
      return bound + static_cast<int64_t>((part + pair.saving - 1) /
                                          pair.saving);
    }
    bound += pair.cost;
    excess -= pair.saving;
  }
  // Not even every pair sharing covers the excess (no placement fits): the
  // cost of all of them is still a bound.
  return bound;
}

/// Edges of the complete r-partite graph on m vertices with balanced parts
/// (Turan's graph): the most edges an m-vertex graph without r + 1
/// pairwise adjacent vertices can have.
int64_t turanEdges(int64_t m, int64_t r) {
  if (r >= m)
    return m * (m - 1) / 2;
  int64_t q = m / r, rest = m % r;
  return (m * m - rest * (q + 1) * (q + 1) - (r - rest) * q * q) / 2;
}

/// The least cost of the penalised pairs of `clique` that must share bytes
/// by counting them (Turan): in a placement, call two items of the clique
/// apart when their bytes are disjoint. Items pairwise apart need their
/// summed sizes, so no more than r of them are pairwise apart, r the most
/// of the smallest sizes that fit in `usable`; a graph without r + 1
/// pairwise adjacent vertices has at most turanEdges(m, r) edges, so at
/// least m(m-1)/2 - turanEdges(m, r) pairs of the clique share bytes, each
/// a penalised one (pairs in conflict never do): at least the cheapest that
/// many. Applied to the m largest items for every m (the largest items are
/// the fewest that fit apart), the best bound is kept.
///
///   nine 64 KiB items and two of 32 KiB, pairwise penalised (cost 1) but
///   for three separated pairs, in 184 KiB: no three of the nine fit apart
///   (r = 2), so at least 36 - 20 = 16 of their pairs share bytes: 16
int64_t turanCost(const CostInstance &costs,
                  const std::vector<uint32_t> &clique, int64_t usable,
                  uint64_t &work) {
  const std::vector<Item> &items = costs.instance->items;
  std::vector<uint32_t> bySize = clique;
  std::sort(bySize.begin(), bySize.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(items[b].size, a) < std::tie(items[a].size, b);
  });
  int64_t best = 0;
  std::vector<int64_t> weights;
  for (size_t m = 2; m <= bySize.size(); ++m) {
    // The m largest; the most of them pairwise apart: the smallest first.
    int64_t r = 0, used = 0;
    for (size_t k = m; k-- > 0 && used + items[bySize[k]].size <= usable;) {
      used += items[bySize[k]].size;
      ++r;
    }
    int64_t pairs = static_cast<int64_t>(m * (m - 1) / 2);
    int64_t sharing = r == 0 ? pairs : pairs - turanEdges(m, r);
    if (sharing <= 0)
      continue;
    weights.clear();
    for (size_t a = 0; a < m; ++a)
      for (size_t b = a + 1; b < m; ++b)
        if (int64_t cost = penaltyBetween(costs, bySize[a], bySize[b]))
          weights.push_back(cost);
    work += m * m;
    // Fewer penalised pairs than must share: no placement fits; all of
    // them is still a bound.
    size_t take = std::min(weights.size(), static_cast<size_t>(sharing));
    std::nth_element(weights.begin(), weights.begin() + take, weights.end());
    int64_t cost = 0;
    for (size_t k = 0; k < take; ++k)
      cost += weights[k];
    best = std::max(best, cost);
  }
  return best;
}

/// A lower bound on the cost of `group` (at most 64 items): the best
/// cliqueCost or turanCost over the maximal cliques of items that pairwise
/// conflict or have a penalty, enumerated by Bron-Kerbosch with pivoting within
/// kCliqueWork steps (an expansion, a pair looked at, a cell of the
/// covering table; any clique gives a bound, the budget only limits how
/// many are tried). Sets are bit masks over the group.
class CliqueBound {
public:
  CliqueBound(const CostInstance &costs, const std::vector<uint32_t> &group,
              SearchControl *control)
      : costs(costs), group(group), neighbours(group.size(), 0),
        control(control) {
    assert(group.size() <= 64 && "bit masks over the group");
    for (size_t a = 0; a < group.size(); ++a)
      for (size_t b = 0; b < group.size(); ++b)
        if (a != b && std::binary_search(costs.related[group[a]].begin(),
                                         costs.related[group[a]].end(),
                                         group[b]))
          neighbours[a] |= uint64_t(1) << b;
    usable = costs.instance->capacity - reservedBytes(*costs.instance);
  }

  int64_t run() {
    uint64_t all = group.size() == 64 ? ~uint64_t(0)
                                      : (uint64_t(1) << group.size()) - 1;
    expand(0, all, 0);
    return best;
  }

private:
  void expand(uint64_t clique, uint64_t candidates, uint64_t excluded) {
    // Any clique gives a bound: stopping early only weakens it.
    if (++work > kCliqueWork || (control && control->stopRequested()))
      return;
    if (!candidates && !excluded) {
      std::vector<uint32_t> items;
      for (size_t i = 0; i < group.size(); ++i)
        if (clique >> i & 1)
          items.push_back(group[i]);
      best = std::max({best, cliqueCost(costs, items, usable, work),
                       turanCost(costs, items, usable, work)});
      return;
    }
    // The pivot with the most candidates among its neighbours: only the
    // candidates it does not neighbour need a branch of their own.
    uint64_t either = candidates | excluded;
    size_t pivot = __builtin_ctzll(either);
    int most = -1;
    for (uint64_t rest = either; rest; rest &= rest - 1) {
      size_t u = __builtin_ctzll(rest);
      int count = __builtin_popcountll(candidates & neighbours[u]);
      if (count > most) {
        most = count;
        pivot = u;
      }
    }
    for (uint64_t rest = candidates & ~neighbours[pivot]; rest;
         rest &= rest - 1) {
      size_t v = __builtin_ctzll(rest);
      uint64_t bit = uint64_t(1) << v;
      expand(clique | bit, candidates & neighbours[v], excluded & neighbours[v]);
      candidates &= ~bit;
      excluded |= bit;
    }
  }

  const CostInstance &costs;
  const std::vector<uint32_t> &group;
  std::vector<uint64_t> neighbours;
  SearchControl *control;
  int64_t usable = 0;
  int64_t best = 0;
  uint64_t work = 0;
};

//===----------------------------------------------------------------------===//
// The branch-and-bound
//===----------------------------------------------------------------------===//

/// Exact search over one group of related items (no penalty or conflict
/// leaves the group), the others staying where `start` puts them.
class CostSearch {
public:
  CostSearch(const CostInstance &costs, const std::vector<uint32_t> &group,
             const ItemOffsets &start, uint64_t budget,
             SearchControl *control);

  void run();

  ItemOffsets best;
  int64_t bestCost = 0;
  /// Cost no placement of the group can go below.
  int64_t rootBound = 0;
  bool proved = false;
  uint64_t nodes = 0;

private:
  struct Child {
    int64_t added, at;
    uint32_t item;
    bool operator<(const Child &other) const {
      return std::tie(added, at, item) <
             std::tie(other.added, other.at, other.item);
    }
  };

  int64_t groupCost(const ItemOffsets &offsets) const;
  /// Penalties the items still to place cannot escape; kInfinity when one of
  /// them no longer fits at all.
  int64_t forcedCost(int64_t floor);
  void visit(int64_t floor, int64_t lastItem, int64_t cost, size_t placed);

  const CostInstance &costs;
  const PoolInstance &instance;
  std::vector<uint32_t> group, free;
  uint64_t budget;
  SearchControl *control;
  /// The pool's cost outside the group (what progress reports add).
  int64_t outside = 0;
  bool stop = false;
  ItemOffsets offsets;
  std::vector<int64_t> candidates;
  std::vector<AddressRange> blocked;
};

CostSearch::CostSearch(const CostInstance &costs,
                       const std::vector<uint32_t> &group,
                       const ItemOffsets &start, uint64_t budget,
                       SearchControl *control)
    : costs(costs), instance(*costs.instance), group(group), budget(budget),
      control(control), offsets(start) {
  for (uint32_t item : group)
    if (!instance.items[item].pin)
      free.push_back(item);
  best = start;
  bestCost = groupCost(start);
  outside = itemReuseCost(costs, start) - bestCost;
  for (uint32_t item : free)
    offsets[item] = kUnplaced;
  int64_t pinned = groupCost(offsets);
  int64_t forced = forcedCost(0);
  int64_t clique =
      group.size() <= kSearchMaxItems ? CliqueBound(costs, group, control).run()
                                      : 0;
  rootBound = std::min(bestCost, forced >= kInfinity
                                     ? bestCost
                                     : std::max(pinned + forced, clique));
}

int64_t CostSearch::groupCost(const ItemOffsets &placement) const {
  int64_t total = 0;
  for (uint32_t item : group)
    for (auto [other, cost] : costs.penalties[item])
      if (other > item && placement[item] != kUnplaced &&
          placement[other] != kUnplaced &&
          overlaps(placement[item], instance.items[item].size,
                   placement[other], instance.items[other].size))
        total += cost;
  return total;
}

int64_t CostSearch::forcedCost(int64_t floor) {
  int64_t forced = 0;
  for (uint32_t item : free) {
    if (offsets[item] != kUnplaced)
      continue;
    const Item &it = instance.items[item];
    int64_t low = roundUp(floor, it.alignment);
    if (lowestFit(instance, item, offsets, low, blocked) < 0)
      return kInfinity;
    for (auto [other, cost] : costs.penalties[item]) {
      const Item &partner = instance.items[other];
      if (offsets[other] == kUnplaced) {
        if (other > item && it.size + partner.size > instance.capacity - floor)
          forced += cost;
        continue;
      }
      int64_t bottom = offsets[other], top = bottom + partner.size;
      bool below = low + it.size <= bottom;
      bool above =
          roundUp(std::max(top, low), it.alignment) + it.size <= instance.capacity;
      if (!below && !above)
        forced += cost;
    }
  }
  return forced;
}

void CostSearch::run() {
  if (bestCost <= rootBound) {
    proved = true;
    return;
  }
  visit(0, -1, groupCost(offsets), 0);
  proved = !stop || bestCost <= rootBound;
  if (proved)
    rootBound = bestCost;
}

void CostSearch::visit(int64_t floor, int64_t lastItem, int64_t cost,
                       size_t placed) {
  // A stop request ends the search as a spent budget would.
  if (++nodes > budget || (control && control->countNode())) {
    stop = true;
    return;
  }
  if (placed == free.size()) {
    if (cost < bestCost) {
      bestCost = cost;
      best = offsets;
      if (control)
        control->offer(outside + bestCost);
    }
    return;
  }
  int64_t forced = forcedCost(floor);
  if (forced >= kInfinity || cost + forced >= bestCost)
    return;
  std::vector<Child> children;
  for (uint32_t item : free) {
    if (offsets[item] != kUnplaced)
      continue;
    candidatesFor(costs, item, offsets, candidates);
    for (int64_t at : candidates) {
      // Items go in increasing (address, item) order: each placement once.
      if (at < floor || (at == floor && static_cast<int64_t>(item) < lastItem))
        continue;
      if (!fitsAt(instance, item, offsets, at))
        continue;
      int64_t added = addedCost(costs, item, offsets, at);
      if (cost + added < bestCost)
        children.push_back({added, at, item});
    }
  }
  std::sort(children.begin(), children.end());
  for (const Child &child : children) {
    if (cost + child.added >= bestCost)
      continue;
    offsets[child.item] = child.at;
    visit(child.at, child.item, cost + child.added, placed + 1);
    offsets[child.item] = kUnplaced;
    if (stop || bestCost <= rootBound)
      return;
  }
}

/// Groups of items joined by conflicts or penalties, each sorted, only the
/// groups with a penalty inside.
std::vector<std::vector<uint32_t>> penaltyGroups(const CostInstance &costs) {
  size_t n = costs.related.size();
  std::vector<int> groupOf(n, -1);
  std::vector<std::vector<uint32_t>> groups;
  for (uint32_t start = 0; start < n; ++start) {
    if (groupOf[start] >= 0 || costs.penalties[start].empty())
      continue;
    int id = static_cast<int>(groups.size());
    groups.emplace_back();
    std::vector<uint32_t> stack = {start};
    groupOf[start] = id;
    while (!stack.empty()) {
      uint32_t item = stack.back();
      stack.pop_back();
      groups.back().push_back(item);
      for (uint32_t other : costs.related[item])
        if (groupOf[other] < 0) {
          groupOf[other] = id;
          stack.push_back(other);
        }
    }
    std::sort(groups.back().begin(), groups.back().end());
  }
  return groups;
}

} // namespace

CostInstance dsaplan::solver::detail::buildCostInstance(
    const Problem &problem, const PoolInstance &instance) {
  CostInstance costs;
  costs.instance = &instance;
  size_t n = instance.items.size();
  std::vector<int64_t> itemOf(problem.buffers.size(), -1);
  for (uint32_t i = 0; i < n; ++i)
    for (size_t member : instance.items[i].members)
      itemOf[member] = i;
  std::map<std::pair<uint32_t, uint32_t>, int64_t> weights;
  for (const ReusePenalty &penalty : problem.reusePenalties) {
    if (penalty.first >= itemOf.size() || penalty.second >= itemOf.size())
      continue;
    int64_t a = itemOf[penalty.first], b = itemOf[penalty.second];
    // Another pool, one colocated item, or a pair that may never share.
    if (a < 0 || b < 0 || a == b || penalty.cost <= 0 ||
        std::binary_search(instance.conflicts[a].begin(),
                           instance.conflicts[a].end(), uint32_t(b)))
      continue;
    weights[{uint32_t(std::min(a, b)), uint32_t(std::max(a, b))}] +=
        penalty.cost;
  }
  costs.penalties.assign(n, {});
  costs.related = instance.conflicts;
  for (auto [pair, cost] : weights) {
    costs.penalties[pair.first].push_back({pair.second, cost});
    costs.penalties[pair.second].push_back({pair.first, cost});
    costs.related[pair.first].push_back(pair.second);
    costs.related[pair.second].push_back(pair.first);
    costs.hasPenalties = true;
  }
  for (uint32_t i = 0; i < n; ++i) {
    std::sort(costs.penalties[i].begin(), costs.penalties[i].end());
    std::sort(costs.related[i].begin(), costs.related[i].end());
    costs.related[i].erase(
        std::unique(costs.related[i].begin(), costs.related[i].end()),
        costs.related[i].end());
  }
  return costs;
}

int64_t dsaplan::solver::detail::itemReuseCost(const CostInstance &costs,
                                               const ItemOffsets &offsets) {
  const std::vector<Item> &items = costs.instance->items;
  int64_t total = 0;
  for (uint32_t i = 0; i < items.size(); ++i)
    for (auto [other, cost] : costs.penalties[i])
      if (other > i && offsets[i] != kUnplaced && offsets[other] != kUnplaced &&
          overlaps(offsets[i], items[i].size, offsets[other], items[other].size))
        total += cost;
  return total;
}

CostResult dsaplan::solver::detail::minimizeReuseCost(
    const CostInstance &costs, const ItemOffsets &fitting,
    uint64_t nodeBudget, bool greedy, SearchControl *control) {
  CostResult result;
  result.offsets = fitting;
  result.cost = itemReuseCost(costs, fitting);
  if (!costs.hasPenalties || result.cost == 0)
    return result;
  if (greedy && costs.instance->items.size() <= kGreedyMaxItems) {
    improve(costs, result.offsets);
    result.cost = itemReuseCost(costs, result.offsets);
    for (const std::vector<uint32_t> &order : greedyOrders(costs)) {
      if (result.cost == 0 || (control && control->stopRequested()))
        break;
      ItemOffsets placed = placeGreedily(costs, order);
      if (placed.empty())
        continue;
      improve(costs, placed);
      int64_t cost = itemReuseCost(costs, placed);
      if (cost < result.cost) {
        result.cost = cost;
        result.offsets = std::move(placed);
        if (control)
          control->offer(cost);
      }
    }
  }
  // Each group separately: the cost is a sum over groups, and no rule
  // joins two of them.
  for (const std::vector<uint32_t> &group : penaltyGroups(costs)) {
    uint64_t left = nodeBudget - std::min(nodeBudget, result.nodes);
    CostSearch search(costs, group, result.offsets,
                      group.size() <= kSearchMaxItems ? left : 0, control);
    if (group.size() <= kSearchMaxItems)
      search.run();
    result.nodes += search.nodes;
    result.bound += search.proved ? search.bestCost : search.rootBound;
    if (control)
      control->setBound(result.bound);
    for (uint32_t item : group)
      result.offsets[item] = search.best[item];
  }
  result.cost = itemReuseCost(costs, result.offsets);
  return result;
}
