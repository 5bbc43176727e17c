//===- Pruning.cpp - Drop inserted syncs others imply ---------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// dsaplan-insert-sync decides its syncs block by block; a chain through
// other pipes, through the branches of an scf.if or the iterations of a loop
// can make one of them unnecessary. This file checks, path-wise, whether a
// set of syncs orders every dependency, and drops the inserted syncs one at
// a time while it still does.
//
// The check follows the hardware the way dsaplan-verify-sync does (and is
// written apart from it, so that the verifier stays an independent check):
// every access gets a sequence number of its pipe; each pipe q knows, for
// every pipe p, a set of p's sequence numbers that have finished:
//
//   set_flag <p -> q>   captures what p issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own issued instructions finished for p.
//
// Paths: scf.if along both branches, loops unrolled three times and left
// after zero to three iterations; at a merge a sequence number stays known
// only where it is known on every path that ran it.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pruning.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr unsigned kPipes = 7;
constexpr int kIterations = 3;

/// Sequence numbers as disjoint half-open ranges keyed by their start.
class SeqRanges {
public:
  bool contains(int64_t seq) const {
    auto it = ranges.upper_bound(seq);
    return it != ranges.begin() && seq < std::prev(it)->second;
  }
  void insert(int64_t lo, int64_t hi) {
    auto it = ranges.upper_bound(lo);
    if (it != ranges.begin() && std::prev(it)->second >= lo) {
      --it;
      lo = it->first;
      hi = std::max(hi, it->second);
      it = ranges.erase(it);
    }
    while (it != ranges.end() && it->first <= hi) {
      hi = std::max(hi, it->second);
      it = ranges.erase(it);
    }
    ranges.emplace(lo, hi);
  }
  void unite(const SeqRanges &other) {
    for (auto [lo, hi] : other.ranges)
      insert(lo, hi);
  }
  SeqRanges intersect(const SeqRanges &other) const {
    SeqRanges out;
    auto a = ranges.begin(), b = other.ranges.begin();
    while (a != ranges.end() && b != other.ranges.end()) {
      int64_t lo = std::max(a->first, b->first);
      int64_t hi = std::min(a->second, b->second);
      if (lo < hi)
        out.ranges.emplace(lo, hi);
      (a->second < b->second ? a : b)++;
    }
    return out;
  }
  SeqRanges minus(const SeqRanges &other) const {
    SeqRanges out;
    for (auto [lo, hi] : ranges) {
      int64_t cursor = lo;
      for (auto it = other.ranges.upper_bound(lo) == other.ranges.begin()
                         ? other.ranges.begin()
                         : std::prev(other.ranges.upper_bound(lo));
           it != other.ranges.end() && it->first < hi; ++it) {
        if (it->second <= cursor)
          continue;
        if (it->first > cursor)
          out.ranges.emplace(cursor, it->first);
        cursor = std::max(cursor, it->second);
      }
      if (cursor < hi)
        out.ranges.emplace(cursor, hi);
    }
    return out;
  }

private:
  std::map<int64_t, int64_t> ranges;
};

using PipeSets = std::array<SeqRanges, kPipes>;
using FlagKey = std::tuple<unsigned, unsigned, int64_t>;

struct Path {
  PipeSets executed;
  std::array<PipeSets, kPipes> known; // known[q][p]
  std::map<FlagKey, PipeSets> flags;
  /// The sequence numbers of the waits that consumed each flag's latest set
  /// (one per path that merged here): its next set must know them finished.
  DenseMap<FlagKey, SmallVector<int64_t, 2>> consumers;
  /// The sequence numbers of each dependency source's latest executions
  /// (one per path that merged here).
  DenseMap<Operation *, SmallVector<int64_t, 1>> latest;
};

unsigned pipeOf(Operation *op) { return static_cast<unsigned>(*getOpPipe(op)); }

