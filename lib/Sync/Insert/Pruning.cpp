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
// group it leaves out. A group that alone carries a dependency between two
// accesses of one block needs no walk to be kept (PinnedDependencies).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"
#include "OrderChecker.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// The syncs that could order a dependency whose two accesses are ops of
/// one block, the later one after the earlier: only an op between them can
/// tell the later pipe q about that run of the earlier one (pipe p), and
/// only a wait on q, a barrier_all, or (p = q) a pipe_barrier of q does.
///
///   memref.copy %gm, %a   {pipe = mte2}      // A
///   dsaplan.set_flag  <mte2 -> v>, 0
///   dsaplan.wait_flag <mte2 -> v>, 0         // the only carrier of A -> B
///   linalg.add ins(%a ...) {pipe = v}        // B
///
/// Leaving out every carrier of such a dependency leaves it unordered on
/// every path through the block, which is what the path-wise walk would
/// find: the pruning keeps that group without a walk. Ops with regions
/// between the two count with every carrier they hold.
class PinnedDependencies {
public:
  PinnedDependencies(const TargetDescription &target,
                     ArrayRef<Dependency> dependencies) {
    for (const Dependency &dep : dependencies) {
      unsigned p = pipeOf(dep.earlier), q = pipeOf(dep.later);
      // A pipe that orders its own accesses needs no sync between them.
      if (p == q && !target.needsBarrier(static_cast<Pipe>(p)))
        continue;
      std::optional<SmallVector<Operation *, 2>> found =
          carriersBetween(dep.earlier, dep.later, p, q);
      if (!found || !seen.insert({dep.earlier, dep.later}).second)
        continue;
      for (Operation *carrier : *found)
        byCarrier[carrier].push_back(carriers.size());
      carriers.push_back(std::move(*found));
    }
  }

  /// Whether some dependency has all its carriers in `disabled`.
  bool unordered(ArrayRef<Operation *> group,
                 const llvm::DenseSet<Operation *> &disabled) const {
    for (Operation *op : group) {
      auto it = byCarrier.find(op);
      if (it == byCarrier.end())
        continue;
      for (size_t dep : it->second)
        if (llvm::all_of(carriers[dep], [&](Operation *carrier) {
              return disabled.contains(carrier);
            }))
          return true;
    }
    return false;
  }

private:
  /// Ops looked at between the two accesses before giving a dependency up:
  /// a distant pair is left to the walk.
  static constexpr unsigned kScanLimit = 64;

  /// Whether `op` could tell pipe q about an earlier access of pipe p.
  static bool carries(Operation *op, unsigned p, unsigned q) {
    if (auto wait = dyn_cast<WaitFlagOp>(op))
      return static_cast<unsigned>(wait.getDst()) == q;
    if (auto barrier = dyn_cast<PipeBarrierOp>(op))
      return p == q && static_cast<unsigned>(barrier.getPipe()) == q;
    return isa<BarrierAllOp>(op);
  }

  /// The carriers between `earlier` and `later`, or none when the two are
  /// not in this order in one block or too far apart.
  static std::optional<SmallVector<Operation *, 2>>
  carriersBetween(Operation *earlier, Operation *later, unsigned p,
                  unsigned q) {
    if (earlier->getBlock() != later->getBlock() ||
        !earlier->isBeforeInBlock(later))
      return std::nullopt;
    SmallVector<Operation *, 2> found;
    unsigned scanned = 0;
    for (Operation *op = earlier->getNextNode(); op != later;
         op = op->getNextNode()) {
      WalkResult result = op->walk([&](Operation *inner) {
        if (++scanned > kScanLimit)
          return WalkResult::interrupt();
        if (carries(inner, p, q))
          found.push_back(inner);
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return std::nullopt;
    }
    return found;
  }

  llvm::DenseSet<std::pair<Operation *, Operation *>> seen;
  std::vector<SmallVector<Operation *, 2>> carriers;
  DenseMap<Operation *, SmallVector<size_t, 2>> byCarrier;
};

} // namespace

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
  Block &entry = func.getBody().front();
  SmallVector<Operation *> body;
  DenseMap<Operation *, size_t> bodyIndex;
  for (Operation &op : entry) {
    bodyIndex[&op] = body.size();
    body.push_back(&op);
  }
  OrderChecker checker(target, dependencies, body);
  PinnedDependencies pinned(target, dependencies);
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
    size_t first = body.size(), last = 0;
    for (Operation *op : groups[i]) {
      size_t index = bodyIndex.lookup(entry.findAncestorOpInBlock(*op));
      first = std::min(first, index);
      last = std::max(last, index);
    }
    size_t start = first / OrderChecker::kStride * OrderChecker::kStride;
    disabled.insert(groups[i].begin(), groups[i].end());
    bool needed = pinned.unordered(groups[i], disabled);
    if (!needed && checker.ordered(body, disabled, checkpoints, start, last, &recorded)) {
      erased[i] = true;
      // Later checkpoints change with the group gone.
      for (size_t k = start + OrderChecker::kStride; k < checker.recordedEnd;
           k += OrderChecker::kStride)
        if (recorded[k / OrderChecker::kStride])
          checkpoints[k / OrderChecker::kStride] =
              std::move(recorded[k / OrderChecker::kStride]);
      continue;
    }
    if (!needed && checker.exhausted)
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
