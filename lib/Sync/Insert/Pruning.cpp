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
// dependency ordered, each check resumed from a checkpoint before the
// group it leaves out (IncrementalCheck.h).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

PruneResult mlir::dsaplan::pruneSyncGroups(IncrementalCheck &check,
                                           ArrayRef<SyncGroup> groups) {
  PruneResult result;
  std::vector<bool> &erased = result.erased;
  erased.assign(groups.size(), false);
  llvm::DenseSet<Operation *> disabled;
  auto finish = [&] {
    result.complete = !check.exhausted();
    bool any = false;
    for (size_t i = 0; i < groups.size(); ++i)
      if (erased[i])
        for (Operation *op : groups[i]) {
          op->erase();
          any = true;
        }
    if (any)
      check.forgetErased();
    return result;
  };
  // The inserter's own reasoning is coarser than this check, never finer:
  // if the full set does not pass (the input's flags are unbalanced, say),
  // there is nothing to prune against.
  if (!check.initiallyOrdered())
    return finish();
  // A group whose check found a dependency unordered stays for good: later
  // checks leave out more, never less.
  std::vector<bool> settled(groups.size(), false);
  for (bool droppedAny = true; droppedAny;) {
    droppedAny = false;
    for (size_t i = 0; i < groups.size(); ++i) {
      if (erased[i] || settled[i])
        continue;
      IncrementalCheck::Span span = check.spanOf(groups[i]);
      disabled.insert(groups[i].begin(), groups[i].end());
      if (check.tryChange(span, disabled)) {
        check.keep();
        erased[i] = droppedAny = true;
        continue;
      }
      if (check.exhausted())
        return finish();
      for (Operation *op : groups[i])
        disabled.erase(op);
      settled[i] = check.failedUnordered();
    }
  }
  return finish();
}
