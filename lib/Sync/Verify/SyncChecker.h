//===- SyncChecker.h - The verifier's path-wise walk ------------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Verify.
//
//===----------------------------------------------------------------------===//
//
// The state the verifier carries along a path and the checker that walks
// the function with it. One class over three files, one job each:
//
//   Checker.cpp        the walk, the accesses and their conflicts, settled
//                      calls, the structure the walk can follow;
//   HappensBefore.cpp  flags and barriers, and the merge of paths;
//   Cores.cpp          the units of a function of both cores;
//   FixedPoint.cpp     where a quick walk may leave a loop early.
//
// It asks MachineRules.h what the target allows (a pipe's reach, the
// in-place rule, the cores of an access) and files the earlier accesses
// in a History (History.h).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_VERIFY_SYNCCHECKER_H
#define DSAPLAN_LIB_SYNC_VERIFY_SYNCCHECKER_H

#include "Bytes.h"
#include "History.h"
#include "MachineRules.h"

#include "DsaPlan/Support/IntervalSet.h"
#include "DsaPlan/Support/RegionWalk.h"
#include "DsaPlan/Support/SharedRows.h"
#include "DsaPlan/Support/SortedMap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace mlir {
namespace dsaplan {
namespace verify {

// The pipes are units (Target.h): a kernel of one core uses the first
// kNumPipes (the Pipe enum), whichever core it is; a kernel of both
// (Cores.cpp) the cube core's there and the vector core's from kNumPipes on.

/// Per unit p, the sequence numbers of p known to have finished.
using Knowledge = std::array<IntervalSet, kNumUnits>;

/// known[q][p]: per unit q, the sequence numbers of each unit p that q
/// knows finished, each row shared between the copies of a path's state
/// until one of them changes it (a row of the other core's units, in a
/// kernel of one, is never written).
class KnownRows : public SharedRows<Knowledge, kNumUnits> {
public:
  /// Adds `numbers` to known[q][p]; row q is left shared when it holds them.
  void unite(size_t q, size_t p, const IntervalSet &numbers) {
    if (!(*this)[q][p].includes(numbers))
      own(q)[p].unite(numbers);
  }
};

/// What a set captured: what its unit p knew of every unit (row p of
/// `known`, shared with the state it was taken from until one of them
/// writes it) and, for p itself, that and what p had issued: the row is
/// copied only if p learns more while the flag is raised. A merge of
/// different captures holds its fourteen sets whole.
class Capture {
public:
  Capture(const KnownRows &known, unsigned p, const IntervalSet &executed)
      : row(known.snapshot(p)), unit(p), own(known[p][p]) {
    own.unite(executed);
  }
  explicit Capture(Knowledge &&whole)
      : row(std::make_shared<const Knowledge>(std::move(whole))),
        unit(kNumUnits) {}
  const IntervalSet &operator[](size_t p) const {
    if (p == unit)
      return own;
    return row ? (*row)[p] : kEmpty;
  }

private:
  static inline const IntervalSet kEmpty{};
  /// Null: a row never written, every set empty.
  std::shared_ptr<const Knowledge> row;
  /// The unit whose set is `own`; kNumUnits when `row` is all.
  unsigned unit;
  IntervalSet own;
};

/// A raised flag: what its set captured. The capture never changes once
/// made, so the copies of a path's state (branches, a loop's exits and
/// iteration starts) share it, and a flag map moves pointers, not fourteen
/// interval sets per flag.
struct FlagState {
  std::shared_ptr<const Capture> knowledge;
  Operation *setOp;
  /// What the set of unit `p` captures of `known`, what its pipe knew, and
  /// `executed`, what p had issued.
  static std::shared_ptr<const Capture>
  capture(const KnownRows &known, unsigned p, const IntervalSet &executed) {
    return std::make_shared<const Capture>(known, p, executed);
  }
  const IntervalSet &operator[](size_t unit) const {
    return (*knowledge)[unit];
  }
};

/// (source unit, destination unit, event id).
using FlagKey = std::tuple<int, int, int64_t>;

/// A cross-core counter of one core and id: the signals in it, oldest
/// first, each what its set captured, and the unit that sets it.
struct Counter {
  std::vector<FlagState> signals;
  int setter = -1;
};
/// (the waiting core's first unit, id).
using CounterKey = std::pair<unsigned, int64_t>;

/// The wait that consumed the latest set of a flag: its sequence numbers on
/// the waiting pipe (one per path that reached here) and one of its ops.
struct Consumer {
  IntervalSet waits;
  Operation *waitOp = nullptr;
};

/// Per flag, the wait that consumed its latest set, shared between the
/// copies of a path's state (a branch's, a loop's exits and iteration
/// starts, which are only read) until one of them waits: a copy of a map
/// of interval sets per copy of the state cost more than the waits' own
/// copies.
class Consumers {
public:
  using Map = SortedMap<FlagKey, Consumer>;
  const Map &operator*() const { return map ? *map : kEmpty; }
  const Map *operator->() const { return &**this; }
  /// The map, to be changed: a copy of its own if another state shares it.
  Map &own() {
    if (!map)
      map = std::make_shared<Map>();
    else if (map.use_count() > 1)
      map = std::make_shared<Map>(*map);
    return *map;
  }
  /// Whether the two are one map (shared, or both never written).
  bool shares(const Consumers &other) const { return map == other.map; }

private:
  static inline const Map kEmpty{};
  std::shared_ptr<Map> map;
};

/// What one path knows at a point of the walk.
struct PathState {
  Knowledge executed; // per unit
  KnownRows known;    // known[q][p]
  SortedMap<FlagKey, FlagState> flags;
  std::map<CounterKey, Counter> counters;
  Consumers consumers;
  History history;
  /// The iteration of each scf.for the walk is in (GM offsets move with it).
  LoopIterations iterations;
};

/// The static sync check of one function.
class SyncChecker : public RegionWalkClient<PathState> {
public:
  /// A `quick` checker leaves a loop once an iteration can find nothing the
  /// one before did not (FixedPoint.cpp) and stops at the first failure:
  /// its verdict is the full walk's, its diagnostics are not to be shown.
  SyncChecker(func::FuncOp func, const TargetDescription &target,
              bool quick = false)
      : func(func), target(target), rules(func, target), touchCache(target),
        quick(quick) {}
  bool run(unsigned &checked);
  bool checkStructure();
  /// Whether a quick walk may leave any loop early: a function of one core
  /// (FixedPoint.cpp).
  bool mayWalkQuickly() { return !holdsBothCores(); }
  /// Makes a quick checker that has not walked yet a full one, its caches
  /// kept (verifySync, a function of both cores).
  void walkFully() { quick = false; }

private:
  friend class RegionWalker<SyncChecker, PathState>;
  /// Iterations a loop is unrolled to.
  static constexpr unsigned kLoopIterations = 3;
  /// The walk's state becomes an op's last exit, not a copy of it: only a
  /// quick walk stops (at its first failure), and run() then reads the
  /// flags and counters of a state moved from only to report, into the
  /// diagnostics that walk drops.
  static constexpr bool kMovesLastExit = true;
  /// A loop's exits (one before each iteration and one after the last) on
  /// the stack, not allocated at each walk of a loop or a branch.
  static constexpr unsigned kInlineExits = kLoopIterations + 1;
  WalkStep step(Operation &op, PathState &state);
  /// FixedPoint.cpp: a quick walk keeps the state each iteration of the
  /// loops around its point began from, and leaves a loop when the state
  /// that begins the next iteration is no riskier than it.
  void beginIteration(Operation &loop, unsigned iteration, PathState &state);
  bool repeatsIteration(Operation &loop, unsigned iteration,
                        const PathState &state);
  void endLoop(Operation &loop);
  bool mayLeaveEarly(Operation &loop);
  bool noRiskierThan(const PathState &later, const PathState &earlier);
  bool historyNoRiskier(const PathState &later, const PathState &earlier);
  bool consumersNoRiskier(const PathState &later, const PathState &earlier);
  /// Whether every unit that accesses memory in the function knows the
  /// access finished, or keeps its order after it: nothing can race it.
  bool settledForAll(const PathState &state, unsigned unit, int64_t seq);
  /// Per unit p, a number below which every number of p is settledForAll
  /// in `state` (0 for a unit no access runs on): the start of p's numbers
  /// every unit asked knows, one test for the many accesses of a sweep.
  std::array<int64_t, kNumUnits> settledPrefixes(const PathState &state);

