//===- MemoryAccess.cpp - Byte ranges an op reads and writes --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// Bytes of one element: `index` is 64 bits (MLIR's default data layout,
/// and the AI core's scalar width); -1 for a type without a fixed size.
int64_t elementBytes(Type element) {
  if (element.isIndex())
    return 8;
  if (!element.isIntOrFloat())
    return -1;
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

/// A static strided set of bytes: from `base`, for each dimension of the
/// memref type, `count` elements `stride` bytes apart.
///
///   %t = memref.view %ub[%c0][] : ... to memref<8x64xf32, ...>
///        // base 0, dims (8, 256) (64, 4): bytes [0, 2048)
///   %s = memref.subview %t[0, 16] [8, 16] [1, 1]
///        // base 64, dims (8, 256) (16, 4): eight runs of 64 bytes
struct Box {
  int64_t base = 0;
  int64_t elementBytes = 1;
  SmallVector<std::pair<int64_t, int64_t>, 4> dims; // (count, stride)
};

/// The bytes a value designates: a region, the range that holds them, the
/// tile, and (when it is known statically) the exact set as a box.
struct Footprint {
  MemoryRegion region;
  int64_t begin = 0, end = 0;
  Operation *tile = nullptr;
  std::optional<Box> box;
};

/// More runs than this in one access keep the range that holds them: the
/// sync analyses pay per run.
constexpr size_t kMaxRuns = 64;

Footprint wholeSpace(MemorySpace space, Operation *anchor) {
  Footprint loc;
  loc.region.space = space;
  loc.end = TargetDescription::getForOp(anchor).getSpace(space).capacity;
  return loc;
}

/// The strides of a static memref with the identity layout and no empty
/// dimension, computed here: MemRefType::getStridesAndOffset builds and
/// simplifies the layout's affine expression first (thousands of
/// instructions per tile, once per access of every op), for the same
/// row-major strides and offset 0.
///
///   memref<4x16xf32>   strides [16, 1]
bool rowMajorStrides(MemRefType type, SmallVectorImpl<int64_t> &strides) {
  if (type.getRank() == 0 || !type.getLayout().isIdentity() ||
      llvm::any_of(type.getShape(), [](int64_t size) { return size <= 0; }))
    return false;
  strides.assign(type.getRank(), 1);
  for (int64_t dim = type.getRank() - 1; dim > 0; --dim)
    strides[dim - 1] = strides[dim] * type.getDimSize(dim);
  return true;
}

/// The box of a whole tile of `type` at `begin`, if its layout is static.
std::optional<Box> tileBox(MemRefType type, int64_t begin) {
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  int64_t bytes = elementBytes(type.getElementType());
  if (!type.hasStaticShape() || bytes < 0 ||
      (!rowMajorStrides(type, strides) &&
       failed(type.getStridesAndOffset(strides, offset))) ||
      llvm::any_of(strides, ShapedType::isDynamic) ||
      ShapedType::isDynamic(offset))
    return std::nullopt;
  Box box;
  box.elementBytes = bytes;
  box.base = begin + offset * box.elementBytes;
  for (auto [count, stride] : llvm::zip(type.getShape(), strides))
    box.dims.push_back({count, stride * box.elementBytes});
  return box;
}

/// What locate asks of a tile's memref type: its bytes
/// (getStaticSizeInBytes) and the box of a whole tile of it at byte 0
/// (tileBox). A large kernel has thousands of tiles of a few types, and
/// each answer takes type and layout queries (an interface look-up each).
struct TileShape {
  int64_t bytes;
  std::optional<Box> box;
};

} // namespace

struct MemoryAccessCache::TileShapes {
  DenseMap<Type, TileShape> byType;
};

