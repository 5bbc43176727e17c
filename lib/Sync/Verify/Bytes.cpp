//===- Bytes.cpp - The verifier's own byte ranges -------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Which bytes an op touches, computed here and nowhere else: the verifier
// shares no byte-range code with the inserter (lib/Analysis), so that a
// mistake there cannot hide a race here.
//
//===----------------------------------------------------------------------===//

#include "Bytes.h"

#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <functional>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

namespace {

//===----------------------------------------------------------------------===//
// Byte ranges, computed here and nowhere else
//===----------------------------------------------------------------------===//


/// The op a byte range is computed at (its data layout), the target of its
/// function, the element sizes already looked up there, when the caller
/// keeps them, and the table GM ranges number their unknown terms in.
struct Anchor {
  Anchor(Operation *op, const TargetDescription &target,
         ElementSizes *sizes = nullptr, UnknownTermsTable *terms = nullptr)
      : op(op), target(target), sizes(sizes), terms(terms) {}
  /// Another op of the same computation.
  Anchor at(Operation *other) const { return {other, target, sizes, terms}; }
  Operation *op;
  const TargetDescription &target;
  ElementSizes *sizes;
  UnknownTermsTable *terms;
};

/// Bytes of one element, as the data layout sizes it (index: 64 bits by
/// default); 0 for a type without a size.
int64_t elementBytesOf(MemRefType type, Anchor anchor) {
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat() && !isa<VectorType, ComplexType>(element))
    return 0;
  int64_t bits = anchor.sizes
                     ? anchor.sizes->bitsOf(element, anchor.op)
                     : DataLayout::closest(anchor.op).getTypeSizeInBits(element);
  return (bits + 7) / 8;
}

/// The integer constant `value` is, as m_ConstantInt finds it: an
/// arith.constant read directly (every placed view's byte shift), any
/// other constant op folded.
std::optional<int64_t> constantIntOf(Value value) {
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
      return attr.getValue().getSExtValue();
  APInt folded;
  if (matchPattern(value, m_ConstantInt(&folded)))
    return folded.getSExtValue();
  return std::nullopt;
}

/// The memref whose bytes `value` names, when `value` is a view of one: the
/// source of a view-like op, or the one memref operand of an op that has no
/// memory effects at all (memref.transpose, which is no view-like op).
Value sourceOfView(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isa<BaseMemRefType>(value.getType()))
    return {};
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return view.getViewSource();
  // The one memref operand first: an op without one (an arena, an alloc)
  // is no view whatever its effects, and asking them costs more.
  Value source;
  for (Value operand : def->getOperands())
    if (isa<BaseMemRefType>(operand.getType())) {
      if (source)
        return {};
      source = operand;
    }
  if (!source || !isMemoryEffectFree(def) || def->getNumRegions() != 0)
    return {};
  return source;
}

/// The dsaplan space `value` lives in, following casts out of the space
/// (memref.memory_space_cast) back to the tile.
std::optional<MemorySpace> dsaplanSpaceOf(Value value) {
  for (unsigned hops = 0; value && hops < 256; ++hops) {
    if (std::optional<MemorySpace> space = getMemorySpace(value.getType()))
      return space;
    value = sourceOfView(value);
  }
  return std::nullopt;
}

/// Every byte of `space` on `target`.
Bytes whole(MemorySpace space, const TargetDescription &target) {
  return {static_cast<int>(space), nullptr, 0, target.getSpace(space).capacity};
}

Bytes bytesOfValue(Value value, MemorySpace space, Anchor anchor);
SmallVector<Bytes, 1> runsOfValue(Value value, MemorySpace space,
                                  Anchor anchor);
SmallVector<Bytes, 1> runsOfSubview(memref::SubViewOp sub, Value root,
                                    MemorySpace space, Anchor anchor);

/// More runs than this and a subview counts as the range from its first
/// byte to its last.
constexpr int64_t kMaxSubviewRuns = 1 << 14;

