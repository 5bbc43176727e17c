//===- SyncAccesses.h - Byte-range accesses of pipe ops ---------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What synchronisation needs to know about a function: which ops touch which
// bytes of which on-chip memory, on which hardware pipe, reading or writing,
// and which pipes need a barrier between two dependent instructions of their
// own. `dsaplan-insert-sync` and the sync benchmark use it;
// `dsaplan-verify-sync` deliberately does not (it has its own extraction, so
// that a bug here cannot hide itself).
//
// After `dsaplan-materialize` every tile is a constant-offset view of its
// space's arena, so an access is an exact byte range of the space:
//
//   %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
//   %t  = memref.view %ub[%c4096][] : ... to memref<32x32xf32, ...>  // [4096, 8192)
//   %s  = memref.subview %t[1, 0] [1, 8] [1, 1] : ...                // [4224, 4256)
//   linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ... outs(%s)       // V writes [4224, 4256)
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_SYNCACCESSES_H
#define DSAPLAN_ANALYSIS_SYNCACCESSES_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace dsaplan {

inline constexpr size_t kNumPipes = 7;

/// Whether two data-dependent instructions of `pipe` need a
/// `dsaplan.pipe_barrier` between them on the 910B. Every pipe issues in
/// order, but only the scalar pipe also completes in order: CANN's
/// PipeBarrier API says that dependent instructions of one pipe need the
/// barrier (Add then Mul on PIPE_V; two MTE2 loads into overlapping UB
/// bytes), and that the scalar pipe is ordered by the hardware
/// (PipeBarrier<PIPE_S> is a hardware error).
///
///   | pipe | barrier for an in-pipe dependency |
///   |------|-----------------------------------|
///   | s    | no (ordered by the hardware)      |
///   | v, m, mte1, mte2, mte3, fix | yes        |
bool pipeNeedsBarrier(Pipe pipe);

/// Where a memref's bytes are.
struct BufferLocation {
  MemorySpace space = MemorySpace::ub;
  /// The allocation the bytes belong to: an arena view, a `dsaplan.alloc`,
  /// a `memref.alloc`, or (conservatively) the memref itself when its origin
  /// is unknown. Two accesses through one allocation are a same-buffer
  /// dependency; through two, a reuse.
  Value allocation;
  /// Null when `range` is an address in the space (arena views, placed
  /// allocs, unknown origins); the allocation itself when it is not placed,
  /// so that its bytes are disjoint from everything else.
  Value domain;
  ByteRange range;
};

/// The location of `memref`, or nullopt when it is not in a dsaplan space.
/// Constant views and static subviews give exact ranges; a dynamic subview
/// falls back to its whole allocation, and a memref of unknown origin (a
/// function or loop argument) to the whole space.
std::optional<BufferLocation> locateBuffer(Value memref);

/// One op reading or writing one byte range on one pipe.
struct PipeAccess {
  Operation *op = nullptr;
  Pipe pipe = Pipe::s;
  BufferLocation location;
  bool isWrite = false;
};

/// Whether the two accesses may touch a common byte and one of them writes.
bool accessesConflict(const PipeAccess &a, const PipeAccess &b);

/// The bytes both accesses touch (they must conflict).
ByteRange overlappingBytes(const PipeAccess &a, const PipeAccess &b);

/// The accesses of every op nested in a root. An op accesses the
/// dsaplan-space memrefs its `MemoryEffectOpInterface` reads or writes; an op
/// without the interface reads and writes all of them (with a warning). An
/// op that accesses a dsaplan-space memref without a pipe is an error. View,
/// control-flow, terminator and dsaplan ops are not accesses.
class SyncAccesses {
public:
  /// Emits the warnings and errors on the ops concerned.
  explicit SyncAccesses(Operation *root);

  /// False when an op had no pipe.
  bool isValid() const { return valid; }
  /// The accesses of `op`; empty for ops that are not accesses.
  llvm::ArrayRef<PipeAccess> getAccesses(Operation *op) const;
  /// Whether `op` holds an access, itself or nested in its regions.
  bool containsAccess(Operation *op) const;

private:
  void collect(Operation *op);

  llvm::DenseMap<Operation *, llvm::SmallVector<PipeAccess, 2>> accesses;
  bool valid = true;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_SYNCACCESSES_H