/// Waits are numbered apart from accesses, so that a disabled wait does not
/// shift the numbers of the accesses after it (checkpoints compare those).
constexpr int64_t kFirstWaitSeq = int64_t(1) << 40;

/// A walk in repair mode calls `repair` on each set_flag that may overrun
/// its flag, with the ids free at this execution of it (bit k: id k) and
/// the waits of its flag it may run before; `repair` may change the set's
/// id (the walk goes on with the new one) or add syncs for the next walk.
struct EventIdSurvey {
  llvm::function_ref<void(SetFlagOp, unsigned, ArrayRef<Operation *>)> repair;
  /// The wait op of each wait sequence number of each pipe.
  DenseMap<std::pair<unsigned, int64_t>, Operation *> waitOps;
};

class OrderChecker {
public:
  OrderChecker(ArrayRef<Dependency> dependencies, ArrayRef<Operation *> body) {
    for (const Dependency &dep : dependencies) {
      sourcesOf[dep.later].push_back(dep.earlier);
      accesses.insert(dep.earlier);
      accesses.insert(dep.later);
    }
    // A source is checked by its dependents only: past the body op that
    // holds the last of them, the walk forgets it.
    DenseMap<Operation *, size_t> bodyIndex;
    for (size_t i = 0; i < body.size(); ++i)
      bodyIndex[body[i]] = i;
    Block *entry = body.empty() ? nullptr : body.front()->getBlock();
    for (const Dependency &dep : dependencies) {
      size_t &last = lastDependent[dep.earlier];
      last = std::max(last,
                      bodyIndex.lookup(entry->findAncestorOpInBlock(*dep.later)));
    }
  }

  /// The state before an op of the function body.
  struct Checkpoint {
    Path path;
    std::array<int64_t, kPipes> counters{};
    std::array<int64_t, kPipes> waitCounters{};
  };
  /// Checkpoints before every kStride-th op of the function body.
  using Checkpoints = std::vector<std::optional<Checkpoint>>;
  static constexpr size_t kStride = 8;

  /// Whether every dependency is ordered with the syncs of `body` other
  /// than `disabled`, and every flag is balanced. The walk starts at op
  /// `start` of the body from its checkpoint (which must exist and must not
  /// depend on `disabled`), and records new checkpoints after it into
  /// `recorded`. Past body op `lastChanged` (the last one holding a sync
  /// disabled since `checkpoints` were recorded) it stops as soon as it
  /// meets a checkpoint with the same future.
  bool ordered(ArrayRef<Operation *> body,
               const llvm::DenseSet<Operation *> &disabled,
               const Checkpoints &checkpoints, size_t start, size_t lastChanged,
               Checkpoints &recorded) {
    this->disabled = &disabled;
    Path path;
    counters.fill(0);
    waitCounters.fill(0);
    if (start > 0) {
      path = checkpoints[start]->path;
      counters = checkpoints[start]->counters;
      waitCounters = checkpoints[start]->waitCounters;
    }
    for (size_t i = start; i < body.size(); ++i) {
      recordedEnd = i;
      if (i % kStride == 0) {
        // Back on the course of the run that recorded the checkpoint: the
        // rest of this walk would go as that one did, and that one passed.
        if (i > lastChanged && checkpoints[i] &&
            sameFuture(path, checkpoints[i]->path))
          return true;
        recorded[i] = Checkpoint{path, counters, waitCounters};
      }
      if (!walkOp(*body[i], path))
        return false;
      for (auto it = path.latest.begin(); it != path.latest.end();) {
        auto current = it++;
        if (lastDependent.lookup(current->first) <= i)
          path.latest.erase(current);
      }
    }
    recordedEnd = body.size();
    return path.flags.empty();
  }