/// The bytes of a static subview, from the layout of its type: MLIR gives a
/// subview of a tile its offset and strides in elements of that tile, so
/// the runs are the offsets of its rows (or of its elements, when the
/// innermost stride is not 1) in `tile`.
///
/// `elementOffset`, when given, stands for the layout's offset (a dynamic
/// one the caller evaluated).
SmallVector<Bytes, 1> bytesOfSubview(memref::SubViewOp sub, const Bytes &tile,
                                     Anchor anchor,
                                     std::optional<int64_t> elementOffset = {}) {
  MemRefType type = sub.getType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)))
    return {tile};
  if (elementOffset)
    offset = *elementOffset;
  if (ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, [](int64_t s) { return ShapedType::isDynamic(s) || s < 0; }))
    return {tile};
  int64_t element = elementBytesOf(type, anchor.at(sub));
  if (element == 0)
    return {tile};
  ArrayRef<int64_t> shape = type.getShape();
  if (llvm::is_contained(shape, 0))
    return {};
  size_t rank = shape.size();
  bool rows = rank > 0 && strides[rank - 1] == 1;
  size_t outer = rows ? rank - 1 : rank;
  int64_t runLength = (rows ? shape[rank - 1] : 1) * element;
  int64_t count = 1;
  for (size_t d = 0; d < outer; ++d)
    count *= shape[d];
  std::vector<int64_t> starts;
  if (count > kMaxSubviewRuns) {
    int64_t last = offset;
    for (size_t d = 0; d < rank; ++d)
      last += (shape[d] - 1) * strides[d];
    starts.push_back(offset * element);
    runLength = (last - offset + 1) * element;
  } else {
    SmallVector<int64_t> index(outer, 0);
    for (int64_t n = 0; n < count; ++n) {
      int64_t at = offset;
      for (size_t d = 0; d < outer; ++d)
        at += index[d] * strides[d];
      starts.push_back(at * element);
      for (size_t d = outer; d-- > 0;) // the next index, last dim fastest
        if (++index[d] < shape[d])
          break;
        else
          index[d] = 0;
    }
    std::sort(starts.begin(), starts.end());
  }
  SmallVector<Bytes, 1> runs;
  for (int64_t start : starts) {
    int64_t begin = tile.begin + start, end = begin + runLength;
    if (!runs.empty() && begin <= runs.back().end)
      runs.back().end = std::max(runs.back().end, end);
    else
      runs.push_back({tile.space, tile.alloc, begin, end, tile.gm, tile.unknown});
  }
  return runs;
}

/// Whether `value` is a loop-carried argument or the result of a choice
/// between values (scf.for, scf.if, scf.index_switch, arith.select).
bool isChoice(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa<scf::ForOp>(arg.getOwner()->getParentOp()) &&
           arg.getArgNumber() > 0;
  return isa_and_nonnull<scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
                         arith::SelectOp>(value.getDefiningOp());
}

/// The values a choice may hold in the end (none of them a choice), or
/// none when a path leads to something unknown or there are more than 8.
SmallVector<Value> heldValues(Value choice) {
  SmallVector<Value> held;
  DenseSet<Value> visited;
  bool known = true;
  std::function<void(Value)> follow = [&](Value value) {
    if (!known || !visited.insert(value).second)
      return;
    if (!isChoice(value)) {
      known = !isa<BlockArgument>(value) && held.size() < 8;
      held.push_back(value);
      return;
    }
    auto yielded = [&](Region &region, unsigned index) {
      if (!region.empty())
        follow(region.front().getTerminator()->getOperand(index));
    };
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = cast<scf::ForOp>(arg.getOwner()->getParentOp());
      follow(loop.getInitArgs()[arg.getArgNumber() - 1]);
      yielded(loop.getRegion(), arg.getArgNumber() - 1);
      return;
    }
    Operation *def = value.getDefiningOp();
    unsigned index = cast<OpResult>(value).getResultNumber();
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      follow(select.getTrueValue());
      follow(select.getFalseValue());
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(def))
      follow(loop.getInitArgs()[index]);
    for (Region &region : def->getRegions())
      yielded(region, index);
  };
  follow(choice);
  if (!known)
    return {};
  return held;
}

