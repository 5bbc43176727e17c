//===- OrderChecker.cpp - Path-wise happens-before of the syncs -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The walk of OrderChecker.h: one step per op, a copy of the state per
// branch and loop iteration, merged after the op.
//
//===----------------------------------------------------------------------===//

#include "OrderChecker.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// Makes `sources` those of `access`, grouped by pipe in the order they
/// come within each pipe, and notes each pipe's run (OrderChecker::access
/// checks them pipe by pipe):
///
///   sources  (s4, mte2) (s7, v) (s9, mte2)
///   access   (s7, v) (s4, mte2) (s9, mte2)   runs: v ends at 1, mte2 at 3
void setSourcesByPipe(DependencyAccess &access,
                      ArrayRef<DependencySource> sources) {
  access.pipeRuns.clear();
  std::array<unsigned, kNumPipes + 1> firstOf{};
  for (const DependencySource &source : sources)
    ++firstOf[source.pipe + 1];
  for (unsigned p = 0; p < kNumPipes; ++p)
    firstOf[p + 1] += firstOf[p];
  for (unsigned p = 0; p < kNumPipes; ++p)
    if (firstOf[p + 1] > firstOf[p])
      access.pipeRuns.push_back({p, firstOf[p + 1]});
  access.sources.resize(sources.size());
  for (const DependencySource &source : sources)
    access.sources[firstOf[source.pipe]++] = source;
}

/// Notes that pipe `q` looks a source's runs up in body op `at`, in the
/// source's list of pipes and the last body op where each does.
void noteLookUp(SmallVectorImpl<std::pair<unsigned, size_t>> &lookUps,
                unsigned q, size_t at) {
  auto it = llvm::find_if(lookUps, [&](const auto &lookUp) {
    return lookUp.first == q;
  });
  if (it == lookUps.end())
    lookUps.push_back({q, at});
  else
    it->second = std::max(it->second, at);
}

using Interval = IntervalSet::Interval;

/// Whether `known` holds every number of `captured` (not empty). A capture
/// that adds something mostly adds a later number than any known: its last
/// interval ends later (they are disjoint and not adjacent).
bool knowsAll(const IntervalSet &known, const IntervalSet &captured) {
  ArrayRef<Interval> intervals = known.getIntervals();
  return !intervals.empty() &&
         intervals.back().second >= captured.getIntervals().back().second &&
         known.includes(captured);
}

} // namespace

