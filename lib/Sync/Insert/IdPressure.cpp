//===- IdPressure.cpp - Fewer flag pairs where event ids run short --------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Between the cover (job 2) and the event ids (job 3) of
// dsaplan-insert-sync (Plan.h): a pipe pair has eight event ids, and a
// flag pair holds one from its set to its wait. Where more pairs of one
// block would be in flight at once than there are ids, two pairs of the
// block whose stretches meet become one: its set after the later
// producer, its wait before the earlier consumer. It orders both
// dependencies (a set hands over everything its pipe issued before it) at
// the cost of the earlier consumer waiting for the later producer:
//
//   load a0 (mte2)                          load a0
//   set <mte2 -> v>, 0                      load a1
//   load a1                                 set <mte2 -> v>, 0
//   set <mte2 -> v>, 1          =>          wait <mte2 -> v>, 0
//   wait <mte2 -> v>, 0                     add a0, ...
//   add a0, ...                             add a1, ...
//   wait <mte2 -> v>, 1
//   add a1, ...
//
// What counts as "at once" differs by block. On a straight line the
// stretches of program order are the flags' lifetimes, as far as ids go
// (the repair makes the rest safe), and their most at one point is what
// greedy interval colouring needs. In an scf.for body the source pipe may
// run ahead into the next stage of the body, or the next iteration, while
// the waiting pipe is still in the previous one (a rotation unrolled by
// its period is the common case: a load into the next slot overtakes the
// vector work on this one): any two pairs of the body may be in flight
// together. There every pair counts, and once merged the pairs of the body
// hold their id over the whole loop (their lifetime as far as this job
// can tell), so that the ids of one stage differ from those of the next
// and no set needs a handshake to wait for a stage behind it. A body that
// needs no merging keeps the stretches of program order.
//
// Loop pairs (around an scf.for back edge, each holding its id over the
// whole loop) are kept to four per loop and pipe pair: past that, the two
// whose merger loses the least slack (the ops between the set in one
// iteration and the wait in the next) merge, which keeps the pairs of one
// slot of an unrolled rotation together rather than two slots.
//
// Which forward pairs merge: the two neighbours (in the order of their sets) that
// cost least, the cost being how many ops the earliest consumer of the
// merged pair now waits for in addition; so the merged pairs come out even
// over the stages of a body.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"

#include "DsaPlan/Support/RegionWalk.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// The pairs of one block and pipe pair, merged into groups; a group is a
/// pair whose set follows its latest producer and whose wait precedes its
/// earliest consumer.
struct MergedPair {
  FlagPair pair;
  /// The set of the member whose wait is the group's: how late that
  /// consumer's own producer was.
  Gap ownSet;
};

/// How many of `pairs` hold an id at once, at most, on a straight line:
/// the most stretches [set, wait] that hold the set of one of them. With
/// the sets and waits of the forward pairs sorted (a pair set after its
/// wait holds no point), the stretches holding a point x are those set at
/// or before x less those waited for before x; counted pair by pair, it
/// was quadratic in the pairs of a block, each time a merge left too many.
///
///   sets [0, 2, 5]  waits [1, 6, 7]   at set 5: 3 set - 1 waited = 2
size_t mostAtOnce(ArrayRef<MergedPair> pairs) {
  SmallVector<Gap> sets, waits;
  for (const MergedPair &m : pairs)
    if (m.pair.set <= m.pair.wait) {
      sets.push_back(m.pair.set);
      waits.push_back(m.pair.wait);
    }
  llvm::sort(sets);
  llvm::sort(waits);
  size_t most = 0;
  for (const MergedPair &at : pairs) {
    Gap x = at.pair.set;
    size_t setBy = llvm::upper_bound(sets, x) - sets.begin();
    size_t waitedBefore = llvm::lower_bound(waits, x) - waits.begin();
    most = std::max(most, setBy - waitedBefore);
  }
  return most;
}

