//===- OrderChecker.h - Path-wise happens-before of the syncs ---*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Insert.
//
//===----------------------------------------------------------------------===//
//
// The path-wise happens-before check the inserter's last jobs share: the
// event-id repair (EventIds.cpp) walks with it to find sets that may
// overrun their flag, the pruning (Pruning.cpp) to find groups the others
// imply. It follows the hardware the way dsaplan-verify-sync does (and is
// written apart from it, so that the verifier stays an independent check;
// the two share only lib/Support's interval set and path walk):
// every access gets a sequence number of its pipe; each pipe q knows, for
// every pipe p, a set of p's sequence numbers that have finished:
//
//   set_flag <p -> q>   captures what p issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own issued instructions finished for p.
//
// Paths (RegionWalk.h): scf.if along both branches, loops unrolled three
// times and left after zero to three iterations; at a merge a sequence
// number stays known only where it is known on every path that ran it.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_INSERT_ORDERCHECKER_H
#define DSAPLAN_LIB_SYNC_INSERT_ORDERCHECKER_H

#include "DsaPlan/Sync/Insert/Pruning.h"
#include "LatestRuns.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/IntervalSet.h"
#include "DsaPlan/Support/RegionWalk.h"
#include "DsaPlan/Support/SharedRows.h"
#include "DsaPlan/Support/SortedMap.h"