DependencyIndex::DependencyIndex(func::FuncOp func,
                                 const TargetDescription &target,
                                 ArrayRef<Dependency> dependencies)
    : tables(std::make_unique<Tables>()) {
  // A pipe that orders its own accesses needs no check between them.
  std::array<bool, kNumPipes> inOrder{};
  for (unsigned p = 0; p < kNumPipes; ++p)
    inOrder[p] = !target.needsBarrier(static_cast<Pipe>(p));
  // A source is checked by its dependents only: past the body op that holds
  // the last of them, a walk forgets it.
  BodyIndex body(func);
  SmallVector<size_t> lastDependent;
  // By source: each pipe that looks it up, and the last body op where it
  // does (lookedUpBy by index).
  SmallVector<SmallVector<std::pair<unsigned, size_t>, 2>> lastLookUp;
  // The sources of one later op, then its entry: an entry made for a
  // source can move the map's others.
  SmallVector<DependencySource> sources;
  // Each later op has an entry, and mostly is an earlier one too: room for
  // the later ops (grown as it went, the table moved every entry at each
  // doubling), twice over: every step of a walk looks its op up, most ops
  // are none of these, and a look-up that misses probes until an empty
  // bucket (the seed-1 1k kernel: OrderChecker::step 171.3 -> 169.4 M
  // instructions; four times over, 168.9).
  size_t laterOps = 0;
  for (auto [i, dep] : llvm::enumerate(dependencies))
    laterOps += i == 0 || dep.later != dependencies[i - 1].later;
  tables->accesses.reserve(laterOps * 2);
  while (!dependencies.empty()) {
    Operation *later = dependencies.front().later;
    size_t count = llvm::find_if(dependencies, [&](const Dependency &dep) {
                     return dep.later != later;
                   }) - dependencies.begin();
    unsigned q = pipeOf(later);
    size_t laterAt = body.of(later);
    sources.clear();
    for (const Dependency &dep : dependencies.take_front(count)) {
      DependencyAccess &earlier = tables->accesses[dep.earlier];
      if (!earlier.isSource) {
        earlier.pipe = pipeOf(dep.earlier);
        earlier.isSource = true;
        earlier.source = tables->sourcePipes.size();
        tables->sourcePipes.push_back(earlier.pipe);
        tables->highestRun.push_back(0);
        lastLookUp.emplace_back();
        tables->lastDependentOp.push_back(body.body()[laterAt]);
        lastDependent.push_back(laterAt);
      } else if (laterAt > lastDependent[earlier.source]) {
        lastDependent[earlier.source] = laterAt;
        tables->lastDependentOp[earlier.source] = body.body()[laterAt];
      }
      if (earlier.pipe != q || !inOrder[q]) {
        sources.push_back({earlier.source, earlier.pipe});
        noteLookUp(lastLookUp[earlier.source], q, laterAt);
      }
    }
    DependencyAccess &laterAccess = tables->accesses[later];
    laterAccess.pipe = q;
    // Should the op come again later in the list, its sources so far stay.
    sources.insert(sources.begin(), laterAccess.sources.begin(),
                   laterAccess.sources.end());
    setSourcesByPipe(laterAccess, sources);
    dependencies = dependencies.drop_front(count);
  }
  tables->lookedUpBy.reserve(lastLookUp.size());
  for (ArrayRef<std::pair<unsigned, size_t>> lookUps : lastLookUp) {
    auto &pipes = tables->lookedUpBy.emplace_back();
    for (auto [q, at] : lookUps)
      pipes.push_back({q, body.body()[at]});
  }
}

DependencyIndex::~DependencyIndex() = default;
DependencyIndex::DependencyIndex(DependencyIndex &&) = default;

OrderChecker::OrderChecker(const TargetDescription &target,
                           const DependencyIndex &index, const BodyIndex &body)
    : dependencies(index.getTables()), target(target) {
  lastDependent.reserve(dependencies.lastDependentOp.size());
  for (Operation *op : dependencies.lastDependentOp)
    lastDependent.push_back(body.of(op));
  lastLookUp.reserve(dependencies.lookedUpBy.size());
  for (const auto &pipes : dependencies.lookedUpBy) {
    auto &last = lastLookUp.emplace_back();
    for (auto [q, op] : pipes)
      last.push_back({q, body.of(op)});
  }
}

OrderChecker::Checkpoints::Checkpoints(ArrayRef<Operation *> body,
                                       size_t opsBetween)
    : slotOf(body.size(), kNoSlot) {
  size_t opsSince = opsBetween;
  for (size_t i = 0; i < body.size(); ++i) {
    if (opsSince >= opsBetween || isLoopOp(body[i])) {
      slotOf[i] = places.size();
      places.push_back(i);
      opsSince = 0;
    }
    // Counted up to opsBetween only: past it the next op gets a checkpoint
    // whatever the count (a walk of every nested op, at every build of the
    // checkpoints, cost the pruning's states most of their set-up).
    body[i]->walk([&](Operation *) {
      return ++opsSince < opsBetween ? WalkResult::advance()
                                     : WalkResult::interrupt();
    });
  }
  states.resize(places.size());
}

void OrderChecker::Checkpoints::takeUpTo(Checkpoints &from, size_t last) {
  for (size_t i : placesIn(0, last + 1)) {
    assert(from.sitsAt(i) && "the bodies differ before `last`");
    (*this)[i] = std::move(from[i]);
  }
}

/// Whether the source pipe of `key` knows that the waits which consumed the
/// flag's previous set have run: a flag is one bit, so a set that may run
/// before them is lost and a later wait hangs.
bool OrderChecker::consumed(const Path &path, const FlagKey &key) {
  return consumed(path, key, path.consumers.of(key));
}

