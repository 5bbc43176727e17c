//===- IncrementalCheck.cpp - The path-wise check, resumed per change -----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// IncrementalCheck (Pruning.h) over OrderChecker: the checkpoints of one
// function body, kept in step with the body as changes are kept, and the
// test that refuses a change without a walk where a dependency is left
// unordered on its face.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"
#include "OrderChecker.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

/// A function body with its checkpoints and the checker that walks it (the
/// checker knows the body op of each source's last dependent by index).
struct IncrementalCheck::State {
  State(func::FuncOp func, const TargetDescription &target,
        const DependencyIndex &dependencies)
      : bodyIndex(func), checker(target, dependencies, bodyIndex),
        checkpoints(bodyIndex.body()), recorded(checkpoints) {}
  ArrayRef<Operation *> body() const { return bodyIndex.body(); }

  BodyIndex bodyIndex;
  OrderChecker checker;
  /// The states the tries compare with, and the last try's records.
  OrderChecker::Checkpoints checkpoints, recorded;
  /// Of the last walk: where it started, and where its records end.
  size_t start = 0, recordedEnd = 0;
  /// The checkpoints of the state before whose states this one borrowed
  /// (from, to), to give back if its try is not kept.
  SmallVector<std::pair<size_t, size_t>> borrowed;
};

IncrementalCheck::IncrementalCheck(func::FuncOp func,
                                   const TargetDescription &target,
                                   const DependencyIndex &dependencies,
                                   int64_t stepBudget)
    : func(func), target(target), dependencies(dependencies),
      stepBudget(stepBudget),
      current(std::make_unique<State>(func, target, dependencies)) {
  // The whole body, recording every checkpoint (no early stop).
  OrderChecker &checker = current->checker;
  checker.stepBudget = stepBudget;
  ArrayRef<Operation *> body = current->body();
  initially = checker.ordered(body, {}, current->checkpoints, 0, body.size(),
                              &current->checkpoints);
  walked = checker.steps;
}

IncrementalCheck::~IncrementalCheck() = default;

IncrementalCheck::Span
IncrementalCheck::spanOf(ArrayRef<Operation *> ops) const {
  auto [first, last] = current->bodyIndex.spanOf(ops);
  return {first, last};
}

/// Walks `at`'s body from the last checkpoint at or before body op `first`
/// that holds a state (a change of the body can leave checkpoints without
/// one; a walk from the top needs none), recording into `at.recorded`.
bool IncrementalCheck::walkFrom(State &at, size_t first, size_t lastChanged,
                                const llvm::DenseSet<Operation *> &disabled) {
  const OrderChecker::Checkpoints &from = at.checkpoints;
  size_t start = from.lastHeldAtOrBefore(first);
  at.checker.steps = walked;
  at.checker.stepBudget = stepBudget;
  bool ordered = at.checker.ordered(at.body(), disabled, from, start,
                                    lastChanged, &at.recorded);
  walked = at.checker.steps;
  lastUnordered = at.checker.failure == OrderChecker::Failure::Unordered;
  lastOverrunSet = at.checker.overrunSet;
  at.start = start;
  at.recordedEnd = at.checker.recordedEnd;
  return ordered;
}

/// Whether the body ops [first, last + 1] of `body` are still the body ops
/// there, each after the one before it: then a change within [first, last]
/// left the function body as it was (what it changed lies inside those
/// ops).
static bool sameBodyOps(Block &entry, ArrayRef<Operation *> body, size_t first,
                        size_t last) {
  for (size_t i = first; i <= last + 1 && i <= body.size(); ++i) {
    Operation *before = i == 0 ? nullptr : body[i - 1];
    if (i == body.size()) {
      if (before != (entry.empty() ? nullptr : &entry.back()))
        return false;
      continue;
    }
    if (body[i]->getBlock() != &entry || body[i]->getPrevNode() != before)
      return false;
  }
  return true;
}

bool IncrementalCheck::tryChange(Span span,
                                 const llvm::DenseSet<Operation *> &disabled) {
  dropPending();
  Block &entry = func.getBody().front();
  if (sameBodyOps(entry, current->body(), span.first, span.last))
    return walkFrom(*current, span.first, span.last, disabled);
  // The body ops before the span are as they were, and so are the places
  // of their checkpoints and the states there; those after it are shifted
  // by `delta`, and keep their states where a checkpoint still sits before
  // them.
  pending = std::make_unique<State>(func, target, dependencies);
  ArrayRef<Operation *> body = pending->body(), before = current->body();
  auto delta = static_cast<ptrdiff_t>(body.size()) -
               static_cast<ptrdiff_t>(before.size());
  assert(llvm::equal(body.take_front(span.first),
                     before.take_front(span.first)) &&
         llvm::equal(body.drop_front(span.last + 1 + delta),
                     before.drop_front(span.last + 1)) &&
         "the change reaches past its span");
  auto borrow = [&](size_t from, size_t to) {
    if (pending->checkpoints.sitsAt(to) && current->checkpoints[from]) {
      pending->checkpoints[to] = std::move(current->checkpoints[from]);
      pending->borrowed.push_back({from, to});
    }
  };
  for (size_t i : current->checkpoints.placesIn(0, span.first + 1))
    borrow(i, i);
  for (size_t i : current->checkpoints.placesIn(span.last + 1, before.size()))
    borrow(i, i + delta);
  if (walkFrom(*pending, span.first, span.last + delta, disabled))
    return true;
  dropPending();
  return false;
}

