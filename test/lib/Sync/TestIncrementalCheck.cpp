//===- TestIncrementalCheck.cpp - IncrementalCheck against whole walks ----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// `-test-dsaplan-incremental-check`: tries changes of a synchronised
// function's syncs with one IncrementalCheck (Pruning.h), the way pruning
// and the moves do, and asks a fresh check, which walks the whole function,
// the same question after each. The two must agree; the pass fails on the
// first op where they do not. The changes:
//
//   - each set_flag moved up one op in its block (at the top level, this
//     reorders the function body's ops);
//   - each set_flag in a region of a body op moved out, before that op
//     (the body gains an op: the checkpoints after it shift);
//   - each pipe_barrier left out (disabled), then erased where the check
//     passes (forgetErased);
//   - each flag pair (a set and the next wait of its flag in its block)
//     left out, as pruning leaves out a group: what a kept try left out
//     stays out. Where IncrementalCheck::leavesUnordered refuses the pair
//     without a walk, the walk of the whole function must fail too.
//
// Every other passing change is kept, so that later tries compare with
// checkpoints that kept changes moved, recorded or shifted. A remark counts
// the tries.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <limits>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max() / 2;

struct TestIncrementalCheckPass
    : public PassWrapper<TestIncrementalCheckPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestIncrementalCheckPass)

  StringRef getArgument() const final {
    return "test-dsaplan-incremental-check";
  }
  StringRef getDescription() const final {
    return "Check IncrementalCheck's answers against walks of the whole "
           "function";
  }

  void runOnOperation() override;

private:
  /// Whether a walk of the whole function, `disabled` left out, passes.
  bool wholeWalk(const llvm::DenseSet<Operation *> &disabled = {});
  /// Compares one try; false (and a diagnostic on `op`) if they disagree.
  bool agree(Operation *op, bool incremental, bool whole);
  void tryMoves(IncrementalCheck &check);
  void tryBarriers(IncrementalCheck &check);
  void tryPairs(IncrementalCheck &check);

  /// Of the function being checked.
  const TargetDescription *target = nullptr;
  const DependencyIndex *dependencies = nullptr;
  unsigned tries = 0, passed = 0, kept = 0, atTop = 0, refused = 0;
};

bool TestIncrementalCheckPass::wholeWalk(
    const llvm::DenseSet<Operation *> &disabled) {
  // A fresh check walks the whole function once; ops to leave out are
  // unlinked for that walk and put back.
  SmallVector<std::pair<Operation *, Operation *>> unlinked;
  for (Operation *op : disabled) {
    unlinked.push_back({op, op->getNextNode()});
    op->remove();
  }
  bool ordered = IncrementalCheck(getOperation(), *target, *dependencies,
                                  kNoLimit)
                     .initiallyOrdered();
  for (auto [op, next] : llvm::reverse(unlinked))
    next->getBlock()->getOperations().insert(Block::iterator(next), op);
  return ordered;
}

bool TestIncrementalCheckPass::agree(Operation *op, bool incremental,
                                     bool whole) {
  ++tries;
  passed += incremental;
  if (incremental == whole)
    return true;
  op->emitError() << "the incremental check says "
                  << (incremental ? "ordered" : "not ordered")
                  << " after this change, a walk of the whole function "
                  << (whole ? "ordered" : "not ordered");
  signalPassFailure();
  return false;
}

void TestIncrementalCheckPass::tryMoves(IncrementalCheck &check) {
  SmallVector<SetFlagOp> sets;
  getOperation().walk([&](SetFlagOp set) { sets.push_back(set); });
  Block *top = &getOperation().getBody().front();
  for (SetFlagOp set : sets) {
    // Up one op, or out of the body op holding it (before that op).
    Operation *home = set->getNextNode();
    Operation *before = set->getBlock() == top
                            ? set->getPrevNode()
                            : top->findAncestorOpInBlock(*set);
    if (!before || !home)
      continue;
    IncrementalCheck::Span span = check.spanOf({before, set});
    atTop += set->getBlock() == top;
    set->moveBefore(before);
    bool incremental = check.tryChange(span, {});
    if (!agree(set, incremental, wholeWalk()))
      return;
    if (incremental && passed % 2) {
      check.keep();
      ++kept;
      continue;
    }
    set->moveBefore(home);
  }
}

