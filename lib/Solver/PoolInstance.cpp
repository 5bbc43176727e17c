//===- PoolInstance.cpp - One pool, ready for the algorithms --------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#include "PoolInstance.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

size_t findRoot(std::vector<size_t> &parent, size_t x) {
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}


/// Items whose lifetimes intersect, by a sweep over intervals in time order.
void addTimeConflicts(PoolInstance &instance) {
  struct Event {
    int64_t lower, upper;
    uint32_t item;
  };
  std::vector<Event> events;
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    for (const Interval &interval : instance.items[i].live)
      events.push_back({interval.lower, interval.upper, i});
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.lower != b.lower ? a.lower < b.lower : a.item < b.item;
  });
  // The pairs are gathered first and each neighbour list is then filled
  // to its size: pushed one by one, the lists of a large pool grew through
  // every power of two. (The lists are sorted afterwards, so the order of
  // the pairs does not matter.)
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<Event> open;
  for (const Event &event : events) {
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](const Event &o) {
                                return o.upper <= event.lower;
                              }),
               open.end());
    for (const Event &other : open)
      if (other.item != event.item)
        pairs.push_back({event.item, other.item});
    open.push_back(event);
  }
  std::vector<size_t> degree(instance.items.size(), 0);
  for (auto [a, b] : pairs) {
    ++degree[a];
    ++degree[b];
  }
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    instance.conflicts[i].reserve(instance.conflicts[i].size() + degree[i]);
  for (auto [a, b] : pairs) {
    instance.conflicts[a].push_back(b);
    instance.conflicts[b].push_back(a);
  }
}

/// Drops the time conflicts that temporal exclusions lift: two items stay in
/// conflict when some pair of their members is live together and not
/// excluded.
void liftTemporalExclusions(const Problem &problem, PoolInstance &instance,
                            const std::vector<int64_t> &itemOf) {
  std::set<std::pair<size_t, size_t>> excluded;
  for (const TemporalExclusion &e : problem.temporalExclusions)
    if (itemOf[e.first] >= 0 && itemOf[e.second] >= 0) {
      excluded.insert({std::min(e.first, e.second), std::max(e.first, e.second)});
      instance.hasTemporalExclusions = true;
    }
  if (!instance.hasTemporalExclusions)
    return;
  auto stillConflict = [&](uint32_t a, uint32_t b) {
    for (size_t x : instance.items[a].members)
      for (size_t y : instance.items[b].members)
        if (liveRangesOverlap(problem.buffers[x].live, problem.buffers[y].live) &&
            !excluded.count({std::min(x, y), std::max(x, y)}))
          return true;
    return false;
  };
  for (uint32_t a = 0; a < instance.items.size(); ++a) {
    std::vector<uint32_t> &neighbours = instance.conflicts[a];
    neighbours.erase(std::remove_if(neighbours.begin(), neighbours.end(),
                                    [&](uint32_t b) {
                                      return !stillConflict(a, b);
                                    }),
                     neighbours.end());
  }
}

/// An exclusively pinned item conflicts with every other item of the pool.
void addExclusivePins(const Problem &problem, PoolInstance &instance) {
  for (uint32_t a = 0; a < instance.items.size(); ++a) {
    bool exclusive = false;
    for (size_t member : instance.items[a].members)
      exclusive |= problem.buffers[member].exclusivePin;
    if (!exclusive)
      continue;
    instance.hasSeparations = true;
    for (uint32_t b = 0; b < instance.items.size(); ++b)
      if (b != a) {
        instance.conflicts[a].push_back(b);
        instance.conflicts[b].push_back(a);
      }
  }
}

} // namespace