/// The bytes of a view (a cast, a reshape, a transpose, a cast out of the
/// space, or a chain of them) of a choice or of a subview of one: for each
/// tile the choice may hold, every byte of that tile's part. Not the range
/// from the first tile to the last, which would also cover the tiles placed
/// between them:
///
///   %r = scf.if ... -> memref<128xf32, ub> { yield %a } else { yield %b }
///   %g = memref.memory_space_cast %r ...   // %a's bytes and %b's bytes
///
/// None when `value` is no such view.
std::optional<SmallVector<Bytes, 1>>
runsOfViewOfChoice(Value value, MemorySpace space, Anchor anchor) {
  Value source = sourceOfView(value);
  // Through a chain of such views (expand_shape, then transpose, ...).
  for (unsigned hops = 0; source && hops < 256 && !isChoice(source) &&
                          !source.getDefiningOp<memref::SubViewOp>();
       ++hops)
    if (Value next = sourceOfView(source))
      source = next;
    else
      break;
  if (!source)
    return std::nullopt;
  auto sourceSub = source.getDefiningOp<memref::SubViewOp>();
  Value root = source;
  while (auto inner = root.getDefiningOp<memref::SubViewOp>())
    root = inner.getSource();
  if (!isChoice(root))
    return std::nullopt;
  SmallVector<Value> held = heldValues(root);
  if (held.empty())
    return SmallVector<Bytes, 1>{whole(space, anchor.target)};
  SmallVector<Bytes, 1> runs;
  for (Value tile : held) {
    SmallVector<Bytes, 1> part =
        sourceSub ? runsOfSubview(sourceSub, tile, space, anchor)
                  : runsOfValue(tile, space, anchor);
    if (part.empty())
      continue;
    Bytes hull = part.front();
    hull.end = part.back().end;
    runs.push_back(hull);
  }
  return runs;
}

/// The runs of bytes `value` designates. A subview is measured against the
/// tile at the root of its chain of subviews; through a choice, against
/// each tile it may hold.
SmallVector<Bytes, 1> runsOfValue(Value value, MemorySpace space,
                                  Anchor anchor) {
  // A view of an arena (every placed tile after dsaplan-materialize): no
  // subview, no choice, and nothing to follow past the arena, which is
  // neither a view nor a choice. Its own bytes, as the way below finds.
  if (auto view = value.getDefiningOp<memref::ViewOp>())
    if (isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp()))
      return {bytesOfValue(value, space, anchor)};
  auto sub = value.getDefiningOp<memref::SubViewOp>();
  Value root = value;
  while (auto inner = root.getDefiningOp<memref::SubViewOp>())
    root = inner.getSource();
  if (!isChoice(root)) {
    if (!sub)
      if (std::optional<SmallVector<Bytes, 1>> runs =
              runsOfViewOfChoice(value, space, anchor))
        return *runs;
    return sub ? runsOfSubview(sub, root, space, anchor)
               : SmallVector<Bytes, 1>{bytesOfValue(value, space, anchor)};
  }
  SmallVector<Value> held = heldValues(root);
  if (held.empty())
    return {whole(space, anchor.target)};
  SmallVector<Bytes, 1> runs;
  for (Value tile : held)
    llvm::append_range(runs, sub ? runsOfSubview(sub, tile, space, anchor)
                                 : runsOfValue(tile, space, anchor));
  return runs;
}

