//===- Exact.cpp - Branch-and-bound for the smallest peak -----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The search enumerates canonical placements: every placement can be pushed
// down until each item rests on a neighbour (or on 0, or on a reserved or
// pinned range), without raising the peak. Time is cut into sections between
// interval endpoints; each section has a floor, the top of what is placed
// in it. At each node the search takes the lowest section that still has
// unplaced items and branches:
//  - one branch per unplaced item of that section whose gravity position
//    (the highest floor over its sections, aligned, clear of pinned and
//    separated neighbours and reserved ranges) is exactly that floor: it is
//    placed there;
//  - one more branch where nothing starts at that floor: the floor is raised
//    to the lowest gravity position of the section's unplaced items (floors
//    only rise, so none of them could start lower later).
// Every canonical placement is reached exactly once.
//
// Pruning: the unplaced items of a section are co-live, so they stack above
// its floor; if that stack exceeds the target in some section, or an item's
// gravity position already puts it above the target, no completion fits.
//
// The search is bounded by a node budget and is deterministic. When it ends
// within the budget, the best placement found is optimal (or none exists
// under the limit).
//
//===----------------------------------------------------------------------===//

#include "PoolInstance.h"

#include <algorithm>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

class GravitySearch {
public:
  GravitySearch(const PoolInstance &instance, int64_t lowerBound,
                int64_t limit, bool stopWithinLimit, uint64_t nodeBudget);
  ExactResult run(const ItemOffsets &incumbent);

private:
  void buildSections();
  /// The item's gravity position; with `ignoredSection`, as if that
  /// section's floor were 0.
  int64_t gravityPosition(uint32_t item, int64_t ignoredSection = -1) const;
  bool sectionsFit() const;
  /// The lowest section with unplaced items, or -1.
  int64_t lowestOpenSection() const;
  void place(uint32_t item, int64_t offset);
  void unplace(uint32_t item);
  void restoreFloors(size_t mark);
  /// Returns false when the search must stop (budget spent or optimum).
  bool search(size_t placed);

  const PoolInstance &instance;
  int64_t lowerBound;
  int64_t limit;
  bool stopWithinLimit;
  uint64_t nodeBudget;
  uint64_t nodes = 0;
  bool exhausted = false;
  int64_t grain = 1, maxPadding = 0;

  ItemOffsets offsets;
  size_t numFree = 0;                       // items not pinned
  std::vector<std::vector<uint32_t>> sectionsOf;
  std::vector<std::vector<uint32_t>> itemsOf; // per section
  std::vector<int64_t> floorOf, remainingOf; // per section
  std::vector<std::pair<uint32_t, int64_t>> undoFloor;
  std::vector<AddressRange> fixedBlocks;    // reserved ranges
  int64_t target = 0;
  ItemOffsets best;
  int64_t bestPeak = -1;
};

GravitySearch::GravitySearch(const PoolInstance &instance, int64_t lowerBound,
                             int64_t limit, bool stopWithinLimit,
                             uint64_t nodeBudget)
    : instance(instance), lowerBound(lowerBound), limit(limit),
      stopWithinLimit(stopWithinLimit), nodeBudget(nodeBudget) {
  size_t n = instance.items.size();
  offsets.assign(n, kUnplaced);
  grain = n ? instance.items.front().alignment : 1;
  for (const Item &item : instance.items)
    grain = std::min(grain, item.alignment);
  for (const Item &item : instance.items)
    maxPadding = std::max(maxPadding, roundUp(item.size, grain) - item.size);
  fixedBlocks = instance.reserved;
  std::sort(fixedBlocks.begin(), fixedBlocks.end(),
            [](const AddressRange &a, const AddressRange &b) {
              return a.begin < b.begin;
            });
  buildSections();
  for (uint32_t i = 0; i < n; ++i) {
    if (instance.items[i].pin)
      offsets[i] = *instance.items[i].pin;
    else
      ++numFree;
  }
}

void GravitySearch::buildSections() {
  std::vector<int64_t> points;
  for (const Item &item : instance.items)
    for (const Interval &interval : item.live) {
      points.push_back(interval.lower);
      points.push_back(interval.upper);
    }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  size_t numSections = points.empty() ? 0 : points.size() - 1;
  floorOf.assign(numSections, 0);
  remainingOf.assign(numSections, 0);
  sectionsOf.assign(instance.items.size(), {});
  itemsOf.assign(numSections, {});
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    const Item &item = instance.items[i];
    for (const Interval &interval : item.live) {
      size_t first = std::lower_bound(points.begin(), points.end(),
                                      interval.lower) - points.begin();
      for (size_t s = first; s < numSections && points[s] < interval.upper; ++s)
      {
        sectionsOf[i].push_back(static_cast<uint32_t>(s));
        itemsOf[s].push_back(i);
      }
    }
    if (!item.pin)
      for (uint32_t s : sectionsOf[i])
        remainingOf[s] += roundUp(item.size, grain);
  }
}

int64_t GravitySearch::gravityPosition(uint32_t item,
                                       int64_t ignoredSection) const {
  const Item &it = instance.items[item];
  int64_t floor = 0;
  for (uint32_t s : sectionsOf[item])
    if (s != ignoredSection)
      floor = std::max(floor, floorOf[s]);
  int64_t candidate = roundUp(floor, it.alignment);
  // Reserved ranges, pinned neighbours and separated neighbours can lie
  // above the floors: step over them.
  bool moved = true;
  while (moved) {
    moved = false;
    for (const AddressRange &block : fixedBlocks)
      if (block.begin < candidate + it.size && candidate < block.end) {
        candidate = roundUp(block.end, it.alignment);
        moved = true;
      }
    for (uint32_t n : instance.conflicts[item])
      if (offsets[n] != kUnplaced && offsets[n] < candidate + it.size &&
          candidate < offsets[n] + instance.items[n].size) {
        candidate = roundUp(offsets[n] + instance.items[n].size, it.alignment);
        moved = true;
      }
  }
  return candidate;
}

