//===- LowerBound.cpp - Lower bounds on the peak of a pool ----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Two items that are live together or separated may not share a byte: they
// conflict. Any set of pairwise conflicting items (a clique of the conflict
// graph) stacks, so the peak of every valid placement is at least the height
// of the heaviest clique:
//  - each item counts its size rounded up to the smallest alignment in the
//    clique (every offset is a multiple of it), less the padding of the
//    topmost one;
//  - reserved ranges, and the pinned items of the clique, are blocks the
//    others must avoid: the clique needs the lowest height under which the
//    bytes outside the blocks hold its unpinned items; a pinned item also
//    reaches its own end;
//  - a colocated group is one item (its largest size), so it counts once.
// The same clique is the certificate of infeasibility when its height is
// above the capacity: the bound and the proof come from one computation.
//
// The heaviest clique is searched exactly (branch and bound over bitsets,
// pruned by a greedy colouring: a clique takes at most one item of each
// colour class) within a node budget. Any clique found on the way is a
// valid bound, so a budget that runs out weakens the bound, never falsifies
// it. Without separations and with one interval per item the conflict graph
// is an interval graph, where the busiest point is the heaviest clique, and
// no search is needed; pools too large to search get the busiest point and
// greedy cliques.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Solve.h"
#include "PoolInstance.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace dsaplan::solver;
using namespace dsaplan::solver::detail;