  /// The checkpoints the last call of `ordered` recorded are those of ops
  /// before this index.
  size_t recordedEnd = 0;
  /// Ops walked so far over all calls, and how many they may be.
  int64_t steps = 0, stepBudget = 0;
  /// Set when a walk stopped because the budget ran out.
  bool exhausted = false;
  /// When set, the walk surveys event ids instead of checking: it goes on
  /// past an unsafe set and does not check dependencies.
  EventIdSurvey *survey = nullptr;

private:
  bool walkBlock(Block &block, Path &path) {
    for (Operation &op : block)
      if (!walkOp(op, path))
        return false;
    return true;
  }
  bool walkOp(Operation &op, Path &path);
  static bool sameFuture(const Path &a, const Path &b);

  bool access(Operation *op, Path &path);
  bool setFlag(SetFlagOp set, Path &path);
  void waitFlag(WaitFlagOp wait, Path &path);
  static bool consumed(const Path &path, const FlagKey &key);
  std::optional<Path> merge(ArrayRef<Path> paths);

  DenseMap<Operation *, SmallVector<Operation *, 2>> sourcesOf;
  DenseMap<Operation *, size_t> lastDependent;
  llvm::DenseSet<Operation *> accesses;
  const llvm::DenseSet<Operation *> *disabled = nullptr;
  std::array<int64_t, kPipes> counters{};
  std::array<int64_t, kPipes> waitCounters{};
};

/// Whether the source pipe of `key` knows that the waits which consumed the
/// flag's previous set have run: a flag is one bit, so a set that may run
/// before them is lost and a later wait hangs.
bool OrderChecker::consumed(const Path &path, const FlagKey &key) {
  auto it = path.consumers.find(key);
  if (it == path.consumers.end())
    return true;
  auto [p, q, id] = key;
  return llvm::all_of(it->second, [&, p = p, q = q](int64_t seq) {
    return path.known[p][q].contains(seq);
  });
}

bool OrderChecker::setFlag(SetFlagOp set, Path &path) {
  unsigned p = static_cast<unsigned>(set.getSrc());
  unsigned q = static_cast<unsigned>(set.getDst());
  auto safe = [&](int64_t id) {
    return !path.flags.count({p, q, id}) && consumed(path, {p, q, id});
  };
  if (!safe(set.getEvent())) {
    if (!survey)
      return false;
    unsigned free = 0;
    for (unsigned id = 0; id < kNumEventIds; ++id)
      if (safe(id))
        free |= 1u << id;
    SmallVector<Operation *> pending;
    auto consumers = path.consumers.find({p, q, set.getEvent()});
    if (consumers != path.consumers.end())
      for (int64_t seq : consumers->second)
        if (!path.known[p][q].contains(seq))
          pending.push_back(survey->waitOps.lookup({q, seq}));
    survey->repair(set, free, pending);
  }
  PipeSets captured = path.known[p];
  captured[p].unite(path.executed[p]);
  path.flags[{p, q, set.getEvent()}] = std::move(captured);
  return true;
}

void OrderChecker::waitFlag(WaitFlagOp wait, Path &path) {
  FlagKey key{static_cast<unsigned>(wait.getSrc()),
              static_cast<unsigned>(wait.getDst()), wait.getEvent()};
  auto it = path.flags.find(key);
  unsigned q = std::get<1>(key);
  for (unsigned p = 0; p < kPipes; ++p)
    path.known[q][p].unite(it->second[p]);
  path.flags.erase(it);
  // What q now knows may cover consumers of flags q sets: forget them, so
  // that states stay small (knowledge only grows along a path, and a merge
  // keeps the consumers of the paths that did not know them).
  SmallVector<FlagKey> covered;
  for (const auto &[flag, seqs] : path.consumers)
    if (std::get<0>(flag) == q && consumed(path, flag))
      covered.push_back(flag);
  for (const FlagKey &flag : covered)
    path.consumers.erase(flag);
  int64_t seq = kFirstWaitSeq + ++waitCounters[q];
  path.executed[q].insert(seq, seq + 1);
  path.consumers[key].assign(1, seq);
  if (survey)
    survey->waitOps[{q, seq}] = wait;
}

