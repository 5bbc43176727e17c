//===- EventIds.cpp - Event ids for the decided flag pairs ----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Job 3 of dsaplan-insert-sync (Plan.h): give each decided pair one of
// the eight event ids of its pipe pair. A pair holds its id from its set to
// its wait, as a stretch of pre-order positions; a loop pair from before its
// loop to after it. Two pairs may share an id when their stretches do not
// meet:
//
//   set <mte2 -> v>, 0    ---+
//   ...                      |  id 0 held
//   wait <mte2 -> v>, 0   ---+
//   set <mte2 -> v>, 0    ---+  free again: id 0
//   wait <mte2 -> v>, 0   ---+
//
// The input's own pairs hold their ids too: from the start of the function
// (an inserted pair before the input's set would make that set overrun the
// inserted one's flag unless something ordered it after the inserted wait,
// and the input's syncs are never moved) to the last of their sets and
// waits, or the end of any loop that holds one of their sets (a set in a
// loop may be consumed in the next iteration or after the loop). A pair
// that finds no id moves its set down to just before its wait, in flight
// for no time; one that finds none even there becomes a barrier_all at its
// wait (every pipe drains: it needs no id). Whether a set may still overrun
// the previous set of its flag on some path (a flag is one bit) is the
// repair's business, after the ops exist (assignSafeEventIds, below): it
// walks the function with the path-wise check of OrderChecker.h and moves
// the pairs whose sets may overrun to other ids.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"
#include "OrderChecker.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

using PipePair = std::pair<Pipe, Pipe>;
/// A stretch of pre-order positions over which an id is held.
struct Held {
  double begin, end;
  int64_t id;
};

class EventIds {
public:
  EventIds(const TargetDescription &target, const ProgramOrder &order)
      : target(target), order(order) {}

  /// Marks the ids the input's own syncs hold.
  void holdInputIds(func::FuncOp func);
  /// An id of (src, dst) free over [begin, end], now held there.
  std::optional<int64_t> take(Pipe src, Pipe dst, double begin, double end);
  /// Promises that no take until `recallRetired` begins before `position`:
  /// the stretches that end before it are set aside, so that each take
  /// looks at the ids held around its own stretch rather than at every id
  /// the function's pairs took so far (the pairs come in program order).
  void retireBefore(double position);
  /// Looks at every stretch again.
  void recallRetired();

private:
  /// Held stretches of one pipe pair, as a heap with the earliest end on
  /// top (which stretches a take looks at does not depend on their order).
  struct Stretches {
    SmallVector<Held> live, retired;
    static bool endsLater(const Held &a, const Held &b) { return a.end > b.end; }
    void push(Held held) {
      live.push_back(held);
      std::push_heap(live.begin(), live.end(), endsLater);
    }
  };
  const TargetDescription &target;
  const ProgramOrder &order;
  std::map<PipePair, Stretches> held;
};

void EventIds::holdInputIds(func::FuncOp func) {
  // Per flag of the input: the end of the stretch it is held over.
  std::map<std::tuple<Pipe, Pipe, int64_t>, double> lastUse;
  auto note = [&](Pipe src, Pipe dst, int64_t id, Operation *op,
                  bool isSet) {
    double end = order.position(op);
    // A set in a loop may be waited for in a later iteration or after the
    // loop: the flag is held to the end of the loop.
    for (Operation *loop = op->getParentOp(); isSet && loop && loop != func;
         loop = loop->getParentOp())
      if (isa<LoopLikeOpInterface>(loop))
        end = std::max<double>(end, order.endPosition(loop));
    double &last = lastUse.try_emplace({src, dst, id}, end).first->second;
    last = std::max(last, end);
  };
  func.walk([&](Operation *op) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      note(set.getSrc(), set.getDst(), set.getEvent(), op, /*isSet=*/true);
    else if (auto wait = dyn_cast<WaitFlagOp>(op))
      note(wait.getSrc(), wait.getDst(), wait.getEvent(), op, /*isSet=*/false);
  });
  for (auto &[flag, end] : lastUse) {
    auto [src, dst, id] = flag;
    if (id >= 0 && id < target.getNumEventIds(src, dst))
      held[{src, dst}].push({-1.0, end + 0.5, id});
  }
}

