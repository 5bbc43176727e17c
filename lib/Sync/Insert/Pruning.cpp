//===- Pruning.cpp - Drop inserted syncs others imply ---------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// dsaplan-insert-sync decides its syncs block by block; a chain through
// other pipes, through the branches of an scf.if or the iterations of a loop
// can make one of them unnecessary. This file drops the inserted syncs one
// at a time, then two that go only together, while the path-wise check
// (OrderChecker.h) still finds every dependency ordered, each check resumed
// from a checkpoint before the groups it leaves out (IncrementalCheck,
// Pruning.h). A group that a dependency next to it plainly needs is kept
// without a walk (IncrementalCheck::leavesUnordered).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// The state of one pruning: the groups left out so far, and what the
/// failed checks said of the others.
class GroupPruner {
public:
  GroupPruner(IncrementalCheck &check, ArrayRef<SyncGroup> groups,
              std::vector<bool> &erased)
      : check(check), groups(groups), erased(erased),
        settled(groups.size(), false), partner(groups.size()) {
    for (size_t i = 0; i < groups.size(); ++i)
      for (Operation *op : groups[i])
        groupOf[op] = i;
  }

  /// Single groups in rounds, then pairs, until neither drops a group;
  /// false once the budget is spent.
  bool run() {
    for (bool droppedPair = true; droppedPair;) {
      if (!dropSingles() || !dropPairs(droppedPair))
        return false;
    }
    return true;
  }

private:
  /// Leaves out groups `i` and `j` (one group if they are the same), and
  /// keeps them out if the check passes.
  bool tryDropping(size_t i, size_t j) {
    IncrementalCheck::Span span = check.spanOf(groups[i]);
    IncrementalCheck::Span other = check.spanOf(groups[j]);
    span = {std::min(span.first, other.first), std::max(span.last, other.last)};
    for (size_t k : {i, j})
      disabled.insert(groups[k].begin(), groups[k].end());
    if (check.tryChange(span, disabled)) {
      check.keep();
      erased[i] = erased[j] = true;
      return true;
    }
    for (size_t k : {i, j})
      for (Operation *op : groups[k])
        disabled.erase(op);
    return false;
  }

  /// Rounds of single groups until one drops nothing. Dropping a pair can
  /// also drop a set that another sync had to be ordered before (a flag is
  /// one bit), so the groups kept are tried again.
  bool dropSingles() {
    for (bool droppedAny = true; droppedAny;) {
      droppedAny = false;
      for (size_t i = 0; i < groups.size(); ++i) {
        if (erased[i] || settled[i])
          continue;
        // Refused without a walk: the walk would find that dependency
        // unordered (or fail on a flag before it), now and in every later
        // round.
        if (check.leavesUnordered(groups[i], disabled)) {
          settled[i] = true;
          partner[i] = std::nullopt;
          continue;
        }
        if (tryDropping(i, i)) {
          droppedAny = true;
          continue;
        }
        if (check.exhausted())
          return false;
        // Later checks leave out more, never less: a dependency unordered
        // without the group stays unordered.
        settled[i] = check.failedUnordered();
        auto owner = groupOf.find(check.failedOnSet());
        partner[i] = owner == groupOf.end() || owner->second == i
                         ? std::nullopt
                         : std::optional<size_t>(owner->second);
      }
    }
    return true;
  }

  /// Each group with the group whose set overran its flag when it was last
  /// left out alone: the two may each have kept the other's set safe. (A
  /// partner whose own check found a dependency unordered fails again.)
  bool dropPairs(bool &droppedAny) {
    droppedAny = false;
    for (size_t i = 0; i < groups.size(); ++i) {
      std::optional<size_t> j = partner[i];
      if (erased[i] || settled[i] || !j || erased[*j] || settled[*j])
        continue;
      if (tryDropping(i, *j)) {
        droppedAny = true;
        continue;
      }
      if (check.exhausted())
        return false;
    }
    return true;
  }

