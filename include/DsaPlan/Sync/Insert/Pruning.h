//===- Pruning.h - Drop inserted syncs others imply -------------*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PRUNING_H
#define DSAPLAN_SYNC_INSERT_PRUNING_H

#include "DsaPlan/Sync/Insert/Plan.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace mlir {
namespace dsaplan {

/// `later` must not start before the latest execution of `earlier` (on the
/// path that reaches it) has finished.
struct Dependency {
  Operation *earlier, *later;
};

/// The dependencies of one function, indexed once for every path-wise check
/// that prunes or moves its syncs: each access's pipe and the sources it
/// must follow. Building it is a pass over every dependency (there are
/// many more of them than ops); a check is then a walk of the body. It
/// stays valid while only syncs of the function change.
class DependencyIndex {
public:
  /// `dependencies` come grouped by their later op, each pair once (as
  /// SyncDependencies sorts them, one access per op).
  DependencyIndex(func::FuncOp func, const TargetDescription &target,
                  ArrayRef<Dependency> dependencies);
  DependencyIndex(DependencyIndex &&);
  ~DependencyIndex();
  /// The tables, defined where the checks are (lib/Sync/Insert).
  struct Tables;
  const Tables &getTables() const { return *tables; }

private:
  std::unique_ptr<Tables> tables;
};

/// The path-wise check the pruning and the moves below share (OrderChecker.h
/// in lib/Sync/Insert: scf.if along both branches, loops unrolled three
/// times and left after zero to three iterations, as dsaplan-verify-sync
/// walks them). Each tries many small changes of the function's syncs and
/// keeps those after which every dependency is still ordered and every flag
/// safe. A change touches a few ops of the function body: what runs before
/// them is as it was, and what runs after them goes as it went once the
/// walk's state meets the recorded one again. So the check walks the whole
/// function once, recording the state before some body ops (checkpoints),
/// and walks a change from the last checkpoint before it to the first one
/// after it where the states agree:
///
///   body op 40 .. 47           // not walked: the checkpoint before 48
///   body op 48  scf.for { .. } // walked from the checkpoint
///   body op 49  set_flag ...   // the change: moved, or left out
///   body op 50 .. 63           // walked while the states differ
///   body op 64                 // a checkpoint with the same future: passes
///
/// All its walks together walk at most `stepBudget` ops.
class IncrementalCheck {
public:
  IncrementalCheck(func::FuncOp func, const TargetDescription &target,
                   const DependencyIndex &dependencies, int64_t stepBudget);
  ~IncrementalCheck();

  /// Whether the syncs as they were passed the first walk. If not (the
  /// input's flags are unbalanced, say), there is nothing to check changes
  /// against.
  bool initiallyOrdered() const { return initially; }

  /// The body ops [first, last] a change touches.
  struct Span {
    size_t first, last;
  };
  /// The body ops holding `ops`, taken before the change.
  Span spanOf(ArrayRef<Operation *> ops) const;

  /// Whether every dependency is ordered and every flag safe with the syncs
  /// of `disabled` left out, after a change of the IR within `span`. The
  /// body ops outside it must be as they were; inside it, body ops may have
  /// come or gone (a pre-set moved ahead of a loop at the top level).
  /// `disabled` holds what the kept changes disabled too.
  bool tryChange(Span span, const llvm::DenseSet<Operation *> &disabled);
  /// Keeps the change the last tryChange passed: the tries that follow
  /// compare with it. The caller may first erase ops it disabled below the
  /// top level of the body. A passing change not kept must be undone
  /// before the next try.
  void keep();
  /// Follows the body after the caller erased ops that every kept change
  /// has disabled, body ops among them.
  void forgetErased();

  /// Whether leaving out `group` as well as `disabled` leaves a dependency
  /// unordered on its face, so that no walk is needed to refuse it: an
  /// access and one of its sources in the group's block, the source before
  /// the group and the access after it, with no sync between them but
  /// those left out. Nothing else can tell the access's pipe that the
  /// source finished, so a walk would fail (unordered at the access, or
  /// before it on a flag), and fail again with more left out:
  ///
  ///   memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}  // source
  ///   dsaplan.set_flag <mte2 -> v>, 0                           // group
  ///   dsaplan.wait_flag <mte2 -> v>, 0                          // group
  ///   linalg.add ins(%a, ...) {dsaplan.pipe = #dsaplan.pipe<v>} // access
  ///
  /// Only the ops of one block are looked at, a few on each side of the
  /// group: where it says no, the walk decides.
  bool leavesUnordered(ArrayRef<Operation *> group,
                       const llvm::DenseSet<Operation *> &disabled) const;

