//===- Exact.cpp - Branch-and-bound for the smallest peak -----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Canonical placements. Any valid placement can be rebuilt by taking its
// items in increasing offset order and dropping each to its *gravity*
// position: the lowest aligned offset above every conflicting item already
// placed, clear of reserved ranges and pinned items. No item moves up, so
// the peak does not grow. The search therefore only builds placements in
// nondecreasing offset order, every item at its gravity position.
//
// Branching. Let L be the lowest gravity position of the unplaced items and
// C the items whose gravity is L (gravity only grows as items are placed, so
// in the placement being built the next item sits at L or above). Either one
// of C is placed at L next, or none ever is. Trying the candidates in a fixed
// order c1, c2, ..., the branch that places ck also forbids c1..c(k-1) to
// start at L (had one of them started there, an earlier branch built that
// placement); the last branch forbids all of C at L. Every placement is thus
// built once. A forbidden item waits until its gravity rises, which takes a
// new item below it: in a canonical placement an item rests on a neighbour,
// a pin, a reserved range or 0, never on thin air. When every unplaced item
// waits, nothing can complete the placement.
//
// Pruning.
//  - An item whose gravity already puts its end above the target never fits.
//  - Dominance: once the level reaches the top some unplaced item would have
//    at its gravity position, that item would fit below whatever starts at
//    the level, and dropping it there gives a placement built elsewhere.
//  - Time is cut into sections between interval endpoints. The unplaced
//    items of one section are co-live and all start at or above both the
//    section's floor (the top of its placed items) and L, so they stack
//    above max(floor, L): if that stack passes the target, nothing fits.
//    Whenever an item's lowest start rises (a neighbour was placed, or it
//    was forbidden at L), each of its sections is checked again with the
//    lowest start any of its unplaced items has left: that is where wasted
//    space in a section shows, long before L reaches it.
//
//  - An item forbidden at a level waits for a neighbour to lift it; with no
//    unplaced neighbour left it never will, and the branch is dead. So once
//    the branch of a candidate without unplaced neighbours fails, the
//    node fails (MiniMalloc's "hatless" rule).
//
// Dynamic decomposition. A cut is a section boundary that no unplaced item's
// lifetime crosses (a separated pair counts as one item over both
// lifetimes). When a placement empties cuts, the unplaced items between two
// cuts neither conflict with nor share a section with the others: each group
// is searched on its own (its own level, its own sections), one after the
// other, each starting where the previous one ended. Answering "is there a
// placement within the limit?", a group without one ends the node at once,
// however the groups before it were placed: they cannot help it. Only
// feasibility questions decompose (the first placement ends them).
//
// Ranking. Candidates at a level are tried in the order of a ranking: keys
// such as pressure (the most bytes live at a point of the item's lifetime),
// lifetime, area or size. Each group a decomposition splits off ranks its
// items again, with the pressure of the bytes still unplaced (MiniMalloc
// recomputes its preorder for each sub-partition the same way): a group is
// a new, smaller problem, and its busiest stretch is usually not the
// whole problem's. On MiniMalloc's H and I this is what finds a placement
// at 2^20 (within 18,000 and 33,000 nodes; 2M did not with the root's
// ranking fixed).
//
// Driving the search (any placement within a limit, the smallest peak)
// is in ExactDriver.cpp.
//
// Every run counts nodes and stops at its budget; all of it is
// deterministic. A run that finishes within its budget is a proof.
//
//===----------------------------------------------------------------------===//

#include "Control.h"
#include "PoolInstance.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Targets at or above this prune nothing.
constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max() / 8;

/// Unplaced items searched together: all of them live within the sections
/// [firstSection, endSection), and no item outside the group conflicts with
/// one inside. The groups one decomposition made share its token.
struct Group {
  uint32_t firstSection = 0, endSection = 0;
  std::vector<uint32_t> items;
  uint64_t token = 0;
};