#include "llvm/ADT/DenseSet.h"

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mlir {
namespace dsaplan {
namespace sync {

using PipeSets = std::array<IntervalSet, kNumPipes>;
using FlagKey = std::tuple<unsigned, unsigned, int64_t>;

/// What each pipe q knows has finished of each pipe p: known[q][p]. A path
/// changes the row of a pipe only where that pipe waits or has a barrier.
using KnownRows = SharedRows<PipeSets, kNumPipes>;

/// What a set_flag <p -> q> captured: what p knew (row p of KnownRows,
/// shared with the state that set it until either changes) and, for p's
/// own numbers, what p had issued as well. A set copies one set, not seven.
class Capture {
public:
  Capture() = default;
  Capture(std::shared_ptr<const PipeSets> row, unsigned pipe, IntervalSet own)
      : row(std::move(row)), pipe(pipe), own(std::move(own)) {}
  /// Captures anew, in place: a set's entry is made once and `own` copied
  /// once (a Capture built apart and moved in copied its inline intervals
  /// at each move).
  void assign(std::shared_ptr<const PipeSets> newRow, unsigned newPipe,
              const IntervalSet &newOwn) {
    row = std::move(newRow);
    pipe = newPipe;
    own = newOwn;
  }
  /// What the set knew has finished of pipe p.
  const IntervalSet &operator[](unsigned p) const {
    if (p == pipe)
      return own;
    return row ? (*row)[p] : kNone;
  }
  /// Whether the two captured the same of every pipe.
  bool sameAs(const Capture &other) const {
    if (row == other.row && pipe == other.pipe)
      return own == other.own;
    for (unsigned p = 0; p < kNumPipes; ++p)
      if (!((*this)[p] == other[p]))
        return false;
    return true;
  }

private:
  static inline const IntervalSet kNone{};
  std::shared_ptr<const PipeSets> row;
  unsigned pipe = 0;
  IntervalSet own;
};

/// A map by flag (SortedMap.h). Flags sort by source pipe first: the flags
/// one pipe sets are one run.
template <typename Value, unsigned InlineEntries>
using FlagMap = SortedMap<FlagKey, Value, InlineEntries>;

/// The sequence numbers of the waits that consumed each flag's latest set
/// (one per path that merged here): one entry per flag and wait, sorted by
/// flag as FlagMap is, a flag's waits in path order. Entries are plain data:
/// a wait erases the flags its pipe sets that it now knows consumed and
/// puts its own flag back, mostly in the middle, and a map of SmallVectors
/// moved each entry by a call (the seed-1 1k kernel: 81,797 waits, 61,204
/// of them inserting in the middle).
class FlagConsumers {
public:
  /// Plain data (a FlagKey, a std::tuple, is not trivially copyable).
  struct Entry {
    unsigned src, dst;
    int64_t event;
    int64_t seq;
    FlagKey flag() const { return {src, dst, event}; }
    bool isOf(const FlagKey &key) const {
      return src == std::get<0>(key) && dst == std::get<1>(key) &&
             event == std::get<2>(key);
    }
    bool before(const FlagKey &key) const { return flag() < key; }
  };
  using const_iterator = const Entry *;

  const_iterator begin() const { return entries.begin(); }
  const_iterator end() const { return entries.end(); }
  /// Entries, not flags.
  size_t size() const { return entries.size(); }
  void clear() { entries.clear(); }

  /// The waits of `key`, in path order.
  ArrayRef<Entry> of(const FlagKey &key) const {
    const Entry *first = lowerBound(key);
    return {first, groupEnd(first, key)};
  }
  /// Makes `seq` the one wait of `key`.
  void assignOne(const FlagKey &key, int64_t seq) {
    Entry *first = lowerBound(key);
    Entry *last = groupEnd(first, key);
    if (first == last) {
      entries.insert(first, entryOf(key, seq));
      return;
    }
    first->seq = seq;
    entries.erase(first + 1, last);
  }
  /// Adds each wait of `other` after the waits of its flag here, unless it
  /// is one of them (a merge, path after path). Both are sorted by flag: one
  /// pass (looking each flag up from the first entry, a merge of paths with
  /// many flags in flight scanned them over and over).
  void addAll(const FlagConsumers &other) {
    size_t at = 0;
    for (const Entry &entry : other.entries) {
      FlagKey key = entry.flag();
      while (at < entries.size() && entries[at].before(key))
        ++at;
      size_t last = at;
      bool known = false;
      for (; last < entries.size() && entries[last].isOf(key); ++last)
        known |= entries[last].seq == entry.seq;
      if (!known)
        entries.insert(entries.begin() + last, entry);
    }
  }
  /// Erases the flags pipe `src` sets for which `drop(key, waits)` holds.
  template <typename Drop> void eraseSetBy(unsigned src, Drop drop) {
    Entry *flag = entries.begin();
    while (flag != entries.end() && flag->src < src)
      ++flag;
    Entry *kept = flag;
    while (flag != entries.end() && flag->src == src) {
      FlagKey key = flag->flag();
      Entry *last = groupEnd(flag, key);
      // Kept entries move down over the dropped ones (std::copy may not
      // copy a range onto itself).
      if (!drop(key, ArrayRef<Entry>(flag, last)))
        kept = kept == flag ? last : std::copy(flag, last, kept);
      flag = last;
    }
    entries.erase(kept, flag);
  }

private:
  static Entry entryOf(const FlagKey &key, int64_t seq) {
    return {std::get<0>(key), std::get<1>(key), std::get<2>(key), seq};
  }
  /// The first entry not before `key` (a path has a few: a scan).
  Entry *lowerBound(const FlagKey &key) {
    Entry *it = entries.begin();
    while (it != entries.end() && it->before(key))
      ++it;
    return it;
  }
  const Entry *lowerBound(const FlagKey &key) const {
    return const_cast<FlagConsumers *>(this)->lowerBound(key);
  }
  template <typename It> It groupEnd(It first, const FlagKey &key) const {
    while (first != entries.end() && first->isOf(key))
      ++first;
    return first;
  }
  SmallVector<Entry, 8> entries;
};

struct Path {
  PipeSets executed;
  KnownRows known; // known[q][p]
  FlagMap<Capture, 2> flags;
  /// The sequence numbers of the waits that consumed each flag's latest set
  /// (one per path that merged here): its next set must know them finished.
  FlagConsumers consumers;
  LatestRuns latest;
};

inline unsigned pipeOf(Operation *op) { return static_cast<unsigned>(*getOpPipe(op)); }

/// The function body's ops by index, and the index of the body op holding
/// any op.
class BodyIndex {
public:
  explicit BodyIndex(func::FuncOp func) : entry(func.getBody().front()) {
    // The ops first, then a table sized for them: grown as it went, the
    // table rehashed every entry at each doubling.
    for (Operation &op : entry)
      ops.push_back(&op);
    index.reserve(ops.size());
    for (auto [at, op] : llvm::enumerate(ops))
      index.try_emplace(op, at);
  }
  ArrayRef<Operation *> body() const { return ops; }
  size_t of(Operation *op) const {
    return index.lookup(entry.findAncestorOpInBlock(*op));
  }
  /// The first and last body ops holding one of `group`.
  std::pair<size_t, size_t> spanOf(ArrayRef<Operation *> group) const {
    size_t first = ops.size(), last = 0;
    for (Operation *op : group) {
      size_t at = of(op);
      first = std::min(first, at);
      last = std::max(last, at);
    }
    return {first, last};
  }

private:
  Block &entry;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t> index;
};

/// Waits are numbered apart from accesses, so that a disabled wait does not
/// shift the numbers of the accesses after it (checkpoints compare those).
inline constexpr int64_t kFirstWaitSeq = int64_t(1) << 40;

/// The wait op of each wait sequence number of each pipe, by number: a
/// pipe's waits are numbered from kFirstWaitSeq + 1 on (hashed by pipe and
/// number, the survey's 181k waits at 10k cost 10.7 M instructions). A
/// number keeps its op until a later walk gives it another.
class WaitOps {
public:
  Operation *lookup(unsigned pipe, int64_t seq) const {
    uint64_t at = indexOf(seq);
    return at < ops[pipe].size() ? ops[pipe][at] : nullptr;
  }
  Operation *&operator()(unsigned pipe, int64_t seq) {
    uint64_t at = indexOf(seq);
    if (at >= ops[pipe].size())
      ops[pipe].resize(at + 1);
    return ops[pipe][at];
  }

private:
  static uint64_t indexOf(int64_t seq) {
    assert(seq > kFirstWaitSeq && "not a wait's number");
    return static_cast<uint64_t>(seq - kFirstWaitSeq - 1);
  }
  std::array<std::vector<Operation *>, kNumPipes> ops;
};

/// A walk in repair mode calls `repair` on each set_flag that may overrun
/// its flag, with the ids free at this execution of it (bit k: id k) and
/// the waits of its flag it may run before; `repair` may change the set's
/// id (the walk goes on with the new one) or add syncs for the next walk.
///
/// A survey that resumes from a checkpoint and meets the last survey's
/// state there again (the same flags in flight, consumed by the same waits
/// and known alike: the same calls to come) may stop there, outside the
/// stretches where the last survey went stale; so the repair walks again
/// only those (EventIds.cpp).
struct EventIdSurvey {
  llvm::function_ref<void(SetFlagOp, unsigned, ArrayRef<Operation *>)> repair;
  /// The wait op of each wait sequence number of each pipe.
  WaitOps waitOps;
  /// How many of the loops around the current op are past their first
  /// iteration: at 0, the op runs for the first time in this walk.
  unsigned repeating = 0;
  /// The loops being walked, and whether each is past its first iteration.
  SmallVector<std::pair<Operation *, bool>, 4> loops;
  /// No stop at or before this body op: `repair` raises it to the last
  /// body op it changed, whose last round's calls would not hold.
  size_t walkAtLeastTo = 0;
  /// Stretches of body ops [first, through] where the last survey went
  /// stale, sorted and apart: no stop inside one.
  ArrayRef<std::pair<size_t, size_t>> stale;
  /// Whether a walk may stop before body op `at`.
  bool mayStopAt(size_t at) const {
    if (at <= walkAtLeastTo)
      return false;
    auto after = llvm::upper_bound(
        stale, at, [](size_t at, const std::pair<size_t, size_t> &stretch) {
          return at <= stretch.first;
        });
    return after == stale.begin() || std::prev(after)->second < at;
  }
};

/// A dependency source and its pipe.
struct DependencySource {
  SourceId id;
  unsigned pipe;
};

/// An access of a dependency: its pipe, whether later accesses depend on
/// it (only then does a walk keep its latest runs), and the sources it must
/// be ordered after (those its own pipe does not order already), by pipe.
struct DependencyAccess {
  unsigned pipe = 0;
  bool isSource = false;
  SourceId source = 0; // when isSource
  SmallVector<DependencySource, 2> sources;
  /// The sources of each pipe, in order: that pipe and where its run of
  /// `sources` ends.
  SmallVector<std::pair<unsigned, unsigned>, 2> pipeRuns;
};

} // namespace sync

/// What DependencyIndex holds (Pruning.h).
struct DependencyIndex::Tables {
  /// One lookup per op of a walk: every access of a dependency.
  DenseMap<Operation *, sync::DependencyAccess> accesses;
  /// By source: its pipe, and the op of the function body that holds its
  /// last dependent. That op is no sync, so moving, adding and dropping
  /// syncs leave it the last, wherever its index goes.
  SmallVector<unsigned> sourcePipes;
  SmallVector<Operation *> lastDependentOp;
  /// By source: each pipe whose accesses look its runs up, with the op of
  /// the function body that holds the last of them (a sync is never that
  /// op, as for lastDependentOp).
  SmallVector<SmallVector<std::pair<unsigned, Operation *>, 2>> lookedUpBy;
  /// By source: the highest sequence number any walk over these tables
  /// gave one of its runs. Every walk's states (and the checkpoints one
  /// walk hands the next) hold only numbers these walks gave, so no latest
  /// run of the source is higher: an access needs no look-up of a source
  /// whose every number up to this one its pipe knows.
  mutable SmallVector<int64_t> highestRun;
};

namespace sync {

class OrderChecker : public RegionWalkClient<Path> {
public:
  /// Checks `dependencies` (indexed for `body`'s function) over `body`.
  OrderChecker(const TargetDescription &target,
               const DependencyIndex &dependencies, const BodyIndex &body);

  /// The state before an op of the function body.
  struct Checkpoint {
    Path path;
    std::array<int64_t, kNumPipes> counters{};
    std::array<int64_t, kNumPipes> waitCounters{};
    /// Of a survey: the wait op of each consumer of `path`, in order (the
    /// numbers are those of the walk that recorded it, which the next one
    /// may give other waits).
    SmallVector<Operation *, 0> consumerWaits;
  };

  /// The states before some ops of the function body, for later walks to
  /// resume from. A check resumes from the last one before the first sync
  /// it leaves out, and walks again what lies between: so one sits before
  /// a body op once kCheckpointOps ops (nested ones included) have passed
  /// since the last, and before every loop of the body, so that
  /// straight-line code gets few while a loop gets one on each side:
  ///
  ///   dsaplan.set_flag ...          // 0: a checkpoint (the first op)
  ///   ... 3 more single ops
  ///   scf.for { 30 ops }            // 4: a checkpoint (a loop)
  ///   dsaplan.wait_flag ...         // 5: a checkpoint (31 ops since 4)
  ///
  /// A walk whose change lies in or after a loop starts at the checkpoint
  /// before it, not at ops before it (the seed-1 1k kernel: pruning
  /// 361,960 steps without, 335,453 with; one before every scf.if as well
  /// saved 0.7% more steps, but copied more states: 10k instructions
  /// +0.1%, peak memory +8%). Where they sit depends only on each op and
  /// the ops before, so a walk that changes the body from some op on keeps
  /// the places (and states) before it.
  /// How many ops apart the pruning's checkpoints sit (fewer walk more
  /// again before the sync a check leaves out; more copy more states).
  static constexpr size_t kCheckpointOps = 8;
  class Checkpoints {
  public:
    Checkpoints() = default;
    /// Places checkpoints `opsBetween` ops apart over `body`.
    explicit Checkpoints(ArrayRef<Operation *> body,
                         size_t opsBetween = kCheckpointOps);
    /// Whether a checkpoint sits before body op `i`.
    bool sitsAt(size_t i) const { return slotOf[i] != kNoSlot; }
    /// The last body op at or before `i` with a checkpoint before it.
    size_t lastAtOrBefore(size_t i) const {
      return *std::prev(llvm::upper_bound(places, i));
    }
    /// The last body op at or before `i` whose checkpoint holds a state (a
    /// change of the body can leave checkpoints without one; the first
    /// body op's always holds one, or a walk from the top needs none).
    size_t lastHeldAtOrBefore(size_t i) const {
      size_t place = lastAtOrBefore(i);
      while (place > 0 && !states[slotOf[place]])
        place = lastAtOrBefore(place - 1);
      return place;
    }
    /// The body ops in [begin, end) with a checkpoint before them.
    ArrayRef<size_t> placesIn(size_t begin, size_t end) const {
      ArrayRef<size_t> all(places);
      size_t first = llvm::lower_bound(all, begin) - all.begin();
      return all.slice(first, llvm::lower_bound(all, end) - all.begin() - first);
    }
    /// The state before body op `i`, where a checkpoint sits.
    std::optional<Checkpoint> &operator[](size_t i) {
      return states[slotOf[i]];
    }
    const std::optional<Checkpoint> &operator[](size_t i) const {
      return states[slotOf[i]];
    }
    /// Takes the states of `from` before the body ops up to `last` (both
    /// built over bodies that agree up to there).
    void takeUpTo(Checkpoints &from, size_t last);

  private:
    static constexpr unsigned kNoSlot = ~0u;
    std::vector<unsigned> slotOf;
    std::vector<size_t> places;
    std::vector<std::optional<Checkpoint>> states;
  };

  /// Whether every dependency is ordered with the syncs of `body` other
  /// than `disabled`, and every flag is balanced. The walk starts at op
  /// `start` of the body from its checkpoint (which must exist and must not
  /// depend on `disabled`), and records new checkpoints after it into
  /// `recorded` (unless null; it sits where `checkpoints` do). Past body op
  /// `lastChanged` (the last one holding a sync disabled since
  /// `checkpoints` were recorded) it stops as soon as it meets a checkpoint
  /// with the same future.
  bool ordered(ArrayRef<Operation *> body,
               const llvm::DenseSet<Operation *> &disabled,
               const Checkpoints &checkpoints, size_t start, size_t lastChanged,
               Checkpoints *recorded) {
    this->disabled = &disabled;
    assert(llvm::all_of(disabled,
                        llvm::IsaPred<SetFlagOp, WaitFlagOp, PipeBarrierOp,
                                      BarrierAllOp>) &&
           "only syncs are left out");
    failure = Failure::None;
    overrunSet = nullptr;
    Path path;
    counters.fill(0);
    waitCounters.fill(0);
    if (survey) {
      survey->repeating = 0;
      survey->loops.clear();
    }
    if (start > 0) {
      const Checkpoint &from = *checkpoints[start];
      path = from.path;
      counters = from.counters;
      waitCounters = from.waitCounters;
      if (survey)
        nameConsumerWaits(from);
    }
    for (size_t i = start; i < body.size(); ++i) {
      recordedEnd = i;
      if (checkpoints.sitsAt(i)) {
        // A source is checked by its dependents only: once past the body op
        // that holds the last of them, the walk forgets it.
        if (i > start)
          path.latest.fold(
              [&](SourceId source) { return lastDependent[source] >= i; });
        const std::optional<Checkpoint> &known = checkpoints[i];
        // Back on the course of the run that recorded the checkpoint: the
        // rest of this walk would go as that one did, and that one passed.
        if (i > lastChanged && known &&
            (!survey || survey->mayStopAt(i)) &&
            sameFuture(path, known->path, i) &&
            (!survey || sameConsumerWaits(path, *known)))
          return true;
        if (recorded)
          (*recorded)[i] = checkpoint(path);
      }
      if (!RegionWalker<OrderChecker, Path>(*this, kLoopIterations)
               .walkOp(*body[i], path))
        return false;
    }
    recordedEnd = body.size();
    if (!path.flags.empty())
      failure = Failure::Flags;
    return path.flags.empty();
  }

  /// Why the last call of `ordered` returned false. Leaving out more syncs
  /// only takes order away (every set only grows along a path, and a merge
  /// intersects), so a check that failed on an unordered dependency fails
  /// again with any more left out. One that failed on a flag may pass: the
  /// sync it had to wait for may be gone.
  enum class Failure { None, Unordered, Flags, Budget };
  Failure failure = Failure::None;
  /// When the last call of `ordered` failed on a set that may overrun its
  /// flag (the wait that consumed the flag's previous set is not known to
  /// have run), that set.
  Operation *overrunSet = nullptr;

  /// The checkpoints the last call of `ordered` recorded are those of ops
  /// before this index.
  size_t recordedEnd = 0;
  /// Ops walked so far over all calls, and how many they may be (a walk
  /// that runs out fails with Failure::Budget).
  int64_t steps = 0, stepBudget = 0;
  /// When set, the walk surveys event ids instead of checking: it goes on
  /// past an unsafe set and does not check dependencies.
  EventIdSurvey *survey = nullptr;

private:
  friend class RegionWalker<OrderChecker, Path>;
  /// A walk that stopped fails: its state is never read again.
  static constexpr bool kMovesLastExit = true;
  /// Iterations a loop is unrolled to.
  static constexpr unsigned kLoopIterations = 3;
  /// A loop's exits, on the stack (some 2 KB each).
  static constexpr unsigned kInlineExits = kLoopIterations + 1;
  /// Every op with regions is walked into (the regions of a linalg op that
  /// is no dependency's access count as steps too): RegionWalkClient's
  /// walksInto and leaf.
  WalkStep step(Operation &op, Path &path);
  /// A step over a sync that is not disabled.
  LLVM_ATTRIBUTE_NOINLINE WalkStep syncStep(Operation &op, Path &path);
  void beginIteration(Operation &loop, unsigned iteration, Path &);
  void endLoop(Operation &loop);
  bool sameFuture(const Path &a, const Path &b, size_t at) const;
  /// Whether every pipe that looks `source`'s runs up at or after body op
  /// `at` knows that `seq` finished: then who else knows it changes
  /// nothing ahead.
  bool knownToLookUps(const Path &path, SourceId source, int64_t seq,
                      size_t at) const;
  /// The state before the next op, to resume from.
  Checkpoint checkpoint(const Path &path) const;
  /// Makes the survey's wait numbers name the waits of `from`'s consumers.
  void nameConsumerWaits(const Checkpoint &from);
  /// Whether `path` (of this walk) and `known` have their flags consumed
  /// by the same waits (the waits a set may pass, and so its repair,
  /// depend on them).
  bool sameConsumerWaits(const Path &path, const Checkpoint &known) const;

  bool access(const DependencyAccess &info, Path &path);
  bool setFlag(SetFlagOp set, Path &path);
  void waitFlag(WaitFlagOp wait, FlagMap<Capture, 2>::iterator flag,
                Path &path);
  static bool consumed(const Path &path, const FlagKey &key);
  static bool consumed(const Path &path, const FlagKey &key,
                       ArrayRef<FlagConsumers::Entry> consumers);
  std::optional<Path> merge(MutableArrayRef<Path> paths, Operation *at);

  /// Every access of a dependency, and each source's pipe.
  const DependencyIndex::Tables &dependencies;
  /// By source: the body op holding its last dependent.
  std::vector<size_t> lastDependent;
  /// By source: each pipe that looks its runs up, and the body op holding
  /// the last access of that pipe that does.
  std::vector<SmallVector<std::pair<unsigned, size_t>, 2>> lastLookUp;
  const llvm::DenseSet<Operation *> *disabled = nullptr;
  const TargetDescription &target;
  std::array<int64_t, kNumPipes> counters{};
  std::array<int64_t, kNumPipes> waitCounters{};
};

} // namespace sync
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_INSERT_ORDERCHECKER_H