/// The runs of `sub`, a chain of subviews of `root`.
SmallVector<Bytes, 1> runsOfSubview(memref::SubViewOp sub, Value root,
                                    MemorySpace space, Anchor anchor) {
  // A subview of a view of a choice: all of each tile the choice may be.
  if (std::optional<SmallVector<Bytes, 1>> runs =
          runsOfViewOfChoice(root, space, anchor))
    return *runs;
  Bytes tile = bytesOfValue(root, space, anchor);
  if (!isa_and_nonnull<AllocOp, memref::ViewOp>(root.getDefiningOp()) ||
      !cast<MemRefType>(root.getType()).getLayout().isIdentity() ||
      llvm::any_of(sub.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(sub.getStaticSizes(), ShapedType::isDynamic) ||
      llvm::any_of(sub.getStaticStrides(), ShapedType::isDynamic))
    return {tile};
  return bytesOfSubview(sub, tile, anchor);
}

/// The range of a value that is not a subview.
Bytes bytesOfValue(Value value, MemorySpace space, Anchor anchor) {
  Operation *def = value.getDefiningOp();
  if (auto alloc = dyn_cast_or_null<AllocOp>(def)) {
    if (std::optional<uint64_t> offset = alloc.getOffset())
      return {static_cast<int>(space), nullptr, static_cast<int64_t>(*offset),
              static_cast<int64_t>(*offset) + alloc.getSizeInBytes()};
    return {kUnplacedSpace, alloc, 0, alloc.getSizeInBytes()};
  }
  if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
    // The element size once (bytesOf would look it up again).
    int64_t element = view.getType().hasStaticShape()
                          ? elementBytesOf(view.getType(), anchor.at(view))
                          : 0;
    std::optional<int64_t> shift;
    if (element > 0 && (shift = constantIntOf(view.getByteShift())))
      return {static_cast<int>(space), nullptr, *shift,
              *shift + view.getType().getNumElements() * element};
    return whole(space, anchor.target);
  }
  if (Value source = sourceOfView(value)) {
    // A subview's source through a cast, a reshape or a transpose (or a
    // cast out of the space): every byte of it.
    SmallVector<Bytes, 1> runs = runsOfValue(source, space, anchor);
    if (runs.empty())
      return {static_cast<int>(space), nullptr, 0, 0};
    Bytes hull = runs.front();
    hull.end = runs.back().end;
    return hull;
  }
  return whole(space, anchor.target);
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

/// The end of a GM buffer whose size the type does not give.
constexpr int64_t kUnknownGmEnd = int64_t(1) << 62;

/// Whether `root`, the first value of a chain of views in global memory, is
/// an argument of the function.
bool isFunctionArgument(Value root) {
  auto arg = dyn_cast<BlockArgument>(root);
  return arg && arg.getOwner()->isEntryBlock() &&
         isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

/// Whether `root` is a buffer allocated in the function (shares no byte
/// with anything allocated elsewhere).
bool isFreshBuffer(Value root) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      root.getDefiningOp());
}

} // namespace

/// Two different GM buffers may be one: two arguments the caller may pass
/// the same memory as (unless one of them promises otherwise with
/// `llvm.noalias`), and anything whose origin is unknown here.
bool verify::mayBeSameGm(Value a, Value b) {
  if (a == b)
    return true;
  auto knownOrigin = [](Value root) {
    return isFunctionArgument(root) || isFreshBuffer(root);
  };
  if (!knownOrigin(a) || !knownOrigin(b))
    return true;
  auto promisesNoAlias = [](Value root) {
    auto arg = cast<BlockArgument>(root);
    auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    return func.getArgAttr(arg.getArgNumber(), "llvm.noalias") != nullptr;
  };
  return isFunctionArgument(a) && isFunctionArgument(b) &&
         !promisesNoAlias(a) && !promisesNoAlias(b);
}

bool UnknownTermsTable::Less::operator()(const UnknownTerms &a,
                                         const UnknownTerms &b) const {
  auto key = [](const std::pair<Value, int64_t> &term) {
    return std::make_pair(term.first.getAsOpaquePointer(), term.second);
  };
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(),
      [&](const auto &x, const auto &y) { return key(x) < key(y); });
}

unsigned UnknownTermsTable::numberOf(const UnknownTerms &terms) {
  if (terms.empty())
    return 0;
  // Numbers only tell lists apart: the map's order never reaches the output.
  return numbers.try_emplace(terms, numbers.size() + 1).first->second;
}