bool GravitySearch::sectionsFit() const {
  for (size_t s = 0; s < floorOf.size(); ++s)
    if (remainingOf[s] && floorOf[s] + remainingOf[s] - maxPadding > target)
      return false;
  return true;
}

int64_t GravitySearch::lowestOpenSection() const {
  int64_t lowest = -1;
  for (size_t s = 0; s < floorOf.size(); ++s)
    if (remainingOf[s] && (lowest < 0 || floorOf[s] < floorOf[lowest]))
      lowest = static_cast<int64_t>(s);
  return lowest;
}

void GravitySearch::place(uint32_t item, int64_t offset) {
  const Item &it = instance.items[item];
  offsets[item] = offset;
  int64_t end = offset + it.size;
  for (uint32_t s : sectionsOf[item]) {
    undoFloor.push_back({s, floorOf[s]});
    floorOf[s] = std::max(floorOf[s], end);
    remainingOf[s] -= roundUp(it.size, grain);
  }
}

void GravitySearch::restoreFloors(size_t mark) {
  while (undoFloor.size() > mark) {
    floorOf[undoFloor.back().first] = undoFloor.back().second;
    undoFloor.pop_back();
  }
}

void GravitySearch::unplace(uint32_t item) {
  const Item &it = instance.items[item];
  for (uint32_t s : sectionsOf[item])
    remainingOf[s] += roundUp(it.size, grain);
  offsets[item] = kUnplaced;
}

bool GravitySearch::search(size_t placed) {
  if (++nodes > nodeBudget) {
    exhausted = true;
    return false;
  }
  if (placed == numFree) {
    best = offsets;
    bestPeak = itemPeak(instance, offsets);
    target = bestPeak - 1;
    return bestPeak > lowerBound && !stopWithinLimit;
  }
  if (!sectionsFit())
    return true;
  int64_t section = lowestOpenSection();
  int64_t floor = floorOf[section];
  struct Candidate {
    int64_t offset;
    uint32_t item;
  };
  std::vector<Candidate> atFloor;
  for (uint32_t i : itemsOf[section]) {
    if (offsets[i] != kUnplaced)
      continue;
    int64_t position = gravityPosition(i);
    if (position + instance.items[i].size > target)
      return true; // it never fits: positions only grow
    if (position == roundUp(floor, instance.items[i].alignment))
      atFloor.push_back({position, i});
  }
  // Larger items first: they are the hardest to fit later.
  std::sort(atFloor.begin(), atFloor.end(),
            [&](const Candidate &a, const Candidate &b) {
              const Item &x = instance.items[a.item], &y = instance.items[b.item];
              if (x.size != y.size)
                return x.size > y.size;
              if (x.length() != y.length())
                return x.length() > y.length();
              return a.item < b.item;
            });
  for (const Candidate &candidate : atFloor) {
    if (candidate.offset + instance.items[candidate.item].size > target)
      continue; // the target dropped since the list was made
    size_t floorMark = undoFloor.size();
    place(candidate.item, candidate.offset);
    bool keepGoing = search(placed + 1);
    unplace(candidate.item);
    restoreFloors(floorMark);
    if (!keepGoing)
      return false;
  }
  // Nothing starts at this floor. The first item to start in this section
  // later rests on something outside it: raise the floor to the lowest such
  // position above it, or give up if there is none.
  int64_t raised = -1;
  for (uint32_t i : itemsOf[section]) {
    if (offsets[i] != kUnplaced)
      continue;
    int64_t position = gravityPosition(i, section);
    if (position > floor && (raised < 0 || position < raised))
      raised = position;
  }
  if (raised < 0)
    return true;
  size_t floorMark = undoFloor.size();
  undoFloor.push_back({static_cast<uint32_t>(section), floor});
  floorOf[section] = raised;
  bool keepGoing = search(placed);
  restoreFloors(floorMark);
  return keepGoing;
}

ExactResult GravitySearch::run(const ItemOffsets &incumbent) {
  int64_t incumbentPeak =
      incumbent.empty() ? -1 : itemPeak(instance, incumbent);
  // Only placements within the limit count as solutions.
  target = limit;
  if (incumbentPeak >= 0 && incumbentPeak <= limit)
    target = incumbentPeak - 1;
  // Pinned items are in place from the start; they are blocks for their
  // neighbours, not floors of their sections.
  ExactResult result;
  bool incumbentDone = incumbentPeak >= 0 && incumbentPeak <= limit &&
                       (incumbentPeak <= lowerBound || stopWithinLimit);
  if (!incumbentDone)
    search(/*placed=*/0);
  result.nodes = nodes;
  if (bestPeak >= 0) {
    result.offsets = best;
    result.peak = bestPeak;
  } else {
    result.offsets = incumbent;
    result.peak = incumbentPeak;
  }
  bool withinLimit = result.peak >= 0 && result.peak <= limit;
  bool searchedAll = !exhausted && !(stopWithinLimit && bestPeak >= 0);
  result.provedOptimal =
      withinLimit && (result.peak <= lowerBound || (searchedAll && !incumbentDone));
  result.provedInfeasible = !withinLimit && !exhausted;
  return result;
}

} // namespace

ExactResult dsaplan::solver::detail::searchExact(
    const PoolInstance &instance, const ItemOffsets &incumbent,
    int64_t lowerBound, int64_t limit, bool stopWithinLimit,
    uint64_t nodeBudget) {
  return GravitySearch(instance, lowerBound, limit, stopWithinLimit, nodeBudget)
      .run(incumbent);
}