namespace {

/// The shape of `type`, from `shapes` when given (and kept there).
TileShape shapeOf(MemRefType type, MemoryAccessCache::TileShapes *shapes) {
  if (!shapes)
    return {getStaticSizeInBytes(type), tileBox(type, 0)};
  auto [it, inserted] = shapes->byType.try_emplace(type);
  if (inserted)
    it->second = {getStaticSizeInBytes(type), tileBox(type, 0)};
  return it->second;
}

/// `shape`'s box for a tile at `begin`.
std::optional<Box> boxAt(const TileShape &shape, int64_t begin) {
  std::optional<Box> box = shape.box;
  if (box)
    box->base += begin;
  return box;
}

/// Whether `value` is an integer constant (m_ConstantInt), into `result`.
/// An arith.constant, which places every tile, is read without folding it.
bool constantIntOf(Value value, APInt &result) {
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
      result = integer.getValue();
      return true;
    }
  return matchPattern(value, m_ConstantInt(&result));
}

/// The range from a box's first byte to its last.
std::pair<int64_t, int64_t> hullOf(const Box &box) {
  int64_t first = box.base, last = box.base;
  for (auto [count, stride] : box.dims) {
    if (count == 0)
      return {box.base, box.base};
    (stride < 0 ? first : last) += (count - 1) * stride;
  }
  return {first, last + box.elementBytes};
}

/// An index value as a constant plus terms (see OffsetTerms), when it is
/// one: constants, `scf.for` induction variables with a constant step,
/// index values of the function's entry block, and sums, differences,
/// products by a constant and index casts of those.
///
///   %r8 = arith.addi %r, %c8      // 8 + 1 * %r
///   %o = arith.muli %r8, %c1024   // 8192 + 1024 * %r
struct LinearIndex {
  int64_t constant = 0;
  OffsetTerms terms;

  void add(const LinearIndex &other, int64_t scale) {
    constant += scale * other.constant;
    // A named pair, not a structured binding: C++17 lambdas cannot capture
    // one (clang-14, which builds the fuzz targets, rejects it).
    for (const auto &term : other.terms) {
      auto *it = llvm::find_if(
          terms, [&](auto &t) { return t.first == term.first; });
      if (it == terms.end())
        terms.push_back({term.first, scale * term.second});
      else
        it->second += scale * term.second;
    }
    llvm::erase_if(terms, [](auto &t) { return t.second == 0; });
  }
};

/// Whether `value` stays the same all through one execution of its
/// function: a value of the function's entry block.
bool isFunctionInvariant(Value value) {
  Block *block = value.getParentBlock();
  Operation *parent = block ? block->getParentOp() : nullptr;
  return parent && isa<FunctionOpInterface>(parent) &&
         block == &parent->getRegion(0).front();
}

std::optional<LinearIndex> linearize(Value value, int depth = 0) {
  if (depth > 16 || !value.getType().isIntOrIndex())
    return std::nullopt;
  LinearIndex result;
  if (std::optional<int64_t> constant = getConstantIntValue(value)) {
    result.constant = *constant;
    return result;
  }
  if (auto loop = scf::getForInductionVarOwner(value)) {
    if (!getConstantIntValue(loop.getStep()))
      return std::nullopt;
    result.terms.push_back({value, 1});
    return result;
  }
  Operation *def = value.getDefiningOp();
  auto operand = [&](unsigned i) { return linearize(def->getOperand(i), depth + 1); };
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<LinearIndex> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    lhs->add(*rhs, isa<arith::AddIOp>(def) ? 1 : -1);
    return lhs;
  }
  if (isa_and_nonnull<arith::MulIOp>(def)) {
    std::optional<LinearIndex> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs || (!lhs->terms.empty() && !rhs->terms.empty()))
      return std::nullopt;
    if (!lhs->terms.empty())
      std::swap(lhs, rhs);
    result.add(*rhs, lhs->constant);
    return result;
  }
  if (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return operand(0);
  if (isFunctionInvariant(value) && value.getType().isIndex()) {
    result.terms.push_back({value, 1});
    return result;
  }
  return std::nullopt;
}