bool OrderChecker::access(Operation *op, Path &path) {
  unsigned q = pipeOf(op);
  int64_t seq = ++counters[q];
  for (Operation *source : sourcesOf.lookup(op)) {
    unsigned p = pipeOf(source);
    bool inOrder = p == q && static_cast<Pipe>(p) == Pipe::s;
    for (int64_t earlier : path.latest.lookup(source))
      if (!inOrder && !path.known[q][p].contains(earlier))
        return false;
  }
  path.latest[op].assign(1, seq);
  path.executed[q].insert(seq, seq + 1);
  return true;
}

bool OrderChecker::walkOp(Operation &op, Path &path) {
  if (++steps > stepBudget) {
    exhausted = true;
    return false;
  }
  if (disabled->contains(&op))
    return true;
  if (auto set = dyn_cast<SetFlagOp>(op))
    return setFlag(set, path);
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    if (!path.flags.count({static_cast<unsigned>(wait.getSrc()),
                           static_cast<unsigned>(wait.getDst()),
                           wait.getEvent()}))
      return survey != nullptr; // a survey goes on past what it cannot fix
    waitFlag(wait, path);
    return true;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    unsigned p = static_cast<unsigned>(barrier.getPipe());
    path.known[p][p].unite(path.executed[p]);
    return true;
  }
  if (isa<BarrierAllOp>(op)) {
    // Every pipe knows all that ran before; so every wait ran, and no
    // flag's next set can overrun it.
    for (unsigned q = 0; q < kPipes; ++q)
      for (unsigned p = 0; p < kPipes; ++p)
        path.known[q][p].unite(path.executed[p]);
    path.consumers.clear();
    return true;
  }
  if (accesses.contains(&op))
    return access(&op, path);
  // scf.if and scf.index_switch run exactly one of their regions (an empty
  // else region runs nothing): each from the path before the op.
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    std::vector<Path> exits;
    for (Region &region : op.getRegions()) {
      exits.push_back(path);
      if (!region.empty() && !walkBlock(region.front(), exits.back()))
        return false;
    }
    std::optional<Path> merged = merge(exits);
    if (!merged)
      return false;
    path = std::move(*merged);
    return true;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    std::vector<Path> exits = {path};
    for (int i = 0; i < kIterations; ++i) {
      if (!walkBlock(*forOp.getBody(), path))
        return false;
      exits.push_back(path);
    }
    std::optional<Path> merged = merge(exits);
    if (!merged)
      return false;
    path = std::move(*merged);
    return true;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    std::vector<Path> exits;
    for (int i = 0; i < kIterations; ++i) {
      if (!walkBlock(whileOp.getBefore().front(), path))
        return false;
      exits.push_back(path);
      if (!walkBlock(whileOp.getAfter().front(), path))
        return false;
    }
    std::optional<Path> merged = merge(exits);
    if (!merged)
      return false;
    path = std::move(*merged);
    return true;
  }
  for (Region &region : op.getRegions())
    for (Block &block : region)
      if (!walkBlock(block, path))
        return false;
  return true;
}

