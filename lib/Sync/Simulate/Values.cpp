//===- Values.cpp - The simulator's integers, views and byte runs ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The ValueEvaluator of Values.h: integers (arith on APInt), views
// (evaluated with this execution's concrete operands), the byte runs a
// view covers, and the values the interpreter does not know yet (seeded
// choices).
//
//===----------------------------------------------------------------------===//

#include "Values.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

/// More contiguous runs than this and an access counts as the range from
/// its first byte to its last.
constexpr int64_t kMaxRuns = 4096;

} // namespace

//===----------------------------------------------------------------------===//
// Values of the scalar unit
//===----------------------------------------------------------------------===//

APInt simulator::makeInt(unsigned width, int64_t value) {
  return APInt(width, static_cast<uint64_t>(value), /*isSigned=*/value < 0,
               /*implicitTrunc=*/true);
}

unsigned simulator::widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

std::optional<int64_t> simulator::elementBytesOf(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

SmallVector<int64_t, 4> simulator::rowMajorStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t, 4> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

View simulator::viewOfType(MemRefType type, int memory) {
  View view;
  view.memory = memory;
  SmallVector<int64_t> strides;
  int64_t offset;
  std::optional<int64_t> bytes = elementBytesOf(type.getElementType());
  if (!bytes || !type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    view.whole = true;
    return view;
  }
  view.elementBytes = *bytes;
  view.offset = offset;
  view.sizes.assign(type.getShape().begin(), type.getShape().end());
  view.strides.assign(strides.begin(), strides.end());
  return view;
}

//===----------------------------------------------------------------------===//
// Byte runs
//===----------------------------------------------------------------------===//

namespace {

/// The dims of `view` that matter: dims of one element dropped, and a dim
/// merged into the one outside it when the two are contiguous.
void collapseDims(const View &view, SmallVectorImpl<int64_t> &sizes,
                  SmallVectorImpl<int64_t> &strides) {
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 1)
      continue;
    if (!sizes.empty() && strides.back() == view.sizes[d] * view.strides[d]) {
      sizes.back() *= view.sizes[d];
      strides.back() = view.strides[d];
      continue;
    }
    sizes.push_back(view.sizes[d]);
    strides.push_back(view.strides[d]);
  }
}

/// Sorts runs and merges those that overlap or touch.
SmallVector<ByteRun, 1> mergeRuns(std::vector<int64_t> &starts, int64_t length) {
  llvm::sort(starts);
  SmallVector<ByteRun, 1> runs;
  for (int64_t start : starts) {
    if (!runs.empty() && start <= runs.back().end)
      runs.back().end = std::max(runs.back().end, start + length);
    else
      runs.push_back({start, start + length});
  }
  return runs;
}


} // namespace

SmallVector<ByteRun, 1> simulator::runsOf(const View &view, int64_t rootBytes) {
  if (view.whole)
    return {{0, rootBytes}};
  if (llvm::is_contained(view.sizes, 0))
    return {};
  SmallVector<int64_t, 4> sizes, strides;
  collapseDims(view, sizes, strides);
  int64_t eb = view.elementBytes;
  int64_t first = view.base + view.offset * eb;
  if (sizes.empty())
    return {{first, first + eb}};
  // Innermost stride 1: whole rows are runs; otherwise single elements.
  bool rows = strides.back() == 1;
  size_t outer = rows ? sizes.size() - 1 : sizes.size();
  int64_t length = (rows ? sizes.back() : 1) * eb;
  int64_t count = 1;
  for (size_t d = 0; d < outer && count <= kMaxRuns; ++d)
    count *= sizes[d];
  if (count > kMaxRuns) {
    int64_t lo = 0, hi = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      lo += std::min<int64_t>(0, (sizes[d] - 1) * strides[d]);
      hi += std::max<int64_t>(0, (sizes[d] - 1) * strides[d]);
    }
    return {{first + lo * eb, first + (hi + 1) * eb}};
  }
  std::vector<int64_t> starts;
  starts.reserve(count);
  SmallVector<int64_t, 4> index(outer, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t at = 0;
    for (size_t d = 0; d < outer; ++d)
      at += index[d] * strides[d];
    starts.push_back(first + at * eb);
    for (size_t d = outer; d-- > 0;) // the next index, last dim fastest
      if (++index[d] < sizes[d])
        break;
      else
        index[d] = 0;
  }
  return mergeRuns(starts, length);
}

