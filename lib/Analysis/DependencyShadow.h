//===- DependencyShadow.h - Who last touched each byte ----------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The shadow findSyncDependencies walks with (SyncDependencies.cpp): per
// region of memory, segments of bytes (SegmentMap.h), each with a cell
// of the last writers of its bytes and the readers since. Bytes no access
// touched have no segment.
//
// A cell never changes once made: an access that changes a byte range's
// history makes a new cell for it, and a copy of a shadow (one per branch
// and loop iteration that writes the region) copies segments of three
// words, not the entry lists. The cells live in the ShadowCells that made
// them, as long as the walk.
//
//   write A [0, 64)      [0, 64): {w: A}
//   read  B [32, 96)     [0, 32): {w: A}  [32, 64): {w: A, r: B}
//                        [64, 96): {r: B}
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_ANALYSIS_DEPENDENCYSHADOW_H
#define DSAPLAN_LIB_ANALYSIS_DEPENDENCYSHADOW_H

#include "DsaPlan/Support/SegmentMap.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Allocator.h"

#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace mlir {
namespace dsaplan {
namespace detail {

/// One execution of an access op. `epoch` tells the executions of one op in
/// different walks of a loop body apart.
struct ShadowEntry {
  unsigned op;
  unsigned epoch;
  Operation *tile;
  bool operator==(const ShadowEntry &o) const {
    return op == o.op && epoch == o.epoch && tile == o.tile;
  }
};

/// The history of some bytes: their last writers and the readers since,
/// each list without repeats, in the order they came.
struct ShadowCell {
  ArrayRef<ShadowEntry> writers, readers;
};

/// A segment's cell, compared by content: neighbours of equal history
/// merge however their cells were made. Null: no history.
struct CellRef {
  const ShadowCell *cell = nullptr;

  ArrayRef<ShadowEntry> writers() const {
    return cell ? cell->writers : ArrayRef<ShadowEntry>();
  }
  ArrayRef<ShadowEntry> readers() const {
    return cell ? cell->readers : ArrayRef<ShadowEntry>();
  }
  bool empty() const { return writers().empty() && readers().empty(); }
  bool operator==(const CellRef &o) const {
    return cell == o.cell ||
           (writers() == o.writers() && readers() == o.readers());
  }
};

using Shadow = SegmentMap<CellRef>;

/// Every byte a shadow may hold (GM ranges may be unbounded).
constexpr int64_t kFirstByte = std::numeric_limits<int64_t>::min();
constexpr int64_t kEndByte = std::numeric_limits<int64_t>::max();

/// Makes the cells of a walk and keeps them.
class ShadowCells {
public:
  /// The history of bytes `writer` wrote last.
  CellRef written(ShadowEntry writer);
  /// `cell` with `reader` among its readers.
  CellRef read(CellRef cell, ShadowEntry reader);
  /// The history of either path: the entries of `a`, then those of `b`
  /// that `a` lacks.
  CellRef united(CellRef a, CellRef b);
  /// The history of either path, byte for byte: after an scf.if, the last
  /// writers of a byte are those of both branches.
  Shadow united(const Shadow &a, const Shadow &b);
  /// Every entry of `shadow` in one cell over [begin, end).
  Shadow everywhere(const Shadow &shadow, int64_t begin, int64_t end);

private:
  CellRef make(ArrayRef<ShadowEntry> writers, ArrayRef<ShadowEntry> readers);

  llvm::BumpPtrAllocator arena;
};

/// Which shadow of a walk: a region's id and a page of its bytes
/// (shadowKey). Keys in increasing order visit the regions in id order.
using ShadowKey = uint64_t;

inline ShadowKey shadowKey(unsigned region, uint32_t page = 0) {
  return (static_cast<ShadowKey>(region) << 32) | page;
}
inline unsigned regionOf(ShadowKey key) {
  return static_cast<unsigned>(key >> 32);
}

/// The shadow of every region (or page of one) of a walk, by key. The walk
/// copies the whole state at every branch and loop (RegionWalk.h) and a
/// branch or loop body touches few of its regions: the shadows are shared
/// between the copies, and a shadow is copied only when a copy changes it
/// (edit). A shadow a path did not change is the very one the other path
/// holds, which makes uniting them a no-op.
class ShadowState {
public:
  using Entry = std::pair<ShadowKey, std::shared_ptr<Shadow>>;

  /// The shadows, by increasing key.
  ArrayRef<Entry> entries() const { return shadows; }

  /// The slot of `key`, null when it has no shadow yet.
  std::shared_ptr<Shadow> &slot(ShadowKey key);
  /// The shadow of `key` (created empty), to change: shared with another
  /// state, it is copied first.
  Shadow &edit(ShadowKey key);
  void erase(ShadowKey key);
  /// Each shadow's history on either path (`this` or `other`).
  void unite(const ShadowState &other, ShadowCells &cells);

private:
  std::vector<Entry>::iterator find(ShadowKey key);

  std::vector<Entry> shadows;
};

} // namespace detail
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_ANALYSIS_DEPENDENCYSHADOW_H