  /// Whether the last try failed on a dependency left unordered (not on a
  /// flag, nor for the budget). Leaving out more syncs only takes order
  /// away, so such a try fails again with more left out.
  bool failedUnordered() const { return lastUnordered; }
  /// The set the last try failed on when it failed because that set may
  /// overrun its flag (the wait of the flag's previous set is not known to
  /// have run); else null.
  Operation *failedOnSet() const { return lastOverrunSet; }
  /// Ops walked so far, and whether a walk stopped for the budget.
  int64_t steps() const { return std::min(walked, stepBudget); }
  bool exhausted() const { return walked > stepBudget; }

private:
  struct State;
  bool walkFrom(State &at, size_t first, size_t lastChanged,
                const llvm::DenseSet<Operation *> &disabled);
  void dropPending();

  func::FuncOp func;
  const TargetDescription &target;
  const DependencyIndex &dependencies;
  int64_t stepBudget, walked = 0;
  bool initially = false, lastUnordered = false;
  Operation *lastOverrunSet = nullptr;
  /// The body, its checkpoints and its checker; a passing try that changed
  /// the body has its own until it is kept.
  std::unique_ptr<State> current, pending;
};

struct PruneResult {
  /// Which groups were erased.
  std::vector<bool> erased;
  /// False when the step budget ran out before every group was checked.
  bool complete = true;
};

/// Erases, one group at a time in order, every group of `groups` without
/// which all dependencies of `check`'s function are still ordered on every
/// path, as `check` walks them. Dropping a
/// pair can also drop a set that another sync had to be ordered before (a
/// flag is one bit), so the groups kept are tried again, in rounds, until
/// a round drops nothing; a group kept because a dependency was unordered
/// without it is not tried again, since later rounds leave out more. When
/// `check`'s budget runs out, the groups not yet checked stay. Two groups
/// may each keep the other's set from overrunning its flag, and go only
/// together: a group whose check failed on a set of another group is tried
/// once more with that group. If the result is complete, what is left is
/// minimal: dropping any one remaining group, or it with the group whose
/// set it keeps from overrunning, leaves a dependency unordered or a flag
/// unsafe.
PruneResult pruneSyncGroups(IncrementalCheck &check,
                            ArrayRef<SyncGroup> groups);

/// Moves the pre-set and the drain of each loop pair whose scf.for sits in
/// the body of another scf.for out of that outer loop (dropping the
/// handshake after the drain, which the move makes unnecessary), where
/// the dependencies stay ordered and every flag safe on every path as
/// `check` walks them; others are left as they were. Repeats until no pair
/// moves (a pair may leave several loops of a nest). Once `check`'s budget
/// is spent, the pairs left stay where they are. Returns how many moves
/// were kept.
unsigned hoistLoopPairs(IncrementalCheck &check,
                        MutableArrayRef<SyncGroup> groups);

/// Moves the pre-set of each loop pair of `groups` up its block, ahead of
/// the ops of its source pipe that run before the loop, where the
/// dependencies stay ordered and every flag safe on every path as `check`
/// walks them: a set fires once its pipe's earlier ops
/// have finished, so a pre-set behind work that hands the loop nothing
/// holds the loop's first wait for that work. It stops at control flow,
/// calls, barrier_all, cross-core syncs and syncs of its own flag, and
/// tries the earliest place first. Once `check`'s budget is spent, the
/// pre-sets left stay. Returns how many pre-sets moved.
unsigned movePresetsEarlier(IncrementalCheck &check,
                            ArrayRef<SyncGroup> groups);

/// What the jobs after codegen did (tidySyncs).
struct TidyCounts {
  /// Groups dropped as implied by the others, and the ops their checks
  /// walked.
  unsigned dropped = 0;
  int64_t steps = 0;
  /// False when the budget ran out before every group was checked.
  bool complete = true;
  /// Loop pairs set and drained outside their outer loops
  /// (hoistLoopPairs), and pre-sets moved up (movePresetsEarlier).
  unsigned hoisted = 0;
  unsigned earlier = 0;
};

/// The jobs after codegen, on one IncrementalCheck of `budget` steps over
/// `requirements`' dependencies: drops the groups of `syncs` the others
/// imply (pruneSyncGroups; `syncs` keeps the rest, in order), moves loop
/// pairs out of outer loops and prunes again, then moves pre-sets up. Each
/// job runs only while the one before finished within the budget. Nothing
/// to do without groups or with a budget of 0.
TidyCounts tidySyncs(func::FuncOp func, const TargetDescription &target,
                     const sync::SyncRequirements &requirements,
                     sync::InsertedSyncs &syncs, int64_t budget);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PRUNING_H
