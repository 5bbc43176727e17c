//===- ReuseFlowBound.cpp - A flow-of-bytes bound on the reuse cost -------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// A lower bound on the reuse cost of a whole group of items, however large,
// where the clique bounds (ReuseCostBound.cpp) need a clique heavier than
// the pool and find none when the pool has room above its busiest point.
//
// Follow one usable byte x of the pool through a placement: the items whose
// ranges hold x are pairwise free of conflict (else they could not share
// x), so in the order of their starts (ties by index) they form a chain
// x: i1, i2, ..., ik. The relaxation is a flow of bytes:
//
//   source S --(usable bytes)--> in(i) ... out(i) --> in(j) ... out(j) --> T
//
// S supplies the usable bytes (capacity less the reserved ranges); each
// item i takes size(i) bytes at in(i) and hands the same number on at
// out(i), to an item j after it (start(i), i) < (start(j), j) that it does
// not conflict with, or to T. Every placement is such a flow: send each
// usable byte along its chain (S straight to T when no item holds it);
// in(i) then gets exactly size(i) bytes, and the arc out(i) -> in(j) carries
// the bytes where j directly follows i, at most min(size(i), size(j)).
//
// Its cost: a unit on out(i) -> in(j) costs penalty(i, j) / min(size(i),
// size(j)). When that arc carries any bytes the two ranges intersect, so the
// placement pays penalty(i, j) for the pair, at least the arc's cost; each
// pair is one arc (its two items in one order), and the flow's cost counts
// only pairs that follow each other directly on some byte. So the flow a
// placement makes costs no more than the placement, and the least-cost flow
// is a lower bound on every placement's reuse cost:
//
//   four items of 64 B (a, b before c, d; c penalised with a and with b,
//   d with a and with b), 128 B usable: c and d need 128 B, all of them
//   from a and b: the flow costs 128 / 64 = 2, and so does every placement
//
// The flow is solved exactly by the primal-dual method: Dijkstra over
// reduced costs, then a maximum flow (Dinic) over the arcs whose reduced
// cost is 0, until every byte has gone through. Costs are scaled by a
// power of two and rounded down, so the bound stays below the true optimum
// of the relaxation; a spent work budget returns 0 (no bound), never a
// partial one.
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "ReuseCost.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <queue>
#include <tuple>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Groups larger than this get no flow bound (the arcs grow quadratically).
constexpr size_t kFlowMaxItems = 2000;
/// Arc scans of the shortest-path searches per group.
constexpr uint64_t kFlowWork = 100'000'000;
/// The scale of a unit's cost (the penalty per byte is a fraction).
constexpr int64_t kMaxCostScale = int64_t(1) << 30;

/// Least-cost flow from one source to one sink by successive shortest
/// paths, every arc cost nonnegative.
class MinCostFlow {
public:
  explicit MinCostFlow(size_t nodes) : outgoing(nodes) {}

  void addArc(uint32_t from, uint32_t to, int64_t capacity, int64_t cost) {
    assert(cost >= 0 && capacity >= 0);
    outgoing[from].push_back(arcs.size());
    arcs.push_back({to, capacity, cost});
    outgoing[to].push_back(arcs.size());
    arcs.push_back({from, 0, -cost});
  }

  /// Sends `amount` from `source` to `sink` at the least cost. False when
  /// that much cannot flow, the work budget runs out or `control` stops.
  bool run(uint32_t source, uint32_t sink, int64_t amount,
           SearchControl *control);

  /// The cost of the flow sent (in the scaled units of the arcs).
  __int128 cost = 0;

private:
  struct Arc {
    uint32_t to;
    int64_t capacity, cost;
  };
  /// Distances from `source` over arcs with room, by reduced cost; false
  /// when `sink` cannot be reached.
  bool shortestPaths(uint32_t source, uint32_t sink);
  /// Whether `index` (out of `from`) has room at reduced cost 0.
  bool admissible(uint32_t from, uint32_t index) const;
  /// Breadth-first levels over admissible arcs; false when `sink` is not
  /// reached.
  bool levelAdmissible(uint32_t source, uint32_t sink);
  /// One path of increasing levels from `node` to `sink` (Dinic), at most
  /// `limit` sent along it; what was sent.
  int64_t augment(uint32_t node, uint32_t sink, int64_t limit);

