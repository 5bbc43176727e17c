//===- ReuseSplitBound.cpp - Items that split the pool in two -------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// A lower bound on the reuse cost that sees the geometry of one large item
// b over its whole history, where the flow of bytes (ReuseFlowBound.cpp)
// lets every item gather its bytes anywhere. Placed at x, b leaves two gaps
// beside it: L = x bytes below, R = capacity - size(b) - x above. Every item
// that conflicts with b lies in one of them, and so does every penalised
// partner of b that does not share bytes with it (else the pair pays). At
// a time t the items live there are pairwise apart, so the ones that must
// keep off b's bytes have to pass three tests:
//
//   (1) their sizes add up to at most L + R;
//   (2) each fits in the larger gap;
//   (3) those larger than the smaller gap fit together in the larger one.
//
// When the conflicting items alone fail, no placement puts b at x; when
// they pass and the partners with them fail, some partners live at t share
// b's bytes: at least k(t, x) of them, the fewest whose removal passes the
// tests (removing the largest first is optimal: it lowers every left-hand
// side the most). Points t1 < t2 < ... with no partner live at two of them
// pay for different pairs, so b pays at least the best such sum, at the x
// where that is least:
//
//   capacity 10, b of size 6 live in [4, 5); partners p, q of size 3, both
//   live in [0, 1) and both penalised with b: at every x the gaps hold
//   4 bytes, p and q need 6, so one of them shares b's bytes: cost >= 1
//
// Each penalised pair belongs to its larger item (ties: the higher index),
// so the items' bounds count different pairs and add up; the pairs of the
// items whose bound is 0 are left to the flow, which prices the others at
// nothing. Only the necessary tests are used, so the bound is valid for
// pins and alignments too (more positions are tried than exist); pools with
// reserved ranges or temporal exclusions (co-live items that may share)
// get no split bound.
//
// Positions: the tests compare sizes with L and R only, so with g the
// greatest common divisor of the capacity and the sizes involved, an x
// between two multiples of g has gaps no larger than at either neighbour
// (the tests are monotone in L and R once both are rounded down to g):
// only multiples of g are tried, and only up to the middle (the tests are
// symmetric in L and R).
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "ReuseCost.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Positions tried per item (at most; an item with more gets no bound).
constexpr int64_t kMaxPositions = 8192;
/// Elementary steps over the whole group.
constexpr uint64_t kSplitWork = 200'000'000;

/// The items live at one point that must keep off b's bytes: the ones that
/// conflict with b and the partners b owns, each sorted by decreasing size,
/// with prefix sums (sums[k]: the k largest).
struct LiveSet {
  std::vector<int64_t> mandatory, partners;
  std::vector<int64_t> partnerSums;
  int64_t mandatorySum = 0;
  /// The cheapest penalty among the partners (each pair removed pays it).
  int64_t cheapest = 0;
  /// The first point whose live partners share none with this one's (an
  /// index into the points; points before it may share some).
  size_t firstApart = 0;
};

/// The fewest partners of `live` that must share b's bytes when the gaps
/// are `low` and `high` bytes (low <= high); -1 when the conflicting items
/// alone do not fit.
int64_t fewestSharing(const LiveSet &live, int64_t low, int64_t high,
                      uint64_t &work) {
  const std::vector<int64_t> &m = live.mandatory, &p = live.partners;
  int64_t mandatoryLarge = 0;
  for (int64_t size : m) {
    ++work;
    if (size > high)
      return -1;
    if (size > low)
      mandatoryLarge += size;
  }
  if (live.mandatorySum > low + high || mandatoryLarge > high)
    return -1;
  // Partners larger than the smaller gap: a prefix (sorted decreasing).
  size_t large = std::upper_bound(p.begin(), p.end(), low,
                                  std::greater<int64_t>()) -
                 p.begin();
  const std::vector<int64_t> &sums = live.partnerSums;
  for (size_t k = 0; k <= p.size(); ++k) {
    ++work;
    bool fitsGap = k == p.size() || p[k] <= high;
    int64_t rest = sums.back() - sums[k];
    int64_t restLarge = k < large ? sums[large] - sums[k] : 0;
    if (fitsGap && live.mandatorySum + rest <= low + high &&
        mandatoryLarge + restLarge <= high)
      return static_cast<int64_t>(k);
  }
  return static_cast<int64_t>(p.size()); // not reached: k = size passes
}

/// The split bound of one item `b` against the partners it owns.
class ItemSplit {
public:
  ItemSplit(const CostInstance &costs, uint32_t b) : costs(costs), b(b) {}

