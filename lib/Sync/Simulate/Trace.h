//===- Trace.h - The simulator's trace and timeline -------------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Simulate.
//
//===----------------------------------------------------------------------===//
//
// The plain data the simulator's stages hand on, and the stages themselves.
// One run is three stages, each on the output of the one before:
//
//   buildTrace   (Interpreter.cpp, Values.cpp)  the scalar unit: a Trace,
//                one Entry per pipe op and sync op with its concrete bytes;
//   timePipes    (Timing.cpp)  the pipes: a Timeline of when each entry
//                took effect, and the overruns, hangs and flags left set;
//   checkRaces   (RaceChecker.cpp)  happens-before over the Timeline:
//                conflicting accesses that neither orders.
//
//   memref.copy %gm, %a {pipe = mte2}   // %a: ub [4096, 5120)
//   -> Entry{Op, pipe mte2, accesses: read gm #0 [0, 1024),
//                                     write ub [4096, 5120)}
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_SIMULATE_TRACE_H
#define DSAPLAN_LIB_SYNC_SIMULATE_TRACE_H

#include "DsaPlan/Sync/Simulate/Simulator.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace mlir {
namespace dsaplan {
namespace simulator {

/// The scalar unit's pipe: it issues barrier_all.
constexpr unsigned kScalarPipe = static_cast<unsigned>(Pipe::s);
/// Memories: the dsaplan spaces by their enum value, GM buffers from here on.
constexpr int kFirstGm = static_cast<int>(kNumMemorySpaces);
/// A byte range standing for "all of an unbounded GM buffer".
constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

/// SplitMix64: the same numbers on every machine and standard library
/// (std::uniform_int_distribution is not specified bit for bit).
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool coin() { return next() & 1; }

private:
  uint64_t state;
};

/// Bytes [begin, end) of one memory.
struct ByteRun {
  int64_t begin = 0, end = 0;
};

/// In the order of ExecutedEntry::Kind. A BarrierAll entry is issued by the
/// scalar unit of a core and queued on every pipe of that core; so is a
/// CrossWait (a cross_core_wait holds its whole core).
enum class EntryKind { Op, Set, Wait, Barrier, BarrierAll, CrossSet, CrossWait };

/// (src unit, dst unit, event id); for a cross-core counter
/// (kCrossCoreFlag, the receiving core's S unit, id).
using FlagKey = std::tuple<unsigned, unsigned, int64_t>;
constexpr unsigned kCrossCoreFlag = ~0u;

/// The first unit of the core of `unit` (0 or kNumPipes).
inline unsigned coreBase(unsigned unit) { return unit - unit % kNumPipes; }

/// What an entry reads or writes: runs of one memory (a space by its enum
/// value, a GM buffer from kFirstGm on).
struct Access {
  int memory;
  bool write;
  SmallVector<ByteRun, 1> runs;
};

/// One instruction the scalar unit issued to a pipe.
struct Entry {
  EntryKind kind;
  Operation *op;
  unsigned pipe;
  FlagKey flag{};
  SmallVector<Access, 2> accesses;
  /// Iteration numbers of the enclosing loops, outermost first.
  SmallVector<int64_t, 2> iterations;
  int64_t bytes = 0;
};

/// One run's entries in the scalar unit's program order, and what the
/// stages after it need to know of the memories.
struct Trace {
  std::vector<Entry> entries;
  /// Per pipe: whether the target runs its ops in order (no pipe_barrier
  /// needed between them).
  std::array<bool, kNumUnits> inOrder{};
  bool gaveUp = false;
  /// The most signals a cross-core counter holds (the target's).
  int64_t crossCoreLimit = 0;
  DenseMap<int, int64_t> rootBytes;
  DenseMap<int, std::string> memoryNames;
};

/// What the timed run leaves for the race check.
struct Timeline {
  std::vector<int64_t> start, end; // ops: when they ran; -1: never
  std::vector<int64_t> order;      // entries in the order they took effect
  std::vector<int64_t> consumed;   // a wait: the set whose signal it took
  bool hung = false;
};


/// "v", "mte2", "aiv.mte2": the name of unit number `pipe`.
std::string pipeName(unsigned pipe);

/// "event 3 of <mte2 -> v>".
std::string flagName(const FlagKey &key);

/// " in iteration 3", " in iterations 1, 0" (outermost loop first), or "".
std::string iterationText(const Entry &entry);

/// "'linalg.exp' on pipe v in iteration 2".
std::string describe(const Entry &entry);

/// The scalar unit: interprets `func` on `target` with the choices of
/// `seed` and fills `trace`; fails (with an Unsupported finding) at an op it
/// cannot run.
LogicalResult buildTrace(func::FuncOp func, const TargetDescription &target,
                         const SimulationOptions &options, uint64_t seed,
                         Trace &trace,
                         std::vector<SimulationFinding> &findings);

/// The pipes: runs `trace` with durations drawn from `runSeed`, fills
/// `timeline` and the run's statistics, and reports overruns, hangs and
/// flags left set (naming `seed`).
void timePipes(const Trace &trace, const CostModel &costs, uint64_t seed,
               uint64_t runSeed, std::vector<SimulationFinding> &findings,
               SimulationRun &stats, Timeline &timeline);

/// The race check: every two conflicting accesses of `trace` that the
/// execution in `timeline` does not order, once per pair of ops.
void checkRaces(const Trace &trace, const Timeline &timeline, uint64_t seed,
                std::vector<SimulationFinding> &findings);

/// The trace and its timeline as the public ExecutedRun.
ExecutedRun toExecutedRun(const Trace &trace, const Timeline &timeline,
                          uint64_t seed);

} // namespace simulator
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_SIMULATE_TRACE_H
