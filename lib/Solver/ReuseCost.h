//===- ReuseCost.h - Placement for the lowest reuse cost --------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Solver. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The second objective of DSA-RP: among the placements of a pool that fit,
// the one whose penalised pairs share the fewest bytes' worth of cost (see
// Problem.h for the definition). Works on the items of a PoolInstance: a
// penalty between two buffers becomes a weight between their items, kept
// only where the items may share bytes at all (a pair in conflict never
// does, a pair inside one colocated item is never charged).
//
// Two algorithms, both deterministic:
//  - a penalty-aware greedy: items one at a time, each at the candidate
//    address (0, a reserved range's end, the top of a placed item it is
//    related to) that adds the least cost, then the lowest; over several
//    item orders, then a pass that re-places single items while that helps;
//  - a branch-and-bound on the cost, node-budgeted, that places items in
//    increasing address order. It is complete: any placement can slide
//    items down, without raising its cost or breaking a rule, until each
//    sits at 0, at a reserved range's end or at the top of an item it is
//    related to that lies below it; the search enumerates exactly those.
//    Its root bound also takes the clique bound: items that pairwise
//    conflict or have a penalty and need more than the usable bytes force
//    penalised pairs among them to share bytes (ReuseCostBound.cpp); the
//    flow of bytes over time (ReuseFlowBound.cpp); and the split bound, an
//    item's two gaps against what must keep off its bytes
//    (ReuseSplitBound.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SOLVER_REUSECOST_H
#define DSAPLAN_LIB_SOLVER_REUSECOST_H

#include "DsaPlan/Solver/Problem.h"
#include "PoolInstance.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace dsaplan::solver::detail {

/// The penalties of one pool, between items.
struct CostInstance {
  const PoolInstance *instance = nullptr;
  /// Per item: (other item, summed cost), sorted by other item; symmetric.
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> penalties;
  /// Per item: the items it conflicts with or has a penalty with, sorted.
  std::vector<std::vector<uint32_t>> related;
  bool hasPenalties = false;
};

CostInstance buildCostInstance(const Problem &problem,
                               const PoolInstance &instance);

/// The reuse cost of `offsets` (every item placed) as the search sees it.
int64_t itemReuseCost(const CostInstance &costs, const ItemOffsets &offsets);

/// A lower bound on the reuse cost among the items of `group` (at most 64,
/// closed under conflicts and penalties), from the maximal cliques of items
/// that pairwise conflict or have a penalty (ReuseCostBound.cpp). `control`
/// may cut the enumeration short, which only weakens the bound.
int64_t cliqueCostBound(const CostInstance &costs,
                        const std::vector<uint32_t> &group,
                        SearchControl *control);

/// A lower bound on the reuse cost of `group` (at most 64 items, closed
/// under conflicts and penalties) at least `floor`: the cheapest set of
/// penalised pairs that hits every heavy clique (ReuseCostBound.cpp), or
/// `ceiling` once it reaches that. Within a work budget; `control` may cut
/// it short, which only weakens it.
int64_t hittingSetBound(const CostInstance &costs,
                        const std::vector<uint32_t> &group, int64_t floor,
                        int64_t ceiling, SearchControl *control);

/// The capacity less the bytes the reserved ranges take (merged).
int64_t usableBytes(const PoolInstance &instance);

/// A lower bound on the reuse cost among the items of `group` (closed under
/// conflicts and penalties), of any size: the cheapest flow of bytes over
/// time, each item taking its bytes from unused ones or from items before it
/// and giving them on, a penalised hand-over costing per byte the penalty
/// over the smaller size (ReuseFlowBound.cpp). 0 when `control` stops it or
/// its work budget runs out. With `paidElsewhere`, the pairs owned (see
/// ownsPair) by a marked item cost nothing: the bound is then one on the
/// other pairs alone.
int64_t flowCostBound(const CostInstance &costs,
                      const std::vector<uint32_t> &group,
                      SearchControl *control,
                      const std::vector<bool> *paidElsewhere = nullptr);

/// Whether the penalised pair of `item` and `other` belongs to `item` in the
/// split bound: `item` is the larger (ties: the higher index).
bool ownsPair(const std::vector<Item> &items, uint32_t item, uint32_t other);

struct SplitBound {
  /// A lower bound on the cost of the pairs the marked items own.
  int64_t bound = 0;
  /// Per item: whether its owned pairs are counted in `bound`.
  std::vector<bool> owners;
};

/// The split bound of `group` (ReuseSplitBound.cpp): an item placed
/// somewhere leaves a gap below and one above it, and the items that must
/// keep off its bytes (its conflicts, and the partners it does not share
/// bytes with) must fit in them at every point in time; each item's least
/// such cost over its positions, summed over the items that own a pair.
/// Within a work budget; `control` may cut it short (fewer owners).
SplitBound splitCostBound(const CostInstance &costs,
                          const std::vector<uint32_t> &group,
                          SearchControl *control);

struct CostResult {
  ItemOffsets offsets;   // within capacity, valid
  int64_t cost = 0;
  int64_t bound = 0;     // no placement that fits costs less
  uint64_t nodes = 0;    // search nodes of the branch-and-bound
};

/// Lowers the reuse cost of `fitting` (a valid placement within capacity):
/// the greedy, then the branch-and-bound on each group of related items
/// within `nodeBudget` nodes in all. Never returns a placement that costs
/// more or does not fit. `greedy` off leaves the search alone (to test it).
/// `control` (optional) is told of every node and better placement, and may
/// stop the search (the bound is then the root's, as after a spent budget).
CostResult minimizeReuseCost(const CostInstance &costs,
                             const ItemOffsets &fitting, uint64_t nodeBudget,
                             bool greedy = true,
                             SearchControl *control = nullptr);

} // namespace dsaplan::solver::detail

#endif // DSAPLAN_LIB_SOLVER_REUSECOST_H
