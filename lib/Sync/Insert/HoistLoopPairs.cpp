//===- HoistLoopPairs.cpp - Pre-sets and drains moved up ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A loop pair (set before an scf.for, set and wait around its back edge,
// drained after it) whose loop sits in the body of another scf.for is set
// and drained in every outer iteration, and the next outer iteration's
// pre-set must follow this one's drain: a handshake back, every outer
// iteration. The pair's flag stays balanced if the pre-set goes before
// the outer loop and the drain after it: the inner loop leaves one set
// pending, as it found one, however many times it runs.
//
//   set <mte3 -> mte2>, 0                // was in the outer body
//   scf.for %i {
//     scf.for %j {
//       wait <mte3 -> mte2>, 0
//       load (mte2) ... store (mte3)
//       set <mte3 -> mte2>, 0
//     }
//     // was: wait <mte3 -> mte2>, 0; set/wait <mte2 -> mte3> (handshake)
//   }
//   wait <mte3 -> mte2>, 0               // was in the outer body
//
// The wait of the next outer iteration's first inner iteration then
// orders what the drain ordered across the outer back edge.
//
// A pre-set also moves up its block, ahead of the work of its pipe before
// the loop that the loop's first wait need not see: it fires once its
// pipe's earlier ops have finished, so behind a fill that the loop's loads
// do not touch it would hold the first load for the fill.
//
//   set <v -> mte2>, 0                   // was after the fill
//   linalg.fill outs(%acc) (v)
//   scf.for %i { wait <v -> mte2>, 0; load (mte2) into %k ... }
//
// Each move is kept only if the path-wise check (OrderChecker.h) still
// finds every dependency ordered and every flag safe (without the drain's
// handshake, for a hoist); else it is undone. The checks walk from the
// move on (IncrementalCheck, Pruning.h).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// The ops of a loop pair group that may move: the pre-set, the drain,
/// and the handshake after the drain (set and wait back), if any.
struct HoistCandidate {
  SetFlagOp preset;
  WaitFlagOp drain;
  scf::ForOp outer;
  SmallVector<Operation *, 2> handshake;
};

std::optional<HoistCandidate> candidateOf(const SyncGroup &group) {
  for (Operation *op : group) {
    auto preset = dyn_cast<SetFlagOp>(op);
    auto inner = preset ? dyn_cast_or_null<scf::ForOp>(preset->getNextNode())
                        : scf::ForOp();
    if (!inner)
      continue;
    auto outer = dyn_cast<scf::ForOp>(inner->getParentOp());
    auto drain = dyn_cast_or_null<WaitFlagOp>(inner->getNextNode());
    if (!outer || !drain || !llvm::is_contained(group, drain.getOperation()) ||
        drain.getSrc() != preset.getSrc() || drain.getDst() != preset.getDst() ||
        drain.getEvent() != preset.getEvent())
      continue;
    HoistCandidate candidate{preset, drain, outer, {}};
    auto back = dyn_cast_or_null<SetFlagOp>(drain->getNextNode());
    auto backWait = back ? dyn_cast_or_null<WaitFlagOp>(back->getNextNode())
                         : WaitFlagOp();
    if (back && backWait && back.getSrc() == drain.getDst() &&
        back.getDst() == drain.getSrc() && backWait.getSrc() == back.getSrc() &&
        backWait.getDst() == back.getDst() &&
        backWait.getEvent() == back.getEvent() &&
        llvm::is_contained(group, back.getOperation()) &&
        llvm::is_contained(group, backWait.getOperation()))
      candidate.handshake = {back, backWait};
    return candidate;
  }
  return std::nullopt;
}

/// Whether `op` is a set or wait of the flag of `preset`.
bool sameFlag(Operation *op, SetFlagOp preset) {
  if (auto set = dyn_cast<SetFlagOp>(op))
    return set.getSrc() == preset.getSrc() && set.getDst() == preset.getDst() &&
           set.getEvent() == preset.getEvent();
  if (auto wait = dyn_cast<WaitFlagOp>(op))
    return wait.getSrc() == preset.getSrc() &&
           wait.getDst() == preset.getDst() &&
           wait.getEvent() == preset.getEvent();
  return false;
}

