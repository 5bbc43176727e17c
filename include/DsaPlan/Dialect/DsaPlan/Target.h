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
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLAN_TARGET_H
#define DSAPLAN_DIALECT_DSAPLAN_TARGET_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
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

inline constexpr size_t kNumMemorySpaces = 6;

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

private:
  llvm::StringRef name;
  std::array<SpaceDescription, kNumMemorySpaces> spaces;
};

/// Every memory space, in enum order.
std::array<MemorySpace, kNumMemorySpaces> allMemorySpaces();

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_DIALECT_DSAPLAN_TARGET_H
