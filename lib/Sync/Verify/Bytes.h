//===- Bytes.h - The verifier's own byte ranges -----------------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Verify.
//
//===----------------------------------------------------------------------===//
//
// Which bytes of which memory an op reads and writes, as the verifier sees
// it: on-chip spaces by their placed offsets (a subview as its runs, a
// value that may be one of several tiles as each of them), global memory by
// buffer and the bytes a static view gives.
//
//   memref.copy %gm, %v {pipe = mte2}   // %v = view %ub[%c4096] 1 KiB
//   touchesOf -> write ub [4096, 5120); read gm %gm [0, 4096)
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_VERIFY_BYTES_H
#define DSAPLAN_LIB_SYNC_VERIFY_BYTES_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <map>
#include <optional>
#include <vector>

#include <string>

namespace mlir {
namespace dsaplan {
namespace verify {

/// `Bytes::space` of an unplaced alloc and of global memory.
constexpr int kUnplacedSpace = -1;
constexpr int kGlobalSpace = -2;

/// Bytes per unit of values the walk does not know but that stay the same
/// through one run of the function (its entry block's index values), in a
/// GM offset: `%x[%base + 8 * %i]` in the walk's second iteration of the
/// loop of `%i` from 0 by 1 is 32 bytes plus 4 per unit of `%base`.
using UnknownTerms = std::vector<std::pair<Value, int64_t>>;

/// Numbers the unknown terms of one walk's byte ranges (sorted by value),
/// so that a range holds a number rather than a list: equal lists, equal
/// numbers, and none is 0. A range is then plain data, which the walk's
/// histories copy, trim and compare by the thousand.
class UnknownTermsTable {
public:
  unsigned numberOf(const UnknownTerms &terms);

private:
  struct Less {
    bool operator()(const UnknownTerms &a, const UnknownTerms &b) const;
  };
  std::map<UnknownTerms, unsigned, Less> numbers;
};

/// A place in memory: a space (or an unplaced alloc, or a GM buffer) and a
/// byte range.
struct Bytes {
  int space = 0;                 // MemorySpace, kUnplacedSpace, kGlobalSpace
  Operation *alloc = nullptr;    // the unplaced alloc
  int64_t begin = 0, end = 0;
  Value gm;                      // the GM buffer the range is of
  /// GM: the number of the unknown terms added to begin and end, in the
  /// table of the walk that measured the range (0: none).
  unsigned unknown = 0;
  /// The same memory, where begin and end compare: GM ranges with
  /// different unknown terms do not.
  bool sameMemory(const Bytes &o) const {
    return space == o.space && alloc == o.alloc && gm == o.gm &&
           unknown == o.unknown;
  }
};

/// The iteration the walk is in of each scf.for around the op (0 for the
/// first): the loop's induction variable, then, is its lower bound plus
/// that many steps. Only the loops around the walk's point have an entry
/// (the merge at a loop's end drops its own), so a few, kept inline: every
/// copy of a path's state copies them.
using LoopIterations = llvm::SmallDenseMap<Value, int64_t, 4>;

/// Counts the iterations of each scf.for as a walk that unrolls it meets
/// `op`: the loop op starts before its first iteration, the body's first
/// op starts the next one.
void countIteration(Operation &op, LoopIterations &iterations);

/// An op's memory effects (MemoryEffectOpInterface).
using EffectList = SmallVector<MemoryEffects::EffectInstance, 2>;

/// The memory an op reads and writes, from its own point of view.
struct Touch {
  Bytes bytes;
  bool write;
};
/// An op's touches: mostly a read and a write (a copy), kept inline.
using Touches = SmallVector<Touch, 2>;

/// The size in bits of each element type the data layout that holds at an
/// op gives, asked once per layout and type: `DataLayout::closest` builds a
/// layout at each call, and an op's touches ask a few times.
class ElementSizes {
public:
  int64_t bitsOf(Type element, Operation *at);

private:
  /// Per op that holds the layout (the nearest module or
  /// DataLayoutOpInterface, as DataLayout::closest finds it), its sizes.
  llvm::DenseMap<std::pair<Operation *, Type>, int64_t> bits;
  /// Per parent op asked, the op that holds its layout: finding it asks
  /// each ancestor for an interface, and an op's ancestors are many others'.
  llvm::DenseMap<Operation *, Operation *> scopes;
  /// The last answer for an op that holds no layout: its parent (null when
  /// none), element type and size.
  Operation *lastParent = nullptr;
  Type lastElement;
  int64_t lastBits = 0;
};

/// Per value of one function measured, its runs of bytes when it lives in
/// a dsaplan space (none for GM): they move with no loop, and a tile is
/// mostly touched by several ops.
using OnChipRuns =
    llvm::DenseMap<Value, std::optional<SmallVector<Bytes, 1>>>;

/// The memory `op` (of a function of `target`) reads and writes, from its
/// operands and effects, in the loop iterations `iterations` (GM offsets
/// that move with a loop); element sizes are taken from `sizes` and on-chip
/// runs from `known` (the ops of one function) when given, and its effects
/// from `effectsOfOp` (what isMemoryOp kept) when given. Unknown terms are
/// numbered in `terms`: the ranges of two calls compare only when both gave
/// the same table.
Touches touchesOf(Operation *op, const TargetDescription &target,
                  const LoopIterations &iterations,
                  ElementSizes *sizes = nullptr, OnChipRuns *known = nullptr,
                  const EffectList *effectsOfOp = nullptr,
                  UnknownTermsTable *terms = nullptr);

/// touchesOf, computed once per op and per iteration of each scf.for whose
/// induction variable its operands are computed from: the walk meets an op
/// once per unrolled iteration and path, and most ops' bytes do not move
/// with the loops around them.
///
///   scf.for %i ... { memref.copy %gm[%i], %v }   // 3 iterations: 3 entries
///   scf.for %i ... { memref.copy %gm, %v }       // one entry
class TouchCache {
public:
  /// For the ops of a function of `target`.
  explicit TouchCache(const TargetDescription &target) : target(target) {}
  /// Valid until the next call.
  ArrayRef<Touch> get(Operation *op, const LoopIterations &iterations);
  /// The induction variables of the scf.for loops `op`'s touches may
  /// change with; valid until the next call.
  ArrayRef<Value> movesWith(Operation *op) { return entriesOf(op).ivs; }
  /// isMemoryOp, keeping the effects of an op that touches memory for its
  /// touches (a linalg op builds its effects anew at each call).
  bool isMemoryOp(Operation *op);
  /// The table the cached touches number their unknown terms in.
  UnknownTermsTable &unknownTerms() { return terms; }

private:
  struct Entry {
    SmallVector<int64_t, 2> iterations; // of `OpEntries::ivs`, in order
    Touches touches;
  };
  struct OpEntries {
    SmallVector<Value, 2> ivs;
    SmallVector<const Entry *, 1> entries;
  };
  /// `op`'s entries, with the variables its touches depend on.
  OpEntries &entriesOf(Operation *op);
  std::deque<Entry> entries;
  llvm::DenseMap<Operation *, OpEntries> byOp;
  /// Per op isMemoryOp accepted through this cache, its effects, until its
  /// touches no longer need them. The last op's stay apart: its touches
  /// are mostly asked next (SyncChecker::survey's walk), and then mostly for
  /// good, so most effects never enter the map.
  llvm::DenseMap<Operation *, EffectList> effects;
  Operation *lastOp = nullptr;
  EffectList lastEffects;
  const TargetDescription &target;
  ElementSizes sizes;
  OnChipRuns onChipRuns;
  UnknownTermsTable terms;
};

/// Whether `op` reads or writes memory the pipes share (a dsaplan space or
/// global memory): its effects say so for a memref operand; an op without
/// effects that is not a view is taken to. Views, casts, dim and metadata
/// ops only name bytes, with or without a pipe.
/// The op's effects are kept in `kept` when it has them and touches memory.
bool isMemoryOp(Operation *op, EffectList *kept = nullptr);
/// The dsaplan ops that only plan or order memory (flags, barriers, allocs,
/// arenas, placement constraints), which isMemoryOp refuses: one compare of
/// the op's kind each.
bool isPlanOnlyOp(Operation *op);

/// Two different GM buffers may be one: two arguments the caller may pass
/// the same memory as (unless one of them promises otherwise with
/// `llvm.noalias`), and anything whose origin is unknown here.
bool mayBeSameGm(Value a, Value b);

/// mayBeSameGm, answered once per pair of buffers: the walk asks it for
/// every GM access and every other buffer the history holds, and the answer
/// (argument attributes, origins) does not change during a walk.
class GmAliasing {
public:
  bool mayBeSame(Value a, Value b) {
    auto [it, inserted] = answers.try_emplace(
        {a.getAsOpaquePointer(), b.getAsOpaquePointer()}, false);
    if (inserted)
      it->second = mayBeSameGm(a, b);
    return it->second;
  }

private:
  llvm::DenseMap<std::pair<const void *, const void *>, bool> answers;
};

/// The bytes of `value` when it is a whole placed tile: a placed
/// dsaplan.alloc, or a static view of an arena. Other values (subviews,
/// block arguments, choices) are only known to lie somewhere.
std::optional<Bytes> exactTileBytes(Value value,
                                    const TargetDescription &target);

/// What a settled call may touch on `pipe`: every byte of every space the
/// target lets the pipe reach, and all of each GM operand, read and written
/// (its unknown terms numbered in `terms`).
SmallVector<Touch> settledCallTouches(Operation *call, Pipe pipe,
                                      const TargetDescription &target,
                                      UnknownTermsTable &terms);

/// How a diagnostic names the memory of `bytes`.
std::string memoryName(const Bytes &bytes);

} // namespace verify
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_VERIFY_BYTES_H