class CanonicalSearch {
public:
  /// `ranking` ranks the candidates at one level.
  CanonicalSearch(const PoolInstance &instance, int64_t lowerBound,
                  int64_t limit, bool stopWithinLimit, uint64_t nodeBudget,
                  const CandidateRanking &ranking,
                  SearchControl *control = nullptr);
  /// Turns dynamic decomposition off (it is on for feasibility questions).
  void disableDecomposition() { decompositionAllowed = false; }
  ExactResult run(const ItemOffsets &incumbent);

private:
  void buildSections();
  void buildCuts();
  void buildCandidateOrder(const CandidateRanking &ranking);
  /// Ranks `items` by the ranking keys, the pressure counting the bytes
  /// still unplaced; each item's old rank goes to `saved` (when not null).
  void rankByKeys(const std::vector<uint32_t> &items,
                  std::vector<std::pair<uint32_t, uint32_t>> *saved);
  /// The lowest offset `item` may take above `base`, clear of reserved
  /// ranges and pinned neighbours (kept in `position`).
  int64_t gravity(uint32_t item) const;
  /// Whether the unplaced items of some section of `group` cannot fit above
  /// `level`.
  bool sectionsOverflow(const Group &group, int64_t level) const;
  /// Whether, in some section of an item in `lifted`, the unplaced items
  /// cannot fit above the lowest start any of them has left. Clears
  /// `lifted`.
  bool liftedSectionsOverflow(int64_t level);
  /// Whether the unplaced items of section `s` cannot stack from the
  /// lowest start any of them has left.
  bool sectionOverflows(uint32_t s, int64_t level);
  void place(uint32_t item, int64_t offset);
  void forbidAt(uint32_t item, int64_t level);
  void undoTo(size_t mark);
  /// Returns false when the search must stop (budget spent, or done).
  /// `parentLevel`: the level of the parent node, whose section check still
  /// holds for every section the parent's placement did not touch.
  bool search(const Group &group, int64_t parentLevel);
  /// Continues below a placement that emptied the cuts in `zeroCuts`:
  /// `group` falls apart into independent groups, searched one after the
  /// other. One that has no placement ends the whole node.
  bool searchSplit(const Group &group, int64_t parentLevel);
  /// `group`'s items are all placed: on to the next pending group, or a
  /// complete placement.
  bool finishGroup();
  void recordSolution();

  const PoolInstance &instance;
  const int64_t lowerBound;
  const int64_t limit;
  const bool stopWithinLimit;
  const uint64_t nodeBudget;
  /// Told of every node and every better placement; may stop the search.
  SearchControl *const control;
  uint64_t nodes = 0;
  bool exhausted = false;
  bool decompositionAllowed = true;
  bool decompose = false;

  size_t numItems = 0;
  int64_t grain = 1, maxPadding = 0;
  /// Lower rank = tried earlier among candidates at one level. Only the
  /// ranks within one group are ever compared.
  std::vector<uint32_t> rank;
  std::vector<RankKey> rankKeys;
  /// Per item: pinned conflicting items, to step over.
  std::vector<std::vector<uint32_t>> pinnedNeighbours;
  std::vector<std::vector<uint32_t>> sectionsOf;
  std::vector<std::vector<uint32_t>> itemsOf; // per section, unpinned items
  // Scratch of liftedSectionsOverflow: items whose lowest start rose, and a
  // per-item stamp to compute each lowest start once.
  std::vector<uint32_t> lifted;
  std::vector<uint64_t> itemStamp;
  std::vector<int64_t> itemLowestStart;
  /// Per section, the item that last showed it does not overflow: checked
  /// first next time (a hint only, it decides nothing).
  std::vector<uint32_t> witness;
  uint64_t stamp = 0;
  std::vector<int64_t> alignedSize;
  /// Per unpinned item, the sections [cutFirst, cutEnd) its lifetime and
  /// those of its separated partners span: a group never splits inside.
  std::vector<uint32_t> cutFirst, cutEnd;
  /// Boundaries (between section k - 1 and k) whose cut count fell to zero
  /// in the last placement.
  std::vector<uint32_t> zeroCuts;

  // State, undone through the trail.
  ItemOffsets offsets;
  std::vector<int64_t> base;  // max end of placed conflicting items
  std::vector<int64_t> position; // gravity(item), follows `base`
  /// The level an item was forbidden at (-1: none); it is a candidate again
  /// once its gravity is above that level.
  std::vector<int64_t> forbiddenAt;
  std::vector<int64_t> sectionTop, sectionRemaining;
  /// Per boundary k: the unplaced items whose cut span crosses it.
  std::vector<int64_t> cutCount;
  /// Per item: its unplaced unpinned neighbours (undone with the offsets).
  std::vector<uint32_t> unplacedDegree;
  enum class Field : uint8_t { Base, Forbidden, Top, Offset, Cut };
  struct TrailEntry {
    Field field;
    uint32_t index;
    int64_t old;
  };
  /// The first `trailSize` entries are live (grown by hand: this is the
  /// innermost loop of the search).
  std::vector<TrailEntry> trail;
  size_t trailSize = 0;
  void record(Field field, uint32_t index, int64_t old) {
    if (trailSize == trail.size())
      trail.resize(2 * trail.size() + 64);
    trail[trailSize++] = {field, index, old};
  }