/// Whether a walk would go on from `a` as it goes on from `b`. Every set
/// operation of the walk acts on each sequence number on its own, and the
/// only numbers ever looked up again are the latest ones of the dependency
/// sources still ahead: two states that agree on those (and on the flags in
/// flight) have the same future, whatever they know of older numbers.
bool OrderChecker::sameFuture(const Path &a, const Path &b) {
  if (a.latest.size() != b.latest.size() || a.flags.size() != b.flags.size())
    return false;
  for (auto itA = a.flags.begin(), itB = b.flags.begin(); itA != a.flags.end();
       ++itA, ++itB)
    if (itA->first != itB->first)
      return false;
  // Who knows that `seqA` (in a) and `seqB` (in b) of pipe p finished.
  auto sameKnowledge = [&](unsigned p, int64_t seqA, int64_t seqB) {
    for (unsigned q = 0; q < kPipes; ++q)
      if (a.known[q][p].contains(seqA) != b.known[q][p].contains(seqB))
        return false;
    for (auto itA = a.flags.begin(), itB = b.flags.begin();
         itA != a.flags.end(); ++itA, ++itB)
      if (itA->second[p].contains(seqA) != itB->second[p].contains(seqB))
        return false;
    return true;
  };
  for (const auto &[op, seqs] : a.latest) {
    auto other = b.latest.find(op);
    if (other == b.latest.end() || other->second != seqs)
      return false;
    for (int64_t seq : seqs)
      if (!sameKnowledge(pipeOf(op), seq, seq))
        return false;
  }
  // Waits are only looked up again as the consumers of a flag; a disabled
  // wait renumbers the later ones, so compare who knows them, not numbers.
  if (a.consumers.size() != b.consumers.size())
    return false;
  for (const auto &[key, seqsA] : a.consumers) {
    auto itB = b.consumers.find(key);
    if (itB == b.consumers.end() || itB->second.size() != seqsA.size())
      return false;
    for (auto [seqA, seqB] : llvm::zip(seqsA, itB->second))
      if (!sameKnowledge(std::get<1>(key), seqA, seqB))
        return false;
  }
  return true;
}

/// Known at the merge: known on every path that ran it. Flags must be set
/// on every path or on none.
std::optional<Path> OrderChecker::merge(ArrayRef<Path> paths) {
  Path merged;
  for (const Path &path : paths)
    for (unsigned p = 0; p < kPipes; ++p)
      merged.executed[p].unite(path.executed[p]);
  auto onEveryPath = [&](auto setsOf) {
    PipeSets result;
    for (unsigned p = 0; p < kPipes; ++p)
      for (size_t i = 0; i < paths.size(); ++i) {
        SeqRanges onPath = setsOf(paths[i])[p];
        onPath.unite(merged.executed[p].minus(paths[i].executed[p]));
        result[p] = i == 0 ? onPath : result[p].intersect(onPath);
      }
    return result;
  };
  for (unsigned q = 0; q < kPipes; ++q)
    merged.known[q] =
        onEveryPath([&](const Path &path) -> const PipeSets & { return path.known[q]; });
  for (const auto &[key, captured] : paths.front().flags) {
    if (!llvm::all_of(paths, [&, k = key](const Path &path) {
          return path.flags.count(k) != 0;
        })) {
      // A repair walk goes on past a flag one path set and another did
      // not (a pair it moved on one branch only, say): the next one checks.
      if (survey)
        continue;
      return std::nullopt;
    }
    merged.flags[key] = onEveryPath(
        [&, k = key](const Path &path) -> const PipeSets & { return path.flags.at(k); });
  }
  for (const Path &path : paths)
    for (const auto &[key, seqs] : path.consumers) {
      SmallVector<int64_t, 2> &into = merged.consumers[key];
      for (int64_t seq : seqs)
        if (!llvm::is_contained(into, seq))
          into.push_back(seq);
    }
  for (const Path &path : paths) {
    if (path.flags.size() != merged.flags.size() && !survey)
      return std::nullopt;
    for (const auto &[op, seqs] : path.latest)
      for (int64_t seq : seqs)
        if (!llvm::is_contained(merged.latest[op], seq))
          merged.latest[op].push_back(seq);
  }
  return merged;
}

} // namespace

