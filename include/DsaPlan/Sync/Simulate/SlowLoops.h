//===- SlowLoops.h - Why a simulated loop overlapped little -----*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Reads one simulated run (ExecutedRun) for the sync that held a loop back
// longest and says what it ordered, in the words of the summary remark:
//
//   loop 22:12: 11594 cycles of work in 11617 (1.00x overlap; held back by
//   wait_flag <mte3 -> mte2> at 30:7, 6210 cycles stalled: GM ordering
//   through arguments #0 and #1, which may alias: 'memref.copy' at 29:7
//   (mte3) then 'memref.copy' at 26:7 (mte2) share no byte in this run;
//   mark them llvm.noalias if the caller never passes one buffer as both)
//
// Independent of the inserter: it sees the run's concrete bytes and the
// syncs as ops, not why they were inserted.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_SIMULATE_SLOWLOOPS_H
#define DSAPLAN_SYNC_SIMULATE_SLOWLOOPS_H

#include "DsaPlan/Sync/Simulate/Simulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <string>

namespace mlir {
namespace dsaplan {

/// Loops whose overlap (their ops' cycles over their span) is below this
/// get a cause in the summary.
constexpr double kSlowLoopOverlap = 1.5;

/// What held each loop back in one run: the wait_flag or pipe_barrier
/// inside it that stalled its pipe the most cycles (over all iterations),
/// and what it ordered there:
///
///   - a dependency the run's bytes confirm (the kernel's own dataflow);
///   - GM ordering through two function arguments that may alias (neither
///     is `llvm.noalias`) between ops that share no byte in the run: the
///     arguments, the ops, and the fix;
///   - a set_flag right before its wait_flag that orders no byte (a
///     handshake or a set moved late: event-id pressure);
///   - a pipe_barrier.
///
/// The stalls of every loop are gathered in one pass over the run, each
/// sync charged to the loops around it: a summary explains many loops of a
/// run of hundreds of thousands of entries.
class SlowLoops {
public:
  explicit SlowLoops(const ExecutedRun &run);

  /// The cause for `loop`, in the words of the summary.
  std::string explain(Operation *loop) const;

private:
  /// Per sync op inside a loop, in the order the run first met it: its
  /// total stall and the entry of its longest one.
  using Stalls = llvm::MapVector<Operation *, std::pair<int64_t, size_t>>;

  const ExecutedRun &run;
  /// By the op around the syncs (a loop, or any other).
  llvm::DenseMap<Operation *, Stalls> stallsAround;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_SIMULATE_SLOWLOOPS_H