  /// Groups waiting for the current one to be placed, last first.
  std::vector<Group> pending;
  uint64_t lastToken = 0;
  /// Nonzero while unwinding to the decomposition with this token: one of
  /// its groups has no placement, whatever its other groups do.
  uint64_t unwindTo = 0;

  int64_t target = 0; // solutions must have peak <= target
  ItemOffsets best;
  int64_t bestPeak = -1;
};

CanonicalSearch::CanonicalSearch(const PoolInstance &instance,
                                 int64_t lowerBound, int64_t limit,
                                 bool stopWithinLimit, uint64_t nodeBudget,
                                 const CandidateRanking &ranking,
                                 SearchControl *control)
    : instance(instance), lowerBound(lowerBound), limit(limit),
      stopWithinLimit(stopWithinLimit), nodeBudget(nodeBudget),
      control(control) {
  numItems = instance.items.size();
  offsets.assign(numItems, kUnplaced);
  base.assign(numItems, 0);
  forbiddenAt.assign(numItems, -1);
  grain = numItems ? instance.items.front().alignment : 1;
  for (const Item &item : instance.items)
    grain = std::gcd(grain, item.alignment);
  alignedSize.resize(numItems);
  for (uint32_t i = 0; i < numItems; ++i) {
    alignedSize[i] = roundUp(instance.items[i].size, grain);
    maxPadding =
        std::max(maxPadding, alignedSize[i] - instance.items[i].size);
  }
  pinnedNeighbours.assign(numItems, {});
  unplacedDegree.assign(numItems, 0);
  for (uint32_t i = 0; i < numItems; ++i) {
    if (instance.items[i].pin) {
      offsets[i] = *instance.items[i].pin;
      continue;
    }
    for (uint32_t n : instance.conflicts[i]) {
      if (instance.items[n].pin)
        pinnedNeighbours[i].push_back(n);
      else
        ++unplacedDegree[i];
    }
  }
  position.assign(numItems, 0);
  for (uint32_t i = 0; i < numItems; ++i)
    if (!instance.items[i].pin)
      position[i] = gravity(i);
  trail.resize(4 * numItems + 64);
  buildSections();
  buildCandidateOrder(ranking);
}

void CanonicalSearch::buildSections() {
  std::vector<int64_t> points;
  for (const Item &item : instance.items)
    for (const Interval &interval : item.live) {
      points.push_back(interval.lower);
      points.push_back(interval.upper);
    }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  size_t numSections = points.empty() ? 0 : points.size() - 1;
  sectionTop.assign(numSections, 0);
  sectionRemaining.assign(numSections, 0);
  sectionsOf.assign(numItems, {});
  itemsOf.assign(numSections, {});
  itemStamp.assign(numItems, 0);
  itemLowestStart.assign(numItems, 0);
  witness.assign(numSections, 0);
  auto sectionAt = [&](int64_t point) {
    return static_cast<uint32_t>(
        std::lower_bound(points.begin(), points.end(), point) -
        points.begin());
  };
  reserveSectionLists(instance, points, sectionsOf, itemsOf);
  cutFirst.assign(numItems, 0);
  cutEnd.assign(numItems, 0);
  for (uint32_t i = 0; i < numItems; ++i) {
    const Item &item = instance.items[i];
    if (item.pin)
      continue; // pinned items are blocks, not part of any stack
    for (const Interval &interval : item.live) {
      for (uint32_t s = sectionAt(interval.lower);
           s < numSections && points[s] < interval.upper; ++s) {
        sectionsOf[i].push_back(s);
        itemsOf[s].push_back(i);
        sectionRemaining[s] += alignedSize[i];
      }
    }
    // A separated partner may live elsewhere in time: the span covers it.
    // (Neighbours whose lifetimes overlap this one's span those boundaries
    // themselves while both are unplaced.)
    int64_t first = item.start(), end = item.end();
    for (uint32_t n : instance.conflicts[i]) {
      const Item &other = instance.items[n];
      if (other.pin || (other.start() < item.end() && item.start() < other.end()))
        continue;
      first = std::min(first, other.start());
      end = std::max(end, other.end());
    }
    cutFirst[i] = sectionAt(first);
    cutEnd[i] = sectionAt(end);
  }
  buildCuts();
}