namespace {

/// An index the walk computed: a constant plus unknown terms (UnknownTerms,
/// per unit of index here, not per byte).
struct IndexSum {
  int64_t constant = 0;
  UnknownTerms unknown;
  void add(const IndexSum &other, int64_t scale) {
    constant += scale * other.constant;
    // A named pair, not a structured binding: C++17 lambdas cannot capture
    // one (clang-14, which builds the fuzz targets, rejects it).
    for (const auto &term : other.unknown) {
      auto it = llvm::find_if(
          unknown, [&](auto &u) { return u.first == term.first; });
      if (it != unknown.end())
        it->second += scale * term.second;
      else
        unknown.push_back({term.first, scale * term.second});
    }
    llvm::erase_if(unknown, [](auto &u) { return u.second == 0; });
  }
};

/// The value of the index `value` in `iterations`: constants, arith sums,
/// differences, products by a constant and index casts, an scf.for
/// induction variable (its lower bound plus the iteration times its
/// constant step) and, as unknown terms, index values of the function's
/// entry block. None for anything else (a loaded value, a while argument).
std::optional<IndexSum> evaluateIndex(Value value,
                                      const LoopIterations &iterations,
                                      int depth = 0) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return IndexSum{constant.getSExtValue(), {}};
  if (depth > 16)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      auto it = iterations.find(value);
      APInt step;
      if (value != loop.getInductionVar() || it == iterations.end() ||
          it->second < 0 || !matchPattern(loop.getStep(), m_ConstantInt(&step)))
        return std::nullopt;
      std::optional<IndexSum> lower =
          evaluateIndex(loop.getLowerBound(), iterations, depth + 1);
      if (lower)
        lower->constant += it->second * step.getSExtValue();
      return lower;
    }
    if (isa<func::FuncOp>(owner) && arg.getOwner()->isEntryBlock() &&
        value.getType().isIndex())
      return IndexSum{0, {{value, 1}}};
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  auto operand = [&](unsigned i) {
    return evaluateIndex(def->getOperand(i), iterations, depth + 1);
  };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<IndexSum> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    if (!isa<arith::MulIOp>(def)) {
      lhs->add(*rhs, isa<arith::AddIOp>(def) ? 1 : -1);
      return lhs;
    }
    if (!lhs->unknown.empty() && !rhs->unknown.empty())
      return std::nullopt;
    IndexSum product;
    if (lhs->unknown.empty())
      product.add(*rhs, lhs->constant);
    else
      product.add(*lhs, rhs->constant);
    return product;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return operand(0);
  if (isa<func::FuncOp>(def->getParentOp()) && value.getType().isIndex())
    return IndexSum{0, {{value, 1}}};
  return std::nullopt;
}

/// The offset in elements of the subview `sub` from `root`, the start of
/// its chain of subviews: each subview's offsets times its source's
/// strides.
std::optional<IndexSum> chainOffset(memref::SubViewOp sub, Value root,
                                    const LoopIterations &iterations) {
  IndexSum total;
  for (Value at = sub; at != root;) {
    auto view = at.getDefiningOp<memref::SubViewOp>();
    SmallVector<int64_t> strides;
    int64_t sourceOffset;
    if (failed(view.getSourceType().getStridesAndOffset(strides, sourceOffset)))
      return std::nullopt;
    for (auto [offset, stride] : llvm::zip(view.getMixedOffsets(), strides)) {
      std::optional<IndexSum> index;
      if (auto attr = dyn_cast<Attribute>(offset))
        index = IndexSum{cast<IntegerAttr>(attr).getInt(), {}};
      else
        index = evaluateIndex(cast<Value>(offset), iterations);
      if (!index || ShapedType::isDynamic(stride))
        return std::nullopt;
      total.add(*index, stride);
    }
    at = view.getSource();
  }
  return total;
}

