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
// A third, stronger one: the pairs that share bytes in a placement (P) hit
// every heavy clique (items pairwise related whose sizes add up to more
// than the usable bytes): items of the clique that pairwise conflict or
// have a penalty outside P are pairwise apart, so they cannot be all of it.
// The cheapest set of penalised pairs that hits every heavy clique is
// therefore a bound: the hitting-set bound. It counts the geometry of
// stacks that the byte count misses (three items on the same bytes share
// three pairs, not two). Computed on the inclusion-minimal heavy cliques,
// by asking "is there a hitting set of cost at most k?" for k = 1, 2, ...:
// each "no" is proved, so the bound stays valid when the budget runs out.
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "ReuseCost.h"

#include <algorithm>
#include <limits>
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
/// Steps per group for the hitting-set bound (HittingSetBound): clique
/// extensions, and core words looked at by the hitting-set search.
constexpr uint64_t kHittingWork = 60'000'000;
/// Minimal heavy cliques kept as cores (more only tighten the bound).
constexpr size_t kMaxCores = 4096;

//===----------------------------------------------------------------------===//
// The clique bound
//===----------------------------------------------------------------------===//

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
    usable = usableBytes(*costs.instance);
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
// The hitting-set bound
//===----------------------------------------------------------------------===//

/// Bit set over the penalised pairs of a group, `words` 64-bit words.
using PairSet = std::vector<uint64_t>;

/// The hitting-set bound of `group` (at most 64 items): see the file
/// comment. `floor` is a bound already known (the search starts above it).
///
///   Qwen3 kv_proj's Mat pool (512 KiB): six steps of co-live tiles, two of
///   them 32 + 128 + 32 + 128 KiB, four 32 + 128 KiB, most pairs of steps
///   penalised. The byte count and Turan say 4 (four 128 KiB pairs could
///   save the excess); but two 128 KiB tiles stacked on a third share
///   three pairs, not two, and the cheapest pairs hitting all 284 minimal
///   heavy cliques number 7: the placement found, now proved.
class HittingSetBound {
public:
  HittingSetBound(const CostInstance &costs, const std::vector<uint32_t> &group,
                  SearchControl *control)
      : costs(costs), group(group), control(control) {
    const std::vector<Item> &items = costs.instance->items;
    size_t n = group.size();
    assert(n <= 64 && "bit masks over the group");
    neighbours.assign(n, 0);
    pairIndex.assign(n * n, -1);
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        if (a == b || !std::binary_search(costs.related[group[a]].begin(),
                                          costs.related[group[a]].end(),
                                          group[b]))
          continue;
        neighbours[a] |= uint64_t(1) << b;
        int64_t cost = penaltyBetween(costs, group[a], group[b]);
        if (a < b && cost > 0) {
          pairIndex[a * n + b] = pairIndex[b * n + a] =
              static_cast<int32_t>(pairCost.size());
          pairCost.push_back(cost);
        }
      }
    words = (pairCost.size() + 63) / 64;
    sizes.resize(n);
    for (size_t a = 0; a < n; ++a)
      sizes[a] = items[group[a]].size;
    usable = usableBytes(*costs.instance);
  }

  int64_t run(int64_t floor, int64_t ceiling) {
    if (pairCost.empty())
      return 0;
    collectCores(0, allItems(), 0);
    dropSupersets();
    if (cores.empty())
      return 0;
    dropDominatedPairs();
    dropSupersets();
    findSymmetries();
    // "Is there a hitting set of cost at most k?" for k up from the
    // bound: each "no" is proved and raises it.
    int64_t bound = std::max<int64_t>(floor, 0);
    std::vector<uint32_t> open(cores.size());
    for (uint32_t c = 0; c < open.size(); ++c)
      open[c] = c;
    PairSet forbidden(words, 0);
    while (bound < ceiling && !spent()) {
      exhausted = false;
      if (hits(open, forbidden, 0, bound) || exhausted)
        break;
      ++bound;
    }
    return std::min(bound, ceiling);
  }