/// Narrows `base` (the location of a subview's source) to the bytes the
/// static subview `subview` touches. A dynamic subview, or a source whose
/// bytes are not a box, keeps the source's range and forgets its box: a
/// static subview of a dynamic one may be anywhere in that range.
///
///   %s = memref.subview %t[%n] [32] [1]   // somewhere in %t: all of %t
///   %u = memref.subview %s[0] [16] [1]    // still all of %t, not %t[0:16]
///
/// In global memory, offsets affine in loop induction variables (see
/// linearize) become the access's offset terms and the box keeps the
/// constant part.
Footprint narrowToSubview(memref::SubViewOp subview, Footprint base) {
  SmallVector<std::optional<LinearIndex>> offsets;
  for (OpFoldResult offset : subview.getMixedOffsets()) {
    if (std::optional<int64_t> constant = getConstantIntValue(offset))
      offsets.push_back(LinearIndex{*constant, {}});
    else if (base.region.isGlobal())
      offsets.push_back(linearize(cast<Value>(offset)));
    else
      offsets.push_back(std::nullopt);
  }
  if (!base.box || base.box->dims.size() != offsets.size() ||
      llvm::any_of(offsets, [](auto &o) { return !o; }) ||
      llvm::any_of(subview.getStaticSizes(), ShapedType::isDynamic) ||
      llvm::any_of(subview.getStaticStrides(), ShapedType::isDynamic)) {
    base.box.reset();
    return base;
  }
  Box box;
  box.base = base.box->base;
  box.elementBytes = base.box->elementBytes;
  LinearIndex terms{0, base.region.terms};
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  for (size_t d = 0; d < base.box->dims.size(); ++d) {
    int64_t stride = base.box->dims[d].second;
    box.base += offsets[d]->constant * stride;
    terms.add(LinearIndex{0, offsets[d]->terms}, stride);
    if (!dropped.test(d))
      box.dims.push_back({subview.getStaticSizes()[d],
                          subview.getStaticStrides()[d] * stride});
  }
  Footprint narrowed = base;
  std::tie(narrowed.begin, narrowed.end) = hullOf(box);
  // A constant range stays inside its source; one that moves with a loop
  // variable is bounded by the subview's own type, not here.
  if (terms.terms.empty())
    narrowed.end = std::min(narrowed.end, base.end);
  llvm::sort(terms.terms, [](auto &a, auto &b) {
    return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
  });
  narrowed.region.terms = std::move(terms.terms);
  narrowed.box = std::move(box);
  return narrowed;
}

/// `locate` follows views down to `from` and goes on from `to` there: how
/// one candidate of a value that may be several tiles is located.
struct RootChoice {
  Value from, to;
};

/// An end for the bytes of a GM buffer whose size is unknown.
constexpr int64_t kUnboundedEnd = std::numeric_limits<int64_t>::max() / 2;

/// Every byte of the GM buffer `root` (a function argument, a GM
/// allocation, or a memref of unknown origin): exact when its type is
/// static, else unbounded.
///
///   %arg0: memref<16x64xf32>   // bytes [0, 4096), box (16, 256) (64, 4)
///   %arg1: memref<?xf32>       // bytes [0, unbounded)
Footprint wholeGlobal(Value root) {
  Footprint loc;
  loc.region.global = root;
  loc.end = kUnboundedEnd;
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!type)
    return loc;
  loc.box = tileBox(type, 0);
  if (loc.box)
    std::tie(loc.begin, loc.end) = hullOf(*loc.box);
  return loc;
}

