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
// Global memory (GM: any memref whose root is not in a dsaplan space) is
// tracked the same way, per root buffer: the function argument or GM
// allocation reached through views. Offsets are bytes from the root's
// first element; where the view chain is dynamic, the access is the whole
// root. Two different roots may still share bytes:
//
//   func.func @k(%x: memref<1024xf32>, %y: memref<1024xf32>,
//                %z: memref<1024xf32> {llvm.noalias}) {
//     // %x[0:64] and %x[64:128]: disjoint, never ordered
//     // %x[0:64] and %y[512:576]: may alias (the caller may pass one
//     //   buffer twice), ordered whatever the ranges
//     // %z[...] and %x[...]: %z is noalias, never ordered
//
// A GM subview whose offsets are affine in loop induction variables keeps
// that dependence as the access's offset terms (bytes per unit of each
// variable); begin and end are then the constant part:
//
//   scf.for %r = %c0 to %c64 step %c8 {
//     %row = memref.subview %x[%r, 0] [8, 1024] [1, 1]  // 64x1024xf32
//     // bytes [0, 32768) + 4096 * %r
//     %r8 = arith.addi %r, %c8 : index
//     %next = memref.subview %x[%r8, 0] [8, 1024] [1, 1]
//     // bytes [32768, 65536) + 4096 * %r: disjoint from %row in one
//     // iteration; SyncDependencies compares iterations by the step
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_MEMORYACCESS_H
#define DSAPLAN_ANALYSIS_MEMORYACCESS_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace mlir {
namespace dsaplan {

/// The part of a GM offset that varies: bytes per unit of each value, sorted
/// by value. The values are `scf.for` induction variables with a constant
/// step and index values of the function's entry block (the same all
/// through one execution of the function).
///
///   %x[%r + 8, 0] of memref<64x1024xf32>: {(%r, 4096)}, constant 32768
using OffsetTerms = SmallVector<std::pair<Value, int64_t>, 0>;

/// Where bytes live: a memory space, (for a dsaplan.alloc that has no
/// offset yet) the allocation itself, which shares bytes with nothing else,
/// or (global memory) the root buffer the offsets count from.
struct MemoryRegion {
  MemorySpace space = MemorySpace::ub;
  Operation *unplacedAlloc = nullptr;
  /// Global memory only: the root buffer (a function argument, a GM
  /// allocation, or a memref of unknown origin such as a call result).
  /// Null for the on-chip spaces, whose `space` then counts.
  Value global;
  /// Global memory only: the offset terms of the range (empty: a range of
  /// bytes from the root's first byte).
  OffsetTerms terms;
  bool isGlobal() const { return static_cast<bool>(global); }
  bool operator==(const MemoryRegion &other) const {
    if (isGlobal() || other.isGlobal())
      return global == other.global && terms == other.terms;
    return space == other.space && unplacedAlloc == other.unplacedAlloc;
  }
};

/// Whether two different GM roots may designate the same bytes:
///
///   two function arguments       yes, unless one is `llvm.noalias`
///   a GM alloc and anything else no (a fresh buffer)
///   a root of unknown origin     yes, with anything
///
/// Accesses through roots that may alias are ordered whatever their ranges
/// (the roots' relative placement is unknown).
bool mayAliasGlobalRoots(Value a, Value b);

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

  /// Shared bytes, in one execution of the ops (the same values of the
  /// offset terms): the same region and overlapping ranges, two GM roots
  /// that may alias (any ranges), or one GM root with different offset
  /// terms (anywhere).
  bool overlaps(const MemoryAccess &other) const {
    if (region.isGlobal() && other.region.isGlobal() &&
        region.global != other.region.global)
      return mayAliasGlobalRoots(region.global, other.region.global);
    if (region.isGlobal() && other.region.isGlobal() &&
        region.terms != other.region.terms)
      return true;
    return region == other.region && begin < other.end && other.begin < end;
  }
  bool conflictsWith(const MemoryAccess &other) const {
    return (isWrite || other.isWrite) && overlaps(other);
  }
};

/// The accesses of `op` to dsaplan-space and global memory, one per run of
/// contiguous bytes of each memref operand it reads or writes.
/// `unknownEffects` is set when the op touches such memory without
/// MemoryEffectOpInterface: it is then taken to read and write every memref
/// operand.
SmallVector<MemoryAccess, 4> getMemoryAccesses(Operation *op,
                                               bool &unknownEffects);

/// The byte runs of each memref value met by getMemoryAccesses, kept for
/// the other ops of one function that use the value (a tile is written by
/// one op and read by one or more): the chain of views, the box and its
/// runs are measured once. Keyed by the value and, for an on-chip value, the
/// block's parent op of the op asking, whose target (the capacity of a
/// whole space) is the same for every op of that block without a target of
/// its own; a GM value's bytes are the same everywhere. Valid while the IR
/// does not change.
class MemoryAccessCache {
public:
  MemoryAccessCache();
  ~MemoryAccessCache();

  /// `op`'s accesses through `value`, a memref of `space` (none: global
  /// memory), as getMemoryAccesses appends them; `op` has no target of its
  /// own (which would measure a whole space by it).
  void append(Value value, std::optional<MemorySpace> space, bool isWrite,
              Operation *op, SmallVectorImpl<MemoryAccess> &out);

  /// isAccessCandidate(op), what it asks of the op's name (interfaces and
  /// traits, a look-up each) asked once per name.
  bool isAccessCandidate(Operation *op);

  /// The bytes and layout of each memref type a tile has, asked once per
  /// type (defined in MemoryAccess.cpp).
  struct TileShapes;

private:
  llvm::DenseMap<std::pair<Value, Operation *>, SmallVector<MemoryAccess, 1>>
      runs;
  llvm::DenseMap<OperationName, bool> candidateNames;
  std::unique_ptr<TileShapes> tileShapes;
};

/// getMemoryAccesses into `out`, the runs of each value taken from `cache`.
void getMemoryAccesses(Operation *op, bool &unknownEffects,
                       MemoryAccessCache &cache,
                       SmallVectorImpl<MemoryAccess> &out);

/// Whether `op` has a memref operand at all: a dsaplan tile or global
/// memory, both of which the sync orders.
bool touchesSyncedMemory(Operation *op);

/// Whether `arg` is a function argument marked `llvm.noalias`: no other
/// argument designates any of its bytes.
bool isNoAliasArgument(Value arg);

/// Whether `op` is an access of its own to memory, the ops syncs order: it
/// touches a dsaplan tile or global memory (touchesSyncedMemory) and is
/// neither a sync, a placement hint, an allocation, nor an op that only
/// forwards memrefs (region branches, terminators), nor a call that
/// dsaplan-settle-calls drained on both sides.
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

/// The bytes of a memref of `type` (its elements, `index` as 8 bytes), or -1
/// for a dynamic shape or an element without a fixed size.
int64_t getStaticSizeInBytes(MemRefType type);

/// The whole byte range of a tile (the `tile` of a MemoryAccess).
MemoryAccess getTileBytes(Operation *tile);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_MEMORYACCESS_H