  /// Control flow the walker follows (checkStructure refuses the loops other
  /// than scf.for and scf.while); any other op with regions (a linalg op)
  /// is one access.
  bool walksInto(Operation &) { return false; }
  bool leaf(Operation &op, PathState &state);
  /// What a leaf op is to the walk: a settled call, no access, an access
  /// on a pipe, or an access without one (an error).
  enum class LeafKind { SettledCall, NoAccess, Access, NoPipe };
  struct LeafInfo {
    LeafKind kind;
    Pipe pipe = Pipe::s;
  };
  LeafInfo leafKindOf(Operation &op, bool memory);
  /// What is asked of an op at each visit, found once: whether it touches
  /// memory, and what it is as a leaf (filled by the survey's walk of
  /// every op, or at the op's first visit).
  struct OpFacts {
    bool memory = false;
    std::optional<LeafInfo> leaf;
  };
  /// `op`'s entry, with `memory` found; valid until the next call.
  OpFacts &factsOf(Operation *op);
  LeafInfo leafInfoOf(Operation &op);
  /// Where an access runs: the cores it may run on and its unit (its pipe
  /// where the function holds both cores and the op does not say which:
  /// `placed` is false then, and accessUnit reported it).
  struct Site {
    unsigned cores = 0;
    unsigned unit = 0;
    bool placed = false;
  };
  Site siteOf(Operation *op, Pipe pipe, ArrayRef<Touch> touches);
  void access(Operation *op, Pipe pipe, PathState &state);
  void access(Operation *op, Pipe pipe, Site site, ArrayRef<Touch> touches,
              PathState &state);
  /// Reports every earlier access `op`'s touches on `pipe` conflict with
  /// unordered; returns the access's sequence number.
  int64_t checkAccess(Operation *op, Pipe pipe, Site site,
                      ArrayRef<Touch> touches, PathState &state);
  /// Files the access in the history, once every check of its op is done.
  void recordAccess(Operation *op, Pipe pipe, Site site, int64_t seq,
                    ArrayRef<Touch> touches, PathState &state);
  void settledCall(CallOpInterface call, PathState &state);
  std::optional<PathState> merge(ArrayRef<PathState> states, Operation *at);
  void report(const Access &earlier, Operation *later, unsigned unit,
              const Touch &touch, int64_t begin, int64_t end);
  void setFlag(SetFlagOp set, unsigned base, PathState &state);
  void waitFlag(WaitFlagOp wait, unsigned base, PathState &state);
  /// What one walk over every op of the function finds, asked of the
  /// whole function by several checks (Cores.cpp).
  struct Survey {
    /// Whether the function holds ops of both cores.
    bool bothCores = false;
    /// The units some access runs on: settledForAll and settledPrefixes
    /// ask these, not all fourteen.
    SmallVector<unsigned, kNumUnits> accessUnits;
    /// The regions that hold an op that touches memory, at any depth
    /// (checkStructure).
    llvm::DenseSet<Region *> regionsWithAccess;
    /// The scf.for loops some access's bytes move with (TouchCache;
    /// mayLeaveEarly).
    llvm::DenseSet<Operation *> movingLoops;
  };
  /// The survey, walked at the first call. The walk also fills each op's
  /// facts (factsOf), which the checking walk asks next.
  const Survey &survey();
  bool holdsBothCores() { return survey().bothCores; }
  SmallVector<unsigned, 2> unitBases(unsigned cores);
  std::optional<unsigned> accessUnit(Operation *op, Pipe pipe, unsigned cores);
  std::string unitText(unsigned unit);
  /// The units a path's state may hold numbers of: the first kNumPipes in
  /// a function of one core (the rest stay empty), all of them in one of
  /// both.
  unsigned liveUnits() { return holdsBothCores() ? kNumUnits : kNumPipes; }
  WalkStep visitSync(Operation &op, PathState &state);
  void crossCoreSet(CrossCoreSetOp set, PathState &state);
  void crossCoreWait(CrossCoreWaitOp wait, PathState &state);
  void mergeCounters(ArrayRef<PathState> states, Operation *at,
                     PathState &merged);
  void reportLeftOverSignals(const PathState &state);
  bool needsBarrier(Pipe pipe) const { return target.needsBarrier(pipe); }
  /// Whether an earlier access is ordered before an access of unit `q` on
  /// `pipe`: q knows it finished, or it is q's own and `pipe` keeps its
  /// order. What q knows is bound once; the check runs for most accesses on
  /// the pages a touch meets.
  auto orderedBeforeUnit(const PathState &state, unsigned q, Pipe pipe) const {
    const Knowledge &knownByQ = state.known[q];
    bool ownOrdered = !needsBarrier(pipe);
    return [&knownByQ, q, ownOrdered](const Access &earlier) {
      unsigned p = earlier.unit;
      return (p == q && ownOrdered) || knownByQ[p].contains(earlier.seq);
    };
  }