/// The bytes `value` designates in `space`, or in global memory when
/// `space` is none.
Footprint locate(Value value, std::optional<MemorySpace> space,
                 Operation *anchor, RootChoice choice = {},
                 MemoryAccessCache::TileShapes *shapes = nullptr) {
  if (choice.from && value == choice.from)
    value = choice.to;
  auto whole = [&] {
    return space ? wholeSpace(*space, anchor) : wholeGlobal(value);
  };
  Operation *def = value.getDefiningOp();
  if (!def)
    return whole(); // a block argument: anything (GM: the argument)
  if (auto alloc = dyn_cast<AllocOp>(def)) {
    Footprint loc;
    loc.tile = alloc;
    loc.region.space = alloc.getSpace();
    if (std::optional<uint64_t> offset = alloc.getOffset()) {
      loc.begin = static_cast<int64_t>(*offset);
    } else {
      loc.region.unplacedAlloc = alloc;
    }
    loc.end = loc.begin + alloc.getSizeInBytes();
    loc.box = boxAt(shapeOf(alloc.getType(), shapes), loc.begin);
    return loc;
  }
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    APInt offset;
    TileShape shape = shapeOf(view.getType(), shapes);
    int64_t size = shape.bytes;
    bool staticView = constantIntOf(view.getByteShift(), offset) && size >= 0;
    if (space) {
      // A placed tile: its own bytes (the space's capacity, which takes a
      // look-up of the target, is not needed).
      if (!isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp()) ||
          !staticView)
        return wholeSpace(*space, anchor);
      Footprint loc;
      loc.region.space = *space;
      loc.begin = offset.getSExtValue();
      loc.end = loc.begin + size;
      loc.tile = view;
      loc.box = boxAt(shape, loc.begin);
      return loc;
    }
    // A GM view: bytes of its source from the shift on, when the source's
    // own bytes are known exactly.
    Footprint loc = locate(view.getSource(), space, anchor, choice, shapes);
    if (!staticView || !loc.box) {
      loc.box.reset();
      return loc;
    }
    loc.begin = loc.box->base + offset.getSExtValue();
    loc.end = loc.begin + size;
    loc.box = boxAt(shape, loc.begin);
    return loc;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(def))
    return narrowToSubview(
        subview, locate(subview.getSource(), space, anchor, choice, shapes));
  SmallVector<Value, 1> sources = getAliasSources(value);
  if (sources.size() == 1) {
    // Another view of the same bytes (a cast, a reshape, a transpose, a
    // cast out of the space): the source's range, without claiming to know
    // which of its bytes.
    Footprint loc = locate(sources.front(), space, anchor, choice, shapes);
    loc.box.reset();
    return loc;
  }
  return whole(); // GM: an allocation, or a memref of unknown origin
}

/// The runs of contiguous bytes of `box`, sorted and disjoint; the hull
/// alone when there would be more than kMaxRuns (or strides that are not
/// positive, which static layouts do not produce).
SmallVector<std::pair<int64_t, int64_t>, 1> runsOf(const Box &box) {
  auto [first, last] = hullOf(box);
  SmallVector<std::pair<int64_t, int64_t>, 4> dims;
  for (auto [count, stride] : box.dims) {
    if (count == 0)
      return {};
    if (count > 1)
      dims.push_back({count, stride});
  }
  if (llvm::any_of(dims, [](auto dim) { return dim.second <= 0; }))
    return {{first, last}};
  // Innermost first; the dims that extend the innermost run contiguously
  // fold into its length.
  llvm::sort(dims, [](auto a, auto b) { return a.second < b.second; });
  int64_t runBytes = box.elementBytes;
  size_t outer = 0;
  while (outer < dims.size() && dims[outer].second == runBytes)
    runBytes *= dims[outer++].first;
  int64_t runs = 1;
  for (size_t d = outer; d < dims.size(); ++d)
    if ((runs *= dims[d].first) > static_cast<int64_t>(kMaxRuns))
      return {{first, last}};
  SmallVector<int64_t> starts = {box.base};
  for (size_t d = outer; d < dims.size(); ++d) {
    SmallVector<int64_t> next;
    for (int64_t start : starts)
      for (int64_t i = 0; i < dims[d].first; ++i)
        next.push_back(start + i * dims[d].second);
    starts = std::move(next);
  }
  llvm::sort(starts);
  SmallVector<std::pair<int64_t, int64_t>, 1> merged;
  for (int64_t start : starts) {
    if (!merged.empty() && start <= merged.back().second)
      merged.back().second = std::max(merged.back().second, start + runBytes);
    else
      merged.push_back({start, start + runBytes});
  }
  return merged;
}

/// More candidates than this for one value: the whole space.
constexpr size_t kMaxCandidates = 8;