void TestIncrementalCheckPass::tryBarriers(IncrementalCheck &check) {
  SmallVector<PipeBarrierOp> barriers;
  getOperation().walk([&](PipeBarrierOp barrier) { barriers.push_back(barrier); });
  for (PipeBarrierOp barrier : barriers) {
    llvm::DenseSet<Operation *> disabled{barrier};
    bool incremental = check.tryChange(check.spanOf({barrier}), disabled);
    if (!agree(barrier, incremental, wholeWalk(disabled)))
      return;
    if (incremental && passed % 2) {
      check.keep();
      barrier->erase();
      check.forgetErased();
      ++kept;
    }
  }
}

void TestIncrementalCheckPass::tryPairs(IncrementalCheck &check) {
  SmallVector<std::pair<SetFlagOp, WaitFlagOp>> pairs;
  getOperation().walk([&](SetFlagOp set) {
    for (Operation *op = set->getNextNode(); op; op = op->getNextNode()) {
      auto wait = dyn_cast<WaitFlagOp>(op);
      if (wait && wait.getSrc() == set.getSrc() &&
          wait.getDst() == set.getDst() && wait.getEvent() == set.getEvent()) {
        pairs.push_back({set, wait});
        return;
      }
    }
  });
  llvm::DenseSet<Operation *> disabled;
  for (auto [set, wait] : pairs) {
    bool onItsFace = check.leavesUnordered({set, wait}, disabled);
    disabled.insert(set);
    disabled.insert(wait);
    bool incremental = check.tryChange(check.spanOf({set, wait}), disabled);
    bool whole = wholeWalk(disabled);
    if (!agree(set, incremental, whole))
      return;
    refused += onItsFace;
    if (onItsFace && whole) {
      set->emitError() << "leavesUnordered refuses leaving out this pair, "
                          "a walk of the whole function finds it ordered";
      return signalPassFailure();
    }
    if (incremental && passed % 2) {
      check.keep();
      ++kept;
      continue;
    }
    disabled.erase(set);
    disabled.erase(wait);
  }
}

void TestIncrementalCheckPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  TargetDescription funcTarget = TargetDescription::getForOp(func);
  target = &funcTarget;
  ProgramOrder order(func);
  SyncRequirements requirements;
  if (failed(collectSyncRequirements(func, funcTarget, DependencyScope::All,
                                     order, requirements)))
    return signalPassFailure();
  std::vector<Dependency> pairs;
  for (const SyncDependency &dep : requirements.dependencies)
    pairs.push_back({requirements.accesses[dep.earlier].op,
                     requirements.accesses[dep.later].op});
  DependencyIndex index(func, funcTarget, pairs);
  dependencies = &index;
  IncrementalCheck check(func, *target, *dependencies, kNoLimit);
  if (!check.initiallyOrdered()) {
    func.emitError() << "the syncs do not order the function to begin with";
    return signalPassFailure();
  }
  tryMoves(check);
  tryBarriers(check);
  tryPairs(check);
  func.emitRemark() << tries << " changes tried (" << atTop
                    << " moves within the body's top level), " << passed << " passed, "
                    << kept << " kept; the incremental check agreed with a "
                    << "walk of the whole function on each, and so did the "
                    << refused << " pairs refused on their face";
}

} // namespace

namespace mlir {
namespace dsaplan {
namespace test {
void registerTestIncrementalCheckPass() {
  PassRegistration<TestIncrementalCheckPass>();
}
} // namespace test
} // namespace dsaplan
} // namespace mlir
