//===- Pruning.h - Drop inserted syncs others imply -------------*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PRUNING_H
#define DSAPLAN_SYNC_INSERT_PRUNING_H

#include "DsaPlan/Sync/Insert/Plan.h"

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

struct PruneResult {
  /// Which groups were erased.
  std::vector<bool> erased;
  /// Ops walked by the checks.
  int64_t steps = 0;
  /// False when the step budget ran out before every group was checked.
  bool complete = true;
};

/// Erases, one group at a time in order, every group of `groups` without
/// which all `dependencies` of `func` are still ordered on every path:
/// scf.if along both branches, loops unrolled three times and left after
/// zero to three iterations, as dsaplan-verify-sync walks them. Dropping a
/// pair can also drop a set that another sync had to be ordered before (a
/// flag is one bit), so the groups kept are tried again, in rounds, until
/// a round drops nothing; a group kept because a dependency was unordered
/// without it is not tried again, since later rounds leave out more. When
/// the checks have walked `stepBudget` ops, the groups not yet checked
/// stay. If the result is complete, what is left is minimal: dropping any
/// one remaining group leaves a dependency unordered or a flag unsafe.
PruneResult pruneSyncGroups(func::FuncOp func, const TargetDescription &target,
                            const DependencyIndex &dependencies,
                            ArrayRef<SyncGroup> groups, int64_t stepBudget);

/// Moves the pre-set and the drain of each loop pair whose scf.for sits in
/// the body of another scf.for out of that outer loop (dropping the
/// handshake after the drain, which the move makes unnecessary), where
/// `dependencies` stay ordered and every flag safe on every path as
/// pruneSyncGroups checks them; others are left as they were. Repeats
/// until no pair moves (a pair may leave several loops of a nest). Each
/// try is a check of the whole function; the checks walk at most
/// `stepBudget` ops, which is decreased by what they walked (once spent,
/// the pairs left stay where they are). Returns how many moves were kept.
unsigned hoistLoopPairs(func::FuncOp func, const TargetDescription &target,
                        const DependencyIndex &dependencies,
                        MutableArrayRef<SyncGroup> groups,
                        int64_t &stepBudget);

/// Moves the pre-set of each loop pair of `groups` up its block, ahead of
/// the ops of its source pipe that run before the loop, where
/// `dependencies` stay ordered and every flag safe on every path as
/// pruneSyncGroups checks them: a set fires once its pipe's earlier ops
/// have finished, so a pre-set behind work that hands the loop nothing
/// holds the loop's first wait for that work. It stops at control flow,
/// calls, barrier_all, cross-core syncs and syncs of its own flag, and
/// tries the earliest place first. Each try is a check of the whole
/// function; the checks walk at most `stepBudget` ops, which is decreased
/// by what they walked (once spent, the pre-sets left stay). Returns how
/// many pre-sets moved.
unsigned movePresetsEarlier(func::FuncOp func, const TargetDescription &target,
                            const DependencyIndex &dependencies,
                            ArrayRef<SyncGroup> groups, int64_t &stepBudget);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PRUNING_H