void CanonicalSearch::buildCuts() {
  size_t numSections = sectionTop.size();
  // A difference array over the boundaries each unpinned item crosses.
  std::vector<int64_t> delta(numSections + 1, 0);
  for (uint32_t i = 0; i < numItems; ++i)
    if (!instance.items[i].pin && cutFirst[i] + 1 < cutEnd[i]) {
      ++delta[cutFirst[i] + 1];
      --delta[cutEnd[i]];
    }
  cutCount.assign(numSections, 0);
  int64_t running = 0;
  for (size_t k = 0; k < numSections; ++k) {
    running += delta[k];
    cutCount[k] = running;
  }
}

void CanonicalSearch::buildCandidateOrder(const CandidateRanking &ranking) {
  rank.assign(numItems, 0);
  rankKeys = ranking.keys;
  if (rankKeys.empty()) {
    for (uint32_t r = 0; r < ranking.order.size(); ++r)
      rank[ranking.order[r]] = r;
    return;
  }
  std::vector<uint32_t> all(numItems);
  std::iota(all.begin(), all.end(), 0);
  rankByKeys(all, nullptr);
}

void CanonicalSearch::rankByKeys(
    const std::vector<uint32_t> &items,
    std::vector<std::pair<uint32_t, uint32_t>> *saved) {
  auto keyValue = [&](uint32_t i, RankKey key) -> int64_t {
    const Item &item = instance.items[i];
    switch (key) {
    case RankKey::Pressure: {
      int64_t most = 0;
      for (uint32_t s : sectionsOf[i])
        most = std::max(most, sectionRemaining[s]);
      return most;
    }
    case RankKey::Width:
      return item.length();
    case RankKey::Area:
      return saturatingProduct(item.size, item.length());
    case RankKey::Size:
      return item.size;
    case RankKey::LateStart:
      return -item.start();
    }
    return 0;
  };
  size_t numKeys = rankKeys.size();
  std::vector<int64_t> values(items.size() * numKeys);
  for (size_t k = 0; k < items.size(); ++k)
    for (size_t j = 0; j < numKeys; ++j)
      values[k * numKeys + j] = keyValue(items[k], rankKeys[j]);
  std::vector<uint32_t> byRank(items.size());
  std::iota(byRank.begin(), byRank.end(), 0);
  std::sort(byRank.begin(), byRank.end(), [&](uint32_t a, uint32_t b) {
    for (size_t j = 0; j < numKeys; ++j)
      if (values[a * numKeys + j] != values[b * numKeys + j])
        return values[a * numKeys + j] > values[b * numKeys + j];
    return items[a] < items[b];
  });
  if (saved)
    for (uint32_t i : items)
      saved->push_back({i, rank[i]});
  for (uint32_t r = 0; r < byRank.size(); ++r)
    rank[items[byRank[r]]] = r;
}

int64_t CanonicalSearch::gravity(uint32_t item) const {
  const Item &it = instance.items[item];
  // Alignments are powers of two: a mask, not a division.
  int64_t candidate = roundUp(base[item], it.alignment);
  if (instance.reserved.empty() && pinnedNeighbours[item].empty())
    return candidate;
  // Step over reserved ranges and pinned neighbours until clear.
  for (bool moved = true; moved;) {
    moved = false;
    for (const AddressRange &block : instance.reserved)
      if (block.begin < candidate + it.size && candidate < block.end) {
        candidate = roundUp(block.end, it.alignment);
        moved = true;
      }
    for (uint32_t n : pinnedNeighbours[item]) {
      int64_t begin = offsets[n], end = begin + instance.items[n].size;
      if (begin < candidate + it.size && candidate < end) {
        candidate = roundUp(end, it.alignment);
        moved = true;
      }
    }
  }
  return candidate;
}

bool CanonicalSearch::sectionsOverflow(const Group &group,
                                       int64_t level) const {
  for (size_t s = group.firstSection; s < group.endSection; ++s)
    if (sectionRemaining[s] &&
        std::max(sectionTop[s], level) + sectionRemaining[s] - maxPadding >
            target)
      return true;
  return false;
}

