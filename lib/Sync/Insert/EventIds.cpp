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
// repair's business (Pruning.h), after the ops exist.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

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
  explicit EventIds(const ProgramOrder &order) : order(order) {}

  /// Marks the ids the input's own syncs hold.
  void holdInputIds(func::FuncOp func);
  /// An id of (src, dst) free over [begin, end], now held there.
  std::optional<int64_t> take(Pipe src, Pipe dst, double begin, double end);

private:
  const ProgramOrder &order;
  std::map<PipePair, SmallVector<Held>> held;
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
    if (id >= 0 && id < kNumEventIds)
      held[{src, dst}].push_back({-1.0, end + 0.5, id});
  }
}

std::optional<int64_t> EventIds::take(Pipe src, Pipe dst, double begin,
                                      double end) {
  llvm::SmallBitVector used(kNumEventIds);
  // A pair whose set sits right before its wait (eager, or set late) is in
  // flight for no time: two such never overlap, even at one point.
  bool instant = begin == end;
  SmallVector<Held> &taken = held[{src, dst}];
  for (const Held &h : taken)
    if (h.begin <= end && begin <= h.end && !(instant && h.begin == h.end))
      used.set(h.id);
  for (int64_t id = 0; id < kNumEventIds; ++id)
    if (!used.test(id)) {
      taken.push_back({begin, end, id});
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
    for (const FlagPair &pair : pairs)
      spans.push_back({order.linearGap(block, pair.set),
                       order.linearGap(block, pair.wait),
                       {block, pair.set, pair.wait, nullptr, src, dst, -1,
                        pair.rank}});
  }
  for (auto &[key, pairs] : decisions.loopPairs) {
    auto [position, src, dst] = key;
    Operation *loop = order.opAt(position);
    for (const FlagPair &pair : pairs)
      spans.push_back({order.position(loop) - 0.5,
                       order.endPosition(loop) + 0.5,
                       {&loop->getRegion(0).front(), pair.set, pair.wait, loop,
                        src, dst, -1, pair.rank}});
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
    func::FuncOp func, const ProgramOrder &order,
    const SyncDecisions &decisions, const SyncRequirements &requirements) {
  EventIds ids(order);
  ids.holdInputIds(func);
  SyncPlan plan;
  for (Span &span : spansOf(order, decisions)) {
    PlannedPair &pair = span.plan;
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