namespace {

/// Makes the pipes of a flag meet after `wait`: the waiting pipe sets a
/// flag back that the setting pipe waits for at once, so that every later
/// set of the flag runs after this wait. A set that no event id can order
/// after the wait before it (nothing else makes its pipe wait for the
/// waiting one) needs this:
///
///   scf.for ... {
///     wait_flag <mte3 -> mte2>, 0
///     set_flag <mte2 -> mte3>, 0     // the handshake
///     wait_flag <mte2 -> mte3>, 0
///     ...
///     set_flag <mte3 -> mte2>, 0     // now after the wait above
///   }
void addHandshake(WaitFlagOp wait, int64_t event, SyncGroup &group) {
  OpBuilder b(wait->getBlock(), std::next(wait->getIterator()));
  auto id = b.getI64IntegerAttr(event); // moved by the next round if unsafe
  group.push_back(SetFlagOp::create(b, wait.getLoc(), wait.getDstAttr(),
                                    wait.getSrcAttr(), id));
  group.push_back(WaitFlagOp::create(b, wait.getLoc(), wait.getDstAttr(),
                                     wait.getSrcAttr(), id));
}

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
    if (isa<WaitFlagOp>(op)) {
      OpBuilder b(op);
      kept.push_back(BarrierAllOp::create(b, op->getLoc()));
    }
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

} // namespace

void mlir::dsaplan::assignSafeEventIds(func::FuncOp func,
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
  DenseMap<Operation *, unsigned> moves; // per pair, by its first op
  llvm::DenseSet<Operation *> handshaken;
  // How deep in a chain of handshakes each handshake op is: a handshake
  // after the wait of another may be needed (that wait is what a set must
  // follow), but the chain stops at kMaxHandshakeDepth.
  constexpr unsigned kMaxHandshakeDepth = 2;
  DenseMap<Operation *, unsigned> handshakeDepth;
  constexpr int kRounds = 24;
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
    if (!fixedThisRound.insert(pair.front()).second)
      return;
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
                                 (1u << kNumEventIds) - 1);
        if (back < 0)
          continue;
        addHandshake(waitOp, back, groups[into]);
        for (size_t i = before; i < groups[into].size(); ++i)
          handshakeDepth[groups[into][i]] = depth + 1;
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
    setEventId(pair, id);
    ++moved;
    ++repairs.moved;
    ++changes;
  };
  for (int round = 0;; ++round) {
    // Handshakes add ops to the function body: walk it afresh.
    SmallVector<Operation *> body;
    for (Operation &op : func.getBody().front())
      body.push_back(&op);
    OrderChecker checker({}, body);
    checker.stepBudget = std::numeric_limits<int64_t>::max();
    EventIdSurvey survey;
    survey.repair = repair;
    checker.survey = &survey;
    fixedThisRound.clear();
    unsafeInserted = changes = 0;
    stuck = nullptr;
    lastResort = round >= kRounds;
    llvm::DenseSet<Operation *> none;
    OrderChecker::Checkpoints unused(body.size()), recorded(body.size());
    // A walk stopped by the input's own unbalanced flags surveys what it
    // reached; the verifier reports the rest.
    (void)checker.ordered(body, none, unused, 0, body.size(), recorded);
    if (unsafeInserted == 0)
      return;
    if (changes == 0 && stuck)
      toReplace.insert(groupOf.lookup(stuck));
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

PruneResult mlir::dsaplan::pruneSyncGroups(func::FuncOp func,
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
  OrderChecker checker(dependencies, body);
  checker.stepBudget = stepBudget;
  auto finish = [&] {
    result.steps = std::min(checker.steps, stepBudget);
    result.complete = !checker.exhausted;
    return result;
  };
  OrderChecker::Checkpoints checkpoints(body.size()), recorded(body.size());
  // The inserter's own reasoning is coarser than this check, never finer:
  // if the full set does not pass (the input's flags are unbalanced, say),
  // there is nothing to prune against.
  if (!checker.ordered(body, disabled, checkpoints, 0, body.size(),
                       checkpoints))
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
    if (checker.ordered(body, disabled, checkpoints, start, last, recorded)) {
      erased[i] = true;
      // Later checkpoints change with the group gone.
      for (size_t k = start + 1; k < checker.recordedEnd; ++k)
        if (recorded[k])
          checkpoints[k] = std::move(recorded[k]);
      continue;
    }
    if (checker.exhausted)
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
