//===- HappensBefore.cpp - The verifier's flags, barriers and merges ------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// How the verifier's happens-before grows along a path and meets at a
// merge. Each pipe q keeps, for every pipe p, the set of p's sequence
// numbers known to have finished before q's current point:
//
//   set_flag <p -> q>   captures what p has issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own earlier instructions finished for p;
//   barrier_all         makes everything every pipe ran finished for all.
//
// At a merge a sequence number stays known only if it is known on every
// path that ran it, and the flags must be the same on every path.
//
//===----------------------------------------------------------------------===//

#include "SyncChecker.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

/// A flag is one bit: set_flag raises it once its pipe has finished what it
/// issued before, wait_flag blocks while it is low and lowers it. So a set
/// must be ordered (happens-before, not program text) after the wait that
/// consumed the previous set of the same flag: else both sets can fire
/// before that wait, the second signal is lost and a later wait hangs.
///
///   set_flag <mte2 -> v>, 0     // (1)
///   wait_flag <mte2 -> v>, 0    // V consumes (1)
///   set_flag <mte2 -> v>, 0     // may fire before V reached the wait
///   wait_flag <mte2 -> v>, 0    // hangs if it did
void SyncChecker::setFlag(SetFlagOp set, unsigned base, PathState &state) {
  unsigned p = base + static_cast<unsigned>(set.getSrc());
  unsigned q = base + static_cast<unsigned>(set.getDst());
  FlagKey key{static_cast<int>(p), static_cast<int>(q), set.getEvent()};
  auto flagName = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    return diag << "event " << set.getEvent() << " of <" << unitText(p)
                << " -> " << unitText(q) << ">";
  };
  if (state.flags.count(key)) {
    failedAny = true;
    InFlightDiagnostic diag = set.emitError();
    flagName(diag) << " is set again before its wait";
    return;
  }
  auto consumer = state.consumers->find(key);
  if (consumer != state.consumers->end()) {
    bool unordered = !state.known[p][q].includes(consumer->second.waits);
    if (unordered && reportedOverruns.insert(set.getOperation()).second) {
      failedAny = true;
      InFlightDiagnostic diag = set.emitError();
      flagName(diag) << " may be set again before the wait that consumes "
                        "its previous set has run (nothing orders this set "
                        "after that wait): the signal would be lost and a "
                        "wait would hang";
      diag.attachNote(consumer->second.waitOp->getLoc())
          << "the wait it is not ordered after";
    }
  }
  state.flags.insertOrAssign(
      key, FlagState{FlagState::capture(state.known, p, state.executed[p]),
                     set.getOperation()});
}

/// A wait runs on its pipe like an access (a later set of its flag must know
/// it finished) and hands over what the set captured.
void SyncChecker::waitFlag(WaitFlagOp wait, unsigned base,
                           PathState &state) {
  unsigned src = base + static_cast<unsigned>(wait.getSrc());
  unsigned q = base + static_cast<unsigned>(wait.getDst());
  FlagKey key{static_cast<int>(src), static_cast<int>(q), wait.getEvent()};
  auto it = state.flags.find(key);
  if (it == state.flags.end()) {
    failedAny = true;
    wait.emitError() << "waits for event " << wait.getEvent() << " of <"
                     << unitText(src) << " -> " << unitText(q)
                     << "> that no set_flag raised: the pipe would hang";
    return;
  }
  for (size_t p = 0, e = liveUnits(); p < e; ++p)
    state.known.unite(q, p, it->second[p]);
  state.flags.erase(it);
  int64_t seq = ++counters[q];
  state.executed[q].insert(seq, seq + 1);
  Consumer &consumer = state.consumers.own()[key];
  consumer.waits = IntervalSet();
  consumer.waits.insert(seq, seq + 1);
  consumer.waitOp = wait.getOperation();
}

/// One op of the walk; the structure (branches, loops) is RegionWalker's.
WalkStep SyncChecker::step(Operation &op, PathState &state) {
  // A quick walk's verdict is settled by its first failure.
  if (quick && failedAny)
    return WalkStep::Stop;
  countIteration(op, state.iterations);
  if (auto set = dyn_cast<CrossCoreSetOp>(op)) {
    crossCoreSet(set, state);
    return WalkStep::Done;
  }
  if (auto wait = dyn_cast<CrossCoreWaitOp>(op)) {
    crossCoreWait(wait, state);
    return WalkStep::Done;
  }
  return visitSync(op, state);
}