/// The runs of GM bytes `value` designates, counted from its buffer's first
/// byte: a subview (or chain of them) whose offsets the walk can evaluate
/// in `iterations`, or a constant memref.view, of an identity-layout
/// buffer exactly; anything else the whole buffer.
SmallVector<Bytes, 1> gmRunsOfValue(Value value, Anchor anchor,
                                    const LoopIterations &iterations) {
  Value root = value;
  for (unsigned hops = 0; hops < 256; ++hops) {
    Value source = sourceOfView(root);
    if (!source)
      break;
    root = source;
  }
  if (isChoice(root)) {
    SmallVector<Value> held = heldValues(root);
    SmallVector<Bytes, 1> runs;
    for (Value buffer : held)
      llvm::append_range(runs, gmRunsOfValue(buffer, anchor, iterations));
    if (!held.empty())
      return runs;
  }
  Bytes whole{kGlobalSpace, nullptr, 0, kUnknownGmEnd, root};
  auto rootType = dyn_cast<MemRefType>(root.getType());
  // Its element size is asked once: bytesOf would look it up again.
  int64_t rootElement = rootType && rootType.hasStaticShape() &&
                                rootType.getLayout().isIdentity()
                            ? elementBytesOf(rootType, anchor)
                            : 0;
  bool exact = rootElement > 0;
  if (exact)
    whole.end = rootType.getNumElements() * rootElement;
  if (value == root || !exact)
    return {whole};
  if (auto sub = value.getDefiningOp<memref::SubViewOp>()) {
    Value inner = sub.getSource();
    while (auto next = inner.getDefiningOp<memref::SubViewOp>())
      inner = next.getSource();
    if (inner == root) {
      std::optional<IndexSum> offset = chainOffset(sub, root, iterations);
      if (!offset)
        return {whole};
      Bytes moved = whole;
      UnknownTerms unknown;
      for (auto [term, times] : offset->unknown)
        unknown.push_back({term, times * rootElement});
      llvm::sort(unknown, [](auto &a, auto &b) {
        return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
      });
      moved.unknown = anchor.terms->numberOf(unknown);
      return bytesOfSubview(sub, moved, anchor, offset->constant);
    }
  }
  if (auto view = value.getDefiningOp<memref::ViewOp>()) {
    int64_t element = view.getSource() == root && view.getType().hasStaticShape()
                          ? elementBytesOf(view.getType(), anchor.at(view))
                          : 0;
    std::optional<int64_t> shift;
    if (element > 0 && (shift = constantIntOf(view.getByteShift())))
      return {{kGlobalSpace, nullptr, *shift,
               *shift + view.getType().getNumElements() * element, root}};
  }
  return {whole};
}

} // namespace

/// How a diagnostic names the memory of `bytes`.
std::string verify::memoryName(const Bytes &bytes) {
  if (bytes.space >= 0)
    return stringifyMemorySpace(static_cast<MemorySpace>(bytes.space)).str();
  if (bytes.space == kUnplacedSpace)
    return "an unplaced alloc";
  if (isFunctionArgument(bytes.gm))
    return "GM argument #" +
           std::to_string(cast<BlockArgument>(bytes.gm).getArgNumber());
  if (Operation *def = bytes.gm.getDefiningOp())
    return "the GM buffer of '" + def->getName().getStringRef().str() + "'";
  return "a GM buffer of unknown origin";
}


void verify::countIteration(Operation &op, LoopIterations &iterations) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    iterations[loop.getInductionVar()] = -1;
    return;
  }
  // The first op of its block first (one compare): most ops are not.
  Block *block = op.getBlock();
  if (!block || &op != &block->front())
    return;
  auto loop = dyn_cast_or_null<scf::ForOp>(op.getParentOp());
  if (loop && block == loop.getBody())
    ++iterations[loop.getInductionVar()];
}