void EventIds::retireBefore(double position) {
  for (auto &[pipes, stretches] : held) {
    SmallVector<Held> &live = stretches.live;
    while (!live.empty() && live.front().end < position) {
      std::pop_heap(live.begin(), live.end(), Stretches::endsLater);
      stretches.retired.push_back(live.pop_back_val());
    }
  }
}

void EventIds::recallRetired() {
  for (auto &[pipes, stretches] : held) {
    for (const Held &h : stretches.retired)
      stretches.push(h);
    stretches.retired.clear();
  }
}

std::optional<int64_t> EventIds::take(Pipe src, Pipe dst, double begin,
                                      double end) {
  int64_t count = target.getNumEventIds(src, dst);
  llvm::SmallBitVector used(count);
  // A pair whose set sits right before its wait (eager, or set late) is in
  // flight for no time: two such never overlap, even at one point.
  bool instant = begin == end;
  Stretches &taken = held[{src, dst}];
  for (const Held &h : taken.live)
    if (h.begin <= end && begin <= h.end && !(instant && h.begin == h.end))
      used.set(h.id);
  for (int64_t id = 0; id < count; ++id)
    if (!used.test(id)) {
      taken.push({begin, end, id});
      return id;
    }
  return std::nullopt;
}

/// A decided pair with the stretch it holds its id over.
struct Span {
  double begin, end;
  PlannedPair plan;
};

/// The decided pairs in program order (their maps are keyed by block and
/// loop numbers), so that ids follow the program.
SmallVector<Span> spansOf(const ProgramOrder &order,
                          const SyncDecisions &decisions) {
  SmallVector<Span> spans;
  for (auto &[key, pairs] : decisions.pairs) {
    auto [blockId, src, dst] = key;
    Block *block = order.blockWithId(blockId);
    Operation *loop = block->getParentOp();
    for (const FlagPair &pair : pairs)
      spans.push_back({pair.wholeBody ? order.position(loop) - 0.5
                                      : order.linearGap(block, pair.set),
                       pair.wholeBody ? order.endPosition(loop) + 0.5
                                      : order.linearGap(block, pair.wait),
                       {block, pair.set, pair.wait, nullptr, src, dst, -1,
                        pair.rank, pair.setAheadOfDrains}});
  }
  for (auto &[key, pairs] : decisions.loopPairs) {
    auto [position, src, dst] = key;
    Operation *loop = order.opAt(position);
    for (const FlagPair &pair : pairs)
      spans.push_back({order.position(loop) - 0.5,
                       order.endPosition(loop) + 0.5,
                       {loopBody(loop), pair.set, pair.wait, loop,
                        src, dst, -1, pair.rank}});
  }
  for (auto &[key, pairs] : decisions.branchLoopPairs) {
    auto [blockId, src, dst] = key;
    Block *block = order.blockWithId(blockId);
    Operation *loop = enclosingLoop(block);
    for (const FlagPair &pair : pairs)
      spans.push_back({order.position(loop) - 0.5,
                       order.endPosition(loop) + 0.5,
                       {block, pair.set, pair.wait, loop, src, dst, -1,
                        pair.rank}});
  }
  llvm::sort(spans, [](const Span &a, const Span &b) {
    return std::make_tuple(a.begin, a.end, a.plan.src, a.plan.dst,
                           a.plan.rank) <
           std::make_tuple(b.begin, b.end, b.plan.src, b.plan.dst,
                           b.plan.rank);
  });
  return spans;
}

} // namespace

