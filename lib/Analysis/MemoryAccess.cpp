//===- MemoryAccess.cpp - Byte ranges an op reads and writes --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

int64_t sizeInBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return -1;
  return (type.getNumElements() * type.getElementTypeBitWidth() + 7) / 8;
}

/// The bytes a value designates: a region, a range and the tile.
struct Location {
  MemoryRegion region;
  int64_t begin = 0, end = 0;
  Operation *tile = nullptr;
};

Location wholeSpace(MemorySpace space, Operation *anchor) {
  Location loc;
  loc.region.space = space;
  loc.end = TargetDescription::getForOp(anchor).getSpace(space).capacity;
  return loc;
}

/// Narrows `base` (the location of a subview's source) to the bytes the
/// static subview `subview` can touch: from its first to its last element.
Location narrowToSubview(memref::SubViewOp subview, Location base) {
  auto sourceType = cast<MemRefType>(subview.getSource().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(sourceType.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic) ||
      !subview.getStaticOffsets().size() ||
      llvm::any_of(subview.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(subview.getStaticSizes(), ShapedType::isDynamic) ||
      llvm::any_of(subview.getStaticStrides(), ShapedType::isDynamic))
    return base; // a dynamic subview: the whole source
  int64_t elementBytes =
      (sourceType.getElementTypeBitWidth() + 7) / 8;
  int64_t first = 0, last = 0;
  for (size_t d = 0; d < strides.size(); ++d) {
    int64_t start = subview.getStaticOffsets()[d];
    int64_t size = subview.getStaticSizes()[d];
    int64_t step = subview.getStaticStrides()[d];
    if (size == 0)
      return {base.region, base.begin, base.begin, base.tile};
    first += start * strides[d];
    last += (start + (size - 1) * step) * strides[d];
  }
  Location narrowed = base;
  narrowed.begin = base.begin + first * elementBytes;
  narrowed.end = std::min(base.end, base.begin + (last + 1) * elementBytes);
  return narrowed;
}

Location locate(Value value, MemorySpace space, Operation *anchor) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return wholeSpace(space, anchor); // a block argument: anything
  if (auto alloc = dyn_cast<AllocOp>(def)) {
    Location loc;
    loc.tile = alloc;
    loc.region.space = space;
    if (std::optional<uint64_t> offset = alloc.getOffset()) {
      loc.begin = static_cast<int64_t>(*offset);
    } else {
      loc.region.unplacedAlloc = alloc;
    }
    loc.end = loc.begin + alloc.getSizeInBytes();
    return loc;
  }
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    Location loc = wholeSpace(space, anchor);
    APInt offset;
    int64_t size = sizeInBytes(view.getType());
    if (isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp()) &&
        matchPattern(view.getByteShift(), m_ConstantInt(&offset)) &&
        size >= 0) {
      loc.begin = offset.getSExtValue();
      loc.end = loc.begin + size;
      loc.tile = view;
    }
    return loc;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(def))
    return narrowToSubview(subview, locate(subview.getSource(), space, anchor));
  if (auto viewLike = dyn_cast<ViewLikeOpInterface>(def))
    return locate(viewLike.getViewSource(), space, anchor);
  return wholeSpace(space, anchor);
}

MemoryAccess makeAccess(Value value, MemorySpace space, bool isWrite,
                        Operation *anchor) {
  Location loc = locate(value, space, anchor);
  MemoryAccess access;
  access.region = loc.region;
  access.begin = loc.begin;
  access.end = loc.end;
  access.isWrite = isWrite;
  access.tile = loc.tile;
  return access;
}

} // namespace

bool mlir::dsaplan::touchesDsaPlanMemory(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    return getMemorySpace(operand.getType()).has_value();
  });
}

SmallVector<MemoryAccess, 4>
mlir::dsaplan::getMemoryAccesses(Operation *op, bool &unknownEffects) {
  SmallVector<MemoryAccess, 4> accesses;
  unknownEffects = false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) {
    unknownEffects = touchesDsaPlanMemory(op);
    for (Value operand : op->getOperands())
      if (std::optional<MemorySpace> space = getMemorySpace(operand.getType()))
        for (bool isWrite : {false, true})
          accesses.push_back(makeAccess(operand, *space, isWrite, op));
    return accesses;
  }
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    Value value = instance.getValue();
    if (!value)
      continue;
    std::optional<MemorySpace> space = getMemorySpace(value.getType());
    if (!space)
      continue;
    bool isRead = isa<MemoryEffects::Read>(instance.getEffect());
    bool isWrite = isa<MemoryEffects::Write>(instance.getEffect());
    if (isRead || isWrite)
      accesses.push_back(makeAccess(value, *space, isWrite, op));
  }
  return accesses;
}

MemoryAccess mlir::dsaplan::getTileBytes(Operation *tile) {
  Value value = tile->getResult(0);
  return makeAccess(value, *getMemorySpace(value.getType()), /*isWrite=*/false,
                    tile);
}
