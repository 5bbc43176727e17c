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
#include <string>
#include <unordered_map>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max() / 4;

/// Pools with more items keep the placement that fits: the greedy is
/// quadratic per item.
constexpr size_t kGreedyMaxItems = 1000;
/// Groups of related items larger than this are not searched exactly.
constexpr size_t kSearchMaxItems = 64;
/// Large neighbourhoods (improveByNeighbourhoods): items re-placed
/// together (at first, and at most after rounds that found nothing), nodes
/// per neighbourhood, and rounds.
constexpr size_t kNeighbourhoodItems = 6;
constexpr size_t kNeighbourhoodMaxItems = 10;
constexpr uint64_t kNeighbourhoodNodes = 1000;
constexpr int kNeighbourhoodRounds = 16;
/// Item orders the greedy tries beyond the fixed ones.
constexpr int kShuffledOrders = 24;
/// Rounds of the single-item re-placement pass.
constexpr int kImproveRounds = 8;

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
// The branch-and-bound
//===----------------------------------------------------------------------===//

/// The better of the flow bound and, where the split bound finds items that
/// must pay, its count plus the flow bound of the pairs it leaves: the two
/// bound different pairs, so they add up.
int64_t flowAndSplitBound(const CostInstance &costs,
                          const std::vector<uint32_t> &group,
                          SearchControl *control) {
  int64_t flow = flowCostBound(costs, group, control);
  SplitBound split = splitCostBound(costs, group, control);
  if (split.bound == 0)
    return flow;
  return std::max(flow, split.bound + flowCostBound(costs, group, control,
                                                    &split.owners));
}

/// Exact search over one group of items, the others staying where `start`
/// puts them: a group of related items (no penalty or conflict leaves it),
/// or a neighbourhood (improveByNeighbourhoods), whose cost then counts its
/// pairs with the fixed items too.
class CostSearch {
public:
  /// `withBound` off skips the clique bound (a neighbourhood proves
  /// nothing about the pool).
  CostSearch(const CostInstance &costs, const std::vector<uint32_t> &group,
             const ItemOffsets &start, uint64_t budget,
             SearchControl *control, bool withBound = true);

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
  /// Orders each class of interchangeable items of `free` (twins).
  void findTwins();
  /// What the rest of the search below a node depends on: the items
  /// placed, the floor, the last item, and the tops above the floor.
  std::string stateKey(int64_t floor, int64_t lastItem) const;
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
  std::vector<bool> inGroup;
  /// Per item of the group: the twin that must be placed before it, or -1.
  std::vector<int64_t> earlierTwin;
  /// States searched to the end, with the least cost they were reached at.
  std::unordered_map<std::string, int64_t> searched;
};

CostSearch::CostSearch(const CostInstance &costs,
                       const std::vector<uint32_t> &group,
                       const ItemOffsets &start, uint64_t budget,
                       SearchControl *control, bool withBound)
    : costs(costs), instance(*costs.instance), group(group), budget(budget),
      control(control), offsets(start), inGroup(start.size(), false) {
  for (uint32_t item : group) {
    inGroup[item] = true;
    if (!instance.items[item].pin)
      free.push_back(item);
  }
  best = start;
  bestCost = groupCost(start);
  outside = itemReuseCost(costs, start) - bestCost;
  for (uint32_t item : free)
    offsets[item] = kUnplaced;
  findTwins();
  int64_t pinned = groupCost(offsets);
  int64_t forced = forcedCost(0);
  int64_t clique = withBound && group.size() <= kSearchMaxItems
                       ? cliqueCostBound(costs, group, control)
                       : 0;
  rootBound = std::min(bestCost, forced >= kInfinity
                                     ? bestCost
                                     : std::max(pinned + forced, clique));
  // The flow bound sees the whole group, however large: where the cliques
  // leave a gap.
  if (withBound && rootBound < bestCost)
    rootBound = std::min(bestCost, std::max(rootBound, flowAndSplitBound(
                                                costs, group, control)));
  // The hitting-set bound costs more: only where the others leave a gap.
  if (withBound && rootBound < bestCost && group.size() <= kSearchMaxItems)
    rootBound = std::min(bestCost,
                         hittingSetBound(costs, group, rootBound, bestCost,
                                         control));
}

int64_t CostSearch::groupCost(const ItemOffsets &placement) const {
  // Every pair with an item of the group, once: a neighbourhood's items have
  // partners outside it.
  int64_t total = 0;
  for (uint32_t item : group)
    for (auto [other, cost] : costs.penalties[item])
      if ((other > item || !inGroup[other]) && placement[item] != kUnplaced &&
          placement[other] != kUnplaced &&
          overlaps(placement[item], instance.items[item].size,
                   placement[other], instance.items[other].size))
        total += cost;
  return total;
}

void CostSearch::findTwins() {
  earlierTwin.assign(instance.items.size(), -1);
  auto without = [](std::vector<uint32_t> list, uint32_t other) {
    list.erase(std::remove(list.begin(), list.end(), other), list.end());
    return list;
  };
  auto penaltiesWithout = [&](uint32_t item, uint32_t other) {
    std::vector<std::pair<uint32_t, int64_t>> list = costs.penalties[item];
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const auto &p) { return p.first == other; }),
               list.end());
    return list;
  };
  auto twins = [&](uint32_t a, uint32_t b) {
    const Item &x = instance.items[a], &y = instance.items[b];
    return x.size == y.size && x.alignment == y.alignment &&
           without(instance.conflicts[a], b) ==
               without(instance.conflicts[b], a) &&
           penaltiesWithout(a, b) == penaltiesWithout(b, a);
  };
  std::vector<std::vector<uint32_t>> classes;
  for (uint32_t item : free) {
    auto fits = [&](const std::vector<uint32_t> &members) {
      return std::all_of(members.begin(), members.end(),
                         [&](uint32_t m) { return twins(m, item); });
    };
    auto it = std::find_if(classes.begin(), classes.end(), fits);
    if (it == classes.end()) {
      classes.push_back({item});
      continue;
    }
    earlierTwin[item] = it->back();
    it->push_back(item);
  }
}