/// set_flag, wait_flag, pipe_barrier and barrier_all, on every core that
/// has their pipes (Cores.cpp).
WalkStep SyncChecker::visitSync(Operation &op, PathState &state) {
  // The cores matter only in a function of both (unitBases): a function of
  // one has one set of units, and most sync ops are flags, whose attribute
  // look-up costs more than the rest of their step.
  auto coresOfPipes = [&](Pipe a, Pipe b) -> unsigned {
    if (!holdsBothCores())
      return kBothCores;
    unsigned cores = target.getPipe(a).cores & target.getPipe(b).cores;
    if (CoreAttr core = rules.coreOf(&op))
      cores &= maskOfCore(core.getValue());
    return cores;
  };
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    for (unsigned base : unitBases(coresOfPipes(set.getSrc(), set.getDst())))
      setFlag(set, base, state);
    return WalkStep::Done;
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    for (unsigned base : unitBases(coresOfPipes(wait.getSrc(), wait.getDst())))
      waitFlag(wait, base, state);
    return WalkStep::Done;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    Pipe pipe = barrier.getPipe();
    for (unsigned base : unitBases(coresOfPipes(pipe, pipe))) {
      unsigned p = base + static_cast<unsigned>(pipe);
      state.known.unite(p, p, state.executed[p]);
    }
    return WalkStep::Done;
  }
  // Every pipe of a core drains: each knows all that every pipe of the core
  // ran before it.
  if (isa<BarrierAllOp>(op)) {
    for (unsigned base : unitBases(coresOfPipes(Pipe::s, Pipe::s)))
      for (size_t q = base; q < base + kNumPipes; ++q)
        for (size_t p = base; p < base + kNumPipes; ++p)
          state.known.unite(q, p, state.executed[p]);
    return WalkStep::Done;
  }
  return WalkStep::Enter;
}

namespace {

using ConsumerMap = Consumers::Map;

/// Per flag, the waits of both, and the first wait op known.
void uniteConsumer(Consumer &into, const Consumer &other) {
  into.waits.unite(other.waits);
  if (!into.waitOp)
    into.waitOp = other.waitOp;
}

/// The consumers of two paths, in `into`: one pass over the two sorted
/// maps, in place when they hold the same flags (mostly: the paths waited
/// for the same flags before they parted).
void uniteConsumers(ConsumerMap &into, const ConsumerMap &other) {
  if (into.size() == other.size() &&
      std::equal(
          into.begin(), into.end(), other.begin(),
          [](const auto &x, const auto &y) { return x.first == y.first; })) {
    const auto *y = other.begin();
    for (auto &x : into)
      uniteConsumer(x.second, (y++)->second);
    return;
  }
  const ConsumerMap &a = into, &b = other;
  ConsumerMap united;
  const auto *x = a.begin(), *y = b.begin();
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && x->first < y->first)) {
      united.insertOrAssign(x->first, Consumer(x->second));
      ++x;
      continue;
    }
    if (x == a.end() || y->first < x->first) {
      united.insertOrAssign(y->first, Consumer(y->second));
      ++y;
      continue;
    }
    Consumer both = x->second;
    uniteConsumer(both, y->second);
    united.insertOrAssign(x->first, std::move(both));
    ++x, ++y;
  }
  into = std::move(united);
}

} // namespace

