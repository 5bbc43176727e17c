//===- Pruning.cpp - Drop inserted syncs others imply ---------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// dsaplan-insert-sync decides its syncs block by block; a chain through
// other pipes, through the branches of an scf.if or the iterations of a loop
// can make one of them unnecessary. This file drops the inserted syncs one
// at a time while the path-wise check (OrderChecker.h) still finds every
// dependency ordered, resuming each check from a checkpoint before the
// group it leaves out.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"
#include "OrderChecker.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

PruneResult mlir::dsaplan::pruneSyncGroups(func::FuncOp func,
                                           const TargetDescription &target,
                                           const DependencyIndex &dependencies,
                                           ArrayRef<SyncGroup> groups,
                                           int64_t stepBudget) {
  PruneResult result;
  std::vector<bool> &erased = result.erased;
  erased.assign(groups.size(), false);
  llvm::DenseSet<Operation *> disabled;
  // Each check resumes from the last checkpoint before the group's first op
  // in the function body: what runs before it does not depend on the group.
  BodyIndex bodyIndex(func);
  ArrayRef<Operation *> body = bodyIndex.body();
  OrderChecker checker(target, dependencies, bodyIndex);
  checker.stepBudget = stepBudget;
  auto finish = [&] {
    result.steps = std::min(checker.steps, stepBudget);
    result.complete = !checker.exhausted;
    for (size_t i = 0; i < groups.size(); ++i)
      if (erased[i])
        for (Operation *op : groups[i])
          op->erase();
    return result;
  };
  OrderChecker::Checkpoints checkpoints(body);
  OrderChecker::Checkpoints recorded = checkpoints;
  // The inserter's own reasoning is coarser than this check, never finer:
  // if the full set does not pass (the input's flags are unbalanced, say),
  // there is nothing to prune against.
  if (!checker.ordered(body, disabled, checkpoints, 0, body.size(),
                       &checkpoints))
    return finish();
  // A group whose check found a dependency unordered stays for good: later
  // checks leave out more, never less (OrderChecker::Failure).
  std::vector<bool> settled(groups.size(), false);
  for (bool droppedAny = true; droppedAny;) {
    droppedAny = false;
    for (size_t i = 0; i < groups.size(); ++i) {
      if (erased[i] || settled[i])
        continue;
      auto [first, last] = bodyIndex.spanOf(groups[i]);
      size_t start = checkpoints.lastAtOrBefore(first);
      disabled.insert(groups[i].begin(), groups[i].end());
      if (checker.ordered(body, disabled, checkpoints, start, last,
                          &recorded)) {
        erased[i] = droppedAny = true;
        // Later checkpoints change with the group gone.
        for (size_t k : checkpoints.placesIn(start + 1, checker.recordedEnd))
          if (recorded[k])
            checkpoints[k] = std::move(recorded[k]);
        continue;
      }
      if (checker.exhausted)
        return finish();
      for (Operation *op : groups[i])
        disabled.erase(op);
      settled[i] = checker.failure == OrderChecker::Failure::Unordered;
    }
  }
  return finish();
}