SyncPlan mlir::dsaplan::sync::assignEventIds(
    func::FuncOp func, const TargetDescription &target,
    const ProgramOrder &order, const SyncDecisions &decisions,
    const SyncRequirements &requirements) {
  EventIds ids(target, order);
  ids.holdInputIds(func);
  SyncPlan plan;
  for (Span &span : spansOf(order, decisions)) {
    PlannedPair &pair = span.plan;
    // In order of their beginnings, and a set moved late only moves down.
    ids.retireBefore(span.begin);
    std::optional<int64_t> id = ids.take(pair.src, pair.dst, span.begin, span.end);
    if (!id && !pair.loop) {
      // Out of ids: the set moves down to just before its wait. It follows
      // the producer still (and hands over more), and its flag is in flight
      // for no time. Pairs of one block and pipe pair never nest, so this
      // only fails inside eight pairs of enclosing blocks or loops, or when
      // the input took the ids.
      double at = order.linearGap(pair.block, pair.wait);
      id = ids.take(pair.src, pair.dst, at, at);
      if (id) {
        pair.set = pair.wait;
        pair.setAheadOfDrains = false;
        ++plan.numLateSets;
      }
    }
    if (!id) {
      // Eight pairs of enclosing blocks or the input hold every id: the
      // wait becomes a barrier_all, which needs none.
      pair.id = -1;
      plan.pairs.push_back(pair);
      continue;
    }
    pair.id = *id;
    plan.pairs.push_back(pair);
  }
  // Barriers in program order: their group numbers decide the order of
  // pruning and the numbers test-tag-syncs gives them.
  for (auto &[key, barriers] : decisions.barriers) {
    Block *block = order.blockWithId(key.first);
    for (const FlagPair &barrier : barriers)
      plan.barriers.push_back({block, barrier.wait, key.second, barrier.rank});
  }
  llvm::stable_sort(plan.barriers, [&](const PlannedBarrier &a,
                                       const PlannedBarrier &b) {
    auto at = [&](const PlannedBarrier &p) {
      return order.position(order.opsOf(p.block)[p.gap]);
    };
    return std::make_tuple(at(a), a.pipe) < std::make_tuple(at(b), b.pipe);
  });
  ids.recallRetired();
  for (auto [op, src, dst] : requirements.eager) {
    if (src == dst) {
      plan.eager.push_back({op, src, dst, -1});
      continue;
    }
    double at = order.endPosition(op) + 0.5;
    std::optional<int64_t> id = ids.take(src, dst, at, at);
    plan.eager.push_back({op, src, dst, id.value_or(-1)});
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// Repair: no set overruns its flag
//===----------------------------------------------------------------------===//

namespace {

/// The flag ops of `group` between `src` and `dst` (a group holds one pair
/// and the handshakes back after its waits).
SmallVector<Operation *> flagOpsOf(const SyncGroup &group, Pipe src,
                                   Pipe dst) {
  SmallVector<Operation *> ops;
  for (Operation *op : group) {
    auto set = dyn_cast<SetFlagOp>(op);
    auto wait = dyn_cast<WaitFlagOp>(op);
    if ((set && set.getSrc() == src && set.getDst() == dst) ||
        (wait && wait.getSrc() == src && wait.getDst() == dst))
      ops.push_back(op);
  }
  return ops;
}

void setEventId(ArrayRef<Operation *> ops, int64_t id) {
  for (Operation *op : ops) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      set.setEvent(id);
    else
      cast<WaitFlagOp>(op).setEvent(id);
  }
}

/// The last resort for a group whose sets no id or handshake keeps safe:
/// each wait of the group becomes a barrier_all (every pipe drains there,
/// so what the wait ordered stays ordered), its sets go. Returns the ops
/// erased; the group keeps only its barriers.
///
///   set_flag <mte3 -> v>, 1           (erased)
///   ...
///   wait_flag <mte3 -> v>, 1     =>   dsaplan.barrier_all
///   linalg.exp ...                    linalg.exp ...
SmallVector<Operation *> replaceByBarrierAll(SyncGroup &group) {
  SmallVector<Operation *> erased;
  SyncGroup kept;
  for (Operation *op : group) {
    if (isa<WaitFlagOp>(op))
      kept.push_back(sync::createBarrierAllBefore(op));
    if (isa<SetFlagOp, WaitFlagOp>(op))
      erased.push_back(op);
    else
      kept.push_back(op);
  }
  for (Operation *op : erased)
    op->erase();
  // A handshake after a wait left two barriers in a row: one does.
  llvm::DenseSet<Operation *> ours(kept.begin(), kept.end());
  group.clear();
  for (Operation *op : kept) {
    Operation *previous = op->getPrevNode();
    if (isa<BarrierAllOp>(op) && previous && isa<BarrierAllOp>(previous) &&
        ours.contains(previous)) {
      erased.push_back(op);
      op->erase();
      continue;
    }
    group.push_back(op);
  }
  return erased;
}

/// A repair the survey walk of a round asked for, with the index of the
/// body op holding the set.
struct SurveyCall {
  size_t bodyIndex;
  SetFlagOp set;
  unsigned free;
  SmallVector<Operation *, 2> pending;
  /// Whether it moved its pair where the walk had run none of the pair's
  /// ops yet: the walk went on as a walk of the changed function would,
  /// and that walk makes no such call (the set is safe with its new id).
  bool movedAhead = false;
};

/// `stretches`, sorted, with those that meet or overlap made one.
std::vector<std::pair<size_t, size_t>>
mergeStretches(ArrayRef<std::pair<size_t, size_t>> stretches) {
  std::vector<std::pair<size_t, size_t>> merged;
  for (auto [first, through] : stretches) {
    if (!merged.empty() && first <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, through);
    else
      merged.push_back({first, through});
  }
  return merged;
}

/// Where the first of the sorted, apart `stretches` that ends at or after
/// body op `at` begins, if one does.
std::optional<size_t>
nextStretch(ArrayRef<std::pair<size_t, size_t>> stretches, size_t at) {
  auto next = llvm::partition_point(
      stretches, [&](const auto &stretch) { return stretch.second < at; });
  if (next == stretches.end())
    return std::nullopt;
  return next->first;
}

/// Whether `a` runs before `b` in a walk of the body op holding both: `a`
/// comes first in their common block. False where that takes more (one in
/// each region of an op).
bool runsBefore(Operation *a, Operation *b) {
  for (Operation *x = a; x; x = x->getParentOp()) {
    Operation *y = x->getBlock()->findAncestorOpInBlock(*b);
    if (y)
      return y != x && x->isBeforeInBlock(y);
  }
  return false;
}

} // namespace

void mlir::dsaplan::assignSafeEventIds(func::FuncOp func,
                                       const TargetDescription &target,
                                       MutableArrayRef<SyncGroup> groups,
                                       EventIdRepairs &repairs) {
  DenseMap<Operation *, size_t> groupOf;
  auto fileGroup = [&](size_t i) {
    for (Operation *op : groups[i])
      groupOf[op] = i;
  };
  for (size_t i = 0; i < groups.size(); ++i)
    fileGroup(i);
  // Each round walks the function and fixes each pair whose set may overrun
  // where the walk meets it (once a round): first by moving the pair to an
  // id free there (the walk goes on with it), then, if
  // it is unsafe again (no id is: its own wait is not known to its set's
  // pipe by the next iteration), by a handshake back after the waits it may
  // pass, in the group of that wait (pruning keeps or drops both together);
  // a handshake is moved like a pair, and given a handshake of its own only
  // up to a fixed depth.
  // A fix can make another execution of a set unsafe; the next round sees
  // it, and the last round is one that finds nothing to fix. A round that
  // can fix nothing, and every round after kRounds, replaces the groups of
  // the sets still unsafe by barrier_all: each such round removes flags
  // and adds none, so the rounds end.
  // The input's own ids are never reused (as when they were first given).
  std::map<std::pair<Pipe, Pipe>, unsigned> inputIds;
  func.walk([&](Operation *op) {
    if (groupOf.count(op))
      return;
    if (auto set = dyn_cast<SetFlagOp>(op))
      inputIds[{set.getSrc(), set.getDst()}] |= 1u << set.getEvent();
    else if (auto wait = dyn_cast<WaitFlagOp>(op))
      inputIds[{wait.getSrc(), wait.getDst()}] |= 1u << wait.getEvent();
  });
  auto firstFree = [&](Pipe src, Pipe dst, unsigned free) -> int64_t {
    free &= ~inputIds[{src, dst}];
    return free ? llvm::countr_zero(free) : -1;
  };
  // A change the walk had run some op of leaves this round's walk stale
  // from the first op it changed through the body op the walk was at: the
  // next round walks those stretches again. The rest of the next round's
  // walk would go as this one went, and where its state meets this round's
  // checkpoint past a stretch, it jumps to the checkpoint before the next,
  // making this round's calls in between again.
  using Stretch = std::pair<size_t, size_t>;
  std::vector<Stretch> stale;
  // The ops a round's handshakes added to the body (the walk ran none of
  // them), and whether it erased any (then the next round cannot jump).
  SmallVector<Operation *> addedOps;
  bool erasedOps = false, replaying = false;
  std::optional<BodyIndex> bodyIndex;
  EventIdSurvey survey;
  // `ops` change while the walk is at body op `walkAt`.
  auto changing = [&](ArrayRef<Operation *> ops, size_t walkAt) {
    assert(!replaying && "a call made again changed nothing the last time");
    auto [first, last] = bodyIndex->spanOf(ops);
    stale.push_back({first, std::max(first, walkAt)});
    survey.walkAtLeastTo = std::max(survey.walkAtLeastTo, last);
  };
  // Whether the walk has run none of `pair`'s ops but `set`, the one it is
  // at: then it goes on as a walk of the function with the pair moved.
  auto firstRunOf = [&](ArrayRef<Operation *> pair, Operation *set) {
    if (replaying || survey.repeating)
      return false;
    size_t at = bodyIndex->of(set);
    return llvm::all_of(pair, [&](Operation *op) {
      size_t opAt = bodyIndex->of(op);
      return op == set || opAt > at || (opAt == at && runsBefore(set, op));
    });
  };
  bool movedAhead = false;
  DenseMap<Operation *, unsigned> moves; // per pair, by its first op
  llvm::DenseSet<Operation *> handshaken;
  // How deep in a chain of handshakes each handshake op is: a handshake
  // after the wait of another may be needed (that wait is what a set must
  // follow), but the chain stops at kMaxHandshakeDepth.
  constexpr unsigned kMaxHandshakeDepth = 2;
  DenseMap<Operation *, unsigned> handshakeDepth;
  constexpr int kRounds = 24;
  // A round resumes once, at the first op the last one changed: its
  // checkpoints can sit further apart than the pruning's, which resumes at
  // every sync it tries.
  constexpr size_t kCheckpointOps = 64;
  bool lastResort = false;
  SetFlagOp stuck;
  std::set<size_t> toReplace; // groups, replaced after the walk
  unsigned unsafeInserted = 0, changes = 0;
  llvm::DenseSet<Operation *> fixedThisRound;
  auto repair = [&](SetFlagOp set, unsigned free,
                    ArrayRef<Operation *> pending) {
    auto found = groupOf.find(set);
    if (found == groupOf.end())
      return; // the input's own sync: the verifier reports it
    ++unsafeInserted;
    if (lastResort) {
      toReplace.insert(found->second);
      return;
    }
    SyncGroup &group = groups[found->second];
    SmallVector<Operation *> pair = flagOpsOf(group, set.getSrc(), set.getDst());
    if (!fixedThisRound.insert(pair.front()).second) {
      // The next round fixes it here.
      size_t at = bodyIndex->of(set);
      stale.push_back({at, at});
      return;
    }
    unsigned &moved = moves[pair.front()];
    bool noId = firstFree(set.getSrc(), set.getDst(), free) < 0;
    if ((moved > 0 || noId) &&
        handshakeDepth.lookup(set) < kMaxHandshakeDepth) {
      // Moving did not help: order the set after the waits it may pass.
      bool added = false;
      for (Operation *wait : pending) {
        // A chain of handshakes need not end: it is cut at a fixed depth.
        unsigned depth = wait ? handshakeDepth.lookup(wait) : 0;
        if (!wait || depth >= kMaxHandshakeDepth ||
            !handshaken.insert(wait).second)
          continue;
        auto owner = groupOf.find(wait);
        size_t into = owner == groupOf.end() ? found->second : owner->second;
        size_t before = groups[into].size();
        auto waitOp = cast<WaitFlagOp>(wait);
        int64_t back = firstFree(waitOp.getDst(), waitOp.getSrc(),
                                 (1u << target.getNumEventIds(
                                            waitOp.getDst(), waitOp.getSrc())) -
                                     1);
        if (back < 0)
          continue;
        changing(wait, bodyIndex->of(set));
        sync::createHandshake(waitOp, back, groups[into]);
        for (size_t i = before; i < groups[into].size(); ++i) {
          handshakeDepth[groups[into][i]] = depth + 1;
          addedOps.push_back(groups[into][i]);
        }
        fileGroup(into);
        ++repairs.handshakes;
        ++changes;
        added = true;
      }
      if (added)
        return;
    }
    int64_t id = firstFree(set.getSrc(), set.getDst(), free);
    if (id < 0 || moved > 4) {
      // Other repairs of this round may be what it waits for (a walk goes
      // on past a wait whose set it moved): only a round that changes
      // nothing gives up on it.
      if (!stuck)
        stuck = set;
      return;
    }
    if (firstRunOf(pair, set)) {
      movedAhead = true;
      survey.walkAtLeastTo =
          std::max(survey.walkAtLeastTo, bodyIndex->spanOf(pair).second);
    } else {
      changing(pair, bodyIndex->of(set));
    }
    setEventId(pair, id);
    ++moved;
    ++repairs.moved;
    ++changes;
  };
  // A round walks from the checkpoint (recorded by an earlier round) before
  // the first body op where the last round went stale; the calls of the
  // last round before it are made again without the walk: up to there, the
  // walk would meet the same ops in the same states. Such a call changed
  // nothing last round (or moved its pair ahead of the walk, and is not
  // made again), and makes the same choice again: only the round's counts
  // and `stuck` follow from it.
  std::vector<SurveyCall> calls, lastCalls;
  auto logAndRepair = [&](SetFlagOp set, unsigned free,
                          ArrayRef<Operation *> pending) {
    calls.push_back({bodyIndex->of(set), set, free,
                     SmallVector<Operation *, 2>(pending)});
    movedAhead = false;
    repair(set, free, pending);
    calls.back().movedAhead = movedAhead;
  };
  survey.repair = logAndRepair;
  // The last round's calls up to body op `to` (exclusive) from where the
  // last of these left off: made again where this round jumps over them,
  // passed over where this round's walk makes its own.
  size_t nextCall = 0;
  auto lastCallsUpTo = [&](size_t to, bool makeAgain) {
    replaying = makeAgain;
    for (; nextCall < lastCalls.size() && lastCalls[nextCall].bodyIndex < to;
         ++nextCall) {
      const SurveyCall &call = lastCalls[nextCall];
      if (makeAgain && !call.movedAhead)
        survey.repair(call.set, call.free, call.pending);
    }
    replaying = false;
  };
  OrderChecker::Checkpoints checkpoints;
  DependencyIndex noDependencies(func, target, {});
  size_t start = 0;
  // Whether this round may jump: the last one walked to the end and erased
  // no op (the body ops it had are all here, in order).
  bool mayJump = false;
  std::vector<Operation *> lastBody;
  for (int round = 0;; ++round) {
    // Handshakes add ops to the function body: index it afresh.
    bodyIndex.emplace(func);
    ArrayRef<Operation *> body = bodyIndex->body();
    OrderChecker checker(target, noDependencies, *bodyIndex);
    checker.stepBudget = std::numeric_limits<int64_t>::max();
    checker.survey = &survey;
    fixedThisRound.clear();
    unsafeInserted = changes = 0;
    stuck = nullptr;
    lastResort = round >= kRounds;
    // The last resort's repairs are not those of the calls made last round.
    if (lastResort) {
      start = 0;
      mayJump = false;
    }
    std::vector<Stretch> lastStale;
    std::swap(lastStale, stale);
    std::swap(calls, lastCalls);
    calls.clear();
    if (mayJump && !addedOps.empty()) {
      // The last round's body ops are all here, with the handshakes it
      // added among them: its checkpoints move with their ops (those that
      // still sit before a checkpoint), and the handshakes are walked.
      OrderChecker::Checkpoints placed(body, kCheckpointOps);
      for (size_t i : checkpoints.placesIn(0, lastBody.size())) {
        size_t at = bodyIndex->of(lastBody[i]);
        if (checkpoints[i] && placed.sitsAt(at))
          placed[at] = std::move(checkpoints[i]);
      }
      checkpoints = std::move(placed);
      for (auto &[first, through] : lastStale) {
        first = bodyIndex->of(lastBody[first]);
        through = bodyIndex->of(lastBody[through]);
      }
      for (Operation *op : addedOps) {
        size_t at = bodyIndex->of(op);
        lastStale.push_back({at, at});
      }
      for (SurveyCall &call : lastCalls)
        call.bodyIndex = bodyIndex->of(call.set);
      start = llvm::min_element(lastStale)->first;
    }
    if (mayJump)
      start = checkpoints.lastHeldAtOrBefore(start);
    addedOps.clear();
    llvm::sort(lastStale);
    lastStale = mergeStretches(lastStale);
    survey.stale = lastStale;
    survey.walkAtLeastTo = 0;
    erasedOps = false;
    nextCall = 0;
    lastCallsUpTo(start, /*makeAgain=*/true);
    if (!mayJump) {
      // The body changed from `start` on: the checkpoints up to there stay.
      OrderChecker::Checkpoints placed(body, kCheckpointOps);
      if (round > 0)
        placed.takeUpTo(checkpoints, start);
      checkpoints = std::move(placed);
    }
    llvm::DenseSet<Operation *> none;
    bool reachedEnd = false;
    for (size_t from = start;;) {
      // Where the last round went stale next: no stop before it (nor in it,
      // `mayStopAt`).
      std::optional<size_t> next = nextStretch(lastStale, from);
      size_t lastChanged = !mayJump ? body.size() : next.value_or(from);
      // A walk stopped by the input's own unbalanced flags surveys what it
      // reached; the verifier reports the rest.
      bool ordered = checker.ordered(body, none, checkpoints, from,
                                     lastChanged, &checkpoints);
      size_t end = checker.recordedEnd;
      lastCallsUpTo(end, /*makeAgain=*/false);
      if (!ordered || end >= body.size()) {
        reachedEnd = end >= body.size();
        if (!reachedEnd)
          stale.push_back({end, body.size() - 1});
        break;
      }
      // Met the last round's state before `end`: on to the checkpoint
      // before the next body op where the last round went stale.
      next = nextStretch(lastStale, end);
      from = next ? checkpoints.lastHeldAtOrBefore(*next) : body.size();
      lastCallsUpTo(from, /*makeAgain=*/true);
      if (from >= body.size()) {
        reachedEnd = true;
        break;
      }
    }
    ++repairs.rounds;
    repairs.steps += checker.steps;
    if (unsafeInserted == 0)
      return;
    if (changes == 0 && stuck)
      toReplace.insert(groupOf.lookup(stuck));
    for (size_t index : toReplace) {
      changing(groups[index], 0);
      erasedOps = true;
    }
    size_t firstStale = body.size();
    for (auto [first, through] : stale)
      firstStale = std::min(firstStale, first);
    start = checkpoints.lastAtOrBefore(firstStale);
    mayJump = !erasedOps && reachedEnd;
    lastBody.assign(body.begin(), body.end());
    // Ops are erased only now: the walk held them.
    for (size_t index : toReplace) {
      for (Operation *op : replaceByBarrierAll(groups[index])) {
        groupOf.erase(op);
        moves.erase(op);
        handshaken.erase(op);
        handshakeDepth.erase(op);
      }
      fileGroup(index);
    }
    toReplace.clear();
  }
}