/// Merges the cheapest two neighbours of `pairs` (sorted by set) whose
/// stretches meet; false if no two do.
bool mergeCheapest(SmallVectorImpl<MergedPair> &pairs) {
  std::optional<size_t> best;
  Gap bestCost = 0;
  for (size_t i = 0; i + 1 < pairs.size(); ++i) {
    const FlagPair &a = pairs[i].pair, &b = pairs[i + 1].pair;
    Gap set = std::max(a.set, b.set), wait = std::min(a.wait, b.wait);
    if (set > wait)
      continue;
    Gap ownSet = a.wait <= b.wait ? pairs[i].ownSet : pairs[i + 1].ownSet;
    Gap cost = set - ownSet;
    if (!best || cost < bestCost) {
      best = i;
      bestCost = cost;
    }
  }
  if (!best)
    return false;
  MergedPair &a = pairs[*best], &b = pairs[*best + 1];
  MergedPair merged = a;
  merged.pair.set = std::max(a.pair.set, b.pair.set);
  // Ahead of a loop's drains only if both sets were, at one gap.
  merged.pair.setAheadOfDrains = a.pair.setAheadOfDrains &&
                                 b.pair.setAheadOfDrains &&
                                 a.pair.set == b.pair.set;
  if (b.pair.wait < a.pair.wait) {
    merged.pair.wait = b.pair.wait;
    merged.pair.rank = b.pair.rank;
    merged.ownSet = b.ownSet;
  }
  a = merged;
  pairs.erase(pairs.begin() + *best + 1);
  return true;
}

/// Loop pairs of one loop and pipe pair kept at most: each holds its id
/// over the whole loop, and nested loops and the body's own pairs need ids
/// too.
constexpr size_t kMaxLoopPairs = 4;

/// The slack of a loop pair: the ops between its set in one iteration and
/// its wait in the next, over the back edge (`end` ops a body).
Gap slackOf(const FlagPair &pair, Gap end) { return end - pair.set + pair.wait; }

/// Merges the two loop pairs (sorted by wait) whose merger loses the least
/// slack: the pairs of one slot of a rotation rather than two slots.
void mergeCheapestLoopPairs(SmallVectorImpl<FlagPair> &pairs, Gap end) {
  size_t best = 0;
  std::optional<Gap> bestLoss;
  for (size_t i = 0; i + 1 < pairs.size(); ++i) {
    const FlagPair &a = pairs[i], &b = pairs[i + 1];
    FlagPair merged{std::max(a.set, b.set), std::min(a.wait, b.wait), a.rank};
    Gap loss = std::min(slackOf(a, end), slackOf(b, end)) -
               std::min(slackOf(a, end), slackOf(merged, end));
    if (!bestLoss || loss < *bestLoss) {
      best = i;
      bestLoss = loss;
    }
  }
  FlagPair &a = pairs[best], &b = pairs[best + 1];
  if (b.wait < a.wait)
    a.rank = b.rank;
  a.set = std::max(a.set, b.set);
  a.wait = std::min(a.wait, b.wait);
  pairs.erase(pairs.begin() + best + 1);
}

/// The pairs of one block and pipe pair as two sorted columns, to count
/// those that hold their id across one op of the block: set at or before
/// it, wait after it. A forward pair's set comes no later than its wait, so
/// the pairs set by then less those already waited for are the ones in
/// flight:
///
///   sets  [0, 2, 5]   waits [1, 6, 7]   across op 4:  2 set - 1 waited = 1
///
/// A block with a pair the other way round is counted pair by pair.
class SpanIndex {
public:
  explicit SpanIndex(ArrayRef<FlagPair> pairs) : pairs(pairs) {
    forward = llvm::all_of(
        pairs, [](const FlagPair &pair) { return pair.set <= pair.wait; });
    if (!forward)
      return;
    for (const FlagPair &pair : pairs) {
      sets.push_back(pair.set);
      waits.push_back(pair.wait);
    }
    llvm::sort(sets);
    llvm::sort(waits);
  }
  /// The pairs whose set is at or before op `index` and whose wait is after.
  size_t across(Gap index) const {
    if (forward)
      return atOrBefore(sets, index) - atOrBefore(waits, index);
    return llvm::count_if(pairs, [&](const FlagPair &pair) {
      return pair.set <= index && index < pair.wait;
    });
  }

private:
  static size_t atOrBefore(ArrayRef<Gap> gaps, Gap index) {
    return llvm::upper_bound(gaps, index) - gaps.begin();
  }
  ArrayRef<FlagPair> pairs;
  bool forward = true;
  SmallVector<Gap> sets, waits;
};

class IdPressure {
public:
  IdPressure(const TargetDescription &target, const ProgramOrder &order,
             SyncDecisions &decisions)
      : target(target), order(order), decisions(decisions) {}