namespace {

/// Above this many items the exact clique search is skipped (its bitsets
/// are quadratic in the item count).
constexpr size_t kExactCliqueMaxItems = 3000;
/// Above this many items greedy cliques are skipped too: growing one per
/// item is quadratic in the degree.
constexpr size_t kGreedyCliqueMaxItems = 5000;
/// Nodes of the clique search, per pool.
constexpr uint64_t kCliqueNodeBudget = 200'000;

/// A set of pairwise conflicting items and the height it forces.
struct Clique {
  std::vector<uint32_t> items;
  int64_t height = 0;
};

/// The smallest alignment of the pool: every offset is a multiple of it.
int64_t poolGrain(const PoolInstance &instance) {
  int64_t grain = instance.items.empty() ? 1 : instance.items.front().alignment;
  for (const Item &item : instance.items)
    grain = std::min(grain, item.alignment);
  return grain;
}

/// Blocks rounded so that the aligned extents of the other items avoid them:
/// an item ending at or below `begin` ends, rounded, at or below
/// roundUp(begin); one starting at or above `end` starts at or above
/// roundUp(end). Sorted and merged.
std::vector<AddressRange> roundedBlocks(std::vector<AddressRange> blocks,
                                        int64_t grain) {
  for (AddressRange &block : blocks)
    block = {roundUp(block.begin, grain), roundUp(block.end, grain)};
  std::sort(blocks.begin(), blocks.end(),
            [](const AddressRange &a, const AddressRange &b) {
              return a.begin < b.begin;
            });
  std::vector<AddressRange> merged;
  for (const AddressRange &block : blocks) {
    if (block.begin >= block.end)
      continue;
    if (!merged.empty() && block.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, block.end);
    else
      merged.push_back(block);
  }
  return merged;
}

/// The lowest address below which `bytes` bytes lie outside `blocks`.
int64_t heightAround(const std::vector<AddressRange> &blocks, int64_t bytes) {
  int64_t position = 0;
  for (const AddressRange &block : blocks) {
    if (block.begin - position >= bytes)
      break;
    bytes -= std::max<int64_t>(0, block.begin - position);
    position = std::max(position, block.end);
  }
  return position + bytes;
}

/// The height every valid placement reaches when `items` pairwise conflict.
int64_t cliqueHeight(const PoolInstance &instance,
                     const std::vector<uint32_t> &items) {
  if (items.empty())
    return 0;
  int64_t grain = instance.items[items.front()].alignment;
  for (uint32_t i : items)
    grain = std::min(grain, instance.items[i].alignment);
  std::vector<AddressRange> blocks = instance.reserved;
  int64_t stack = 0, padding = 0, pinnedTop = 0;
  for (uint32_t i : items) {
    const Item &item = instance.items[i];
    if (item.pin) {
      blocks.push_back({*item.pin, *item.pin + item.size});
      pinnedTop = std::max(pinnedTop, *item.pin + item.size);
      continue;
    }
    int64_t aligned = roundUp(item.size, grain);
    stack += aligned;
    padding = std::max(padding, aligned - item.size);
  }
  if (stack == 0)
    return pinnedTop;
  int64_t top = heightAround(roundedBlocks(std::move(blocks), grain), stack);
  return std::max(top - padding, pinnedTop);
}

/// The items live at the busiest point: where the items live, stacked
/// (sizes rounded to `grain`) around the reserved `blocks`, less the largest
/// padding among them, reach highest.
std::vector<uint32_t> busiestPoint(const PoolInstance &instance, int64_t grain,
                                   const std::vector<AddressRange> &blocks) {
  struct Event {
    int64_t point, bytes, padding;
  };
  std::vector<Event> events;
  for (const Item &item : instance.items)
    for (const Interval &interval : item.live) {
      int64_t aligned = roundUp(item.size, grain);
      events.push_back({interval.lower, aligned, aligned - item.size});
      events.push_back({interval.upper, -aligned, aligned - item.size});
    }
  // Ends before starts at one point: intervals are half-open.
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.point != b.point ? a.point < b.point : a.bytes < b.bytes;
  });
  // Paddings are below `grain`: counted per value when that is small (the
  // largest live one found by stepping down from the last largest), else
  // kept in a multiset.
  constexpr int64_t kCountedGrain = 4096;
  std::vector<uint32_t> counts(grain <= kCountedGrain ? grain : 0, 0);
  int64_t largest = -1;
  std::multiset<int64_t> paddings;
  auto enter = [&](int64_t padding) {
    if (counts.empty()) {
      paddings.insert(padding);
      return;
    }
    ++counts[padding];
    largest = std::max(largest, padding);
  };
  auto leave = [&](int64_t padding) {
    if (counts.empty()) {
      paddings.erase(paddings.find(padding));
      return;
    }
    --counts[padding];
    while (largest >= 0 && counts[largest] == 0)
      --largest;
  };
  int64_t live = 0, most = -1, point = 0;
  for (const Event &event : events) {
    live += event.bytes;
    if (event.bytes > 0)
      enter(event.padding);
    else
      leave(event.padding);
    if (event.bytes <= 0)
      continue;
    int64_t height = heightAround(blocks, live) -
                     (counts.empty() ? *paddings.rbegin() : largest);
    if (height > most) {
      most = height;
      point = event.point;
    }
  }
  std::vector<uint32_t> items;
  for (uint32_t i = 0; i < instance.items.size(); ++i)
    for (const Interval &interval : instance.items[i].live)
      if (interval.lower <= point && point < interval.upper) {
        items.push_back(i);
        break;
      }
  return items;
}

bool conflict(const PoolInstance &instance, uint32_t a, uint32_t b) {
  return std::binary_search(instance.conflicts[a].begin(),
                            instance.conflicts[a].end(), b);
}

/// A clique grown from each item, heaviest neighbours first; the heaviest.
std::vector<uint32_t> greedyClique(const PoolInstance &instance,
                                   int64_t grain) {
  const std::vector<Item> &items = instance.items;
  std::vector<uint32_t> best, clique, neighbours;
  int64_t bestWeight = -1;
  for (uint32_t seed = 0; seed < items.size(); ++seed) {
    // Neighbour lists are sorted: by decreasing size, equal sizes in item
    // order is the order a stable sort by size would give, without its
    // buffer.
    neighbours.assign(instance.conflicts[seed].begin(),
                      instance.conflicts[seed].end());
    std::sort(neighbours.begin(), neighbours.end(),
              [&](uint32_t a, uint32_t b) {
                return items[a].size != items[b].size
                           ? items[a].size > items[b].size
                           : a < b;
              });
    clique.assign(1, seed);
    int64_t weight = roundUp(items[seed].size, grain);
    for (uint32_t n : neighbours) {
      if (!std::all_of(clique.begin() + 1, clique.end(), [&](uint32_t m) {
            return conflict(instance, n, m);
          }))
        continue;
      clique.push_back(n);
      weight += roundUp(items[n].size, grain);
    }
    if (weight > bestWeight) {
      bestWeight = weight;
      best = clique;
    }
  }
  return best;
}