void IncrementalCheck::dropPending() {
  if (!pending)
    return;
  for (auto [from, to] : pending->borrowed)
    current->checkpoints[from] = std::move(pending->checkpoints[to]);
  pending.reset();
}

void IncrementalCheck::keep() {
  if (pending)
    current = std::move(pending);
  // The checkpoints the walk passed change with the change.
  State &kept = *current;
  for (size_t k : kept.checkpoints.placesIn(kept.start + 1, kept.recordedEnd))
    if (kept.recorded[k])
      kept.checkpoints[k] = std::move(kept.recorded[k]);
  kept.borrowed.clear();
}

void IncrementalCheck::forgetErased() {
  dropPending();
  // What is left of the body is what was there, in order, less the erased
  // ops (disabled: no walk saw them), so the state before each op that is
  // left stays. The erased ops' addresses are compared, never read.
  auto after = std::make_unique<State>(func, target, dependencies);
  ArrayRef<Operation *> before = current->body(), body = after->body();
  size_t j = 0;
  for (size_t i = 0; i < before.size() && j < body.size(); ++i) {
    if (before[i] != body[j])
      continue;
    if (current->checkpoints.sitsAt(i) && after->checkpoints.sitsAt(j))
      after->checkpoints[j] = std::move(current->checkpoints[i]);
    ++j;
  }
  assert(j == body.size() && "ops were added, not only erased");
  current = std::move(after);
}

namespace {

/// Ops looked at on each side of a group by leavesUnordered: the syncs the
/// inserter makes sit next to the accesses they order.
constexpr unsigned kFaceWindow = 16;

/// Whether `op` is, or holds, an op that may tell a pipe what another one
/// finished (a sync not left out), or that the check may not see through
/// (a call, a cross-core sync).
bool holdsLiveSync(Operation *op, ArrayRef<Operation *> group,
                   const llvm::DenseSet<Operation *> &disabled) {
  auto isLive = [&](Operation *inner) {
    if (isa<func::CallOp, CrossCoreSetOp, CrossCoreWaitOp>(inner))
      return true;
    return isa<SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp>(inner) &&
           !disabled.contains(inner) && !llvm::is_contained(group, inner);
  };
  if (op->getNumRegions() == 0)
    return isLive(op);
  return op->walk([&](Operation *inner) {
             return isLive(inner) ? WalkResult::interrupt()
                                  : WalkResult::advance();
           })
      .wasInterrupted();
}

} // namespace

bool IncrementalCheck::leavesUnordered(
    ArrayRef<Operation *> group,
    const llvm::DenseSet<Operation *> &disabled) const {
  if (group.empty())
    return false;
  Block *block = group.front()->getBlock();
  Operation *first = group.front(), *last = group.front();
  for (Operation *op : group) {
    if (op->getBlock() != block)
      return false;
    if (op->isBeforeInBlock(first))
      first = op;
    if (last->isBeforeInBlock(op))
      last = op;
  }
  const auto &accesses = dependencies.getTables().accesses;
  // The sources run since the last live sync before the group, up to its
  // last op.
  llvm::SmallDenseSet<SourceId, 8> sources;
  auto addSource = [&](Operation *op) {
    auto it = accesses.find(op);
    if (it != accesses.end() && it->second.isSource)
      sources.insert(it->second.source);
  };
  for (Operation *op = first; op != last; op = op->getNextNode()) {
    if (holdsLiveSync(op, group, disabled))
      return false;
    addSource(op);
  }
  unsigned seen = 0;
  for (Operation *op = first->getPrevNode(); op && seen < kFaceWindow;
       op = op->getPrevNode(), ++seen) {
    if (holdsLiveSync(op, group, disabled))
      break;
    addSource(op);
  }
  if (sources.empty())
    return false;
  // An access after the group, before the next live sync, that must follow
  // one of them.
  seen = 0;
  for (Operation *op = last->getNextNode(); op && seen < kFaceWindow;
       op = op->getNextNode(), ++seen) {
    if (holdsLiveSync(op, group, disabled))
      return false;
    auto it = accesses.find(op);
    if (it != accesses.end() &&
        llvm::any_of(it->second.sources, [&](const DependencySource &source) {
          return sources.contains(source.id);
        }))
      return true;
  }
  return false;
}