//===----------------------------------------------------------------------===//
// The values of this execution
//===----------------------------------------------------------------------===//

LogicalResult
simulator::reportUnsupported(std::vector<SimulationFinding> &findings,
                             Operation *op, const Twine &why) {
  SimulationFinding finding;
  finding.kind = FindingKind::Unsupported;
  finding.op = op;
  finding.message =
      ("cannot simulate '" + op->getName().getStringRef() + "': " + why).str();
  findings.push_back(std::move(finding));
  return failure();
}

const Val &ValueEvaluator::get(Value value) const {
  static const Val unknown;
  auto it = values.find(value);
  return it == values.end() ? unknown : it->second;
}

int64_t ValueEvaluator::intOf(Value value) {
  const Val &val = get(value);
  if (val.kind == Val::Int)
    return val.integer.getSExtValue();
  int64_t chosen = rng.uniform(0, 3);
  unsigned width = widthOf(value.getType());
  set(value, Val::ofInt(makeInt(width ? width : 64, chosen)));
  return chosen;
}

int64_t ValueEvaluator::intOf(OpFoldResult value) {
  if (auto attr = dyn_cast<Attribute>(value))
    return cast<IntegerAttr>(attr).getInt();
  return intOf(cast<Value>(value));
}

/// A fresh choice at every evaluation of an unknown condition: the syncs
/// must be right on every path, as the static passes assume.
bool ValueEvaluator::condOf(Value value) {
  const Val &val = get(value);
  if (val.kind == Val::Int)
    return !val.integer.isZero();
  return rng.coin();
}

int ValueEvaluator::gmMemory(Value root) {
  auto [it, inserted] =
      gmIds.try_emplace(root, kFirstGm + static_cast<int>(gmIds.size()));
  if (inserted) {
    std::string name;
    if (auto arg = dyn_cast<BlockArgument>(root);
        arg && arg.getOwner()->getParentOp() == func)
      name = "gm argument #" + std::to_string(arg.getArgNumber());
    else
      name = "the gm buffer of '" +
             (root.getDefiningOp()
                  ? root.getDefiningOp()->getName().getStringRef().str()
                  : std::string("a block argument")) +
             "'";
    trace.memoryNames[it->second] = name;
  }
  return it->second;
}

//===----------------------------------------------------------------------===//
// Arith
//===----------------------------------------------------------------------===//

std::optional<APInt> ValueEvaluator::evalBinary(Operation &op, const APInt &a,
                                                const APInt &b) {
  using R = std::optional<APInt>;
  bool divByZero = b.isZero();
  bool overflows = a.isMinSignedValue() && b.isAllOnes();
  return TypeSwitch<Operation *, R>(&op)
      .Case([&](arith::AddIOp) -> R { return a + b; })
      .Case([&](arith::SubIOp) -> R { return a - b; })
      .Case([&](arith::MulIOp) -> R { return a * b; })
      .Case([&](arith::DivUIOp) -> R { return divByZero ? R() : a.udiv(b); })
      .Case([&](arith::RemUIOp) -> R { return divByZero ? R() : a.urem(b); })
      .Case([&](arith::DivSIOp) -> R {
        return divByZero || overflows ? R() : a.sdiv(b);
      })
      .Case([&](arith::RemSIOp) -> R {
        return divByZero || overflows ? R() : a.srem(b);
      })
      .Case([&](arith::CeilDivSIOp) -> R {
        return divByZero || overflows
                   ? R()
                   : llvm::APIntOps::RoundingSDiv(a, b, APInt::Rounding::UP);
      })
      .Case([&](arith::FloorDivSIOp) -> R {
        return divByZero || overflows
                   ? R()
                   : llvm::APIntOps::RoundingSDiv(a, b, APInt::Rounding::DOWN);
      })
      .Case([&](arith::CeilDivUIOp) -> R {
        return divByZero ? R()
                         : llvm::APIntOps::RoundingUDiv(a, b, APInt::Rounding::UP);
      })
      .Case([&](arith::MinSIOp) -> R { return llvm::APIntOps::smin(a, b); })
      .Case([&](arith::MaxSIOp) -> R { return llvm::APIntOps::smax(a, b); })
      .Case([&](arith::MinUIOp) -> R { return llvm::APIntOps::umin(a, b); })
      .Case([&](arith::MaxUIOp) -> R { return llvm::APIntOps::umax(a, b); })
      .Case([&](arith::AndIOp) -> R { return a & b; })
      .Case([&](arith::OrIOp) -> R { return a | b; })
      .Case([&](arith::XOrIOp) -> R { return a ^ b; })
      .Case([&](arith::ShLIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.shl(b);
      })
      .Case([&](arith::ShRSIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.ashr(b);
      })
      .Case([&](arith::ShRUIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.lshr(b);
      })
      .Case([&](arith::CmpIOp cmp) -> R {
        return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), a, b));
      })
      .Default([](Operation *) { return R(); });
}