  /// Its bound, or 0 when it has too many positions or `work` runs out.
  int64_t run(uint64_t &work) {
    const PoolInstance &instance = *costs.instance;
    const std::vector<Item> &items = instance.items;
    collect();
    if (points.empty())
      return 0;
    int64_t room = instance.capacity - items[b].size;
    if (room < 0)
      return 0;
    int64_t grain = std::gcd(instance.capacity, items[b].size);
    for (const LiveSet &live : points) {
      for (int64_t size : live.mandatory)
        grain = std::gcd(grain, size);
      for (int64_t size : live.partners)
        grain = std::gcd(grain, size);
    }
    if (room / grain / 2 + 1 > kMaxPositions)
      return 0;
    int64_t least = -1;
    std::vector<int64_t> best(points.size()), prefixBest(points.size());
    for (int64_t low = 0; 2 * low <= room; low += grain) {
      if (work > kSplitWork)
        return 0;
      int64_t here = bestChain(low, room - low, best, prefixBest, work);
      if (here < 0)
        continue; // b cannot sit here
      least = least < 0 ? here : std::min(least, here);
      if (least == 0)
        break;
    }
    return std::max<int64_t>(least, 0);
  }

private:
  /// The points (starts of the items that must keep off b's bytes) and
  /// what is live at each.
  void collect() {
    const PoolInstance &instance = *costs.instance;
    const std::vector<Item> &items = instance.items;
    std::vector<uint32_t> mandatory = instance.conflicts[b], partners;
    for (auto [other, cost] : costs.penalties[b])
      if (ownsPair(items, b, other))
        partners.push_back(other);
    if (partners.empty())
      return;
    std::vector<int64_t> starts;
    for (uint32_t item : mandatory)
      starts.push_back(items[item].start());
    for (uint32_t item : partners)
      starts.push_back(items[item].start());
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    auto liveAt = [&](uint32_t item, int64_t t) {
      for (const Interval &interval : items[item].live)
        if (interval.lower <= t && t < interval.upper)
          return true;
      return false;
    };
    for (int64_t t : starts) {
      LiveSet live;
      for (uint32_t item : mandatory)
        if (liveAt(item, t)) {
          live.mandatory.push_back(items[item].size);
          live.mandatorySum += items[item].size;
        }
      live.cheapest = std::numeric_limits<int64_t>::max();
      for (auto [other, cost] : costs.penalties[b])
        if (ownsPair(items, b, other) && liveAt(other, t)) {
          live.partners.push_back(items[other].size);
          live.cheapest = std::min(live.cheapest, cost);
        }
      if (live.partners.empty())
        live.cheapest = 0;
      std::sort(live.mandatory.begin(), live.mandatory.end(),
                std::greater<int64_t>());
      std::sort(live.partners.begin(), live.partners.end(),
                std::greater<int64_t>());
      live.partnerSums.assign(1, 0);
      for (int64_t size : live.partners)
        live.partnerSums.push_back(live.partnerSums.back() + size);
      points.push_back(std::move(live));
      times.push_back(t);
    }
    // Two points pay for different partners when no partner's hull
    // [start, end) holds both; for hulls, the points apart from a later one
    // are a prefix: firstApart of point i is past the last point j < i that
    // some partner live at i also holds.
    for (size_t i = 0; i < points.size(); ++i) {
      int64_t earliest = times[i];
      for (uint32_t other : partners)
        if (items[other].start() <= times[i] && times[i] < items[other].end())
          earliest = std::min(earliest, items[other].start());
      points[i].firstApart =
          std::lower_bound(times.begin(), times.end(), earliest) -
          times.begin();
    }
  }

  /// The most b pays at gaps `low` and `high` over points whose partners
  /// are pairwise apart (a chain, by dynamic programming); -1 when the
  /// conflicting items do not fit beside b.
  int64_t bestChain(int64_t low, int64_t high, std::vector<int64_t> &best,
                    std::vector<int64_t> &prefixBest, uint64_t &work) {
    if (low > high)
      std::swap(low, high);
    for (size_t i = 0; i < points.size(); ++i) {
      int64_t k = fewestSharing(points[i], low, high, work);
      if (k < 0)
        return -1;
      // Points before firstApart share a partner with i: the chain goes
      // on from the best one before them.
      size_t apart = points[i].firstApart;
      int64_t before = apart == 0 ? 0 : prefixBest[apart - 1];
      best[i] = before + k * points[i].cheapest;
      prefixBest[i] = std::max(i == 0 ? 0 : prefixBest[i - 1], best[i]);
    }
    return prefixBest.back();
  }

  const CostInstance &costs;
  uint32_t b;
  std::vector<LiveSet> points;
  std::vector<int64_t> times;
};

} // namespace

bool dsaplan::solver::detail::ownsPair(const std::vector<Item> &items,
                                       uint32_t item, uint32_t other) {
  return std::make_pair(items[other].size, other) <
         std::make_pair(items[item].size, item);
}

SplitBound dsaplan::solver::detail::splitCostBound(
    const CostInstance &costs, const std::vector<uint32_t> &group,
    SearchControl *control) {
  const PoolInstance &instance = *costs.instance;
  SplitBound result;
  result.owners.assign(instance.items.size(), false);
  if (!instance.reserved.empty() || instance.hasTemporalExclusions)
    return result;
  // The largest items first: they split the pool the most.
  std::vector<uint32_t> order = group;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return ownsPair(instance.items, a, b);
  });
  uint64_t work = 0;
  for (uint32_t item : order) {
    if (work > kSplitWork || (control && control->stopRequested()))
      break;
    int64_t bound = ItemSplit(costs, item).run(work);
    if (bound > 0) {
      result.bound += bound;
      result.owners[item] = true;
    }
  }
  return result;
}