std::optional<PathState> SyncChecker::merge(ArrayRef<PathState> states,
                                            Operation *at) {
  PathState merged;
  // The paths agree on the loops around the merge; the loop they leave (if
  // any) is not entered again without starting over, and no op after it
  // can name its induction variable: its entry goes.
  merged.iterations = states.front().iterations;
  if (auto loop = dyn_cast<scf::ForOp>(at))
    merged.iterations.erase(loop.getInductionVar());
  // The other core's units, in a function of one, stay empty on every path.
  const unsigned units = liveUnits();
  for (const PathState &s : states)
    for (size_t p = 0; p < units; ++p)
      merged.executed[p].unite(s.executed[p]);
  // What each path did not run of what some path ran: the same for every
  // knowledge merged below, so computed once.
  std::vector<Knowledge> notRun(states.size());
  for (auto [s, state] : llvm::enumerate(states))
    for (size_t p = 0; p < units; ++p)
      if (!merged.executed[p].empty())
        notRun[s][p] = merged.executed[p].minus(state.executed[p]);
  // Known at the merge: known on every path that ran it. Into `result`,
  // empty (fourteen sets, built in place rather than moved there).
  auto mergeKnowledge = [&](Knowledge &result, auto knowledgeOf) {
    for (size_t p = 0; p < units; ++p) {
      // A unit no path ran nor knows of (the other core's, in a kernel of
      // one) stays empty: skip the copies.
      if (merged.executed[p].empty() &&
          llvm::all_of(states, [&](const PathState &s) {
            return knowledgeOf(s)[p].empty();
          }))
        continue;
      // Known alike on every path: what no path ran is in no path's notRun
      // (the merge's executed is what the paths ran), so the intersection
      // below is that knowledge (a copy, not the intersections).
      const IntervalSet &front = knowledgeOf(states.front())[p];
      if (llvm::all_of(states.drop_front(), [&](const PathState &s) {
            return knowledgeOf(s)[p] == front;
          })) {
        result[p] = front;
        continue;
      }
      bool first = true;
      for (auto [s, state] : llvm::enumerate(states)) {
        IntervalSet onPath = knowledgeOf(state)[p];
        onPath.unite(notRun[s][p]);
        result[p] = first ? std::move(onPath) : result[p].intersect(onPath);
        first = false;
      }
    }
  };
  for (size_t q = 0; q < units; ++q) {
    // A row every path shares (or none allocated) merges to itself (as
    // mergeKnowledge would, every path knowing alike).
    const PathState &front = states.front();
    if (llvm::all_of(states.drop_front(), [&](const PathState &s) {
          return s.known.shares(q, front.known);
        })) {
      merged.known.share(q, front.known);
      continue;
    }
    mergeKnowledge(
        merged.known.own(q),
        [&](const PathState &s) -> const Knowledge & { return s.known[q]; });
  }
  // Flags must be balanced: the same ones set on every path.
  for (const PathState &s : states) {
    for (const auto &[key, flag] : s.flags) {
      bool everywhere = llvm::all_of(states, [&, k = key](const PathState &o) {
        return o.flags.count(k) != 0;
      });
      if (!everywhere && reportedFlags.insert(flag.setOp).second) {
        failedAny = true;
        InFlightDiagnostic diag =
            at->emitError()
            << "unbalanced flags: event " << std::get<2>(key) << " of <"
            << unitText(std::get<0>(key)) << " -> "
            << unitText(std::get<1>(key))
            << "> is set on some paths through this op and not on others";
        diag.attachNote(flag.setOp->getLoc()) << "set here";
      }
      if (everywhere && !merged.flags.count(key)) {
        // One capture on every path (raised before they parted) merges to
        // itself: shared, not merged.
        bool shared = llvm::all_of(states, [&, k = key](const PathState &o) {
          return o.flags.at(k).knowledge == flag.knowledge;
        });
        std::shared_ptr<const Capture> combined = flag.knowledge;
        if (!shared) {
          Knowledge knowledge;
          mergeKnowledge(knowledge,
                         [&, k = key](const PathState &o) -> const Capture & {
                           return *o.flags.at(k).knowledge;
                         });
          combined = std::make_shared<const Capture>(std::move(knowledge));
        }
        merged.flags.insertOrAssign(key, FlagState{combined, flag.setOp});
      }
    }
  }
  // A later set must be ordered after the consumer of every path: the
  // first path's, and each other's merged in (both sorted by key).
  merged.consumers = states.front().consumers;
  for (const PathState &s : states.drop_front())
    if (!merged.consumers.shares(s.consumers))
      uniteConsumers(merged.consumers.own(), *s.consumers);
  mergeCounters(states, at, merged);
  // Every access that may have run stays a candidate.
  SmallVector<const History *> histories;
  for (const PathState &s : states)
    histories.push_back(&s.history);
  merged.history = History::unite(histories);
  return merged;
}
