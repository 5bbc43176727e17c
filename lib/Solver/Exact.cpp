//===- Exact.cpp - Branch-and-bound for the smallest peak -----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The search enumerates canonical placements: every placement can be pushed
// down until each item rests on a neighbour (or on 0, or on a reserved or
// pinned range), without raising the peak. Listing the items of such a
// placement by (offset, index) gives a sequence in which each item sits at
// its "gravity" position: the lowest aligned offset above every neighbour
// listed before it. The search builds these sequences: at each node it
// places one more item at its gravity position, which must not be below the
// previous item's offset (ties broken by index, so each placement is built
// once).
//
// Pruning, per node:
//  - an unplaced item whose gravity position already puts it above the
//    target can never fit: its position only grows;
//  - time is cut into sections between interval endpoints; the unplaced
//    items of a section are co-live, so they stack above both the highest
//    placed item of the section and the previous offset. If that stack
//    exceeds the target in some section, no completion fits.
//
// The search is bounded by a node budget and is deterministic. When it ends
// within the budget, the best placement found is optimal (or none exists
// under the capacity).
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
  int64_t gravityPosition(uint32_t item) const;
  bool sectionsFit(int64_t lastOffset) const;
  void place(uint32_t item, int64_t offset);
  void unplace(uint32_t item);
  /// Returns false when the search must stop (budget spent or optimum).
  bool search(int64_t lastOffset, uint32_t lastItem, size_t placed);

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
  std::vector<int64_t> base;                // max end of placed neighbours
  std::vector<std::vector<uint32_t>> sectionsOf;
  std::vector<int64_t> floorOf, remainingOf; // per section
  std::vector<std::pair<uint32_t, int64_t>> undoBase, undoFloor;
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
  base.assign(n, 0);
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
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    const Item &item = instance.items[i];
    for (const Interval &interval : item.live) {
      size_t first = std::lower_bound(points.begin(), points.end(),
                                      interval.lower) - points.begin();
      for (size_t s = first; s < numSections && points[s] < interval.upper; ++s)
        sectionsOf[i].push_back(static_cast<uint32_t>(s));
    }
    if (!item.pin)
      for (uint32_t s : sectionsOf[i])
        remainingOf[s] += roundUp(item.size, grain);
  }
}

int64_t GravitySearch::gravityPosition(uint32_t item) const {
  const Item &it = instance.items[item];
  int64_t candidate = roundUp(base[item], it.alignment);
  // Pinned neighbours and reserved ranges are the only things that can lie
  // above `base`: step over them.
  bool moved = true;
  while (moved) {
    moved = false;
    for (const AddressRange &block : fixedBlocks)
      if (block.begin < candidate + it.size && candidate < block.end) {
        candidate = roundUp(block.end, it.alignment);
        moved = true;
      }
    for (uint32_t n : instance.conflicts[item])
      if (instance.items[n].pin && offsets[n] < candidate + it.size &&
          candidate < offsets[n] + instance.items[n].size) {
        candidate = roundUp(offsets[n] + instance.items[n].size, it.alignment);
        moved = true;
      }
  }
  return candidate;
}

bool GravitySearch::sectionsFit(int64_t lastOffset) const {
  for (size_t s = 0; s < floorOf.size(); ++s)
    if (remainingOf[s] &&
        std::max(floorOf[s], lastOffset) + remainingOf[s] - maxPadding > target)
      return false;
  return true;
}

void GravitySearch::place(uint32_t item, int64_t offset) {
  const Item &it = instance.items[item];
  offsets[item] = offset;
  int64_t end = offset + it.size;
  for (uint32_t n : instance.conflicts[item])
    if (offsets[n] == kUnplaced && base[n] < end) {
      undoBase.push_back({n, base[n]});
      base[n] = end;
    }
  for (uint32_t s : sectionsOf[item]) {
    undoFloor.push_back({s, floorOf[s]});
    floorOf[s] = std::max(floorOf[s], end);
    remainingOf[s] -= roundUp(it.size, grain);
  }
}

void GravitySearch::unplace(uint32_t item) {
  const Item &it = instance.items[item];
  for (uint32_t s : sectionsOf[item])
    remainingOf[s] += roundUp(it.size, grain);
  offsets[item] = kUnplaced;
}

bool GravitySearch::search(int64_t lastOffset, uint32_t lastItem,
                           size_t placed) {
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
  if (!sectionsFit(lastOffset))
    return true;
  struct Candidate {
    int64_t offset;
    uint32_t item;
  };
  std::vector<Candidate> candidates;
  for (uint32_t i = 0; i < instance.items.size(); ++i) {
    if (offsets[i] != kUnplaced)
      continue;
    int64_t position = gravityPosition(i);
    if (position + instance.items[i].size > target)
      return true; // it never fits: positions only grow
    if (position < lastOffset || (position == lastOffset && i < lastItem))
      continue;
    candidates.push_back({position, i});
  }
  std::sort(candidates.begin(), candidates.end(),
            [&](const Candidate &a, const Candidate &b) {
              if (a.offset != b.offset)
                return a.offset < b.offset;
              if (instance.items[a.item].size != instance.items[b.item].size)
                return instance.items[a.item].size > instance.items[b.item].size;
              return a.item < b.item;
            });
  for (const Candidate &candidate : candidates) {
    if (candidate.offset + instance.items[candidate.item].size > target)
      continue; // the target dropped since the list was made
    size_t baseMark = undoBase.size(), floorMark = undoFloor.size();
    place(candidate.item, candidate.offset);
    bool keepGoing = search(candidate.offset, candidate.item, placed + 1);
    unplace(candidate.item);
    while (undoBase.size() > baseMark) {
      base[undoBase.back().first] = undoBase.back().second;
      undoBase.pop_back();
    }
    while (undoFloor.size() > floorMark) {
      floorOf[undoFloor.back().first] = undoFloor.back().second;
      undoFloor.pop_back();
    }
    if (!keepGoing)
      return false;
  }
  return true;
}

ExactResult GravitySearch::run(const ItemOffsets &incumbent) {
  int64_t incumbentPeak =
      incumbent.empty() ? -1 : itemPeak(instance, incumbent);
  // Only placements within the limit count as solutions.
  target = limit;
  if (incumbentPeak >= 0 && incumbentPeak <= limit)
    target = incumbentPeak - 1;
  // Pinned items are in place from the start: they raise their neighbours'
  // gravity positions only where they sit, so they are not in `base`.
  ExactResult result;
  bool incumbentDone = incumbentPeak >= 0 && incumbentPeak <= limit &&
                       (incumbentPeak <= lowerBound || stopWithinLimit);
  if (!incumbentDone)
    search(/*lastOffset=*/0, /*lastItem=*/0, /*placed=*/0);
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