  std::vector<Arc> arcs; // arc k's reverse is arc k ^ 1
  std::vector<std::vector<uint32_t>> outgoing;
  std::vector<int64_t> potential, distance;
  std::vector<int64_t> level;
  std::vector<uint32_t> next; // per node: the next arc to try (Dinic)
  uint64_t work = 0;
};

constexpr int64_t kUnreached = std::numeric_limits<int64_t>::max();

bool MinCostFlow::shortestPaths(uint32_t source, uint32_t sink) {
  distance.assign(outgoing.size(), kUnreached);
  using Entry = std::pair<int64_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  distance[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    auto [at, node] = queue.top();
    queue.pop();
    if (at > distance[node])
      continue;
    for (uint32_t index : outgoing[node]) {
      ++work;
      const Arc &arc = arcs[index];
      if (arc.capacity == 0)
        continue;
      // Reduced costs are nonnegative: the potentials are the distances of
      // the previous round (capped at the sink's).
      int64_t next =
          at + arc.cost + potential[node] - potential[arc.to];
      if (next < distance[arc.to]) {
        distance[arc.to] = next;
        queue.push({next, arc.to});
      }
    }
  }
  return distance[sink] != kUnreached;
}

bool MinCostFlow::run(uint32_t source, uint32_t sink, int64_t amount,
                      SearchControl *control) {
  potential.assign(outgoing.size(), 0);
  while (amount > 0) {
    if (work > kFlowWork || (control && control->stopRequested()))
      return false;
    if (!shortestPaths(source, sink))
      return false;
    for (size_t node = 0; node < outgoing.size(); ++node)
      potential[node] += std::min(distance[node], distance[sink]);
    // Every path of arcs at reduced cost 0 is a shortest one: send along
    // all of them at once (a maximum flow on those arcs).
    while (amount > 0 && levelAdmissible(source, sink)) {
      next.assign(outgoing.size(), 0);
      while (int64_t pushed = augment(source, sink, amount))
        amount -= pushed;
    }
  }
  return true;
}

bool MinCostFlow::admissible(uint32_t from, uint32_t index) const {
  const Arc &arc = arcs[index];
  return arc.capacity > 0 &&
         arc.cost + potential[from] - potential[arc.to] == 0;
}

bool MinCostFlow::levelAdmissible(uint32_t source, uint32_t sink) {
  level.assign(outgoing.size(), -1);
  std::vector<uint32_t> queue = {source};
  level[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    uint32_t node = queue[head];
    for (uint32_t index : outgoing[node]) {
      ++work;
      uint32_t to = arcs[index].to;
      if (level[to] < 0 && admissible(node, index)) {
        level[to] = level[node] + 1;
        queue.push_back(to);
      }
    }
  }
  return level[sink] >= 0;
}

int64_t MinCostFlow::augment(uint32_t node, uint32_t sink, int64_t limit) {
  if (node == sink)
    return limit;
  for (uint32_t &k = next[node]; k < outgoing[node].size(); ++k) {
    ++work;
    uint32_t index = outgoing[node][k];
    Arc &arc = arcs[index];
    if (level[arc.to] != level[node] + 1 || !admissible(node, index))
      continue;
    if (int64_t pushed =
            augment(arc.to, sink, std::min(limit, arc.capacity))) {
      arc.capacity -= pushed;
      arcs[index ^ 1].capacity += pushed;
      cost += static_cast<__int128>(pushed) * arc.cost;
      return pushed;
    }
  }
  return 0;
}