  IncrementalCheck &check;
  ArrayRef<SyncGroup> groups;
  std::vector<bool> &erased;
  llvm::DenseSet<Operation *> disabled;
  DenseMap<Operation *, size_t> groupOf;
  std::vector<bool> settled;
  std::vector<std::optional<size_t>> partner;
};

} // namespace

PruneResult mlir::dsaplan::pruneSyncGroups(IncrementalCheck &check,
                                           ArrayRef<SyncGroup> groups) {
  PruneResult result;
  result.erased.assign(groups.size(), false);
  // The inserter's own reasoning is coarser than this check, never finer:
  // if the full set does not pass (the input's flags are unbalanced, say),
  // there is nothing to prune against.
  if (check.initiallyOrdered())
    GroupPruner(check, groups, result.erased).run();
  result.complete = !check.exhausted();
  bool any = false;
  for (size_t i = 0; i < groups.size(); ++i)
    if (result.erased[i])
      for (Operation *op : groups[i]) {
        op->erase();
        any = true;
      }
  if (any)
    check.forgetErased();
  return result;
}

//===----------------------------------------------------------------------===//
// The jobs after codegen
//===----------------------------------------------------------------------===//

namespace {

/// The dependencies as pairs of ops, for the path-wise checks.
std::vector<Dependency> dependencyPairs(const SyncRequirements &requirements) {
  std::vector<Dependency> pairs;
  for (const SyncDependency &dep : requirements.dependencies) {
    Operation *earlier = requirements.accesses[dep.earlier].op;
    Operation *later = requirements.accesses[dep.later].op;
    if (pairs.empty() || pairs.back().earlier != earlier ||
        pairs.back().later != later)
      pairs.push_back({earlier, later});
  }
  return pairs;
}

/// Drops the groups the others imply (pruneSyncGroups) and adds what it did
/// to `counts`. Its steps are those `check` walked since `stepsBefore`.
void pruneImplied(IncrementalCheck &check, InsertedSyncs &syncs,
                  int64_t stepsBefore, TidyCounts &counts) {
  PruneResult result = pruneSyncGroups(check, syncs.groups);
  counts.steps += check.steps() - stepsBefore;
  counts.complete = result.complete;
  // In one pass: erasing each dropped group from the vectors moved every
  // group after it (20,000 groups, 79 dropped, at 10k allocations).
  size_t kept = 0;
  for (size_t i = 0; i < syncs.groups.size(); ++i) {
    if (result.erased[i]) {
      ++counts.dropped;
      continue;
    }
    if (kept != i) {
      syncs.groups[kept] = std::move(syncs.groups[i]);
      syncs.kinds[kept] = syncs.kinds[i];
    }
    ++kept;
  }
  syncs.groups.resize(kept);
  syncs.kinds.resize(kept);
}

} // namespace

TidyCounts mlir::dsaplan::tidySyncs(func::FuncOp func,
                                    const TargetDescription &target,
                                    const SyncRequirements &requirements,
                                    InsertedSyncs &syncs, int64_t budget) {
  TidyCounts counts;
  if (budget <= 0 || syncs.groups.empty())
    return counts;
  DependencyIndex dependencies(func, target, dependencyPairs(requirements));
  // One check for every job below: each walks from its change on.
  IncrementalCheck check(func, target, dependencies, budget);
  // The first walk, of the whole function, counts as the pruning's.
  pruneImplied(check, syncs, 0, counts);
  // On the pruned syncs, so that a pair pruning would drop is not moved
  // first; a move can make other syncs redundant, so prune again after.
  if (counts.complete) {
    counts.hoisted = hoistLoopPairs(check, syncs.groups);
    if (counts.hoisted && !check.exhausted())
      pruneImplied(check, syncs, check.steps(), counts);
  }
  // On the final syncs: a pre-set that fires sooner orders less, so it
  // makes no other sync redundant.
  if (counts.complete && !check.exhausted())
    counts.earlier = movePresetsEarlier(check, syncs.groups);
  return counts;
}