bool CanonicalSearch::liftedSectionsOverflow(int64_t level) {
  if (target >= kUnbounded) { // a greedy descent: nothing to prune
    lifted.clear();
    return false;
  }
  // The lifted items are the placed one and its neighbours: their sections
  // lie in one stretch of time, checked section by section (checking a
  // section that did not change is merely redundant). Far cheaper than each
  // lifted item's sections when many long-lived neighbours share them.
  uint32_t first = std::numeric_limits<uint32_t>::max(), end = 0;
  for (uint32_t item : lifted)
    if (!sectionsOf[item].empty()) {
      first = std::min(first, sectionsOf[item].front());
      end = std::max(end, sectionsOf[item].back() + 1);
    }
  lifted.clear();
  ++stamp;
  for (uint32_t s = first; s < end; ++s)
    if (sectionRemaining[s] && sectionOverflows(s, level))
      return true;
  return false;
}

bool CanonicalSearch::sectionOverflows(uint32_t s, int64_t level) {
  // The section's stack starts where its lowest unplaced item can; it
  // overflows when that is above `room`. Every unplaced item of the section
  // starts above its placed ones and the level, and one item low enough
  // settles it.
  int64_t room = target - sectionRemaining[s] + maxPadding;
  if (std::max(sectionTop[s], level) > room)
    return true;
  // Nothing starts below the level any more.
  auto lowestStart = [&](uint32_t i) {
    return std::max({position[i], forbiddenAt[i] + 1, level});
  };
  const std::vector<uint32_t> &items = itemsOf[s];
  uint32_t hint = items[witness[s]];
  if (offsets[hint] == kUnplaced && lowestStart(hint) <= room)
    return false;
  for (uint32_t k = 0; k < items.size(); ++k) {
    uint32_t i = items[k];
    if (offsets[i] != kUnplaced)
      continue;
    if (itemStamp[i] != stamp) {
      itemStamp[i] = stamp;
      itemLowestStart[i] = lowestStart(i);
    }
    if (itemLowestStart[i] <= room) {
      witness[s] = k;
      return false;
    }
  }
  return true;
}

void CanonicalSearch::place(uint32_t item, int64_t offset) {
  record(Field::Offset, item, offsets[item]);
  offsets[item] = offset;
  int64_t end = offset + instance.items[item].size;
  for (uint32_t n : instance.conflicts[item]) {
    if (offsets[n] != kUnplaced)
      continue;
    --unplacedDegree[n];
    if (base[n] < end) {
      record(Field::Base, n, base[n]);
      base[n] = end;
      position[n] = gravity(n);
      lifted.push_back(n);
    }
  }
  // (Undoing the offset gives the sections their remaining bytes back.)
  for (uint32_t s : sectionsOf[item]) {
    sectionRemaining[s] -= alignedSize[item];
    if (sectionTop[s] < end) {
      record(Field::Top, s, sectionTop[s]);
      sectionTop[s] = end;
    }
  }
  if (!decompose)
    return;
  for (uint32_t k = cutFirst[item] + 1; k < cutEnd[item]; ++k) {
    record(Field::Cut, k, cutCount[k]);
    if (--cutCount[k] == 0)
      zeroCuts.push_back(k);
  }
}

void CanonicalSearch::forbidAt(uint32_t item, int64_t level) {
  record(Field::Forbidden, item, forbiddenAt[item]);
  forbiddenAt[item] = level;
}

void CanonicalSearch::undoTo(size_t mark) {
  while (trailSize > mark) {
    const TrailEntry &entry = trail[trailSize - 1];
    switch (entry.field) {
    case Field::Base:
      base[entry.index] = entry.old;
      position[entry.index] = gravity(entry.index);
      break;
    case Field::Forbidden:
      forbiddenAt[entry.index] = entry.old;
      break;
    case Field::Top:
      sectionTop[entry.index] = entry.old;
      break;
    case Field::Cut:
      cutCount[entry.index] = entry.old;
      break;
    case Field::Offset:
      // Neighbours placed later are already undone: exactly those unplaced
      // now counted this item.
      for (uint32_t n : instance.conflicts[entry.index])
        if (offsets[n] == kUnplaced)
          ++unplacedDegree[n];
      for (uint32_t s : sectionsOf[entry.index])
        sectionRemaining[s] += alignedSize[entry.index];
      offsets[entry.index] = entry.old;
      break;
    }
    --trailSize;
  }
}