PoolInstance dsaplan::solver::detail::buildPoolInstance(const Problem &problem,
                                                         size_t pool) {
  PoolInstance instance;
  instance.pool = pool;
  instance.capacity = problem.pools[pool].capacity;
  instance.reserved = problem.pools[pool].reserved;

  // Colocated buffers become one item.
  std::vector<size_t> parent(problem.buffers.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (const Colocation &c : problem.colocations)
    if (problem.buffers[c.first].pool == pool)
      parent[findRoot(parent, c.first)] = findRoot(parent, c.second);
  std::vector<int64_t> itemOf(problem.buffers.size(), -1);
  std::vector<std::vector<Interval>> intervals;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    if (buffer.pool != pool)
      continue;
    size_t root = findRoot(parent, b);
    if (itemOf[root] < 0) {
      itemOf[root] = static_cast<int64_t>(instance.items.size());
      instance.items.emplace_back();
      intervals.emplace_back();
    }
    itemOf[b] = itemOf[root];
    Item &item = instance.items[itemOf[b]];
    item.members.push_back(b);
    item.size = std::max(item.size, buffer.size);
    int64_t alignment = effectiveAlignment(problem, b);
    item.alignment = item.alignment / std::gcd(item.alignment, alignment) *
                     alignment;
    if (buffer.pinnedOffset) {
      if (item.pin && *item.pin != *buffer.pinnedOffset)
        instance.contradictoryPins = true;
      item.pin = buffer.pinnedOffset;
    }
    intervals[itemOf[b]].insert(intervals[itemOf[b]].end(), buffer.live.begin(),
                                buffer.live.end());
  }
  for (size_t i = 0; i < instance.items.size(); ++i)
    instance.items[i].live = unionOfIntervals(std::move(intervals[i]));

  instance.conflicts.assign(instance.items.size(), {});
  addTimeConflicts(instance);
  liftTemporalExclusions(problem, instance, itemOf);
  addExclusivePins(problem, instance);
  for (const Separation &s : problem.separations) {
    // A separation across pools always holds: pools never share bytes.
    if (problem.buffers[s.first].pool != pool ||
        problem.buffers[s.second].pool != pool)
      continue;
    auto a = static_cast<uint32_t>(itemOf[s.first]);
    auto b = static_cast<uint32_t>(itemOf[s.second]);
    if (a == b) {
      instance.separatedColocation = true;
      continue;
    }
    instance.conflicts[a].push_back(b);
    instance.conflicts[b].push_back(a);
    instance.hasSeparations = true;
  }
  for (std::vector<uint32_t> &neighbours : instance.conflicts) {
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()),
                     neighbours.end());
  }
  return instance;
}

int64_t dsaplan::solver::detail::itemPeak(const PoolInstance &instance,
                                          const ItemOffsets &offsets) {
  int64_t peak = 0;
  for (size_t i = 0; i < instance.items.size(); ++i)
    if (offsets[i] != kUnplaced)
      peak = std::max(peak, offsets[i] + instance.items[i].size);
  return peak;
}

void dsaplan::solver::detail::blockedRanges(const PoolInstance &instance,
                                            const ItemOffsets &offsets,
                                            uint32_t item,
                                            std::vector<AddressRange> &blocked) {
  blocked.assign(instance.reserved.begin(), instance.reserved.end());
  for (uint32_t n : instance.conflicts[item])
    if (offsets[n] != kUnplaced)
      blocked.push_back({offsets[n], offsets[n] + instance.items[n].size});
  std::sort(blocked.begin(), blocked.end(),
            [](const AddressRange &a, const AddressRange &b) {
              return a.begin < b.begin;
            });
}

void dsaplan::solver::detail::reserveSectionLists(
    const PoolInstance &instance, const std::vector<int64_t> &points,
    std::vector<std::vector<uint32_t>> &sectionsOf,
    std::vector<std::vector<uint32_t>> &itemsOf) {
  std::vector<int64_t> perSection(points.size() + 1, 0);
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    if (instance.items[i].pin)
      continue;
    size_t own = 0;
    for (const Interval &interval : instance.items[i].live) {
      auto first =
          std::lower_bound(points.begin(), points.end(), interval.lower);
      auto end = std::lower_bound(first, points.end(), interval.upper);
      own += end - first;
      ++perSection[first - points.begin()];
      --perSection[end - points.begin()];
    }
    sectionsOf[i].reserve(own);
  }
  for (size_t s = 0, running = 0; s < itemsOf.size(); ++s)
    itemsOf[s].reserve(running += perSection[s]);
}

std::vector<uint32_t> dsaplan::solver::detail::indicesInComponents(
    size_t numItems, const std::vector<std::vector<uint32_t>> &parts) {
  std::vector<uint32_t> local(numItems);
  for (const std::vector<uint32_t> &items : parts)
    for (uint32_t i = 0; i < items.size(); ++i)
      local[items[i]] = i;
  return local;
}

PoolInstance
dsaplan::solver::detail::subInstance(PoolInstance &instance,
                                     const std::vector<uint32_t> &items,
                                     const std::vector<uint32_t> &local) {
  PoolInstance sub;
  sub.pool = instance.pool;
  sub.hasSeparations = instance.hasSeparations;
  sub.hasTemporalExclusions = instance.hasTemporalExclusions;
  sub.capacity = instance.capacity;
  sub.reserved = instance.reserved;
  sub.items.reserve(items.size());
  for (uint32_t item : items)
    sub.items.push_back(std::move(instance.items[item]));
  sub.conflicts.resize(items.size());
  for (uint32_t i = 0; i < items.size(); ++i) {
    const std::vector<uint32_t> &neighbours = instance.conflicts[items[i]];
    sub.conflicts[i].reserve(neighbours.size());
    for (uint32_t n : neighbours)
      sub.conflicts[i].push_back(local[n]);
  }
  return sub;
}

void dsaplan::solver::detail::returnItems(PoolInstance &sub,
                                          const std::vector<uint32_t> &items,
                                          PoolInstance &instance) {
  for (uint32_t i = 0; i < items.size(); ++i)
    instance.items[items[i]] = std::move(sub.items[i]);
}
