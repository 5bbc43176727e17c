//===- PoolInstance.h - One pool, ready for the algorithms ------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Solver. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The algorithms work on items, not buffers: colocated buffers are merged
// into one item (the union of their lifetimes, the largest size, the least
// common multiple of the alignments), and two items conflict when their
// lifetimes intersect (unless a temporal exclusion covers every co-live pair
// of members), a separation joins them or one of them is pinned exclusively. Reserved ranges are fixed blocks every item avoids.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SOLVER_POOLINSTANCE_H
#define DSAPLAN_LIB_SOLVER_POOLINSTANCE_H

#include "DsaPlan/Solver/Problem.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dsaplan::solver::detail {

class SearchControl;

struct Item {
  int64_t size = 0;
  int64_t alignment = 1;
  std::vector<Interval> live; // sorted, disjoint
  std::vector<size_t> members; // buffer indices
  std::optional<int64_t> pin;
  int64_t start() const { return live.front().lower; }
  int64_t end() const { return live.back().upper; }
  int64_t length() const {
    int64_t total = 0;
    for (const Interval &interval : live)
      total += interval.upper - interval.lower;
    return total;
  }
};

struct PoolInstance {
  size_t pool = 0;
  int64_t capacity = 0;
  std::vector<AddressRange> reserved;
  std::vector<Item> items;
  /// Sorted neighbour lists: items that may not share bytes.
  std::vector<std::vector<uint32_t>> conflicts;
  /// Set when two members of one colocation group are pinned differently.
  bool contradictoryPins = false;
  /// Set when a separation joins two members of one colocation group.
  bool separatedColocation = false;
  /// Whether some conflicts come from separations rather than lifetimes.
  bool hasSeparations = false;
  /// Whether temporal exclusions let some co-live items share bytes: the
  /// bytes live at one point are then no bound, and the exact peak search
  /// (which stacks co-live items) does not apply.
  bool hasTemporalExclusions = false;
};

/// a * b for non-negative a and b, saturated at INT64_MAX: ordering keys
/// such as size x lifetime, which the bounds of Problem.h let reach 2^81.
inline int64_t saturatingProduct(int64_t a, int64_t b) {
  __int128 product = static_cast<__int128>(a) * b;
  return product > INT64_MAX ? INT64_MAX : static_cast<int64_t>(product);
}

/// `value` rounded up to a multiple of `alignment` (positive).
inline int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// For each item, the most bytes live at one point of its lifetime: items
/// in the busiest stretch are the hardest to place.
std::vector<int64_t> pressureOf(const PoolInstance &instance);

/// Builds the instance of `pool`: merges colocations, builds conflicts.
PoolInstance buildPoolInstance(const Problem &problem, size_t pool);

/// Each item's index in its component (`parts`): one table for all the
/// components, rather than one of the whole pool's size per component.
std::vector<uint32_t>
indicesInComponents(size_t numItems,
                    const std::vector<std::vector<uint32_t>> &parts);

/// The component `items` of `instance` on its own; `local` gives each item's
/// index in its component (a neighbour is always in the same component).
/// The items are moved out of `instance` (each holds two vectors, copied
/// for every item of a large pool) until returnItems gives them back.
PoolInstance subInstance(PoolInstance &instance,
                         const std::vector<uint32_t> &items,
                         const std::vector<uint32_t> &local);

/// Gives the items subInstance took back to `instance`.
void returnItems(PoolInstance &sub, const std::vector<uint32_t> &items,
                 PoolInstance &instance);

/// Offsets per item; kUnplaced where an item has none.
using ItemOffsets = std::vector<int64_t>;

int64_t itemPeak(const PoolInstance &instance, const ItemOffsets &offsets);

/// A lower bound on the peak and its proof: items that pairwise may not
/// share bytes (live together or separated) and, with the reserved ranges
/// and the pins among them, need `bound` bytes. When `bound` exceeds the
/// capacity, `items` is the certificate of infeasibility.
struct BoundProof {
  int64_t bound = 0;
  std::vector<uint32_t> items; // sorted
  /// Whether `items` is the heaviest such set (the search finished).
  bool heaviestClique = false;
};
BoundProof itemBoundProof(const PoolInstance &instance);

/// Lower bound on the peak of any valid placement of `instance`.
int64_t itemLowerBound(const PoolInstance &instance);

/// Where each item goes given its neighbours already placed: the lowest
/// aligned offset that fits (first fit) or the offset of the smallest gap
/// that fits (best fit).
enum class FitRule { First, Best };

/// Places items one by one in `order`. Pinned items are placed first.
ItemOffsets placeInOrder(const PoolInstance &instance,
                         const std::vector<uint32_t> &order, FitRule rule);

