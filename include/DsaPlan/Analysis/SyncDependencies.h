//===- SyncDependencies.h - Which accesses must wait for which --*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The dependencies a sync inserter must honour, decided by byte ranges, not
// by buffer identity: an access depends on the last writers of its bytes
// and, when it writes, on the readers since. Older accesses are ordered
// through those (happens-before is transitive), so the list is linear in
// the accesses rather than quadratic:
//
//   linalg.exp ins(%table)    // V reads [0, 4096)
//   memref.copy %gm, %row     // MTE2 writes [1024, 1056): depends on the exp
//   linalg.exp ins(%row)      // V reads [1024, 1056): depends on the copy,
//                             // and on the first exp only through it
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_SYNCDEPENDENCIES_H
#define DSAPLAN_ANALYSIS_SYNCDEPENDENCIES_H

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace mlir {
namespace dsaplan {

/// An op that reads or writes dsaplan memory, and the pipe it runs on.
struct PipeAccess {
  Operation *op;
  Pipe pipe;
  SmallVector<MemoryAccess, 3> accesses;
};

/// Which dependencies count, by the tiles of their two accesses.
enum class DependencyScope {
  /// Every pair of accesses to shared bytes.
  All,
  /// Only between different tiles that share bytes, for toolchains that
  /// order the accesses to one tile themselves.
  ReuseOnly,
  /// Only within one tile: what an inserter comparing buffers would see.
  IdentityOnly,
};

/// `later` must not start before `earlier` has finished.
struct SyncDependency {
  /// Indices into the accesses.
  unsigned earlier, later;
  /// The loop whose back edge lies between them (`later` runs in the
  /// iteration after `earlier`'s), or null.
  Operation *loop;
};

/// The dependencies between `accesses`, the accessing ops of `func` (each
/// op's regions belong to it). Walks `func` in program order over a shadow
/// of each memory space: scf.if and scf.index_switch regions from copies of
/// the shadow, merged after; loop bodies twice, the second walk meeting the
/// first's accesses as those of the previous iteration. Sorted by (later,
/// earlier), the variants of one pair (across different loops' back edges,
/// or none) in the order the walk found them; without duplicates; an op
/// depends on itself only around a back edge.
std::vector<SyncDependency> findSyncDependencies(func::FuncOp func,
                                                 ArrayRef<PipeAccess> accesses,
                                                 DependencyScope scope);
/// As above, given the index of each access's op in `accesses` (the
/// inserter keeps one anyway).
std::vector<SyncDependency>
findSyncDependencies(func::FuncOp func, ArrayRef<PipeAccess> accesses,
                     const DenseMap<Operation *, unsigned> &accessIndex,
                     DependencyScope scope);

/// Unordered pairs of ops with conflicting accesses (an op that writes
/// inside a loop with itself): the flag pairs of an inserter that gives
/// each conflict its own. Time and memory grow with those pairs.
unsigned countConflictingPairs(func::FuncOp func, ArrayRef<PipeAccess> accesses,
                               DependencyScope scope);

/// Checks `access` against the target's pipe table: every memory it reads
/// or writes must be one its pipe may. Else an error on the op naming the
/// pipe, the memory and what the pipe may touch:
///
///   memref.copy %acc, %ub {dsaplan.pipe = #dsaplan.pipe<fix>}
///   // error: on ascend910b pipe fix cannot write ub (it writes gm, l1)
LogicalResult verifyPipeReach(const PipeAccess &access,
                              const TargetDescription &target);

/// The cores `access` may run on: those of its pipe that hold every
/// on-chip space it touches, narrowed by a `dsaplan.core` attribute on the
/// op (a CoreMask). An MTE2 copy into L1 runs on the cube core, into UB on
/// the vector core; an op touching GM only keeps all its pipe's cores.
unsigned getAccessCores(const PipeAccess &access,
                        const TargetDescription &target);

/// Moves the dependencies between an access of the cube core and one of
/// the vector core out of `dependencies` and returns them: set_flag and
/// wait_flag order the pipes of one core only, those take cross-core flags
/// (a FIX store to a GM workspace read back by the vector core's MTE2).
/// In a function holding accesses of both cores, an access either core
/// could run (GM only, on a pipe of both) is an error asking for
/// `dsaplan.core`.
FailureOr<std::vector<SyncDependency>>
splitCrossCore(ArrayRef<PipeAccess> accesses,
               std::vector<SyncDependency> &dependencies,
               const TargetDescription &target);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_SYNCDEPENDENCIES_H