/// Evaluates an arith op on integers; false when `op` is not one. A result
/// whose operands are unknown stays unknown.
bool ValueEvaluator::evalArith(Operation &op) {
  if (!isa_and_nonnull<arith::ArithDialect>(op.getDialect()))
    return false;
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Value chosen = condOf(select.getCondition()) ? select.getTrueValue()
                                                 : select.getFalseValue();
    set(select.getResult(), get(chosen));
    return true;
  }
  if (op.getNumResults() != 1)
    return false;
  Value result = op.getResult(0);
  unsigned width = widthOf(result.getType());
  set(result, Val());
  if (!width)
    return true; // floats and vectors: nothing the scalar unit needs
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
      set(result, Val::ofInt(attr.getValue().zextOrTrunc(width)));
    return true;
  }
  SmallVector<APInt, 2> operands;
  for (Value operand : op.getOperands()) {
    const Val &val = get(operand);
    if (val.kind != Val::Int)
      return true;
    operands.push_back(val.integer);
  }
  std::optional<APInt> value;
  if (operands.size() == 1) {
    const APInt &a = operands[0];
    value = TypeSwitch<Operation *, std::optional<APInt>>(&op)
                .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
                    [&](Operation *) { return a.sextOrTrunc(width); })
                .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
                    [&](Operation *) { return a.zextOrTrunc(width); })
                .Default([](Operation *) { return std::nullopt; });
  } else if (operands.size() == 2 &&
             operands[0].getBitWidth() == operands[1].getBitWidth()) {
    value = evalBinary(op, operands[0], operands[1]);
  }
  if (value)
    set(result, Val::ofInt(*value));
  return true;
}

//===----------------------------------------------------------------------===//
// Views, evaluated with the values of this execution
//===----------------------------------------------------------------------===//

/// The roots: an arena is a whole space; a placed dsaplan.alloc (kept by
/// `keep-allocs`) is its bytes of the space; a GM alloc is a buffer of its
/// own.
LogicalResult ValueEvaluator::evalRoot(Operation &op) {
  auto type = cast<MemRefType>(op.getResult(0).getType());
  if (auto arena = dyn_cast<ArenaOp>(op)) {
    int memory = static_cast<int>(arena.getSpace());
    trace.rootBytes[memory] = type.getNumElements();
    trace.memoryNames[memory] = stringifyMemorySpace(arena.getSpace()).str();
    set(arena.getResult(), Val::ofView(viewOfType(type, memory)));
    return success();
  }
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    if (!alloc.getOffset())
      return unsupported(&op, "the tile has no offset (run "
                              "dsaplan-assign-offsets first)");
    MemorySpace space = alloc.getSpace();
    int memory = static_cast<int>(space);
    trace.rootBytes[memory] = target.getSpace(space).capacity;
    trace.memoryNames[memory] = stringifyMemorySpace(space).str();
    View view = viewOfType(type, memory);
    view.base = static_cast<int64_t>(*alloc.getOffset());
    set(alloc.getResult(), Val::ofView(view));
    return success();
  }
  if (getMemorySpace(type))
    return unsupported(&op, "the tile has no address (run "
                            "dsaplan-materialize first)");
  set(op.getResult(0), Val::ofView(viewOfType(type, gmMemory(op.getResult(0)))));
  return success();
}