/// The same, given the flag's consumers.
bool OrderChecker::consumed(const Path &path, const FlagKey &key,
                            ArrayRef<FlagConsumers::Entry> consumers) {
  const IntervalSet &known = path.known[std::get<0>(key)][std::get<1>(key)];
  return llvm::all_of(consumers, [&](const FlagConsumers::Entry &consumer) {
    return known.contains(consumer.seq);
  });
}

bool OrderChecker::setFlag(SetFlagOp set, Path &path) {
  unsigned p = static_cast<unsigned>(set.getSrc());
  unsigned q = static_cast<unsigned>(set.getDst());
  int64_t event = set.getEvent();
  auto safe = [&](int64_t id) {
    return !path.flags.count({p, q, id}) && consumed(path, {p, q, id});
  };
  if (!safe(event)) {
    if (!survey) {
      failure = Failure::Flags;
      overrunSet = set;
      return false;
    }
    unsigned free = 0;
    int64_t count = target.getNumEventIds(set.getSrc(), set.getDst());
    for (unsigned id = 0; id < count; ++id)
      if (safe(id))
        free |= 1u << id;
    SmallVector<Operation *> pending;
    for (const FlagConsumers::Entry &consumer :
         path.consumers.of({p, q, event}))
      if (!path.known[p][q].contains(consumer.seq))
        pending.push_back(survey->waitOps.lookup(q, consumer.seq));
    survey->repair(set, free, pending);
    event = set.getEvent(); // the repair may have changed it
  }
  // What p issued includes what p knows of itself (a pipe learns only
  // numbers that ran), so the set's own numbers are those it issued.
  assert(path.executed[p].includes(path.known[p][p]));
  path.flags[{p, q, event}].assign(path.known.snapshot(p), p,
                                   path.executed[p]);
  return true;
}

void OrderChecker::waitFlag(WaitFlagOp wait, FlagMap<Capture, 2>::iterator it,
                            Path &path) {
  FlagKey key = it->first;
  unsigned q = std::get<1>(key);
  // Most of what a set captured, q knows already: its row is copied (when
  // shared) only for a pipe of which the capture adds something.
  PipeSets *knownByQ = nullptr;
  for (unsigned p = 0; p < kNumPipes; ++p) {
    const IntervalSet &captured = it->second[p];
    if (captured.empty() ||
        knowsAll(knownByQ ? (*knownByQ)[p] : path.known[q][p], captured))
      continue;
    if (!knownByQ)
      knownByQ = &path.known.own(q);
    // Mostly the capture is a later state of what q knew: a copy then.
    IntervalSet &known = (*knownByQ)[p];
    if (captured.includes(known))
      known = captured;
    else
      known.unite(captured);
  }
  path.flags.erase(it);
  // What q now knows may cover consumers of flags q sets: forget them, so
  // that states stay small (knowledge only grows along a path, and a merge
  // keeps the consumers of the paths that did not know them).
  path.consumers.eraseSetBy(
      q, [&](const FlagKey &flag, ArrayRef<FlagConsumers::Entry> waits) {
        return consumed(path, flag, waits);
      });
  int64_t seq = kFirstWaitSeq + ++waitCounters[q];
  path.executed[q].insertOne(seq);
  path.consumers.assignOne(key, seq);
  if (survey)
    survey->waitOps(q, seq) = wait;
}

bool OrderChecker::access(const DependencyAccess &info, Path &path) {
  unsigned q = info.pipe;
  int64_t seq = ++counters[q];
  // The sources are grouped by pipe. Every access number of pipe p run so
  // far is in [1, counters[p]]: where q knows all of that, the sources of p
  // need no look-up.
  const PipeSets &knownByQ = path.known[q];
  unsigned begin = 0;
  for (auto [p, end] : info.pipeRuns) {
    const IntervalSet &known = knownByQ[p];
    ArrayRef<Interval> intervals = known.getIntervals();
    // What q knows of p from the start: [1, knownFromStart).
    int64_t knownFromStart = !intervals.empty() && intervals.front().first <= 1
                                 ? intervals.front().second
                                 : 0;
    unsigned first = std::exchange(begin, end);
    if (knownFromStart > counters[p])
      continue;
    for (const DependencySource &source :
         ArrayRef(info.sources).slice(first, end - first)) {
      // No run of the source lies past what q knows from the start: no
      // look-up either.
      if (knownFromStart > dependencies.highestRun[source.id])
        continue;
      const LatestRuns::Seqs *latest = path.latest.find(source.id);
      if (!latest)
        continue;
      for (int64_t earlier : *latest)
        if (!known.contains(earlier)) {
          failure = Failure::Unordered;
          return false;
        }
    }
  }
  // Only a source's runs are looked up again (a fold would drop the others).
  if (info.isSource) {
    path.latest.assign(info.source, seq);
    int64_t &highest = dependencies.highestRun[info.source];
    highest = std::max(highest, seq);
  }
  path.executed[q].insertOne(seq);
  return true;
}

