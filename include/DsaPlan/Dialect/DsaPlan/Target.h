//===- Target.h - Memory spaces of an Ascend target -------------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The target table of DESIGN.md as a C++ API. A `#dsaplan.target<...>`
// selects a built-in table by name and may override capacity, alignment and
// reserved ranges per space; passes ask this class, never the table.
//
// It is the only description of the machine the sync orders: which core
// each space belongs to; for each pipe the cores it runs on, the memories
// (spaces and global memory) it may read and write, and whether two of its
// own dependent instructions need a pipe_barrier; the event ids of a pipe
// pair; the cycle estimates (CostModel). The number of pipes is the Pipe
// enum's. On ascend910b:
//
//   pipe  cores         reads         writes                  barrier
//   mte2  cube, vector  gm            l1 (cube), ub (vector)  yes
//   mte1  cube          l1            l0a, l0b, bt            yes
//   m     cube          l0a, l0b, bt  l0c                     yes
//   fix   cube          l0c           gm, l1                  yes
//   v     vector        ub            ub                      yes
//   mte3  vector        ub            gm                      yes
//   s     cube, vector  gm, ub        gm, ub                  no (in order)
//
// and event ids 0-7 for every pipe pair. The cube core (AIC) owns L1, L0A,
// L0B, L0C and BT; each of the two vector cores (AIV) its own UB; GM is
// shared, and the cores order their GM accesses with the cross-core flags
// (CrossCoreDescription: 11 ids, counters of at most 15 signals).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLAN_TARGET_H
#define DSAPLAN_DIALECT_DSAPLAN_TARGET_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>
#include <utility>

namespace mlir {
class Operation;
namespace dsaplan {

/// A half-open byte range [begin, end).
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const ByteRange &other) const {
    return begin == other.begin && end == other.end;
  }
};

/// What placement needs to know of one memory space.
struct SpaceDescription {
  int64_t capacity = 0;  // physical bytes
  int64_t alignment = 1; // minimum alignment of any tile
  llvm::SmallVector<ByteRange, 2> reserved;
  /// Bytes not covered by a reserved range.
  int64_t usableBytes() const;
  /// The complement of the reserved ranges within [0, capacity), sorted.
  llvm::SmallVector<ByteRange, 2> usableRanges() const;
};

/// The number of memory spaces: the size of every array indexed by
/// MemorySpace.
inline constexpr size_t kNumMemorySpaces = getMaxEnumValForMemorySpace() + 1;

/// The number of pipes: the size of every array indexed by Pipe.
inline constexpr size_t kNumPipes = getMaxEnumValForPipe() + 1;
/// The cores of an AI core group the sync orders: the cube core and a
/// vector core (Core).
inline constexpr size_t kNumCores = getMaxEnumValForCore() + 1;
/// The pipes of a core group, core by core ("units"): the cube core's
/// kNumPipes, then the vector core's. The checkers give each core its own
/// pipes this way, so that the cube's MTE2 and the vector core's are two.
inline constexpr size_t kNumUnits = kNumCores * kNumPipes;

/// The cores of an AI core pair, as bits of a mask: a pipe may run on both
/// (mte2, mte3, s), a space belongs to one.
enum CoreMask : unsigned {
  kNoCore = 0,
  kCubeCore = 1,
  kVectorCore = 2,
  kBothCores = kCubeCore | kVectorCore,
};

/// "cube", "vector", "cube or vector", "no core".
llvm::StringRef stringifyCores(unsigned cores);

/// The mask of one core.
inline CoreMask maskOfCore(Core core) {
  return core == Core::cube ? kCubeCore : kVectorCore;
}

/// The other core of a cube/vector pair: the one a cross-core set on
/// `core` signals.
inline Core otherCore(Core core) {
  return core == Core::cube ? Core::vector : Core::cube;
}

/// The unit of `core`'s first pipe: units number the cube core's pipes,
/// then the vector core's (kNumUnits).
inline unsigned firstUnitOf(Core core) {
  return core == Core::cube ? 0u : static_cast<unsigned>(kNumPipes);
}

/// The first units of the cores in a mask, cube first. An empty mask gives
/// unit 0: no core can run such an op, the checkers report it by its pipe
/// reach, and still need a unit to carry on with.
llvm::SmallVector<unsigned, 2> firstUnitsOf(unsigned cores);

/// The cross-core flag mode between the cube core and the vector cores of
/// a group (Ascend C CrossCoreSetFlag mode 2); modes 0 and 1 synchronise
/// cores of one kind.
inline constexpr int64_t kCubeVectorMode = 2;

/// The cross-core flags of an AI core group (Ascend C CrossCoreSetFlag and
/// CrossCoreWaitFlag; docs/sync.md "Cross-core synchronisation"). Each core
/// has a counter per id: a set on one core adds a signal to the counters of
/// the cores it signals, a wait blocks its whole core while its counter is
/// zero and then takes one signal.
struct CrossCoreDescription {
  /// Ids 0 to this minus one.
  int64_t ids = 0;
  /// The most signals a counter may hold: one more set before a wait is an
  /// overrun.
  int64_t counterLimit = 0;
  /// Bit m set: mode m exists (0: all cores of one kind, 1: the vector
  /// cores of a group, 2: the cube core and the vector cores of a group).
  unsigned modes = 0;
  /// Vector cores per cube core in a group.
  int64_t vectorCores = 0;
  bool hasMode(int64_t mode) const {
    return mode >= 0 && mode < 32 && ((modes >> mode) & 1);
  }
};

