//===- Plan.h - What dsaplan-insert-sync decides, job by job ----*- C++ -*-===//
//
// Part of dsaplan. The inserter's jobs (lib/Sync/Insert).
//
//===----------------------------------------------------------------------===//
//
// dsaplan-insert-sync runs as a chain of jobs, each in its own file, each
// handing the next a plain result:
//
//   Requirements.cpp  accesses and their dependencies, as requirements
//                         of the blocks and loops that hold them
//   Cover.cpp         which flag pairs and barriers meet them (what every
//                         pipe knows at each gap; pairs around loop back
//                         edges, one per slot of a rotating buffer)
//   IdPressure.cpp    fewer pairs where a block would hold more at once
//                         than its pipe pair has event ids
//   EventIds.cpp      an event id for each pair, clear of the ids the
//                         input's own syncs have in flight
//   Codegen.cpp       the set_flag/wait_flag/pipe_barrier ops, each
//                         decision a group
//   EventIds.cpp      (again, on the ops) the one-bit flag repair: no set
//                         overruns the previous set of its flag
//   Pruning.cpp       the groups the others imply dropped, loop pairs
//                         hoisted, pre-sets moved up (tidySyncs)
//   Report.cpp,       the syncs as JSON and the memory maps with the
//   Pictures.cpp          syncs drawn in
//
// Every container here is keyed or ordered by program position, never by
// pointer, so that the result does not depend on the heap layout.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_INSERT_PLAN_H
#define DSAPLAN_SYNC_INSERT_PLAN_H

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Analysis/SyncDependencies.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <tuple>
#include <vector>

namespace mlir {
namespace dsaplan {

/// The ops of one inserted sync: a set_flag and its wait_flag (for a loop's
/// pair, also the set before the loop and the wait after it), or a
/// pipe_barrier.
using SyncGroup = SmallVector<Operation *, 4>;

namespace sync {

inline unsigned pipeIndex(Pipe pipe) { return static_cast<unsigned>(pipe); }

/// A gap of a block: gap g is just before the block's op number g.
using Gap = unsigned;

/// The function's ops numbered in pre-order, and each block's ops by index,
/// as they were before any sync was inserted. Blocks get ids in pre-order
/// too: keys of blocks and loops are these numbers.
class ProgramOrder {
public:
  explicit ProgramOrder(func::FuncOp func);

  /// Pre-order position of `op`, and the last position inside it (0 for
  /// an op created since).
  int64_t position(Operation *op) const { return preorder.lookup(op); }
  int64_t endPosition(Operation *op) const {
    auto it = preorder.find(op);
    return it == preorder.end() ? 0 : ends[it->second];
  }
  unsigned blockId(Block *block) const { return blockIds.lookup(block); }
  Block *blockWithId(unsigned id) const { return blocks[id]; }
  /// The op at `position`.
  Operation *opAt(int64_t position) const { return ops[position]; }

