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
                                           ArrayRef<Dependency> dependencies,
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
  OrderChecker checker(target, dependencies, body);
  checker.stepBudget = stepBudget;
  auto finish = [&] {
    result.steps = std::min(checker.steps, stepBudget);
    result.complete = !checker.exhausted;
    return result;
  };
  OrderChecker::Checkpoints checkpoints =
      OrderChecker::makeCheckpoints(body.size());
  OrderChecker::Checkpoints recorded = checkpoints;
  // The inserter's own reasoning is coarser than this check, never finer:
  // if the full set does not pass (the input's flags are unbalanced, say),
  // there is nothing to prune against.
  if (!checker.ordered(body, disabled, checkpoints, 0, body.size(),
                       &checkpoints))
    return finish();
  for (size_t i = 0; i < groups.size(); ++i) {
    auto [first, last] = bodyIndex.spanOf(groups[i]);
    size_t start = first / OrderChecker::kStride * OrderChecker::kStride;
    disabled.insert(groups[i].begin(), groups[i].end());
    if (checker.ordered(body, disabled, checkpoints, start, last, &recorded)) {
      erased[i] = true;
      // Later checkpoints change with the group gone.
      for (size_t k = start + OrderChecker::kStride; k < checker.recordedEnd;
           k += OrderChecker::kStride)
        if (recorded[k / OrderChecker::kStride])
          checkpoints[k / OrderChecker::kStride] =
              std::move(recorded[k / OrderChecker::kStride]);
      continue;
    }
    if (checker.exhausted)
      break;
    for (Operation *op : groups[i])
      disabled.erase(op);
  }
  for (size_t i = 0; i < groups.size(); ++i)
    if (erased[i])
      for (Operation *op : groups[i])
        op->erase();
  return finish();
}
