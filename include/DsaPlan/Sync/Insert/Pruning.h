//===- Pruning.h - Drop inserted syncs others imply -------------*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PRUNING_H
#define DSAPLAN_SYNC_INSERT_PRUNING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir {
namespace dsaplan {

/// Event ids per (src, dst) pipe pair on 910B: 0-7.
inline constexpr int64_t kNumEventIds = 8;

/// The ops of one inserted sync: a set_flag and its wait_flag (for a loop's
/// pair, also the set before the loop and the wait after it), or a
/// pipe_barrier.
using SyncGroup = SmallVector<Operation *, 4>;

/// `later` must not start before the latest execution of `earlier` (on the
/// path that reaches it) has finished.
struct Dependency {
  Operation *earlier, *later;
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
/// zero to three iterations, as dsaplan-verify-sync walks them. When the
/// checks have walked `stepBudget` ops, the groups not yet checked stay.
/// If the result is complete, what is left is minimal: dropping any one
/// remaining group leaves a dependency unordered.
PruneResult pruneSyncGroups(func::FuncOp func, ArrayRef<Dependency> dependencies,
                            ArrayRef<SyncGroup> groups, int64_t stepBudget);

struct EventIdRepairs {
  unsigned moved = 0;      // pairs moved to another event id
  unsigned handshakes = 0; // pairs that got a flag back after their wait
};

/// A flag is one bit: a set_flag that may run before the wait that consumed
/// the previous set of its flag is lost, and a later wait hangs. Finds such
/// sets among the inserted groups, on every path as `pruneSyncGroups` walks
/// them, and repairs them: moves the pair to another event id, or, where no
/// id helps, adds a handshake back after its wait (into that wait's group);
/// where neither settles, the last resort replaces the group's flags by a
/// barrier_all at each of its waits, which needs no id. Pairs of the input
/// are never changed. Always ends with every inserted set safe.
void assignSafeEventIds(func::FuncOp func, MutableArrayRef<SyncGroup> groups,
                        EventIdRepairs &repairs);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PRUNING_H
