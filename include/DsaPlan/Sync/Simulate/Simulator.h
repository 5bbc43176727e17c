//===- Simulator.h - Pipe-level execution of a synchronised kernel -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The execution-based check of DESIGN.md "Sync model": a kernel after
// dsaplan-materialize and dsaplan-insert-sync is run the way the hardware
// would run it, with concrete addresses and randomised (seeded) durations,
// and its races, lost signals and hangs are reported. It shares nothing with
// the static analyses (lib/Analysis, insert-sync, the verifier): it computes
// its own byte ranges from the views it evaluates, and its own
// happens-before from the execution it simulates.
//
//   scalar unit:  interpret the function in program order (arith, scf) and
//                 emit a trace entry per pipe op and sync op, with the
//                 concrete bytes each op reads and writes;
//   pipes:        each pipe issues its entries in order; set_flag fires when
//                 its pipe has finished everything before it, wait_flag
//                 blocks until the flag is set, pipe_barrier until the
//                 pipe's earlier ops have finished;
//   races:        vector clocks over the execution; two conflicting accesses
//                 that neither orders are a race.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SYNC_SIMULATE_SIMULATOR_H
#define DSAPLAN_SYNC_SIMULATE_SIMULATOR_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class Operation;
namespace func {
class FuncOp;
} // namespace func
namespace dsaplan {

/// The simulated pipes are units (Target.h): a kernel of one core uses the
/// first kNumPipes, whichever core it is; a kernel of both (with
/// cross-core flags) runs the cube core's pipes there and the vector
/// core's in the next kNumPipes, named "aiv.v", "aiv.mte2", ...
/// The pipe of a unit, and its name ("mte2", "aiv.mte2").
inline Pipe pipeOfUnit(unsigned unit) {
  return static_cast<Pipe>(unit % kNumPipes);
}
std::string unitName(unsigned unit);

struct SimulationOptions {
  /// The first seed; run k uses seed + k. A seed fixes the choices of the
  /// scalar unit (unknown conditions, unknown integer arguments) and the
  /// durations of the ops.
  uint64_t seed = 1;
  /// Independent runs; the summary reports the worst.
  unsigned runs = 1;
  /// Trace entries one run may generate before it gives up.
  int64_t maxTraceLength = 200000;
  /// Iterations after which an `scf.while` whose condition is a choice
  /// leaves.
  int64_t maxWhileIterations = 4;
  /// Report races on GM function arguments too (the inserter orders only
  /// the on-chip spaces, so kernels that read and write one GM argument on
  /// different pipes race there by design).
  bool checkGm = true;
  /// Values of the function's integer and index arguments, in order; the
  /// others are chosen in [0, 4).
  llvm::SmallVector<int64_t> argValues;
  /// The cycle costs of the pipes (the target's estimates unless a caller
  /// overrides them).
  CostModel costs = CostModel::defaults();
  /// Keep the executed entries of the worst run (SimulationResult::executed)
  /// for a trace file or the dataflow ideal.
  bool keepRun = false;
};

enum class FindingKind {
  Race,        // two conflicting accesses not ordered
  Overrun,     // a set fired while its flag was still set: a lost signal
  Hang,        // a wait whose flag is never set
  Unwaited,    // a flag still set at the end
  Unsupported, // the scalar unit cannot run an op (an error)
  GaveUp       // the trace hit maxTraceLength (a warning)
};

/// One diagnostic: an error (or warning, for GaveUp) on `op`, with a note on
/// `other` when there is one.
struct SimulationFinding {
  FindingKind kind;
  Operation *op = nullptr;
  Operation *other = nullptr;
  std::string message;
  std::string note;
  bool isError() const { return kind != FindingKind::GaveUp; }
};

/// One entry of a simulated run as it executed: a pipe op, a set_flag, a
/// wait_flag, a pipe_barrier, a barrier_all (issued by the scalar unit,
/// `pipe` is S), a cross_core_set or a cross_core_wait (on its core's S),
/// with its concrete bytes and its cycles. `pipe` is a unit
/// (kNumUnits).
struct ExecutedEntry {
  enum class Kind { Op, Set, Wait, Barrier, BarrierAll, CrossSet, CrossWait };
  struct Run {
    int64_t begin, end; // bytes [begin, end)
  };
  struct Access {
    int memory; // an index into ExecutedRun::memoryNames
    bool write;
    llvm::SmallVector<Run, 1> runs;
  };
  Kind kind = Kind::Op;
  Operation *op = nullptr;
  unsigned pipe = 0;
  /// set/wait: the flag (source unit, destination unit, event id); a
  /// cross-core set or wait: (kCrossCoreFlag, waiting core's S unit, id).
  unsigned flagSrc = 0, flagDst = 0;
  int64_t flagId = 0;
  /// Iteration numbers of the enclosing loops, outermost first.
  llvm::SmallVector<int64_t, 2> iterations;
  llvm::SmallVector<Access, 2> accesses;
  /// Op: [start, end) ran, end - start its duration. Set: issued at start,
  /// fired at end. Wait: reached at start, passed at end. Barrier, barrier_all:
  /// passed at start == end. -1 when it never took effect (a hang, an overrun set).
  int64_t start = -1, end = -1;
  /// A wait: the index of the set whose signal it took, -1 if none.
  int64_t consumed = -1;
};

/// The entries of one run in the scalar unit's program order.
struct ExecutedRun {
  uint64_t seed = 0;
  std::vector<ExecutedEntry> entries;
  /// Names of the memories the accesses index: spaces and GM arguments.
  std::vector<std::string> memoryNames;
  bool hung = false;
  bool gaveUp = false;
  /// CostModel::pipeOverlap of the run: whether a pipe's ops may overlap.
  bool pipeOverlap = true;
  /// Per pipe: whether it runs its ops one after the other whatever
  /// pipeOverlap says (the target's pipes that need no pipe_barrier).
  std::array<bool, kNumUnits> inOrder{};
};

/// How much a loop overlapped its pipes in one run: the sum of its ops'
/// durations against the cycles from its first op's start to its last op's
/// end (over all its iterations).
struct LoopOverlap {
  Operation *loop = nullptr;
  int64_t serial = 0;
  int64_t span = 0;
};

/// What one run measured.
struct SimulationRun {
  uint64_t seed = 0;
  int64_t makespan = 0;     // cycles until the last op or flag finished
  int64_t opsExecuted = 0;  // pipe ops (not syncs) that ran
  int64_t flagsSet = 0;     // set_flags that fired
  int64_t traceLength = 0;  // trace entries generated
  int64_t serial = 0;       // the sum of the ops' durations
  /// The dataflow ideal (IdealSchedule.h) of this run's ops, when computed.
  int64_t ideal = 0;
  std::array<int64_t, kNumUnits> busy{}; // cycles with an op running
  unsigned errors = 0;
  bool gaveUp = false;
};

struct SimulationResult {
  /// The run with the most errors, then the longest makespan.
  SimulationRun worst;
  unsigned runs = 0;
  /// Over all runs, each distinct one once, in the order they were found.
  std::vector<SimulationFinding> findings;
  /// The worst run's entries, when SimulationOptions::keepRun.
  ExecutedRun executed;
  /// The worst run's loops, outermost first in program order.
  std::vector<LoopOverlap> loops;
  unsigned count(FindingKind kind) const;
  bool failed() const;
};

/// Simulates `func` `options.runs` times. Does not emit diagnostics: the
/// caller turns the findings into them.
SimulationResult simulate(func::FuncOp func, const SimulationOptions &options);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SYNC_SIMULATE_SIMULATOR_H