/// Branch and bound for the heaviest clique (weights: sizes rounded to the
/// pool's grain), over adjacency bitsets, with a node budget.
class CliqueSearch {
public:
  /// `blocks`: the reserved ranges, rounded to `grain`.
  CliqueSearch(const PoolInstance &instance, int64_t grain,
               std::vector<AddressRange> blocks, uint64_t budget);
  /// Starts from `incumbent` (a clique); returns the heaviest clique found.
  std::vector<uint32_t> run(const std::vector<uint32_t> &incumbent);
  bool finished() const { return !exhausted; }

private:
  using Bits = std::vector<uint64_t>;
  bool test(const Bits &bits, uint32_t i) const {
    return (bits[i / 64] >> (i % 64)) & 1;
  }
  void expand(std::vector<uint32_t> &candidates);
  /// Orders `candidates` by colour class and gives, for each position, the
  /// most the candidates up to it can add to a clique.
  void colour(std::vector<uint32_t> &candidates,
              std::vector<int64_t> &limits) const;

  /// The height of a clique of `weight` bytes whose topmost item may pad
  /// up to `padding` bytes.
  int64_t height(int64_t weight, int64_t padding) const {
    return heightAround(blocks, weight) - padding;
  }

  const PoolInstance &instance;
  std::vector<AddressRange> blocks;
  size_t words = 0;
  std::vector<Bits> adjacency;
  std::vector<int64_t> weight, padding;
  uint64_t budget = 0, nodes = 0;
  bool exhausted = false;
  std::vector<uint32_t> current, best;
  int64_t currentWeight = 0, currentPadding = 0, bestHeight = 0;
};

CliqueSearch::CliqueSearch(const PoolInstance &instance, int64_t grain,
                           std::vector<AddressRange> blocks, uint64_t budget)
    : instance(instance), blocks(std::move(blocks)), budget(budget) {
  size_t n = instance.items.size();
  words = (n + 63) / 64;
  adjacency.assign(n, Bits(words, 0));
  weight.resize(n);
  padding.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    weight[i] = roundUp(instance.items[i].size, grain);
    padding[i] = weight[i] - instance.items[i].size;
    for (uint32_t j : instance.conflicts[i])
      adjacency[i][j / 64] |= uint64_t(1) << (j % 64);
  }
}

void CliqueSearch::colour(std::vector<uint32_t> &candidates,
                          std::vector<int64_t> &limits) const {
  // Heaviest first, so that each class is led by its heaviest item.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](uint32_t a, uint32_t b) { return weight[a] > weight[b]; });
  std::vector<uint32_t> left = candidates, ordered, rest;
  limits.clear();
  int64_t total = 0;
  Bits blocked(words);
  while (!left.empty()) {
    // One class: items pairwise not adjacent, taken greedily; `blocked`
    // holds the neighbours of its members.
    std::fill(blocked.begin(), blocked.end(), 0);
    rest.clear();
    total += weight[left.front()];
    for (uint32_t v : left) {
      if (test(blocked, v)) {
        rest.push_back(v);
        continue;
      }
      for (size_t w = 0; w < words; ++w)
        blocked[w] |= adjacency[v][w];
      ordered.push_back(v);
      limits.push_back(total);
    }
    left.swap(rest);
  }
  candidates.swap(ordered);
}

void CliqueSearch::expand(std::vector<uint32_t> &candidates) {
  if (++nodes > budget) {
    exhausted = true;
    return;
  }
  if (!current.empty() && height(currentWeight, currentPadding) > bestHeight) {
    bestHeight = height(currentWeight, currentPadding);
    best = current;
  }
  std::vector<int64_t> limits;
  colour(candidates, limits);
  // From the last colour class down: a candidate at position k can at most
  // add limits[k] with the candidates before it (and padding only lowers
  // the height).
  for (size_t k = candidates.size(); k-- > 0;) {
    if (height(currentWeight + limits[k], 0) <= bestHeight || exhausted)
      return;
    uint32_t v = candidates[k];
    std::vector<uint32_t> next;
    for (size_t j = 0; j < k; ++j)
      if (test(adjacency[v], candidates[j]))
        next.push_back(candidates[j]);
    int64_t savedPadding = currentPadding;
    current.push_back(v);
    currentWeight += weight[v];
    currentPadding = std::max(currentPadding, padding[v]);
    expand(next);
    current.pop_back();
    currentWeight -= weight[v];
    currentPadding = savedPadding;
  }
}

