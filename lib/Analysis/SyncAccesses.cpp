//===- SyncAccesses.cpp - Byte-range accesses of pipe ops -----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SyncAccesses.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;

bool mlir::dsaplan::pipeNeedsBarrier(Pipe pipe) { return pipe != Pipe::s; }

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

namespace {

/// A location plus the byte address of element 0 of the memref, which the
/// strided layout of a subview or cast is relative to.
struct LocatedMemRef {
  BufferLocation location;
  /// The bytes of the whole allocation, for dynamic views.
  ByteRange allocationRange;
  int64_t baseByte = 0;
};

int64_t elementBytes(MemRefType type) {
  return (type.getElementTypeBitWidth() + 7) / 8;
}

/// Bytes spanned by a statically shaped memref of identity layout.
int64_t denseBytes(MemRefType type) {
  return type.getNumElements() * elementBytes(type);
}

/// The elements a statically strided memref spans, relative to element 0 of
/// its base, as [offset, offset + span); nullopt when anything is dynamic or
/// a stride is negative.
std::optional<std::pair<int64_t, int64_t>> staticElementSpan(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, [](int64_t s) {
        return ShapedType::isDynamic(s) || s < 0;
      }))
    return std::nullopt;
  if (type.getNumElements() == 0)
    return std::make_pair(offset, int64_t(0));
  int64_t span = 1;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    span += (size - 1) * stride;
  return std::make_pair(offset, span);
}

LocatedMemRef wholeSpace(Value memref, MemorySpace space) {
  int64_t capacity =
      TargetDescription::getForOp(memref.getParentBlock()->getParentOp())
          .getSpace(space)
          .capacity;
  LocatedMemRef located;
  located.location = {space, memref, Value(), {0, capacity}};
  located.allocationRange = {0, capacity};
  return located;
}

/// A fresh allocation: its own range, in the space or in a domain of its own.
LocatedMemRef allocation(Value memref, MemorySpace space,
                         std::optional<int64_t> placedAt) {
  int64_t begin = placedAt.value_or(0);
  ByteRange range{begin, begin + denseBytes(cast<MemRefType>(memref.getType()))};
  LocatedMemRef located;
  located.location = {space, memref, placedAt ? Value() : memref, range};
  located.allocationRange = range;
  located.baseByte = begin;
  return located;
}

LocatedMemRef locate(Value memref, MemorySpace space);

/// `memref.view %src[%shift][]`: of an arena, a new allocation at the shift;
/// of anything else, bytes of the source's allocation.
LocatedMemRef locateView(memref::ViewOp view, MemorySpace space) {
  LocatedMemRef source = locate(view.getSource(), space);
  std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
  auto type = cast<MemRefType>(view.getType());
  if (!shift || !type.hasStaticShape())
    return source;
  int64_t begin = source.baseByte + *shift;
  LocatedMemRef located = source;
  located.baseByte = begin;
  located.location.range = {begin, begin + denseBytes(type)};
  if (view.getSource().getDefiningOp<ArenaOp>()) {
    located.location.allocation = view.getResult();
    located.allocationRange = located.location.range;
  }
  return located;
}

/// Subviews, casts, reshapes: the same base; exact when the result's layout
/// is static, else the whole allocation.
LocatedMemRef locateAlias(ViewLikeOpInterface alias, Value result,
                          MemorySpace space) {
  LocatedMemRef located = locate(alias.getViewSource(), space);
  auto type = dyn_cast<MemRefType>(result.getType());
  std::optional<std::pair<int64_t, int64_t>> span =
      type ? staticElementSpan(type) : std::nullopt;
  if (!span) {
    located.location.range = located.allocationRange;
    return located;
  }
  int64_t bytes = elementBytes(type);
  located.location.range = {located.baseByte + span->first * bytes,
                            located.baseByte +
                                (span->first + span->second) * bytes};
  return located;
}