/// Where a pipe runs and what it may touch. `reads` and `writes` have bit s
/// for MemorySpace s and bit kGlobalMemoryBit for global memory.
struct PipeDescription {
  static constexpr unsigned kGlobalMemoryBit = kNumMemorySpaces;
  unsigned cores = kNoCore;
  unsigned reads = 0, writes = 0;
  /// Whether the pipe issues an instruction before the previous one has
  /// finished, so that two dependent instructions of it need a
  /// pipe_barrier between them (false: it runs them in order).
  bool needsBarrier = true;
  /// Whether a cross-core set may be issued on the pipe: it fires when the
  /// pipe's earlier work is done, so the pipe must be one that does work
  /// the other core waits for (the scalar pipe does not).
  bool signalsCrossCore = true;
};

/// A target: one SpaceDescription per memory space.
class TargetDescription {
public:
  /// The default target, ascend910b.
  TargetDescription();
  /// Built-in tables by name; false when the name is unknown.
  static bool isKnownTarget(llvm::StringRef name);
  /// The names of the built-in tables, comma-separated, for diagnostics.
  static llvm::StringRef knownTargetNames();
  /// The table of `attr` with its overrides applied. `attr` must verify.
  static TargetDescription get(TargetAttr attr);
  /// The target of the module enclosing `op`: its `dsaplan.target`
  /// attribute, else ascend910b.
  static TargetDescription getForOp(Operation *op);

  llvm::StringRef getName() const { return name; }
  const SpaceDescription &getSpace(MemorySpace space) const {
    return spaces[static_cast<size_t>(space)];
  }
  SpaceDescription &getSpace(MemorySpace space) {
    return spaces[static_cast<size_t>(space)];
  }

  /// The core `space` is on-chip memory of.
  CoreMask getCore(MemorySpace space) const;
  /// The cores `pipe` runs on and the memories it may touch.
  const PipeDescription &getPipe(Pipe pipe) const;
  /// Whether `pipe` may read (or, with `isWrite`, write) `space`, or global
  /// memory when `space` is none.
  bool canAccess(Pipe pipe, std::optional<MemorySpace> space,
                 bool isWrite) const;
  /// The memories `pipe` may read or write, for diagnostics: "gm, l1, ub".
  std::string describeReach(Pipe pipe, bool isWrite) const;
  /// Whether a dependency between two instructions of `pipe` needs a
  /// pipe_barrier (PipeDescription::needsBarrier).
  bool needsBarrier(Pipe pipe) const { return getPipe(pipe).needsBarrier; }
  /// Whether a cross-core set may be issued on `pipe`
  /// (PipeDescription::signalsCrossCore).
  bool signalsCrossCore(Pipe pipe) const {
    return getPipe(pipe).signalsCrossCore;
  }
  /// The event ids of the flags from `src` to `dst`: 0 to this minus one.
  int64_t getNumEventIds(Pipe src, Pipe dst) const {
    (void)src, (void)dst; // the same for every pair on the built-in chips
    return eventIds;
  }
  /// The cross-core flags between the cube and the vector cores.
  const CrossCoreDescription &getCrossCore() const { return crossCore; }
  /// Whether `pipe` runs on `core`.
  bool runsOn(Pipe pipe, Core core) const {
    return getPipe(pipe).cores & maskOfCore(core);
  }

private:
  /// Built-in table number `table`, without overrides.
  explicit TargetDescription(size_t table);

  llvm::StringRef name;
  std::array<SpaceDescription, kNumMemorySpaces> spaces;
  std::array<PipeDescription, kNumPipes> pipes;
  int64_t eventIds = 0;
  CrossCoreDescription crossCore;
};

/// The cycle costs the simulator gives the pipes. These are estimates for
/// comparing placements and syncs of one kernel, not measurements of a chip:
/// an op on pipe p takes `fixedCycles[p] + ceil(bytes / bytesPerCycle[p])`
/// cycles, scaled by a seeded factor in [100 - jitterPercent,
/// 100 + jitterPercent] percent (at least one cycle); a blocked wait_flag
/// goes on `syncLatency` cycles after its flag fires. With `pipeOverlap` a
/// pipe other than S issues its next op a cycle after the previous one,
/// whether or not it has finished (each op at full rate: optimistic for
/// tile-sized ops); without it, when the previous one has finished.
struct CostModel {
  std::array<int64_t, kNumPipes> fixedCycles{};
  std::array<int64_t, kNumPipes> bytesPerCycle{};
  int64_t syncLatency = 1;
  int64_t jitterPercent = 0;
  bool pipeOverlap = true;

  /// The estimates of the built-in tables (the same for every target today).
  static CostModel defaults();
  /// Applies overrides "key=value,..." where key is a pipe name followed by
  /// ".fixed" or ".bytes-per-cycle", or "sync-latency", "jitter" or
  /// "pipe-overlap" (0 or 1); on an
  /// unknown key or a bad value returns false and says why in `error`.
  bool applyOverrides(llvm::StringRef text, std::string &error);
  /// The cycles of one op on `pipe` touching `bytes`, before jitter.
  int64_t baseCycles(Pipe pipe, int64_t bytes) const;
};

/// Every memory space, in enum order.
std::array<MemorySpace, kNumMemorySpaces> allMemorySpaces();

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_DIALECT_DSAPLAN_TARGET_H