/// Whether `item` has a penalty with `other`, and its cost (0 if none).
int64_t penaltyOf(const CostInstance &costs, uint32_t item, uint32_t other) {
  const auto &list = costs.penalties[item];
  auto it = std::lower_bound(
      list.begin(), list.end(), std::pair<uint32_t, int64_t>{other, 0},
      [](const auto &a, const auto &b) { return a.first < b.first; });
  return it != list.end() && it->first == other ? it->second : 0;
}

/// The largest power of two (at most kMaxCostScale) by which every arc
/// cost can be scaled without a path of `nodes` arcs overflowing.
int64_t costScale(const CostInstance &costs,
                  const std::vector<uint32_t> &group, size_t nodes) {
  int64_t largest = 1;
  for (uint32_t item : group)
    for (auto [other, cost] : costs.penalties[item])
      largest = std::max(largest, cost);
  int64_t scale = kMaxCostScale;
  __int128 limit = static_cast<__int128>(1) << 60;
  while (scale > 1 &&
         static_cast<__int128>(largest) * scale * (nodes + 1) > limit)
    scale /= 2;
  return scale;
}

} // namespace

int64_t dsaplan::solver::detail::flowCostBound(
    const CostInstance &costs, const std::vector<uint32_t> &group,
    SearchControl *control, const std::vector<bool> *paidElsewhere) {
  if (group.size() < 2 || group.size() > kFlowMaxItems)
    return 0;
  const PoolInstance &instance = *costs.instance;
  const std::vector<Item> &items = instance.items;
  int64_t usable = usableBytes(instance);
  if (usable <= 0)
    return 0;
  // Nodes: 0 the source of every supply, 1 the sink of every demand, 2 the
  // unused bytes S, 3 the bytes no longer used T, then in(i) and out(i).
  enum : uint32_t { kSource, kSink, kUnused, kDone, kFirstItem };
  size_t nodes = kFirstItem + 2 * group.size();
  MinCostFlow flow(nodes);
  int64_t scale = costScale(costs, group, nodes);
  std::vector<uint32_t> order(group.size());
  for (uint32_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_pair(items[group[a]].start(), group[a]) <
           std::make_pair(items[group[b]].start(), group[b]);
  });
  auto in = [](uint32_t k) { return kFirstItem + 2 * k; };
  auto out = [](uint32_t k) { return kFirstItem + 2 * k + 1; };
  __int128 demand = usable;
  flow.addArc(kSource, kUnused, usable, 0);
  flow.addArc(kDone, kSink, usable, 0);
  flow.addArc(kUnused, kDone, usable, 0);
  std::vector<bool> conflicting(items.size(), false);
  for (size_t position = 0; position < order.size(); ++position) {
    uint32_t k = order[position];
    uint32_t item = group[k];
    int64_t size = items[item].size;
    demand += size;
    flow.addArc(kSource, out(k), size, 0);
    flow.addArc(in(k), kSink, size, 0);
    flow.addArc(kUnused, in(k), size, 0);
    flow.addArc(out(k), kDone, size, 0);
    for (uint32_t other : instance.conflicts[item])
      conflicting[other] = true;
    for (size_t later = position + 1; later < order.size(); ++later) {
      uint32_t next = group[order[later]];
      if (conflicting[next])
        continue;
      int64_t shared = std::min(size, items[next].size);
      uint32_t owner = ownsPair(items, item, next) ? item : next;
      int64_t penalty = paidElsewhere && (*paidElsewhere)[owner]
                            ? 0
                            : penaltyOf(costs, item, next);
      int64_t perByte = static_cast<int64_t>(
          static_cast<__int128>(penalty) * scale / shared);
      flow.addArc(out(k), in(order[later]), shared, perByte);
    }
    for (uint32_t other : instance.conflicts[item])
      conflicting[other] = false;
  }
  if (demand > std::numeric_limits<int64_t>::max() ||
      !flow.run(kSource, kSink, static_cast<int64_t>(demand), control))
    return 0;
  // Costs are integers: round the (rounded down) relaxation up.
  return static_cast<int64_t>((flow.cost + scale - 1) / scale);
}