/// One op of the walk; the structure (branches, loops) is RegionWalker's.
WalkStep OrderChecker::step(Operation &op, Path &path) {
  if (++steps > stepBudget) {
    failure = Failure::Budget;
    return WalkStep::Stop;
  }
  // Most steps are no syncs: an access, or an op walked into or over. The
  // syncs are stepped apart (sharing one function, the two kinds of step
  // saved and restored each other's registers at every step).
  if (!isa<SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp>(op)) {
    auto it = dependencies.accesses.find(&op);
    if (it != dependencies.accesses.end())
      return access(it->second, path) ? WalkStep::Done : WalkStep::Stop;
    // An op without regions (a constant, a view) would be a leaf.
    return op.getNumRegions() ? WalkStep::Enter : WalkStep::Done;
  }
  // A disabled sync is stepped over (only syncs are disabled).
  if (disabled->contains(&op))
    return WalkStep::Done;
  return syncStep(op, path);
}

WalkStep OrderChecker::syncStep(Operation &op, Path &path) {
  if (auto set = dyn_cast<SetFlagOp>(op))
    return setFlag(set, path) ? WalkStep::Done : WalkStep::Stop;
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    FlagKey key{static_cast<unsigned>(wait.getSrc()),
                static_cast<unsigned>(wait.getDst()), wait.getEvent()};
    auto flag = path.flags.find(key);
    if (flag == path.flags.end()) {
      if (survey) // a survey goes on past what it cannot fix
        return WalkStep::Done;
      failure = Failure::Flags;
      return WalkStep::Stop;
    }
    waitFlag(wait, flag, path);
    return WalkStep::Done;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    unsigned p = static_cast<unsigned>(barrier.getPipe());
    if (!path.known[p][p].includes(path.executed[p]))
      path.known.own(p)[p].unite(path.executed[p]);
    return WalkStep::Done;
  }
  // barrier_all: every pipe knows all that ran before; so every wait ran,
  // and no flag's next set can overrun it.
  for (unsigned q = 0; q < kNumPipes; ++q) {
    PipeSets &knownByQ = path.known.own(q);
    for (unsigned p = 0; p < kNumPipes; ++p)
      knownByQ[p].unite(path.executed[p]);
  }
  path.consumers.clear();
  return WalkStep::Done;
}

void OrderChecker::beginIteration(Operation &loop, unsigned iteration,
                                  Path &) {
  if (!survey)
    return;
  if (iteration == 0) {
    survey->loops.push_back({&loop, false});
  } else if (!survey->loops.back().second) {
    survey->loops.back().second = true;
    ++survey->repeating;
  }
}

void OrderChecker::endLoop(Operation &loop) {
  if (!survey || survey->loops.empty() || survey->loops.back().first != &loop)
    return;
  if (survey->loops.pop_back_val().second)
    --survey->repeating;
}

OrderChecker::Checkpoint OrderChecker::checkpoint(const Path &path) const {
  Checkpoint state{path, counters, waitCounters, {}};
  if (survey)
    for (const FlagConsumers::Entry &consumer : path.consumers)
      state.consumerWaits.push_back(
          survey->waitOps.lookup(consumer.dst, consumer.seq));
  return state;
}