std::string CostSearch::stateKey(int64_t floor, int64_t lastItem) const {
  std::string key;
  auto put = [&](int64_t value) {
    key.append(reinterpret_cast<const char *>(&value), sizeof(value));
  };
  put(floor);
  put(lastItem);
  uint64_t mask = 0;
  for (size_t k = 0; k < free.size(); ++k)
    if (offsets[free[k]] != kUnplaced) {
      mask |= uint64_t(1) << k;
      int64_t top = offsets[free[k]] + instance.items[free[k]].size;
      if (top > floor) {
        put(static_cast<int64_t>(k));
        put(top);
      }
    }
  put(static_cast<int64_t>(mask));
  return key;
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
  // The same state searched before from a cost no higher: every completion
  // was tried then, against a best cost no lower than now.
  std::string key = stateKey(floor, lastItem);
  auto seen = searched.find(key);
  if (seen != searched.end() && seen->second <= cost)
    return;
  std::vector<Child> children;
  for (uint32_t item : free) {
    if (offsets[item] != kUnplaced)
      continue;
    if (earlierTwin[item] >= 0 && offsets[earlierTwin[item]] == kUnplaced)
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
  int64_t &least = searched.try_emplace(std::move(key), cost).first->second;
  least = std::min(least, cost);
}

/// What `item` costs against the others where they are.
int64_t chargedCost(const CostInstance &costs, uint32_t item,
                    const ItemOffsets &offsets) {
  const std::vector<Item> &items = costs.instance->items;
  int64_t total = 0;
  for (auto [other, cost] : costs.penalties[item])
    if (overlaps(offsets[item], items[item].size, offsets[other],
                 items[other].size))
      total += cost;
  return total;
}

/// The items re-placed together around `seed`: the seed, the penalised
/// partners it shares bytes with (its cost), and the items live with it
/// nearest in address (what keeps it where it is), at most `size`.
std::vector<uint32_t> neighbourhood(const CostInstance &costs, uint32_t seed,
                                    const ItemOffsets &offsets, size_t size) {
  const PoolInstance &instance = *costs.instance;
  const std::vector<Item> &items = instance.items;
  std::vector<uint32_t> chosen = {seed};
  auto take = [&](uint32_t item) {
    if (chosen.size() < size && !items[item].pin &&
        std::find(chosen.begin(), chosen.end(), item) == chosen.end())
      chosen.push_back(item);
  };
  for (auto [other, cost] : costs.penalties[seed])
    if (chosen.size() < size / 2 &&
        overlaps(offsets[seed], items[seed].size, offsets[other],
                 items[other].size))
      take(other);
  std::vector<std::pair<int64_t, uint32_t>> near;
  int64_t middle = offsets[seed] + items[seed].size / 2;
  for (uint32_t other : instance.conflicts[seed]) {
    int64_t centre = offsets[other] + items[other].size / 2;
    near.push_back({std::abs(centre - middle), other});
  }
  std::sort(near.begin(), near.end());
  for (auto [distance, other] : near)
    take(other);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
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

/// Large neighbourhoods: the items around a costly one are re-placed
/// exactly (CostSearch, the others fixed), costliest seed first, and what
/// lowers the cost is kept; rounds while one helps, within `budget` nodes.
/// Deterministic. Returns the nodes spent.
uint64_t improveByNeighbourhoods(const CostInstance &costs,
                                 ItemOffsets &offsets, uint64_t budget,
                                 SearchControl *control) {
  const std::vector<Item> &items = costs.instance->items;
  uint64_t spent = 0;
  size_t size = kNeighbourhoodItems;
  for (int round = 0; round < kNeighbourhoodRounds && spent < budget;
       ++round) {
    std::vector<std::pair<int64_t, uint32_t>> seeds;
    for (uint32_t i = 0; i < items.size(); ++i)
      if (int64_t charged = chargedCost(costs, i, offsets))
        seeds.push_back({-charged, i});
    std::sort(seeds.begin(), seeds.end());
    bool improved = false;
    for (auto [charged, seed] : seeds) {
      if (spent >= budget || (control && control->stopRequested()))
        return spent;
      if (items[seed].pin || chargedCost(costs, seed, offsets) == 0)
        continue;
      std::vector<uint32_t> around = neighbourhood(costs, seed, offsets, size);
      CostSearch search(costs, around, offsets,
                        std::min(kNeighbourhoodNodes, budget - spent),
                        control, /*withBound=*/false);
      int64_t before = search.bestCost;
      search.run();
      spent += search.nodes;
      if (search.bestCost < before) {
        offsets = search.best;
        improved = true;
      }
    }
    // A round that found nothing: larger neighbourhoods, up to a limit.
    if (!improved && (size += 2) > kNeighbourhoodMaxItems)
      break;
  }
  return spent;
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
  // What the exact searches left open (the groups too large to search):
  // large neighbourhoods, with the rest of the budget.
  if (greedy && result.cost > result.bound &&
      costs.instance->items.size() <= kGreedyMaxItems) {
    uint64_t left = nodeBudget - std::min(nodeBudget, result.nodes);
    result.nodes += improveByNeighbourhoods(
        costs, result.offsets, left, control);
    result.cost = itemReuseCost(costs, result.offsets);
    if (control)
      control->offer(result.cost);
  }
  return result;
}