/// Bump: every item above the previous one, no reuse.
ItemOffsets placeBump(const PoolInstance &instance);

/// The default heuristic: several orderings and an iterated repair of the
/// items that reach the peak. Deterministic; `rounds` bounds the repair.
/// Its target probes spend at most `nodeBudget` search nodes, added to
/// `nodes`; `lowerBound` is the pool's. `ownBound` is a lower bound of
/// `instance`'s own peak, at most `lowerBound`: once a start reaches it, no
/// later start or probe could do better, and the search stops there.
/// `control` may stop the probes.
ItemOffsets placeMultiStart(const PoolInstance &instance, int rounds,
                            int64_t lowerBound, int64_t ownBound,
                            uint64_t nodeBudget,
                            uint64_t &nodes, SearchControl *control = nullptr);

/// Items by decreasing size, then decreasing lifetime, then index.
std::vector<uint32_t> orderBySizeThenLength(const PoolInstance &instance);

/// The greedy descent of the exact search: repeatedly take the lowest
/// position any unplaced item can start at and put there the first such item
/// in `order`. Strong on tight instances: it never leaves a gap it could
/// fill.
ItemOffsets placeByLevels(const PoolInstance &instance,
                          const std::vector<uint32_t> &order);
/// placeByLevels as the canonical search's first descent itself, for any
/// instance and order (placeByLevels takes a shortcut where it can).
ItemOffsets placeByLevelsBySearch(const PoolInstance &instance,
                                  const std::vector<uint32_t> &order);

/// Reserves each item's list of sections and each section's list of items
/// to its length (an interval spans the sections between its points), so
/// that filling them allocates each once.
void reserveSectionLists(const PoolInstance &instance,
                         const std::vector<int64_t> &points,
                         std::vector<std::vector<uint32_t>> &sectionsOf,
                         std::vector<std::vector<uint32_t>> &itemsOf);

/// Byte ranges `item` must avoid: reserved ranges and placed neighbours,
/// sorted by begin, into `blocked` (reused across calls: no allocation per
/// item once it has grown).
void blockedRanges(const PoolInstance &instance, const ItemOffsets &offsets,
                   uint32_t item, std::vector<AddressRange> &blocked);

struct ExactResult {
  ItemOffsets offsets; // best placement found (may be the incumbent)
  int64_t peak = 0;
  bool provedOptimal = false; // no placement below `peak` exists
  bool provedInfeasible = false; // nothing fits under the capacity
  uint64_t nodes = 0;
};

/// A key the exact search ranks the candidates of a level by, largest
/// first (MiniMalloc's letter for it in brackets).
enum class RankKey : uint8_t {
  Pressure,  ///< [T] the most unplaced bytes live at a point of its lifetime
  Width,     ///< [W] lifetime length
  Area,      ///< [A] size x lifetime length
  Size,      ///< [Z] size
  LateStart, ///< [L] minus the start of its lifetime
};

/// How the exact search ranks the candidates at one level: by `keys`
/// (ties by item index), re-evaluated for each independent group a
/// decomposition splits off, where the pressure counts only the bytes still
/// unplaced; or, with no keys, by the fixed `order`.
struct CandidateRanking {
  std::vector<RankKey> keys;
  std::vector<uint32_t> order;
};

/// One run of the canonical branch-and-bound (Exact.cpp) from `incumbent`,
/// its candidates at each level ranked by `order`, within `nodeBudget`
/// nodes: with `stopWithinLimit`, the first placement within `limit` ends
/// it; `decompose` lets it split into independent groups.
ExactResult runCanonicalSearch(const PoolInstance &instance,
                               const ItemOffsets &incumbent,
                               int64_t lowerBound, int64_t limit,
                               bool stopWithinLimit, uint64_t nodeBudget,
                               const CandidateRanking &ranking,
                               bool decompose, SearchControl *control);

/// Branch-and-bound for the smallest peak, starting from `incumbent`
/// (may be empty), never searching below `lowerBound`, within `nodeBudget`
/// nodes. Placements above `limit` are not solutions; with
/// `stopWithinLimit` the first one found ends the search. `decompose`
/// lets each feasibility question split into independent groups of items
/// where no unplaced item crosses a time cut (off only to test it).
/// `control` (optional) is told of every node and may stop the search, which
/// then ends as if its budget were spent.
ExactResult searchExact(const PoolInstance &instance,
                        const ItemOffsets &incumbent, int64_t lowerBound,
                        int64_t limit, bool stopWithinLimit,
                        uint64_t nodeBudget, bool decompose = true,
                        SearchControl *control = nullptr);

} // namespace dsaplan::solver::detail

#endif // DSAPLAN_LIB_SOLVER_POOLINSTANCE_H