  func::FuncOp func;
  const TargetDescription &target;
  MachineRules rules;
  /// Sequence numbers are per pipe (knowledge is per pipe too), so that what
  /// one path ran of a pipe stays a few contiguous ranges.
  std::array<int64_t, kNumUnits> counters{};
  TouchCache touchCache;
  GmAliasing gmAliasing;
  /// Per op asked (never a flag or a barrier), its facts: one map, not one
  /// per question.
  llvm::DenseMap<Operation *, OpFacts> opFacts;
  std::optional<Survey> surveyed;
  /// Per touches of the cache (one op in some loop iterations) that passed
  /// the target's rules, where the access runs.
  llvm::DenseMap<const Touch *, Site> sites;
  bool quick = false;
  /// The state that began the current iteration of each loop the walk is
  /// in, innermost last.
  std::vector<PathState> iterationStarts;
  /// Per loop asked, whether a quick walk may leave it early.
  llvm::DenseMap<Operation *, bool> leavesEarly;
  bool failedAny = false;
  unsigned checked = 0;
  llvm::DenseSet<std::pair<Operation *, Operation *>> reported;
  llvm::DenseSet<Operation *> reportedFlags;
  llvm::DenseSet<Operation *> reportedOverruns;
};

} // namespace verify
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_VERIFY_SYNCCHECKER_H