std::vector<uint32_t>
CliqueSearch::run(const std::vector<uint32_t> &incumbent) {
  best = incumbent;
  int64_t incumbentWeight = 0, incumbentPadding = 0;
  for (uint32_t i : incumbent) {
    incumbentWeight += weight[i];
    incumbentPadding = std::max(incumbentPadding, padding[i]);
  }
  bestHeight = incumbent.empty() ? 0 : height(incumbentWeight, incumbentPadding);
  std::vector<uint32_t> all(instance.items.size());
  std::iota(all.begin(), all.end(), 0);
  expand(all);
  return best;
}

/// Whether the busiest point is the heaviest clique: an interval graph
/// (no separations, one interval per item).
bool isIntervalGraph(const PoolInstance &instance) {
  if (instance.hasSeparations || instance.hasTemporalExclusions)
    return false;
  return std::all_of(instance.items.begin(), instance.items.end(),
                     [](const Item &item) { return item.live.size() == 1; });
}

void consider(const PoolInstance &instance, std::vector<uint32_t> items,
              Clique &best) {
  int64_t height = cliqueHeight(instance, items);
  if (height > best.height || best.items.empty())
    best = {std::move(items), height};
}

/// Two conflicting items of different alignments: the upper one starts at
/// a multiple of its own alignment above the lower one's end.
void considerPairs(const PoolInstance &instance, Clique &best) {
  for (uint32_t a = 0; a < instance.items.size(); ++a) {
    const Item &item = instance.items[a];
    for (uint32_t b : instance.conflicts[a]) {
      const Item &other = instance.items[b];
      if (b < a || item.pin || other.pin ||
          item.alignment == other.alignment)
        continue;
      int64_t height =
          std::min(roundUp(item.size, other.alignment) + other.size,
                   roundUp(other.size, item.alignment) + item.size);
      if (height > best.height)
        best = {{a, b}, height};
    }
  }
}

} // namespace

BoundProof
dsaplan::solver::detail::itemBoundProof(const PoolInstance &instance) {
  BoundProof proof;
  if (instance.items.empty())
    return proof;
  int64_t grain = poolGrain(instance);
  size_t n = instance.items.size();
  Clique best;
  std::vector<AddressRange> blocks = roundedBlocks(instance.reserved, grain);
  // Temporal exclusions let co-live items share bytes: the items live at
  // one point need not be a clique, only the conflict cliques count.
  if (!instance.hasTemporalExclusions)
    consider(instance, busiestPoint(instance, grain, blocks), best);
  proof.heaviestClique = isIntervalGraph(instance);
  if (!proof.heaviestClique && n <= kGreedyCliqueMaxItems) {
    std::vector<uint32_t> greedy = greedyClique(instance, grain);
    consider(instance, greedy, best);
    if (n <= kExactCliqueMaxItems) {
      CliqueSearch search(instance, grain, blocks, kCliqueNodeBudget);
      consider(instance, search.run(greedy), best);
      proof.heaviestClique = search.finished();
    }
  }
  // Every pinned item, alone: its own end (and the reserved ranges below
  // it change nothing, the pin is given).
  for (uint32_t i = 0; i < n; ++i)
    if (instance.items[i].pin)
      consider(instance, {i}, best);
  considerPairs(instance, best);
  proof.bound = best.height;
  proof.items = std::move(best.items);
  std::sort(proof.items.begin(), proof.items.end());
  return proof;
}

int64_t dsaplan::solver::detail::itemLowerBound(const PoolInstance &instance) {
  return itemBoundProof(instance).bound;
}

int64_t dsaplan::solver::lowerBound(const Problem &problem, size_t pool) {
  return itemLowerBound(buildPoolInstance(problem, pool));
}