Touches verify::touchesOf(Operation *op, const TargetDescription &target,
                          const LoopIterations &iterations,
                          ElementSizes *sizes, OnChipRuns *known,
                          const EffectList *effectsOfOp,
                          UnknownTermsTable *terms) {
  Touches touches;
  // Without a table of the caller's, the numbers compare within this call.
  UnknownTermsTable local;
  Anchor anchor(op, target, sizes, terms ? terms : &local);
  // The runs of an on-chip value depend on the value alone (and the
  // target of the function, which all its ops share).
  auto onChipRuns = [&](Value value) -> std::optional<SmallVector<Bytes, 1>> {
    if (std::optional<MemorySpace> space = dsaplanSpaceOf(value))
      return runsOfValue(value, *space, anchor);
    return std::nullopt;
  };
  auto record = [&](Value value, bool write) {
    std::optional<SmallVector<Bytes, 1>> measured;
    const std::optional<SmallVector<Bytes, 1>> *runs = &measured;
    if (known) {
      auto [it, first] = known->try_emplace(value);
      if (first)
        it->second = onChipRuns(value);
      runs = &it->second;
    } else {
      measured = onChipRuns(value);
    }
    if (*runs) {
      for (const Bytes &run : **runs)
        touches.push_back({run, write});
    } else if (isa<BaseMemRefType>(value.getType())) {
      for (const Bytes &run : gmRunsOfValue(value, anchor, iterations))
        touches.push_back({run, write});
    }
  };
  EffectList instances;
  if (!effectsOfOp) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      for (Value operand : op->getOperands()) {
        record(operand, false);
        record(operand, true);
      }
      return touches;
    }
    effects.getEffects(instances);
    effectsOfOp = &instances;
  }
  for (const MemoryEffects::EffectInstance &instance : *effectsOfOp)
    if (Value value = instance.getValue()) {
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        record(value, false);
      else if (isa<MemoryEffects::Write>(instance.getEffect()))
        record(value, true);
    }
  return touches;
}

/// Whether `op` reads or writes memory the pipes share (a dsaplan space or
/// global memory): its effects say so for a memref operand; an op without
/// effects that is not a view is taken to. Views, casts, dim and metadata
/// ops only name bytes, with or without a pipe.
bool verify::isPlanOnlyOp(Operation *op) {
  return isa<SetFlagOp, WaitFlagOp, PipeBarrierOp, AllocOp, ArenaOp,
             BarrierAllOp, SeparateOp, ColocateOp>(op);
}

bool verify::isMemoryOp(Operation *op, EffectList *kept) {
  if (isPlanOnlyOp(op))
    return false;
  // What the op does to memory first, the kind of op (two trait and
  // interface look-ups) only for an op that touches some: most do not.
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  EffectList instances;
  bool touches;
  if (!effects) {
    touches = !isa<ViewLikeOpInterface>(op) &&
              llvm::any_of(op->getOperands(), [](Value operand) {
                return isa<BaseMemRefType>(operand.getType());
              });
  } else {
    effects.getEffects(instances);
    touches =
        llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
          return e.getValue() &&
                 isa<MemoryEffects::Read, MemoryEffects::Write>(
                     e.getEffect()) &&
                 isa<BaseMemRefType>(e.getValue().getType());
        });
  }
  if (!touches || isa<RegionBranchOpInterface>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (kept && effects)
    *kept = std::move(instances);
  return true;
}

std::optional<Bytes> verify::exactTileBytes(Value value,
                                            const TargetDescription &target) {
  auto space = dsaplanSpaceOf(value);
  Operation *def = value.getDefiningOp();
  if (!space || !def || !isa<AllocOp, memref::ViewOp>(def))
    return std::nullopt;
  if (auto view = dyn_cast<memref::ViewOp>(def))
    if (!isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp()))
      return std::nullopt;
  Bytes bytes = bytesOfValue(value, *space, {def, target});
  if (bytes.space < 0 || bytes.end - bytes.begin == whole(*space, target).end)
    return std::nullopt;
  return bytes;
}

SmallVector<Touch> verify::settledCallTouches(Operation *call, Pipe pipe,
                                              const TargetDescription &target,
                                              UnknownTermsTable &terms) {
  SmallVector<Touch> touches;
  for (Value operand : call->getOperands())
    if (isa<BaseMemRefType>(operand.getType()) && !dsaplanSpaceOf(operand))
      for (const Bytes &run :
           gmRunsOfValue(operand, {call, target, nullptr, &terms},
                         LoopIterations()))
        for (bool write : {false, true})
          touches.push_back({run, write});
  for (MemorySpace space : allMemorySpaces())
    for (bool write : {false, true})
      if (target.canAccess(pipe, space, write))
        touches.push_back({whole(space, target), write});
  return touches;
}