private:
  uint64_t allItems() const {
    return group.size() == 64 ? ~uint64_t(0)
                              : (uint64_t(1) << group.size()) - 1;
  }
  bool spent() {
    return work > kHittingWork || (control && control->stopRequested());
  }

  /// Records the minimal heavy cliques extending `clique` by items of
  /// `candidates` (all of higher index than its members, related to each).
  void collectCores(uint64_t clique, uint64_t candidates, int64_t weight) {
    for (uint64_t rest = candidates; rest; rest &= rest - 1) {
      if (++work > kHittingWork || cores.size() >= kMaxCores)
        return;
      size_t v = __builtin_ctzll(rest);
      uint64_t grown = clique | uint64_t(1) << v;
      int64_t grownWeight = weight + sizes[v];
      if (grownWeight > usable) {
        addCoreIfMinimal(grown, grownWeight);
        continue; // supersets are not minimal
      }
      uint64_t later = v == 63 ? 0 : candidates & ~((uint64_t(2) << v) - 1);
      collectCores(grown, later & neighbours[v], grownWeight);
    }
  }

  void addCoreIfMinimal(uint64_t clique, int64_t weight) {
    for (uint64_t rest = clique; rest; rest &= rest - 1)
      if (weight - sizes[__builtin_ctzll(rest)] > usable)
        return;
    PairSet core(words, 0);
    bool any = false;
    size_t n = group.size();
    for (uint64_t a = clique; a; a &= a - 1)
      for (uint64_t b = a & (a - 1); b; b &= b - 1) {
        int32_t pair = pairIndex[__builtin_ctzll(a) * n + __builtin_ctzll(b)];
        if (pair >= 0) {
          core[pair / 64] |= uint64_t(1) << (pair % 64);
          any = true;
        }
      }
    // A heavy clique of conflicts alone: no placement fits at all, which
    // the peak's own bound reports; it bounds no cost.
    if (any)
      cores.push_back(std::move(core));
  }

  static bool subsetOf(const PairSet &a, const PairSet &b) {
    for (size_t w = 0; w < a.size(); ++w)
      if (a[w] & ~b[w])
        return false;
    return true;
  }

  /// A core that contains another is hit whenever that one is.
  void dropSupersets() {
    std::sort(cores.begin(), cores.end(),
              [](const PairSet &a, const PairSet &b) {
                return std::make_pair(popcount(a), a) <
                       std::make_pair(popcount(b), b);
              });
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
    std::vector<PairSet> kept;
    for (PairSet &core : cores) {
      work += kept.size() * words;
      if (std::none_of(kept.begin(), kept.end(), [&](const PairSet &small) {
            return subsetOf(small, core);
          }))
        kept.push_back(std::move(core));
    }
    cores = std::move(kept);
  }

  /// A pair whose cores another pair, no dearer, also hits can be left
  /// out: a hitting set with it stays one, no dearer, with the other.
  void dropDominatedPairs() {
    size_t numPairs = pairCost.size(), coreWords = (cores.size() + 63) / 64;
    std::vector<uint64_t> hitBy(numPairs * coreWords, 0);
    for (size_t c = 0; c < cores.size(); ++c)
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = cores[c][w]; bits; bits &= bits - 1)
          hitBy[(w * 64 + __builtin_ctzll(bits)) * coreWords + c / 64] |=
              uint64_t(1) << (c % 64);
    auto covers = [&](size_t q, size_t p) { // cores(p) within cores(q)
      for (size_t w = 0; w < coreWords; ++w)
        if (hitBy[p * coreWords + w] & ~hitBy[q * coreWords + w])
          return false;
      return true;
    };
    std::vector<bool> dropped(numPairs, false);
    for (size_t p = 0; p < numPairs; ++p)
      for (size_t q = 0; q < numPairs && !dropped[p]; ++q) {
        if (q == p || dropped[q] || pairCost[q] > pairCost[p])
          continue;
        work += coreWords;
        if (work > kHittingWork)
          return; // keeping a pair is always sound
        // Of two pairs that hit the same cores at the same cost, the later
        // one goes.
        if (covers(q, p) && (q < p || pairCost[q] < pairCost[p] ||
                             !covers(p, q)))
          dropped[p] = true;
      }
    for (PairSet &core : cores)
      for (size_t p = 0; p < numPairs; ++p)
        if (dropped[p])
          core[p / 64] &= ~(uint64_t(1) << (p % 64));
  }

  /// The swaps of two interchangeable items of the group (same size, the
  /// same relations and penalties to every other item), as permutations of
  /// the pairs; kept only where they map the pairs left in the cores onto
  /// themselves. A swap maps heavy cliques to heavy cliques and hitting
  /// sets to hitting sets of the same cost.
  void findSymmetries() {
    size_t n = group.size(), numPairs = pairCost.size();
    PairSet present(words, 0);
    for (const PairSet &core : cores)
      for (size_t w = 0; w < words; ++w)
        present[w] |= core[w];
    for (size_t a = 0; a < n; ++a)
      for (size_t b = a + 1; b < n; ++b) {
        uint64_t pairBits = uint64_t(1) << a | uint64_t(1) << b;
        if (sizes[a] != sizes[b] ||
            (neighbours[a] & ~pairBits) != (neighbours[b] & ~pairBits))
          continue;
        bool same = true;
        for (size_t x = 0; x < n && same; ++x)
          same = x == a || x == b ||
                 penaltyBetween(costs, group[a], group[x]) ==
                     penaltyBetween(costs, group[b], group[x]);
        if (!same)
          continue;
        auto swapped = [&](size_t x) { return x == a ? b : x == b ? a : x; };
        std::vector<uint32_t> image(numPairs);
        for (size_t x = 0; x < n; ++x)
          for (size_t y = x + 1; y < n; ++y)
            if (int32_t pair = pairIndex[x * n + y]; pair >= 0)
              image[pair] = static_cast<uint32_t>(
                  pairIndex[swapped(x) * n + swapped(y)]);
        bool keepsPresent = true;
        for (size_t p = 0; p < numPairs && keepsPresent; ++p)
          keepsPresent = (present[p / 64] >> (p % 64) & 1) ==
                         (present[image[p] / 64] >> (image[p] % 64) & 1);
        if (keepsPresent && mapsCoresToCores(image))
          swaps.push_back(std::move(image));
      }
  }

  /// Whether the image of every core under `swap` is a core (the cores may
  /// be cut short by their budget, and then need not be closed under it).
  bool mapsCoresToCores(const std::vector<uint32_t> &swap) {
    std::vector<PairSet> sorted = cores;
    std::sort(sorted.begin(), sorted.end());
    PairSet image(words);
    for (const PairSet &core : cores) {
      std::fill(image.begin(), image.end(), 0);
      work += words;
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = core[w]; bits; bits &= bits - 1) {
          uint32_t to = swap[w * 64 + __builtin_ctzll(bits)];
          image[to / 64] |= uint64_t(1) << (to % 64);
        }
      if (!std::binary_search(sorted.begin(), sorted.end(), image))
        return false;
    }
    return true;
  }

  /// Whether `swap` maps the chosen pairs and `forbidden` onto themselves.
  bool fixes(const std::vector<uint32_t> &swap, const PairSet &forbidden) {
    work += swap.size() / 8 + chosen.size();
    for (uint32_t pair : chosen)
      if (std::find(chosen.begin(), chosen.end(), swap[pair]) == chosen.end())
        return false;
    for (size_t p = 0; p < swap.size(); ++p)
      if ((forbidden[p / 64] >> (p % 64) & 1) !=
          (forbidden[swap[p] / 64] >> (swap[p] % 64) & 1))
        return false;
    return true;
  }

  static int popcount(const PairSet &set) {
    int count = 0;
    for (uint64_t word : set)
      count += __builtin_popcountll(word);
    return count;
  }

  /// Whether the cores in `open` can all be hit by pairs outside
  /// `forbidden` at cost at most `limit - spentCost`. Sets `exhausted` when
  /// the work budget ends the search (the answer is then "yes").
  bool hits(const std::vector<uint32_t> &open, PairSet &forbidden,
            int64_t spentCost, int64_t limit) {
    if (open.empty())
      return true;
    if (spent()) {
      exhausted = true;
      return true;
    }
    // A packing (the covering LP's dual): each open core in turn takes
    // what its allowed pairs have left of their cost; what the cores take
    // in all, the pairs that hit them cost at least.
    std::vector<int64_t> &left = residual;
    left.assign(pairCost.begin(), pairCost.end());
    int64_t packed = 0;
    uint32_t branchCore = open.front();
    int fewest = std::numeric_limits<int>::max();
    for (uint32_t c : open) {
      int allowed = 0;
      int64_t take = std::numeric_limits<int64_t>::max();
      work += words;
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = cores[c][w] & ~forbidden[w]; bits;
             bits &= bits - 1) {
          ++allowed;
          take = std::min(take, left[w * 64 + __builtin_ctzll(bits)]);
        }
      if (allowed == 0)
        return false;
      if (allowed < fewest) {
        fewest = allowed;
        branchCore = c;
      }
      if (take == 0)
        continue;
      packed += take;
      for (size_t w = 0; w < words; ++w)
        for (uint64_t bits = cores[c][w] & ~forbidden[w]; bits;
             bits &= bits - 1)
          left[w * 64 + __builtin_ctzll(bits)] -= take;
    }
    if (spentCost + packed > limit)
      return false;
    // One of the branch core's allowed pairs is in the set: try each, the
    // ones tried before forbidden.
    PairSet choices(words);
    for (size_t w = 0; w < words; ++w)
      choices[w] = cores[branchCore][w] & ~forbidden[w];
    std::vector<uint32_t> rest;
    bool found = false;
    std::vector<uint32_t> newlyForbidden, images;
    auto forbid = [&](uint32_t pair) {
      if (!(forbidden[pair / 64] >> (pair % 64) & 1)) {
        forbidden[pair / 64] |= uint64_t(1) << (pair % 64);
        newlyForbidden.push_back(pair);
      }
    };
    for (size_t w = 0; w < words && !found; ++w)
      for (uint64_t bits = choices[w]; bits && !found; bits &= bits - 1) {
        uint32_t pair = static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits));
        if (forbidden[w] >> (pair % 64) & 1)
          continue; // the image of a pair that failed
        if (spentCost + pairCost[pair] <= limit) {
          rest.clear();
          for (uint32_t c : open)
            if (!(cores[c][pair / 64] >> (pair % 64) & 1))
              rest.push_back(c);
          work += open.size();
          chosen.push_back(pair);
          found = hits(rest, forbidden, spentCost + pairCost[pair], limit);
          chosen.pop_back();
        }
        if (found)
          break;
        // A swap that leaves this node as it is maps the failed branch to
        // its image's branch: that one fails too.
        images.clear();
        for (const std::vector<uint32_t> &swap : swaps)
          if (fixes(swap, forbidden))
            images.push_back(swap[pair]);
        for (uint32_t image : images)
          forbid(image);
        forbid(pair);
      }
    for (uint32_t pair : newlyForbidden)
      forbidden[pair / 64] &= ~(uint64_t(1) << (pair % 64));
    return found;
  }

  const CostInstance &costs;
  const std::vector<uint32_t> &group;
  SearchControl *control;
  std::vector<uint64_t> neighbours;
  std::vector<int64_t> sizes;
  /// Per (a, b) of the group: the index of their penalised pair, or -1.
  std::vector<int32_t> pairIndex;
  std::vector<int64_t> pairCost;
  size_t words = 0;
  int64_t usable = 0;
  std::vector<PairSet> cores;
  std::vector<int64_t> residual;
  /// Pair permutations of the swaps of interchangeable items.
  std::vector<std::vector<uint32_t>> swaps;
  /// The pairs of the branch being searched.
  std::vector<uint32_t> chosen;
  uint64_t work = 0;
  bool exhausted = false;
};

} // namespace

int64_t dsaplan::solver::detail::hittingSetBound(
    const CostInstance &costs, const std::vector<uint32_t> &group,
    int64_t floor, int64_t ceiling, SearchControl *control) {
  return HittingSetBound(costs, group, control).run(floor, ceiling);
}

int64_t dsaplan::solver::detail::cliqueCostBound(
    const CostInstance &costs, const std::vector<uint32_t> &group,
    SearchControl *control) {
  return CliqueBound(costs, group, control).run();
}

int64_t dsaplan::solver::detail::usableBytes(const PoolInstance &instance) {
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
  return instance.capacity - bytes;
}
