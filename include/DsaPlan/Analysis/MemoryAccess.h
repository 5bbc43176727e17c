//===- MemoryAccess.h - Byte ranges an op reads and writes ------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What the sync inserter knows about an op: the pipe it runs on and, for each
// memref operand in a dsaplan space, the byte range it reads or writes.
//
//   %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
//   %c4096 = arith.constant 4096 : index
//   %t = memref.view %ub[%c4096][] : ... to memref<32xf32, #dsaplan.space<ub>>
//   %h = memref.subview %t[16] [16] [1] : ... // bytes [4160, 4224) of ub
//
//   %c = memref.subview %u[0, 16] [8, 16] [1, 1] // of an 8x64xf32 tile at 0:
//                                                // eight accesses, bytes
//                                                // [256r + 64, 256r + 128)
//
// Placed `dsaplan.alloc {offset}` ops give ranges the same way. A static
// subview gives one access per run of contiguous bytes (up to 64; beyond,
// the range that holds them). What cannot be known exactly (a dynamic
// subview, a cast or a reshape, a block argument) falls back to the whole
// tile it comes from, or to the whole space.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_MEMORYACCESS_H
#define DSAPLAN_ANALYSIS_MEMORYACCESS_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace dsaplan {

/// Where bytes live: a memory space, or (for a dsaplan.alloc that has no
/// offset yet) the allocation itself, which shares bytes with nothing else.
struct MemoryRegion {
  MemorySpace space = MemorySpace::ub;
  Operation *unplacedAlloc = nullptr;
  bool operator==(const MemoryRegion &other) const {
    return space == other.space && unplacedAlloc == other.unplacedAlloc;
  }
};

/// One read or write of a byte range by an op.
struct MemoryAccess {
  MemoryRegion region;
  int64_t begin = 0;
  int64_t end = 0;
  bool isWrite = false;
  /// The tile the range belongs to (the memref.view of an arena or the
  /// dsaplan.alloc), for telling reuse of another tile's bytes from a
  /// dependency on the same tile; null when unknown.
  Operation *tile = nullptr;

  bool overlaps(const MemoryAccess &other) const {
    return region == other.region && begin < other.end && other.begin < end;
  }
  bool conflictsWith(const MemoryAccess &other) const {
    return (isWrite || other.isWrite) && overlaps(other);
  }
};

/// The accesses of `op` to dsaplan-space memory, one per run of contiguous
/// bytes of each memref operand it reads or writes. `unknownEffects` is set
/// when the op touches such memory without MemoryEffectOpInterface: it is
/// then taken to read and write every dsaplan memref operand.
SmallVector<MemoryAccess, 4> getMemoryAccesses(Operation *op,
                                               bool &unknownEffects);

/// Whether `op` has a memref operand in a dsaplan space, or one whose root
/// (through views and casts, see getRootMemorySpace) is a dsaplan tile.
bool touchesDsaPlanMemory(Operation *op);

/// Whether `op` is an access of its own to dsaplan memory, the ops syncs
/// order: it touches that memory (touchesDsaPlanMemory) and is neither a
/// sync, a placement hint, an allocation, nor an op that only forwards
/// memrefs (region branches, terminators).
bool isAccessCandidate(Operation *op);

/// The memrefs `value` may be a view of: the source of a ViewLikeOpInterface
/// op (subview, view, cast, reinterpret_cast, reshapes, memory_space_cast),
/// or the memref operands of an op whose MemoryEffectOpInterface reports no
/// allocation of `value` (memref.transpose: no view interface, but a result
/// that can only be its operand's bytes). Empty for allocations, block
/// arguments, region-branch results, and results of ops without the
/// interface or of calls.
SmallVector<Value, 1> getAliasSources(Value value);

/// The dsaplan space of `value`, or of the tile it is a view of when a cast
/// took it out of the space:
///
///   %g = memref.memory_space_cast %t : memref<8xf32, #dsaplan.space<ub>>
///                                   to memref<8xf32>
///   // getRootMemorySpace(%g) == ub: an access through %g touches %t
std::optional<MemorySpace> getRootMemorySpace(Value value);

/// The whole byte range of a tile (the `tile` of a MemoryAccess).
MemoryAccess getTileBytes(Operation *tile);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_MEMORYACCESS_H