/// The pre-set of a loop pair group: a set whose next op other than a set
/// is a loop, with a wait of its flag (the drain) after that loop in the
/// same block.
SetFlagOp presetOf(const SyncGroup &group) {
  for (Operation *op : group) {
    auto preset = dyn_cast<SetFlagOp>(op);
    if (!preset)
      continue;
    Operation *loop = preset->getNextNode();
    while (isa_and_nonnull<SetFlagOp>(loop))
      loop = loop->getNextNode();
    if (!isa_and_nonnull<scf::ForOp, scf::WhileOp>(loop))
      continue;
    for (Operation *other : group) {
      if (isa<WaitFlagOp>(other) && other->getBlock() == loop->getBlock() &&
          loop->isBeforeInBlock(other) && sameFlag(other, preset))
        return preset;
    }
  }
  return SetFlagOp();
}

/// The ops of `preset`'s pipe that it may move ahead of, nearest first:
/// walking up its block, until control flow (an op with regions that is
/// not a pipe op), a call, a barrier_all, a cross-core sync or a sync of
/// its own flag.
SmallVector<Operation *> opsToPass(SetFlagOp preset) {
  SmallVector<Operation *> ops;
  for (Operation *op = preset->getPrevNode(); op; op = op->getPrevNode()) {
    // A pipe op's regions are its body (linalg's), not control flow.
    bool controlFlow = op->getNumRegions() && !getOpPipe(op);
    if (controlFlow || sameFlag(op, preset) ||
        isa<BarrierAllOp, CrossCoreSetOp, CrossCoreWaitOp, CallOpInterface>(
            op))
      break;
    if (!isa<SetFlagOp, WaitFlagOp, PipeBarrierOp>(op) &&
        getOpPipe(op) == preset.getSrc())
      ops.push_back(op);
  }
  return ops;
}

} // namespace

unsigned mlir::dsaplan::movePresetsEarlier(IncrementalCheck &check,
                                           ArrayRef<SyncGroup> groups) {
  unsigned moved = 0;
  for (const SyncGroup &group : groups) {
    if (!check.initiallyOrdered() || check.exhausted())
      break;
    SetFlagOp preset = presetOf(group);
    if (!preset)
      continue;
    SmallVector<Operation *> passable = opsToPass(preset);
    if (passable.empty())
      continue;
    Operation *home = preset->getNextNode();
    IncrementalCheck::Span span =
        check.spanOf({passable.back(), preset.getOperation()});
    // Earliest first: the further up, the sooner the set fires.
    bool kept = false;
    for (Operation *op : llvm::reverse(passable)) {
      preset->moveBefore(op);
      if (check.tryChange(span, {})) {
        check.keep();
        kept = true;
        break;
      }
      if (check.exhausted())
        break;
    }
    if (kept)
      ++moved;
    else
      preset->moveBefore(home);
  }
  return moved;
}

unsigned mlir::dsaplan::hoistLoopPairs(IncrementalCheck &check,
                                       MutableArrayRef<SyncGroup> groups) {
  unsigned hoisted = 0;
  // Inner loops first: a pair hoisted out of one outer loop may go on out
  // of the next one in a later round.
  for (bool changed = check.initiallyOrdered(); changed;) {
    changed = false;
    for (SyncGroup &group : groups) {
      if (check.exhausted())
        break;
      std::optional<HoistCandidate> candidate = candidateOf(group);
      if (!candidate)
        continue;
      IncrementalCheck::Span span =
          check.spanOf({candidate->outer.getOperation()});
      Operation *inner = candidate->preset->getNextNode();
      candidate->preset->moveBefore(candidate->outer);
      candidate->drain->moveAfter(candidate->outer);
      llvm::DenseSet<Operation *> disabled(candidate->handshake.begin(),
                                           candidate->handshake.end());
      if (!check.tryChange(span, disabled)) {
        candidate->preset->moveBefore(inner);
        candidate->drain->moveAfter(inner);
        continue;
      }
      // The handshake sat in the outer loop's body, below the body's top.
      for (Operation *op : candidate->handshake) {
        llvm::erase(group, op);
        op->erase();
      }
      check.keep();
      ++hoisted;
      changed = true;
    }
  }
  return hoisted;
}