/// What `value` may be, one step back, when it is a loop-carried argument
/// or the result of a choice:
///
///   scf.for iter_arg or result k    init k and yield operand k
///   scf.if / index_switch result k  yield operand k of every region
///   arith.select                    both operands
///
/// Empty for anything else (a function argument, scf.while, a view).
SmallVector<Value, 2> mayBeOneStep(Value value) {
  SmallVector<Value, 2> step;
  auto yieldedBy = [&](Region &region, unsigned index) {
    if (!region.empty())
      step.push_back(region.front().getTerminator()->getOperand(index));
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return step;
    unsigned index = arg.getArgNumber() - 1;
    step.push_back(loop.getInitArgs()[index]);
    yieldedBy(loop.getRegion(), index);
    return step;
  }
  auto result = cast<OpResult>(value);
  Operation *def = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    step.push_back(loop.getInitArgs()[index]);
    yieldedBy(loop.getRegion(), index);
  } else if (isa<scf::IfOp, scf::IndexSwitchOp>(def)) {
    for (Region &region : def->getRegions())
      yieldedBy(region, index);
  } else if (auto select = dyn_cast<arith::SelectOp>(def)) {
    step.append({select.getTrueValue(), select.getFalseValue()});
  }
  return step;
}

/// The values that are not themselves choices that `root` may be, or
/// nullopt when a path ends in something unknown (a function argument) or
/// there are more than kMaxCandidates:
///
///   %r:2 = scf.for ... iter_args(%cur = %a, %nxt = %b) { ...
///                                scf.yield %nxt, %cur }
///   // %cur may be %a or %b: an access through it touches both tiles' bytes,
///   // not the whole space.
std::optional<SmallVector<Value, 4>> mayBe(Value root) {
  SmallVector<Value, 4> candidates, worklist = {root};
  DenseSet<Value> seen = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    SmallVector<Value, 2> step = mayBeOneStep(value);
    if (step.empty()) {
      if (isa<BlockArgument>(value))
        return std::nullopt;
      candidates.push_back(value);
      if (candidates.size() > kMaxCandidates)
        return std::nullopt;
      continue;
    }
    for (Value next : step)
      if (seen.insert(next).second)
        worklist.push_back(next);
  }
  return candidates;
}

/// Where the chain of views that `value` is ends: the value the views are
/// of (a tile, an arena view, or a value that may be several).
Value chainRoot(Value value) {
  for (int depth = 0; depth < 1024; ++depth) {
    Operation *def = value.getDefiningOp();
    if (auto subview = dyn_cast_or_null<memref::SubViewOp>(def)) {
      value = subview.getSource();
      continue;
    }
    if (isa_and_nonnull<memref::ViewOp, AllocOp>(def))
      return value;
    SmallVector<Value, 1> sources = getAliasSources(value);
    if (sources.size() != 1)
      return value;
    value = sources.front();
  }
  return value;
}

void appendFootprint(const Footprint &loc, bool isWrite,
                     SmallVectorImpl<MemoryAccess> &out) {
  MemoryAccess access;
  access.region = loc.region;
  access.isWrite = isWrite;
  access.tile = loc.tile;
  SmallVector<std::pair<int64_t, int64_t>, 1> runs = {{loc.begin, loc.end}};
  if (loc.box)
    runs = runsOf(*loc.box);
  for (auto [begin, end] : runs) {
    access.begin = std::max(begin, loc.begin);
    access.end = std::min(end, loc.end);
    if (access.begin < access.end)
      out.push_back(access);
  }
}

/// The accesses of `value`'s bytes (in `space`, or in global memory when it
/// is none); a value that may be one of several tiles (see mayBe) accesses
/// each of them.
void appendAccesses(Value value, std::optional<MemorySpace> space,
                    bool isWrite, Operation *anchor,
                    SmallVectorImpl<MemoryAccess> &out,
                    MemoryAccessCache::TileShapes *shapes = nullptr) {
  Value root = chainRoot(value);
  if (!mayBeOneStep(root).empty())
    if (std::optional<SmallVector<Value, 4>> candidates = mayBe(root)) {
      for (Value candidate : *candidates)
        appendFootprint(
            locate(value, space, anchor, {root, candidate}, shapes), isWrite,
            out);
      return;
    }
  appendFootprint(locate(value, space, anchor, {}, shapes), isWrite, out);
}

/// Where an access through `value` lands: a dsaplan space, global memory
/// (nullopt inside), or nothing (not a memref).
std::optional<std::optional<MemorySpace>> accessedMemory(Value value) {
  if (std::optional<MemorySpace> space = getRootMemorySpace(value))
    return space;
  if (isa<BaseMemRefType>(value.getType()))
    return std::optional<MemorySpace>();
  return std::nullopt;
}

} // namespace