  unsigned indexInBlock(Operation *op) const {
    auto it = preorder.find(op);
    return it == preorder.end() ? 0 : indices[it->second];
  }
  /// The ops of `block` by index.
  ArrayRef<Operation *> opsOf(Block *block) const {
    return blockOps.find(block)->second;
  }
  /// A gap as a position between pre-order positions.
  double linearGap(Block *block, Gap gap) const;

private:
  DenseMap<Operation *, int64_t> preorder;
  /// By pre-order position: the op, the last position inside it, and its
  /// index in its block.
  std::vector<Operation *> ops;
  std::vector<int64_t> ends;
  std::vector<unsigned> indices;
  DenseMap<Block *, unsigned> blockIds;
  std::vector<Block *> blocks;
  DenseMap<Block *, std::vector<Operation *>> blockOps;
};

/// The innermost block holding both ops.
Block *commonBlock(Operation *a, Operation *b);

/// The block whose executions are the iterations of `loop` with pairs
/// around its back edge: an scf.for's body, an scf.while's "do" region.
Block *loopBody(Operation *loop);

/// The innermost scf.for or scf.while holding `block`.
Operation *enclosingLoop(Block *block);

/// The access of pipe `src` at op `after` of a block must finish before the
/// access of pipe `dst` at op `before` starts. Forward: after < before, both
/// in one execution of the block; around a back edge: `after` in one
/// iteration of the loop body and `before` in the next.
struct Requirement {
  unsigned after, before;
  Pipe src, dst;
  /// Consumers first, and for one consumer the latest producer first: its
  /// set carries the most knowledge.
  bool operator<(const Requirement &o) const {
    return std::make_tuple(before, -static_cast<int64_t>(after), src, dst) <
           std::make_tuple(o.before, -static_cast<int64_t>(o.after), o.src,
                           o.dst);
  }
  bool operator==(const Requirement &o) const {
    return after == o.after && before == o.before && src == o.src &&
           dst == o.dst;
  }
};

/// Job 1: the accesses of a function and what must be ordered.
struct SyncRequirements {
  SmallVector<PipeAccess> accesses;
  DenseMap<Operation *, unsigned> accessIndex;
  /// Bit p set: the op is, or holds, an access of pipe p.
  DenseMap<Operation *, unsigned> pipesOf;
  /// Between accesses of one core; those between the cube and the vector
  /// core are in `crossCore` (CrossCore.h), not filed as requirements.
  std::vector<SyncDependency> dependencies;
  std::vector<SyncDependency> crossCore;
  /// Forward requirements by block id, around back edges by the loop's
  /// position (scf.for).
  std::map<unsigned, SmallVector<Requirement>> forward;
  std::map<int64_t, SmallVector<Requirement>> backEdge;
  /// Around the back edge of an scf.for, between two accesses of one block
  /// of a branch in its body (an scf.if or scf.index_switch that may skip
  /// them), by that block's id: from one execution of the block to the next
  /// (FlashAttention's causal skip: the load of a K slot waits for the last
  /// read of that slot, however many iterations skipped it).
  std::map<unsigned, SmallVector<Requirement>> branchBackEdge;
  /// Fallback for loops other than scf.for and for the regions of one op
  /// that run one after the other: a set and its wait (or a barrier) right
  /// after the op; one per op and pair of pipes orders the op before
  /// everything later on the waiting pipe. In order of discovery.
  llvm::SetVector<std::tuple<Operation *, Pipe, Pipe>> eager;
};

/// Collects the accesses of `func` (an error on each op that touches dsaplan
/// memory without a pipe) and the requirements of its dependencies.
LogicalResult collectSyncRequirements(func::FuncOp func,
                                      const TargetDescription &target,
                                      DependencyScope scope,
                                      const ProgramOrder &order,
                                      SyncRequirements &requirements);

/// A flag pair (or, with set == wait, a barrier) the cover decided.
/// `rank` is the order of decisions: at one gap, the sets of later waits
/// come first, then waits and barriers in the order of decision, a set
/// whose wait is at the same gap just before it, as the cover assumed.
struct FlagPair {
  Gap set, wait;
  unsigned rank = 0;
  /// A pair of an scf.for body whose pairs were merged for want of ids
  /// (IdPressure.cpp): it holds its id over the whole loop.
  bool wholeBody = false;
  /// A set right after an scf.for that goes before the loop's drains (the
  /// waits of its loop pairs): the cover found that they tell the set's
  /// pipe nothing the set hands over, and a drain held in front of the set
  /// would delay it until the loop's last consumer on the drain's source
  /// pipe is done (Cover.cpp, `aheadOfDrains`):
  ///
  ///   scf.for ... { ... linalg.add (v) ... memref.copy %s (mte3) ... }
  ///   set_flag <v -> mte3>, 2        // fires once the add is done
  ///   wait_flag <mte3 -> v>, 0       // drain
  ///   wait_flag <v -> mte3>, 2
  ///   memref.copy %acc, %gm (mte3)
  bool setAheadOfDrains = false;
};

/// Job 2: the flag pairs and barriers that meet the requirements.
struct SyncDecisions {
  /// By (block id, src, dst).
  std::map<std::tuple<unsigned, Pipe, Pipe>, SmallVector<FlagPair>> pairs;
  /// By (block id, pipe).
  std::map<std::pair<unsigned, Pipe>, SmallVector<FlagPair>> barriers;
  /// Around the back edge of a loop, by (loop position, src, dst): set
  /// before the loop and after its producer in the body, waited before the
  /// consumer in the body and after the loop.
  std::map<std::tuple<int64_t, Pipe, Pipe>, SmallVector<FlagPair, 1>>
      loopPairs;
  /// Around the back edge of a loop, but in a block of a branch of its body,
  /// by (block id, src, dst): set before the loop and after the producer in
  /// the block, waited before the consumer in the block and after the loop.
  /// An execution that skips the block leaves the flag set for the next.
  std::map<std::tuple<unsigned, Pipe, Pipe>, SmallVector<FlagPair, 1>>
      branchLoopPairs;
};

SyncDecisions coverSyncRequirements(func::FuncOp func,
                                    const ProgramOrder &order,
                                    const SyncRequirements &requirements);

/// Between jobs 2 and 3: where more pairs of one block and pipe pair would
/// be in flight at once than the pipe pair has event ids (on a straight
/// line, the most whose stretches meet; in an scf.for body, all of them),
/// merges neighbours whose stretches meet into one pair (set after the
/// later producer, wait before the earlier consumer) until they fit.
void relieveIdPressure(const TargetDescription &target,
                       const ProgramOrder &order, SyncDecisions &decisions);

/// Job 3: a pair with its event id, ready to be created.
struct PlannedPair {
  Block *block;
  Gap set, wait;
  Operation *loop; // for a loop pair
  Pipe src, dst;
  int64_t id; // -1: no event id is free, a barrier_all at the wait instead
  unsigned rank;
  bool setAheadOfDrains = false; // FlagPair::setAheadOfDrains
};
struct PlannedBarrier {
  Block *block;
  Gap gap;
  Pipe pipe;
  unsigned rank;
};
struct PlannedEager {
  Operation *after;
  Pipe src, dst;
  int64_t id; // -1: a barrier (src == dst), or a barrier_all for want of an id
};
struct SyncPlan {
  SmallVector<PlannedPair> pairs;
  SmallVector<PlannedBarrier> barriers;
  SmallVector<PlannedEager> eager;
  /// Flag pairs whose set moved down to their wait for want of an event id.
  unsigned numLateSets = 0;
};

/// Gives every decided pair an event id, never one that a pair of the input
/// (or another decided pair) has in flight over the same stretch of the
/// function; a pair that finds none is left with id -1, to become a
/// barrier_all (the hardware's last resort, PIPE_ALL) at its wait.
SyncPlan assignEventIds(func::FuncOp func, const TargetDescription &target,
                        const ProgramOrder &order,
                        const SyncDecisions &decisions,
                        const SyncRequirements &requirements);

/// Job 4: the ops.
enum class SyncKind { Pair, LoopPair, EagerPair, Barrier, BarrierAll };
struct InsertedSyncs {
  std::vector<SyncGroup> groups;
  std::vector<SyncKind> kinds;
};

/// Creates the syncs of `plan` in `func`, each pair or barrier a group.
InsertedSyncs createSyncOps(func::FuncOp func, const ProgramOrder &order,
                            const SyncPlan &plan);

/// The ops the jobs after job 4 decide on, created here too, so that
/// Codegen.cpp stays the only code that creates ops.
///
/// The event-id repair's handshake: a set_flag back from `wait`'s pipe to
/// the pipe it waited for, and its wait_flag at once, both just after
/// `wait` with event `event` (moved by the repair's next round if unsafe);
/// appended to `group`. The pipes of the flag meet there, so that every
/// later set of the flag runs after this wait, which a set that no event id
/// can order after the wait before it needs:
///
///   scf.for ... {
///     wait_flag <mte3 -> mte2>, 0
///     set_flag <mte2 -> mte3>, 0     // the handshake
///     wait_flag <mte2 -> mte3>, 0
///     ...
///     set_flag <mte3 -> mte2>, 0     // now after the wait above
///   }
void createHandshake(WaitFlagOp wait, int64_t event, SyncGroup &group);
/// The repair's last resort: a barrier_all just before `op`.
Operation *createBarrierAllBefore(Operation *op);
/// A parked flag at a settled call: the wait_flag of <src -> dst> `event`
/// just before `before`, its set_flag just after `after`, both at `loc`.
void createParkedFlag(Operation *before, Operation *after, Location loc,
                      Pipe src, Pipe dst, int64_t event);

/// The results of jobs 1 to 3 as text, in program positions, for the debug
/// output between the jobs (Debug.cpp).
void printRequirements(raw_ostream &os, const SyncRequirements &requirements);
void printDecisions(raw_ostream &os, const SyncDecisions &decisions);
void printPlan(raw_ostream &os, const ProgramOrder &order,
               const SyncPlan &plan);

} // namespace sync

struct EventIdRepairs {
  unsigned moved = 0;      // pairs moved to another event id
  unsigned handshakes = 0; // pairs that got a flag back after their wait
  unsigned rounds = 0;     // walks of the function, one per round
  int64_t steps = 0;       // ops the rounds walked
};

/// A flag is one bit: a set_flag that may run before the wait that consumed
/// the previous set of its flag is lost, and a later wait hangs. Finds such
/// sets among the inserted groups, on every path as the pruning walks
/// them, and repairs them: moves the pair to another event id, or, where no
/// id helps, adds a handshake back after its wait (into that wait's group);
/// where neither settles, the last resort replaces the group's flags by a
/// barrier_all at each of its waits, which needs no id. Pairs of the input
/// are never changed. Always ends with every inserted set safe.
void assignSafeEventIds(func::FuncOp func, const TargetDescription &target,
                        MutableArrayRef<SyncGroup> groups,
                        EventIdRepairs &repairs);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_INSERT_PLAN_H