  void run() {
    for (auto &[key, pairs] : decisions.loopPairs) {
      if (pairs.size() <= kMaxLoopPairs)
        continue;
      Operation *loop = order.opAt(std::get<0>(key));
      Gap end = order.opsOf(loopBody(loop)).size();
      llvm::stable_sort(pairs, [](const FlagPair &a, const FlagPair &b) {
        return std::make_pair(a.wait, a.set) < std::make_pair(b.wait, b.set);
      });
      while (pairs.size() > kMaxLoopPairs)
        mergeCheapestLoopPairs(pairs, end);
    }
    for (auto &[key, pairs] : decisions.pairs) {
      auto [blockId, src, dst] = key;
      if (relieve(order.blockWithId(blockId), src, dst, pairs))
        spans.erase(key);
    }
  }

private:
  using PairKey = std::tuple<unsigned, Pipe, Pipe>;
  /// The ids of (src, dst) that pairs of other blocks and loop pairs hold
  /// over all of `block`.
  unsigned heldAround(Block *block, Pipe src, Pipe dst);
  /// Whether it merged any of `pairs`.
  bool relieve(Block *block, Pipe src, Pipe dst,
               SmallVectorImpl<FlagPair> &pairs);

  const TargetDescription &target;
  const ProgramOrder &order;
  SyncDecisions &decisions;
  /// The span index of each key of `decisions.pairs` asked about so far,
  /// until its pairs merge.
  std::map<PairKey, SpanIndex> spans;
};

/// Only a pair of a block that holds `block` can hold an id over all of it,
/// and then only one whose set is at or before the op of that block that
/// holds `block`, and whose wait is after it. Each block's pairs are
/// indexed once (n log n in all, where scanning every other block's pairs
/// per block was quadratic). Loop pairs hold theirs over their loop: those
/// of the loops whose pre-order span holds the owner's, which are the owner
/// and its ancestors (the function itself has no position: its span is
/// that of position 0, held by the op there only), looked up by position
/// rather than scanned per block.
unsigned IdPressure::heldAround(Block *block, Pipe src, Pipe dst) {
  Operation *owner = block->getParentOp();
  unsigned held = 0;
  Operation *holder = owner;
  if (isa<func::FuncOp>(owner))
    holder = block->empty() ? nullptr : order.opAt(0);
  for (Operation *op = holder; op && !isa<func::FuncOp>(op);
       op = op->getParentOp()) {
    auto loopPairs = decisions.loopPairs.find({order.position(op), src, dst});
    if (loopPairs != decisions.loopPairs.end())
      held += loopPairs->second.size();
  }
  for (Operation *op = owner; !isa<func::FuncOp>(op);
       op = op->getBlock()->getParentOp()) {
    PairKey key{order.blockId(op->getBlock()), src, dst};
    auto pairs = decisions.pairs.find(key);
    if (pairs == decisions.pairs.end())
      continue;
    auto index = spans.try_emplace(key, pairs->second).first;
    held += index->second.across(order.indexInBlock(op));
  }
  return held;
}

bool IdPressure::relieve(Block *block, Pipe src, Pipe dst,
                         SmallVectorImpl<FlagPair> &pairs) {
  unsigned ids = target.getNumEventIds(src, dst);
  unsigned held = heldAround(block, src, dst);
  size_t budget = held < ids ? ids - held : 1;
  Operation *owner = block->getParentOp();
  bool wholeBody = isa<scf::ForOp, scf::WhileOp>(owner) &&
                   loopBody(owner) == block;
  SmallVector<MergedPair> merged;
  for (const FlagPair &pair : pairs)
    merged.push_back({pair, pair.set});
  llvm::stable_sort(merged, [](const MergedPair &a, const MergedPair &b) {
    return std::make_pair(a.pair.set, a.pair.wait) <
           std::make_pair(b.pair.set, b.pair.wait);
  });
  auto atOnce = [&] {
    return wholeBody ? merged.size() : mostAtOnce(merged);
  };
  if (atOnce() <= budget)
    return false;
  while (atOnce() > budget && mergeCheapest(merged))
    ;
  pairs.clear();
  for (MergedPair &m : merged) {
    m.pair.wholeBody = wholeBody && merged.size() <= budget;
    pairs.push_back(m.pair);
  }
  return true;
}

} // namespace

void mlir::dsaplan::sync::relieveIdPressure(const TargetDescription &target,
                                            const ProgramOrder &order,
                                            SyncDecisions &decisions) {
  IdPressure(target, order, decisions).run();
}