void CanonicalSearch::recordSolution() {
  best = offsets;
  bestPeak = itemPeak(instance, offsets);
  target = bestPeak - 1;
  if (control)
    control->offer(bestPeak);
}

bool CanonicalSearch::finishGroup() {
  if (pending.empty()) {
    recordSolution();
    return bestPeak > lowerBound && !stopWithinLimit;
  }
  Group next = std::move(pending.back());
  pending.pop_back();
  bool keepGoing = search(next, /*parentLevel=*/-1);
  uint64_t token = next.token;
  pending.push_back(std::move(next));
  // No placement of `next` exists, whatever the groups before it do.
  if (keepGoing && unwindTo == 0)
    unwindTo = token;
  return keepGoing;
}

bool CanonicalSearch::searchSplit(const Group &group, int64_t parentLevel) {
  std::vector<uint32_t> cuts;
  cuts.swap(zeroCuts);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Group> parts(cuts.size() + 1);
  for (size_t k = 0; k < parts.size(); ++k) {
    parts[k].firstSection = k == 0 ? group.firstSection : cuts[k - 1];
    parts[k].endSection = k == cuts.size() ? group.endSection : cuts[k];
  }
  for (uint32_t i : group.items)
    if (offsets[i] == kUnplaced) {
      size_t k = std::upper_bound(cuts.begin(), cuts.end(), cutFirst[i]) -
                 cuts.begin();
      parts[k].items.push_back(i);
    }
  parts.erase(std::remove_if(parts.begin(), parts.end(),
                             [](const Group &g) { return g.items.empty(); }),
              parts.end());
  if (parts.size() <= 1)
    return search(parts.empty() ? group : parts.front(), parentLevel);
  // Each group ranks its candidates afresh, by what is left in it.
  std::vector<std::pair<uint32_t, uint32_t>> savedRanks;
  if (!rankKeys.empty())
    for (const Group &part : parts)
      rankByKeys(part.items, &savedRanks);
  uint64_t token = ++lastToken;
  for (size_t k = parts.size(); k-- > 1;) {
    parts[k].token = token;
    pending.push_back(std::move(parts[k]));
  }
  bool keepGoing = search(parts.front(), /*parentLevel=*/-1);
  pending.resize(pending.size() - (parts.size() - 1));
  for (const auto &[item, old] : savedRanks)
    rank[item] = old;
  if (unwindTo == token) {
    unwindTo = 0;
    return true;
  }
  return keepGoing;
}

bool CanonicalSearch::search(const Group &group, int64_t parentLevel) {
  // A stop request ends the search as a spent budget would.
  if (++nodes > nodeBudget || (control && control->countNode())) {
    exhausted = true;
    return false;
  }
  // The lowest level, its candidates, and the end-above-target test.
  int64_t level = std::numeric_limits<int64_t>::max();
  int64_t lowestTop = std::numeric_limits<int64_t>::max();
  std::vector<uint32_t> candidates;
  bool anyUnplaced = false;
  for (uint32_t i : group.items) {
    if (offsets[i] != kUnplaced)
      continue;
    anyUnplaced = true;
    int64_t lowest = position[i];
    if (lowest + instance.items[i].size > target)
      return true;
    lowestTop = std::min(lowestTop, lowest + instance.items[i].size);
    if (lowest <= forbiddenAt[i]) {
      // It waits for a neighbour to lift it; with none left it never moves.
      if (unplacedDegree[i] == 0)
        return true;
      continue;
    }
    if (lowest < level) {
      level = lowest;
      candidates.clear();
    }
    if (lowest == level)
      candidates.push_back(i);
  }
  if (!anyUnplaced)
    return finishGroup();
  if (candidates.empty())
    return true; // every unplaced item waits: nothing can be placed
  // Dominance: starting the next item at or above the top some unplaced item
  // would reach from its gravity position leaves room for that item below,
  // where it would drop to; such placements are built elsewhere.
  if (level >= lowestTop)
    return true;
  // Placing an item raises only its own sections' stacks (checked where it
  // is placed); a higher level can raise every section's.
  if (level > parentLevel) {
    if (sectionsOverflow(group, level))
      return true;
  }
  std::sort(candidates.begin(), candidates.end(),
            [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });

  size_t mark = trailSize;
  for (uint32_t candidate : candidates) {
    // Nothing can ever lift a candidate without unplaced neighbours: once
    // its branch fails, forbidding it here fails every later branch.
    bool hatless = unplacedDegree[candidate] == 0;
    size_t branchMark = trailSize;
    place(candidate, level);
    // The candidate's sections (through itself: its own top is where the
    // rest now start) and its neighbours' sections changed.
    lifted.push_back(candidate);
    bool overflow = liftedSectionsOverflow(level);
    bool keepGoing = true;
    if (!overflow)
      keepGoing = zeroCuts.empty() ? search(group, level)
                                   : searchSplit(group, level);
    zeroCuts.clear();
    // A stopped search is discarded: nothing to undo.
    if (!keepGoing)
      return false;
    undoTo(branchMark);
    if (unwindTo || hatless) {
      undoTo(mark);
      return true;
    }
    // Later branches do not start this candidate at this level.
    forbidAt(candidate, level);
  }
  // Every candidate is now forbidden at `level`: the branch where nothing
  // starts there. The forbidden candidates' lowest starts rose too.
  lifted = candidates;
  if (liftedSectionsOverflow(level)) {
    undoTo(mark);
    return true;
  }
  if (!search(group, level))
    return false;
  undoTo(mark);
  return true;
}

