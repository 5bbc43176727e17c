//===- ReuseCostBound.cpp - Lower bounds on the reuse cost ----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The root bound of the reuse-cost search (ReuseCost.h): in a set of items
// that pairwise conflict or have a penalty (a clique), room forces some
// penalised pairs to share bytes. Two counts of them: by bytes (the pairs
// that share must save the clique's excess over the usable bytes) and by
// pairs (Turan: at most r of the items fit pairwise apart, so at most
// Turan's number of pairs are apart). The cliques are the maximal ones,
// enumerated by Bron-Kerbosch with pivoting within a step budget.
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "ReuseCost.h"

#include <algorithm>
#include <cassert>
#include <tuple>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Cliques whose penalised pairs cost at most this much together get the
/// exact covering bound (dynamic programming over the cost), the others
/// the fractional one.
constexpr int64_t kExactCoverCost = 256;
/// Steps per group for the clique bound (CliqueBound).
constexpr uint64_t kCliqueWork = 5'000'000;

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

} // namespace

int64_t dsaplan::solver::detail::cliqueCostBound(
    const CostInstance &costs, const std::vector<uint32_t> &group,
    SearchControl *control) {
  return CliqueBound(costs, group, control).run();
}