LogicalResult ValueEvaluator::evalSubView(memref::SubViewOp op,
                                          const View &source) {
  View view = source;
  view.sizes.clear();
  view.strides.clear();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  SmallVector<OpFoldResult> strides = op.getMixedStrides();
  for (size_t d = 0; d < offsets.size(); ++d) {
    view.offset += intOf(offsets[d]) * source.strides[d];
    if (dropped.test(d))
      continue;
    view.sizes.push_back(intOf(sizes[d]));
    view.strides.push_back(intOf(strides[d]) * source.strides[d]);
  }
  set(op.getResult(), Val::ofView(view));
  return success();
}

/// A view-like op: the view of its result, from its source's view and the
/// concrete operands of this execution.
LogicalResult ValueEvaluator::evalView(Operation &op) {
  auto viewLike = cast<ViewLikeOpInterface>(op);
  const Val &source = get(viewLike.getViewSource());
  Value result = op.getResult(0);
  auto type = dyn_cast<MemRefType>(result.getType());
  if (source.kind != Val::MemRef || !type)
    return unsupported(&op, "its source is not a buffer the simulator can "
                            "follow to an arena or a GM argument");
  View view = source.view;
  if (view.whole) {
    set(result, source);
    return success();
  }
  std::optional<int64_t> element = elementBytesOf(type.getElementType());
  if (!element)
    return unsupported(&op, "an element type of unknown size");
  if (auto sub = dyn_cast<memref::SubViewOp>(op))
    return evalSubView(sub, view);
  if (isa<memref::CastOp, memref::MemorySpaceCastOp>(op)) {
    set(result, source);
    return success();
  }
  auto dynamicSizes = [&](ValueRange operands) {
    SmallVector<int64_t, 4> sizes;
    size_t next = 0;
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size) ? intOf(operands[next++])
                                                  : size);
    return sizes;
  };
  if (auto byteView = dyn_cast<memref::ViewOp>(op)) {
    // memref.view takes a 1-D i8 buffer with the identity layout.
    view.base += view.offset * view.elementBytes + intOf(byteView.getByteShift());
    view.offset = 0;
    view.sizes = dynamicSizes(byteView.getSizes());
    view.strides = rowMajorStrides(view.sizes);
  } else if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(op)) {
    // The source's base pointer, with a layout of its own.
    view.offset = intOf(reinterpret.getMixedOffsets().front());
    view.sizes.clear();
    view.strides.clear();
    for (OpFoldResult size : reinterpret.getMixedSizes())
      view.sizes.push_back(intOf(size));
    for (OpFoldResult stride : reinterpret.getMixedStrides())
      view.strides.push_back(intOf(stride));
  } else if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op)) {
    if (view.strides != rowMajorStrides(view.sizes) || !type.hasStaticShape())
      return unsupported(&op, "a reshape of a non-contiguous or dynamic view");
    view.sizes.assign(type.getShape().begin(), type.getShape().end());
    view.strides = rowMajorStrides(view.sizes);
  } else {
    return unsupported(&op, "a view the simulator cannot follow");
  }
  view.elementBytes = *element;
  set(result, Val::ofView(view));
  return success();
}

/// memref.transpose (no view-like op, but a view): the source's elements,
/// its dimensions permuted, result dimension i being source dimension
/// permutation(i).
LogicalResult ValueEvaluator::evalTranspose(memref::TransposeOp op) {
  const Val &source = get(op.getIn());
  if (source.kind != Val::MemRef)
    return unsupported(op, "its source is not a buffer the simulator can "
                           "follow to an arena or a GM argument");
  if (source.view.whole) {
    set(op.getResult(), source);
    return success();
  }
  View view = source.view;
  AffineMap permutation = op.getPermutation();
  for (unsigned d = 0; d < permutation.getNumResults(); ++d) {
    unsigned from = permutation.getDimPosition(d);
    view.sizes[d] = source.view.sizes[from];
    view.strides[d] = source.view.strides[from];
  }
  set(op.getResult(), Val::ofView(view));
  return success();
}