int64_t mlir::dsaplan::getStaticSizeInBytes(MemRefType type) {
  int64_t element = elementBytes(type.getElementType());
  if (!type.hasStaticShape() || element < 0)
    return -1;
  return type.getNumElements() * element;
}

bool mlir::dsaplan::touchesSyncedMemory(Operation *op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    return isa<BaseMemRefType>(operand.getType());
  });
}

bool mlir::dsaplan::isNoAliasArgument(Value arg) {
  auto blockArg = dyn_cast<BlockArgument>(arg);
  if (!blockArg)
    return false;
  auto func = dyn_cast<FunctionOpInterface>(blockArg.getOwner()->getParentOp());
  if (!func || blockArg.getOwner() != &func.getFunctionBody().front())
    return false;
  return static_cast<bool>(
      func.getArgAttr(blockArg.getArgNumber(), "llvm.noalias"));
}

namespace {
/// What a GM root is, for aliasing.
enum class GlobalRootKind { Argument, NoAliasArgument, Allocation, Unknown };

GlobalRootKind classifyGlobalRoot(Value root) {
  if (isNoAliasArgument(root))
    return GlobalRootKind::NoAliasArgument;
  if (auto arg = dyn_cast<BlockArgument>(root))
    return isa<FunctionOpInterface>(arg.getOwner()->getParentOp())
               ? GlobalRootKind::Argument
               : GlobalRootKind::Unknown;
  auto effects = dyn_cast<MemoryEffectOpInterface>(root.getDefiningOp());
  if (effects && effects.getEffectOnValue<MemoryEffects::Allocate>(root))
    return GlobalRootKind::Allocation;
  return GlobalRootKind::Unknown;
}
} // namespace

bool mlir::dsaplan::mayAliasGlobalRoots(Value a, Value b) {
  if (a == b)
    return true;
  GlobalRootKind kindA = classifyGlobalRoot(a), kindB = classifyGlobalRoot(b);
  if (kindA == GlobalRootKind::Unknown || kindB == GlobalRootKind::Unknown)
    return true;
  return kindA == GlobalRootKind::Argument &&
         kindB == GlobalRootKind::Argument;
}