ExactResult CanonicalSearch::run(const ItemOffsets &incumbent) {
  int64_t incumbentPeak =
      incumbent.empty() ? -1 : itemPeak(instance, incumbent);
  bool incumbentFits = incumbentPeak >= 0 && incumbentPeak <= limit;
  // Only placements within the limit count, and only better ones than the
  // incumbent unless any fitting placement will do.
  target = incumbentFits ? incumbentPeak - 1 : limit;
  bool incumbentDone =
      incumbentFits && (incumbentPeak <= lowerBound || stopWithinLimit);
  // Independent groups may be solved one after the other only when the
  // first placement ends the search: a lower target found in one group
  // would otherwise not reach the groups already placed.
  decompose = decompositionAllowed && stopWithinLimit &&
              limit < kUnbounded;
  if (!incumbentDone) {
    Group root;
    root.endSection = static_cast<uint32_t>(sectionTop.size());
    for (uint32_t i = 0; i < numItems; ++i)
      if (offsets[i] == kUnplaced)
        root.items.push_back(i);
    if (decompose)
      for (uint32_t k = 1; k < cutCount.size(); ++k)
        if (cutCount[k] == 0)
          zeroCuts.push_back(k);
    if (zeroCuts.empty())
      search(root, /*parentLevel=*/-1);
    else
      searchSplit(root, /*parentLevel=*/-1);
  }

  ExactResult result;
  // The node that found the budget spent was not searched.
  result.nodes = std::min(nodes, nodeBudget);
  result.offsets = bestPeak >= 0 ? best : incumbent;
  result.peak = bestPeak >= 0 ? bestPeak : incumbentPeak;
  bool withinLimit = result.peak >= 0 && result.peak <= limit;
  // Finishing the whole tree proves that nothing beats the best placement.
  bool finished = !exhausted &&
                  !(stopWithinLimit && bestPeak >= 0);
  result.provedOptimal =
      withinLimit && (result.peak <= lowerBound || (finished && !incumbentDone));
  result.provedInfeasible = !withinLimit && !exhausted;
  return result;
}

} // namespace

ItemOffsets dsaplan::solver::detail::placeByLevelsBySearch(
    const PoolInstance &instance, const std::vector<uint32_t> &order) {
  // The first descent of the search, with nothing to prune it: at every
  // level the first candidate in `order` is placed.
  int64_t unbounded = std::numeric_limits<int64_t>::max() / 4;
  ExactResult result =
      CanonicalSearch(instance, /*lowerBound=*/0, unbounded,
                      /*stopWithinLimit=*/true,
                      /*nodeBudget=*/4 * instance.items.size() + 4,
                      CandidateRanking{{}, order})
          .run({});
  return result.offsets;
}

ExactResult dsaplan::solver::detail::runCanonicalSearch(
    const PoolInstance &instance, const ItemOffsets &incumbent,
    int64_t lowerBound, int64_t limit, bool stopWithinLimit,
    uint64_t nodeBudget, const CandidateRanking &ranking, bool decompose,
    SearchControl *control) {
  CanonicalSearch search(instance, lowerBound, limit, stopWithinLimit,
                         nodeBudget, ranking, control);
  if (!decompose)
    search.disableDecomposition();
  return search.run(incumbent);
}