void OrderChecker::nameConsumerWaits(const Checkpoint &from) {
  const Operation *const *wait = from.consumerWaits.begin();
  for (const FlagConsumers::Entry &consumer : from.path.consumers)
    survey->waitOps(consumer.dst, consumer.seq) =
        const_cast<Operation *>(*wait++);
}

bool OrderChecker::sameConsumerWaits(const Path &path,
                                     const Checkpoint &known) const {
  // sameFuture found the same flags with as many consumers each.
  const Operation *const *wait = known.consumerWaits.begin();
  for (const FlagConsumers::Entry &consumer : path.consumers)
    if (survey->waitOps.lookup(consumer.dst, consumer.seq) != *wait++)
      return false;
  return true;
}

bool OrderChecker::knownToLookUps(const Path &path, SourceId source,
                                  int64_t seq, size_t at) const {
  unsigned p = dependencies.sourcePipes[source];
  return llvm::all_of(lastLookUp[source], [&](const auto &lookUp) {
    return lookUp.second < at || path.known[lookUp.first][p].contains(seq);
  });
}

/// Whether a walk would go on from `a` as it goes on from `b`. Every set
/// operation of the walk acts on each sequence number on its own, and the
/// only numbers ever looked up again are the latest ones of the dependency
/// sources still ahead: two states that agree on those (and on the flags in
/// flight) have the same future, whatever they know of older numbers.
/// Nor does it matter who knows a latest run where every pipe that will
/// look it up knows it already in both: knowledge only grows along a path
/// (and a merge of paths that all know it knows it), so each of those
/// look-ups passes in both. Pruning's walks end sooner for it: a left-out
/// sync's wait taught a pipe a run that pipes which never look it up learnt
/// from that pipe, and the walk went on until they learnt it again
/// (seed-1 1k kernel: 335,453 steps -> 308,888).
bool OrderChecker::sameFuture(const Path &a, const Path &b, size_t at) const {
  if (a.flags.size() != b.flags.size())
    return false;
  for (auto itA = a.flags.begin(), itB = b.flags.begin(); itA != a.flags.end();
       ++itA, ++itB)
    if (itA->first != itB->first)
      return false;
  // A row both states share (neither walk has changed it since one copied
  // the other's), or whose set of p's numbers is the same in both, knows
  // the same of a number of p in both; so does a flag.
  std::array<bool, kNumPipes> shared;
  for (unsigned q = 0; q < kNumPipes; ++q)
    shared[q] = a.known.shares(q, b.known);
  // Per pipe p (found when first asked, bit p of `compared`): the numbers
  // of p that some row or flag knows in one state and not in the other. A
  // latest run, the same number in both states, is then one look-up there,
  // not one per row and flag (the seed-1 1k kernel asks 153k of them).
  std::array<IntervalSet, kNumPipes> knownInOne;
  unsigned compared = 0;
  auto compare = [&](unsigned p) {
    if (compared & (1u << p))
      return;
    compared |= 1u << p;
    auto addDifference = [&](const IntervalSet &x, const IntervalSet &y) {
      if (x == y)
        return;
      auto add = [&](int64_t begin, int64_t end) {
        knownInOne[p].insert(begin, end);
      };
      IntervalSet::forEachMinus(x.getIntervals(), y.getIntervals(), add);
      IntervalSet::forEachMinus(y.getIntervals(), x.getIntervals(), add);
    };
    for (unsigned q = 0; q < kNumPipes; ++q)
      if (!shared[q])
        addDifference(a.known[q][p], b.known[q][p]);
    for (auto itA = a.flags.begin(), itB = b.flags.begin();
         itA != a.flags.end(); ++itA, ++itB)
      addDifference(itA->second[p], itB->second[p]);
  };
  // Who knows that `seqA` (in a) and `seqB` (in b) of pipe p finished.
  auto sameKnowledge = [&](unsigned p, int64_t seqA, int64_t seqB) {
    if (seqA == seqB) {
      compare(p);
      return !knownInOne[p].contains(seqA);
    }
    for (unsigned q = 0; q < kNumPipes; ++q)
      if (a.known[q][p].contains(seqA) != b.known[q][p].contains(seqB))
        return false;
    for (auto itA = a.flags.begin(), itB = b.flags.begin();
         itA != a.flags.end(); ++itA, ++itB)
      if (itA->second[p].contains(seqA) != itB->second[p].contains(seqB))
        return false;
    return true;
  };
  // The cheap tests first: most states that differ differ in the consumers
  // or in the latest numbers themselves.
  // Waits are only looked up again as the consumers of a flag; a disabled
  // wait renumbers the later ones, so compare who knows them, not numbers.
  // The same flags with as many waits each: the same flag in each entry.
  if (a.consumers.size() != b.consumers.size())
    return false;
  for (auto [consumerA, consumerB] : llvm::zip(a.consumers, b.consumers))
    if (!consumerA.isOf(consumerB.flag()))
      return false;
  for (auto [consumerA, consumerB] : llvm::zip(a.consumers, b.consumers))
    if (!sameKnowledge(consumerA.dst, consumerA.seq, consumerB.seq))
      return false;
  // The latest runs of the sources still ahead of body op `at` (a fold
  // may leave others below): read last, as finding them reads every one.
  auto ahead = [&](SourceId source) { return lastDependent[source] >= at; };
  SmallVector<std::pair<SourceId, const LatestRuns::Seqs *>> latestA;
  size_t sizeB = 0;
  a.latest.forEachKept(ahead,
                       [&](SourceId source, const LatestRuns::Seqs &seqs) {
                         latestA.push_back({source, &seqs});
                       });
  b.latest.forEachKept(
      ahead, [&](SourceId, const LatestRuns::Seqs &) { ++sizeB; });
  if (latestA.size() != sizeB)
    return false;
  for (auto [source, seqs] : latestA) {
    const LatestRuns::Seqs *other = b.latest.find(source);
    if (!other || *other != *seqs)
      return false;
  }
  // A latest run is the same number in both: sameKnowledge's first case,
  // here in the loop (a call per run cost more than the look-up).
  for (auto [source, seqs] : latestA) {
    unsigned p = dependencies.sourcePipes[source];
    compare(p);
    for (int64_t seq : *seqs)
      if (knownInOne[p].contains(seq) &&
          !(knownToLookUps(a, source, seq, at) &&
            knownToLookUps(b, source, seq, at)))
        return false;
  }
  return true;
}