namespace {
/// What isAccessCandidate asks of the op's name: not a sync, a placement
/// hint, an allocation, nor an op that only forwards memrefs.
bool isCandidateName(Operation *op) {
  return !isa<RegionBranchOpInterface, RegionBranchTerminatorOpInterface,
              SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp,
              CrossCoreSetOp, CrossCoreWaitOp, SeparateOp, ColocateOp, AllocOp,
              ArenaOp>(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

/// A settled call's callee is synchronised on its own, between the
/// barrier_all ops around the call (dsaplan-settle-calls).
bool isSettled(Operation *op) {
  return op->hasAttr(DsaPlanDialect::getSettledAttrName());
}
} // namespace

bool mlir::dsaplan::isAccessCandidate(Operation *op) {
  // Asked first: most ops of a kernel (constants, yields) have no memref
  // operand, and the look-ups below cost more.
  return touchesSyncedMemory(op) && !isSettled(op) && isCandidateName(op);
}

bool mlir::dsaplan::MemoryAccessCache::isAccessCandidate(Operation *op) {
  if (!touchesSyncedMemory(op) || isSettled(op))
    return false;
  // An unregistered op's traits and interfaces are not its name's.
  if (!op->isRegistered())
    return isCandidateName(op);
  auto [it, inserted] = candidateNames.try_emplace(op->getName(), false);
  if (inserted)
    it->second = isCandidateName(op);
  return it->second;
}

SmallVector<Value, 1> mlir::dsaplan::getAliasSources(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result || !isa<BaseMemRefType>(value.getType()))
    return {};
  Operation *def = result.getOwner();
  if (isa<AllocOp, ArenaOp, RegionBranchOpInterface, CallOpInterface>(def))
    return {};
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return {view.getViewSource()};
  auto effects = dyn_cast<MemoryEffectOpInterface>(def);
  if (!effects || effects.getEffectOnValue<MemoryEffects::Allocate>(value))
    return {};
  SmallVector<Value, 1> sources;
  for (Value operand : def->getOperands())
    if (isa<BaseMemRefType>(operand.getType()))
      sources.push_back(operand);
  return sources;
}

std::optional<MemorySpace> mlir::dsaplan::getRootMemorySpace(Value value) {
  // Bounded: IR is a DAG, but a malformed chain must not hang.
  for (int depth = 0; value && depth < 1024; ++depth) {
    if (std::optional<MemorySpace> space = getMemorySpace(value.getType()))
      return space;
    SmallVector<Value, 1> sources = getAliasSources(value);
    if (sources.size() != 1)
      return std::nullopt;
    value = sources.front();
  }
  return std::nullopt;
}

mlir::dsaplan::MemoryAccessCache::MemoryAccessCache()
    : tileShapes(std::make_unique<TileShapes>()) {}

mlir::dsaplan::MemoryAccessCache::~MemoryAccessCache() = default;

void mlir::dsaplan::MemoryAccessCache::append(
    Value value, std::optional<MemorySpace> space, bool isWrite, Operation *op,
    SmallVectorImpl<MemoryAccess> &out) {
  // Only a whole space is measured by the op's target: the bytes of a GM
  // value are the same in every block.
  Operation *scope = space ? op->getParentOp() : nullptr;
  auto [known, first] = runs.try_emplace({value, scope});
  if (first)
    appendAccesses(value, space, /*isWrite=*/false, op, known->second,
                   tileShapes.get());
  for (const MemoryAccess &access : known->second) {
    out.push_back(access);
    out.back().isWrite = isWrite;
  }
}

namespace {

/// getMemoryAccesses into `accesses`, through `cache` when given.
void memoryAccesses(Operation *op, bool &unknownEffects,
                    MemoryAccessCache *cache,
                    SmallVectorImpl<MemoryAccess> &accesses) {
  // An op with a target of its own measures a whole space by it: not
  // through the cache, whose runs are the block's.
  if (cache && op->getDiscardableAttr(DsaPlanDialect::getTargetAttrName()))
    cache = nullptr;
  auto append = [&](Value value, std::optional<MemorySpace> space,
                    bool isWrite, SmallVectorImpl<MemoryAccess> &out) {
    if (cache)
      cache->append(value, space, isWrite, op, out);
    else
      appendAccesses(value, space, isWrite, op, out);
  };
  unknownEffects = false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) {
    // A view without the effect interface still only names bytes.
    if (isa<ViewLikeOpInterface>(op))
      return;
    unknownEffects = touchesSyncedMemory(op);
    for (Value operand : op->getOperands())
      if (std::optional<std::optional<MemorySpace>> memory =
              accessedMemory(operand))
        for (bool isWrite : {false, true})
          append(operand, *memory, isWrite, accesses);
    return;
  }
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    Value value = instance.getValue();
    if (!value)
      continue;
    std::optional<std::optional<MemorySpace>> memory = accessedMemory(value);
    if (!memory)
      continue;
    bool isRead = isa<MemoryEffects::Read>(instance.getEffect());
    bool isWrite = isa<MemoryEffects::Write>(instance.getEffect());
    if (isRead || isWrite)
      append(value, *memory, isWrite, accesses);
  }
}

} // namespace

SmallVector<MemoryAccess, 4>
mlir::dsaplan::getMemoryAccesses(Operation *op, bool &unknownEffects) {
  SmallVector<MemoryAccess, 4> accesses;
  memoryAccesses(op, unknownEffects, nullptr, accesses);
  return accesses;
}

void mlir::dsaplan::getMemoryAccesses(Operation *op, bool &unknownEffects,
                                      MemoryAccessCache &cache,
                                      SmallVectorImpl<MemoryAccess> &out) {
  memoryAccesses(op, unknownEffects, &cache, out);
}

MemoryAccess mlir::dsaplan::getTileBytes(Operation *tile) {
  Value value = tile->getResult(0);
  Footprint loc = locate(value, *getMemorySpace(value.getType()), tile);
  MemoryAccess access;
  access.region = loc.region;
  access.begin = loc.begin;
  access.end = loc.end;
  access.tile = loc.tile;
  return access;
}