LocatedMemRef locate(Value memref, MemorySpace space) {
  Operation *def = memref.getDefiningOp();
  if (!def)
    return wholeSpace(memref, space);
  if (isa<ArenaOp>(def)) {
    LocatedMemRef located = wholeSpace(memref, space);
    located.location.allocation = memref;
    return located;
  }
  if (auto alloc = dyn_cast<AllocOp>(def)) {
    std::optional<int64_t> offset;
    if (std::optional<uint64_t> placed = alloc.getOffset())
      offset = static_cast<int64_t>(*placed);
    return allocation(memref, space, offset);
  }
  if (isa<memref::AllocOp, memref::AllocaOp>(def) &&
      cast<MemRefType>(memref.getType()).hasStaticShape())
    return allocation(memref, space, std::nullopt);
  if (auto view = dyn_cast<memref::ViewOp>(def))
    return locateView(view, space);
  if (auto alias = dyn_cast<ViewLikeOpInterface>(def))
    if (alias.getViewSource() != memref)
      return locateAlias(alias, memref, space);
  return wholeSpace(memref, space);
}

} // namespace

std::optional<BufferLocation> mlir::dsaplan::locateBuffer(Value memref) {
  std::optional<MemorySpace> space = getMemorySpace(memref.getType());
  if (!space || !isa<MemRefType>(memref.getType()))
    return std::nullopt;
  return locate(memref, *space).location;
}

bool mlir::dsaplan::accessesConflict(const PipeAccess &a, const PipeAccess &b) {
  const BufferLocation &x = a.location, &y = b.location;
  return (a.isWrite || b.isWrite) && x.space == y.space &&
         x.domain == y.domain && x.range.begin < y.range.end &&
         y.range.begin < x.range.end;
}

ByteRange mlir::dsaplan::overlappingBytes(const PipeAccess &a,
                                          const PipeAccess &b) {
  return {std::max(a.location.range.begin, b.location.range.begin),
          std::min(a.location.range.end, b.location.range.end)};
}

//===----------------------------------------------------------------------===//
// SyncAccesses
//===----------------------------------------------------------------------===//

namespace {

/// Ops that name buffers or steer control without touching bytes.
bool isNeverAnAccess(Operation *op) {
  return isa<ViewLikeOpInterface, RegionBranchOpInterface>(op) ||
         op->hasTrait<OpTrait::IsTerminator>() ||
         isa<DsaPlanDialect>(op->getDialect());
}

std::string describe(const BufferLocation &location) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << stringifyMemorySpace(location.space) << " bytes ["
     << location.range.begin << ", " << location.range.end << ")";
  return text;
}

} // namespace

SyncAccesses::SyncAccesses(Operation *root) {
  root->walk([&](Operation *op) { collect(op); });
}

void SyncAccesses::collect(Operation *op) {
  if (isNeverAnAccess(op))
    return;
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands())
    if (isa<MemRefType>(operand.getType()) &&
        getMemorySpace(operand.getType()) && !llvm::is_contained(buffers, operand))
      buffers.push_back(operand);
  if (buffers.empty())
    return;

  // Reads and writes per operand; an effect without a value touches them all.
  SmallVector<std::pair<bool, bool>> readWrite(buffers.size(), {false, false});
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (effects) {
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      bool read = isa<MemoryEffects::Read>(effect.getEffect());
      bool write = isa<MemoryEffects::Write>(effect.getEffect());
      if (!read && !write)
        continue;
      Value value = effect.getValue();
      for (auto [index, buffer] : llvm::enumerate(buffers))
        if (!value || value == buffer) {
          readWrite[index].first |= read;
          readWrite[index].second |= write;
        }
    }
  }

  SmallVector<PipeAccess, 2> found;
  std::optional<Pipe> pipe = getOpPipe(op);
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    auto [read, write] = readWrite[index];
    if (!effects)
      read = write = true;
    if (!read && !write)
      continue;
    std::optional<BufferLocation> location = locateBuffer(buffer);
    if (!pipe) {
      op->emitError() << "'" << op->getName() << "' accesses "
                      << describe(*location)
                      << " but runs on no pipe: give it a dsaplan.pipe "
                         "attribute or a PipeOpInterface";
      valid = false;
      return;
    }
    if (!effects)
      op->emitWarning() << "'" << op->getName()
                        << "' has unknown memory effects: treated as reading "
                           "and writing "
                        << describe(*location);
    if (read)
      found.push_back({op, *pipe, *location, false});
    if (write)
      found.push_back({op, *pipe, *location, true});
  }
  if (!found.empty())
    accesses[op] = std::move(found);
}

ArrayRef<PipeAccess> SyncAccesses::getAccesses(Operation *op) const {
  auto it = accesses.find(op);
  if (it == accesses.end())
    return {};
  return it->second;
}

bool SyncAccesses::containsAccess(Operation *op) const {
  bool found = false;
  op->walk([&](Operation *nested) {
    if (accesses.count(nested)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}