/// Known at the merge: known on every path that ran it. Flags must be set
/// on every path or on none.
std::optional<Path> OrderChecker::merge(MutableArrayRef<Path> paths,
                                         Operation *) {
  Path merged;
  for (const Path &path : paths)
    for (unsigned p = 0; p < kNumPipes; ++p)
      merged.executed[p].unite(path.executed[p]);
  // A set alike on every path is the merge's: what one path did not run,
  // another did, so no number is added to it. The pipes whose sets are
  // alike (bit p), where `sharedWithFirst(i)` says path i holds the same
  // sets as the first (a row both share).
  constexpr unsigned kAllPipes = (1u << kNumPipes) - 1;
  auto alikePipes = [&](auto setsOf, auto sharedWithFirst) {
    unsigned alike = kAllPipes;
    for (size_t i = 1; i < paths.size() && alike; ++i) {
      if (sharedWithFirst(i))
        continue;
      for (unsigned p = 0; p < kNumPipes; ++p)
        if ((alike & (1u << p)) &&
            !(setsOf(paths[i])[p] == setsOf(paths[0])[p]))
          alike &= ~(1u << p);
    }
    return alike;
  };
  // Otherwise a number is known at the merge where some path ran it and
  // every path that ran it knew it: what some path ran, less what a path
  // ran and did not know. (A path knows only numbers it ran, so this is
  // the intersection over the paths of what each knew or did not run.)
  // `result` may be the last path's sets (`inPlace`): its alike sets are
  // the merge's already, and each other is replaced once computed.
  auto onEveryPath = [&](auto setsOf, unsigned alike, PipeSets &result,
                         bool inPlace) {
    for (unsigned p = 0; p < kNumPipes; ++p) {
      if (alike & (1u << p)) {
        if (!inPlace)
          result[p] = setsOf(paths[0])[p];
        continue;
      }
      // What the paths ran unknown, sorted by their starts (they may
      // overlap): each path's come in order, and one that starts before the
      // last is moved into place (a few intervals; sorting them after cost
      // more).
      SmallVector<Interval, 64> unknown;
      for (const Path &path : paths) {
        const IntervalSet &known = setsOf(path)[p];
        assert(path.executed[p].includes(known) &&
               "a path knows a number it did not run");
        IntervalSet::forEachMinus(
            path.executed[p].getIntervals(), known.getIntervals(),
            [&](int64_t begin, int64_t end) {
              unknown.push_back({begin, end});
              Interval *at = &unknown.back();
              for (; at != unknown.begin() && (at - 1)->first > begin; --at)
                *at = *(at - 1);
              *at = {begin, end};
            });
      }
      IntervalSet known;
      IntervalSet &into = inPlace ? known : result[p];
      assert(into.empty() && "the merge's row is new");
      IntervalSet::forEachMinus(merged.executed[p].getIntervals(), unknown,
                                [&](int64_t begin, int64_t end) {
                                  into.insert(begin, end);
                                });
      if (inPlace)
        result[p] = std::move(known);
    }
  };
  for (unsigned q = 0; q < kNumPipes; ++q) {
    auto rowOf = [&](const Path &path) -> const PipeSets & {
      return path.known[q];
    };
    unsigned alike = alikePipes(rowOf, [&](size_t i) {
      return paths[i].known.shares(q, paths.front().known);
    });
    // A row alike on every path (shared, mostly) is the merge's.
    if (alike == kAllPipes) {
      merged.known.share(q, paths.front().known);
      continue;
    }
    // The last path's row, where no other state holds it (the exits are
    // dropped after the merge), becomes the merge's: no new row, and its
    // alike sets are not copied.
    if (PipeSets *last = paths.back().known.sole(q)) {
      onEveryPath(rowOf, alike, *last, /*inPlace=*/true);
      merged.known.assign(q, paths.back().known.take(q));
      continue;
    }
    auto row = std::make_shared<PipeSets>();
    onEveryPath(rowOf, alike, *row, /*inPlace=*/false);
    merged.known.assign(q, std::move(row));
  }
  SmallVector<const Capture *, 4> captures(paths.size());
  for (const auto &[key, captured] : paths.front().flags) {
    bool everywhere = true;
    for (size_t i = 0; i < paths.size() && everywhere; ++i) {
      auto it = paths[i].flags.find(key);
      everywhere = it != paths[i].flags.end();
      if (everywhere)
        captures[i] = &it->second;
    }
    if (!everywhere) {
      // A repair walk goes on past a flag one path set and another did
      // not (a pair it moved on one branch only, say): the next one checks.
      if (survey)
        continue;
      failure = Failure::Flags;
      return std::nullopt;
    }
    // A flag set before the branch or loop and waited for on no path: the
    // same capture on every path.
    if (llvm::all_of(ArrayRef(captures).drop_front(),
                     [&](const Capture *other) {
                       return other->sameAs(captured);
                     })) {
      merged.flags[key] = captured;
      continue;
    }
    unsigned source = std::get<0>(key);
    auto captureOf = [&](const Path &path) -> const Capture & {
      return *captures[&path - paths.data()];
    };
    auto row = std::make_shared<PipeSets>();
    onEveryPath(captureOf,
                alikePipes(captureOf, [](size_t) { return false; }), *row,
                /*inPlace=*/false);
    const IntervalSet &own = (*row)[source];
    merged.flags[key].assign(row, source, own);
  }
  // A path's consumers of a flag have no repeats.
  merged.consumers = paths.front().consumers;
  for (const Path &path : paths.drop_front())
    merged.consumers.addAll(path.consumers);
  for (const Path &path : paths) {
    if (path.flags.size() != merged.flags.size() && !survey) {
      failure = Failure::Flags;
      return std::nullopt;
    }
  }
  SmallVector<const LatestRuns *, 4> latest;
  for (const Path &path : paths)
    latest.push_back(&path.latest);
  merged.latest = LatestRuns::merge(latest);
  return merged;
}
