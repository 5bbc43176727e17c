//===- Checker.cpp - Independent race check of pipe synchronisation -------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Shares no code with dsaplan-insert-sync: its own byte ranges, its own
// notion of which ops access memory, and a happens-before that follows the
// hardware. Every access gets a sequence number of its pipe; each pipe q
// keeps, for every pipe p, the set of p's sequence numbers known to have
// finished before q's current point:
//
//   set_flag <p -> q>   captures what p has issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own earlier instructions finished for p.
//
// The function is walked path-wise: scf.if along both branches, loops
// unrolled three times and left after zero to three iterations; at a merge a
// sequence number stays known only if it is known on every path that ran it.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Verify/Checker.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <array>
#include <functional>
#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr size_t kNumPipes = 7;
constexpr int kUnrolledIterations = 3;

//===----------------------------------------------------------------------===//
// Sets of sequence numbers, as sorted disjoint closed intervals
//===----------------------------------------------------------------------===//

class SeqSet {
public:
  bool contains(int64_t x) const {
    auto it = std::upper_bound(ranges.begin(), ranges.end(), x,
                               [](int64_t v, const auto &r) { return v < r.first; });
    return it != ranges.begin() && std::prev(it)->second >= x;
  }
  void add(int64_t lo, int64_t hi) {
    // Sequence numbers mostly grow: extend or append at the end.
    if (ranges.empty() || lo > ranges.back().second + 1) {
      if (ranges.empty() || lo > ranges.back().first) {
        ranges.push_back({lo, hi});
        return;
      }
    } else if (lo >= ranges.back().first) {
      ranges.back().second = std::max(ranges.back().second, hi);
      return;
    }
    ranges.push_back({lo, hi});
    normalise();
  }
  void unite(const SeqSet &other) {
    // A linear merge of two sorted lists.
    std::vector<std::pair<int64_t, int64_t>> merged;
    merged.reserve(ranges.size() + other.ranges.size());
    std::merge(ranges.begin(), ranges.end(), other.ranges.begin(),
               other.ranges.end(), std::back_inserter(merged));
    ranges = std::move(merged);
    coalesce();
  }
  SeqSet intersect(const SeqSet &other) const {
    SeqSet out;
    size_t i = 0, j = 0;
    while (i < ranges.size() && j < other.ranges.size()) {
      int64_t lo = std::max(ranges[i].first, other.ranges[j].first);
      int64_t hi = std::min(ranges[i].second, other.ranges[j].second);
      if (lo <= hi)
        out.ranges.push_back({lo, hi});
      (ranges[i].second < other.ranges[j].second ? i : j)++;
    }
    return out;
  }
  SeqSet minus(const SeqSet &other) const {
    // Both lists are sorted and disjoint: one pass over each.
    SeqSet out;
    size_t j = 0;
    for (auto [lo, hi] : ranges) {
      int64_t cursor = lo;
      while (j < other.ranges.size() && other.ranges[j].second < cursor)
        ++j;
      for (size_t k = j; k < other.ranges.size() && other.ranges[k].first <= hi;
           ++k) {
        if (other.ranges[k].first > cursor)
          out.ranges.push_back({cursor, other.ranges[k].first - 1});
        cursor = std::max(cursor, other.ranges[k].second + 1);
      }
      if (cursor <= hi)
        out.ranges.push_back({cursor, hi});
    }
    return out;
  }
  bool operator==(const SeqSet &other) const { return ranges == other.ranges; }

private:
  void normalise() {
    llvm::sort(ranges);
    coalesce();
  }
  /// Merges overlapping or adjacent ranges of a sorted list.
  void coalesce() {
    std::vector<std::pair<int64_t, int64_t>> merged;
    for (auto r : ranges) {
      if (!merged.empty() && r.first <= merged.back().second + 1)
        merged.back().second = std::max(merged.back().second, r.second);
      else
        merged.push_back(r);
    }
    ranges = std::move(merged);
  }
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

using Knowledge = std::array<SeqSet, kNumPipes>;

//===----------------------------------------------------------------------===//
// Byte ranges, computed here and nowhere else
//===----------------------------------------------------------------------===//

/// `Bytes::space` of an unplaced alloc and of global memory.
constexpr int kUnplacedSpace = -1;
constexpr int kGlobalSpace = -2;

/// A place in memory: a space (or an unplaced alloc, or a GM buffer) and a
/// byte range.
struct Bytes {
  int space = 0;                 // MemorySpace, kUnplacedSpace, kGlobalSpace
  Operation *alloc = nullptr;    // the unplaced alloc
  int64_t begin = 0, end = 0;
  Value gm;                      // the GM buffer the range is of
  bool sameMemory(const Bytes &o) const {
    return space == o.space && alloc == o.alloc && gm == o.gm;
  }
};

/// Bytes of one element, as the data layout sizes it (index: 64 bits by
/// default); 0 for a type without a size.
int64_t elementBytesOf(MemRefType type, Operation *anchor) {
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat() && !isa<VectorType, ComplexType>(element))
    return 0;
  return (DataLayout::closest(anchor).getTypeSizeInBits(element) + 7) / 8;
}

int64_t bytesOf(MemRefType type, Operation *anchor) {
  return type.getNumElements() * elementBytesOf(type, anchor);
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
  if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
    return {};
  Value source;
  for (Value operand : def->getOperands())
    if (isa<BaseMemRefType>(operand.getType())) {
      if (source)
        return {};
      source = operand;
    }
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

Bytes whole(MemorySpace space, Operation *anchor) {
  return {static_cast<int>(space), nullptr, 0,
          TargetDescription::getForOp(anchor).getSpace(space).capacity};
}

Bytes bytesOfValue(Value value, MemorySpace space, Operation *anchor);
SmallVector<Bytes, 1> runsOfValue(Value value, MemorySpace space,
                                  Operation *anchor);
SmallVector<Bytes, 1> runsOfSubview(memref::SubViewOp sub, Value root,
                                    MemorySpace space, Operation *anchor);

/// More runs than this and a subview counts as the range from its first
/// byte to its last.
constexpr int64_t kMaxSubviewRuns = 1 << 14;

/// The bytes of a static subview, from the layout of its type: MLIR gives a
/// subview of a tile its offset and strides in elements of that tile, so
/// the runs are the offsets of its rows (or of its elements, when the
/// innermost stride is not 1) in `tile`.
SmallVector<Bytes, 1> bytesOfSubview(memref::SubViewOp sub, const Bytes &tile) {
  MemRefType type = sub.getType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, [](int64_t s) { return ShapedType::isDynamic(s) || s < 0; }))
    return {tile};
  int64_t element = elementBytesOf(type, sub);
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
      runs.push_back({tile.space, tile.alloc, begin, end, tile.gm});
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
runsOfViewOfChoice(Value value, MemorySpace space, Operation *anchor) {
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
    return SmallVector<Bytes, 1>{whole(space, anchor)};
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
                                  Operation *anchor) {
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
    return {whole(space, anchor)};
  SmallVector<Bytes, 1> runs;
  for (Value tile : held)
    llvm::append_range(runs, sub ? runsOfSubview(sub, tile, space, anchor)
                                 : runsOfValue(tile, space, anchor));
  return runs;
}

/// The runs of `sub`, a chain of subviews of `root`.
SmallVector<Bytes, 1> runsOfSubview(memref::SubViewOp sub, Value root,
                                    MemorySpace space, Operation *anchor) {
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
  return bytesOfSubview(sub, tile);
}

/// The range of a value that is not a subview.
Bytes bytesOfValue(Value value, MemorySpace space, Operation *anchor) {
  Operation *def = value.getDefiningOp();
  if (auto alloc = dyn_cast_or_null<AllocOp>(def)) {
    if (std::optional<uint64_t> offset = alloc.getOffset())
      return {static_cast<int>(space), nullptr, static_cast<int64_t>(*offset),
              static_cast<int64_t>(*offset) + alloc.getSizeInBytes()};
    return {kUnplacedSpace, alloc, 0, alloc.getSizeInBytes()};
  }
  if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
    APInt shift;
    if (view.getType().hasStaticShape() &&
        elementBytesOf(view.getType(), view) > 0 &&
        matchPattern(view.getByteShift(), m_ConstantInt(&shift)))
      return {static_cast<int>(space), nullptr, shift.getSExtValue(),
              shift.getSExtValue() + bytesOf(view.getType(), view)};
    return whole(space, anchor);
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
  return whole(space, anchor);
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

/// Two different GM buffers may be one: two arguments the caller may pass
/// the same memory as (unless one of them promises otherwise with
/// `llvm.noalias`), and anything whose origin is unknown here.
bool mayBeSameGm(Value a, Value b) {
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

/// The runs of GM bytes `value` designates, counted from its buffer's first
/// byte: a static subview (or chain of them) or a constant memref.view of an
/// identity-layout buffer exactly, anything else the whole buffer.
SmallVector<Bytes, 1> gmRunsOfValue(Value value, Operation *anchor) {
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
      llvm::append_range(runs, gmRunsOfValue(buffer, anchor));
    if (!held.empty())
      return runs;
  }
  Bytes whole{kGlobalSpace, nullptr, 0, kUnknownGmEnd, root};
  auto rootType = dyn_cast<MemRefType>(root.getType());
  bool exact = rootType && rootType.hasStaticShape() &&
               rootType.getLayout().isIdentity() &&
               elementBytesOf(rootType, anchor) > 0;
  if (exact)
    whole.end = bytesOf(rootType, anchor);
  if (value == root || !exact)
    return {whole};
  if (auto sub = value.getDefiningOp<memref::SubViewOp>()) {
    Value inner = sub.getSource();
    while (auto next = inner.getDefiningOp<memref::SubViewOp>())
      inner = next.getSource();
    if (inner == root)
      return bytesOfSubview(sub, whole);
  }
  if (auto view = value.getDefiningOp<memref::ViewOp>()) {
    APInt shift;
    if (view.getSource() == root && view.getType().hasStaticShape() &&
        elementBytesOf(view.getType(), view) > 0 &&
        matchPattern(view.getByteShift(), m_ConstantInt(&shift)))
      return {{kGlobalSpace, nullptr, shift.getSExtValue(),
               shift.getSExtValue() + bytesOf(view.getType(), view), root}};
  }
  return {whole};
}

/// How a diagnostic names the memory of `bytes`.
std::string memoryName(const Bytes &bytes) {
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

/// The memory an op reads and writes, from its own point of view.
struct Touch {
  Bytes bytes;
  bool write;
};

SmallVector<Touch> touchesOf(Operation *op) {
  SmallVector<Touch> touches;
  auto record = [&](Value value, bool write) {
    if (std::optional<MemorySpace> space = dsaplanSpaceOf(value)) {
      for (const Bytes &run : runsOfValue(value, *space, op))
        touches.push_back({run, write});
    } else if (isa<BaseMemRefType>(value.getType())) {
      for (const Bytes &run : gmRunsOfValue(value, op))
        touches.push_back({run, write});
    }
  };
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) {
    for (Value operand : op->getOperands()) {
      record(operand, false);
      record(operand, true);
    }
    return touches;
  }
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances)
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
bool isMemoryOp(Operation *op) {
  if (isa<AllocOp, ArenaOp, SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp,
          SeparateOp, ColocateOp, RegionBranchOpInterface>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) {
    if (isa<ViewLikeOpInterface>(op))
      return false;
    return llvm::any_of(op->getOperands(), [](Value operand) {
      return isa<BaseMemRefType>(operand.getType());
    });
  }
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return e.getValue() &&
           isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()) &&
           isa<BaseMemRefType>(e.getValue().getType());
  });
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

struct Access {
  Operation *op;
  Pipe pipe;
  int64_t seq;
  Touch touch;
  /// The cores the op may run on (a CoreMask).
  unsigned cores = kBothCores;
  /// What tells two accesses apart: one execution of an op (its pipe and
  /// sequence number), the kind, and the bytes.
  using Key = std::tuple<int64_t, int, Operation *, int64_t, int64_t>;
  Key key() const {
    return {(seq * static_cast<int64_t>(kNumPipes) +
             static_cast<int64_t>(pipe)) * 2 + touch.write,
            touch.bytes.space, touch.bytes.alloc, touch.bytes.begin,
            touch.bytes.end};
  }
  bool operator==(const Access &o) const { return key() == o.key(); }
};

struct FlagState {
  Knowledge knowledge;
  Operation *setOp;
  bool operator==(const FlagState &o) const {
    return knowledge == o.knowledge;
  }
};

using FlagKey = std::tuple<int, int, int64_t>;

/// The accesses a later one may conflict with, filed by 4 KiB page of
/// memory: each page holds the part of each access inside it, so that an
/// access is checked against those that share a page with it and not
/// against all that ever ran. Pages are shared between the copies a branch
/// or a loop makes of the state and copied when one of them changes, since
/// most pages do not.
class History {
public:
  /// Calls `fn` on every access that overlaps `bytes`, once per page, with
  /// the overlap inside that page.
  void forEachOverlapping(
      const Bytes &bytes,
      llvm::function_ref<void(const Access &, int64_t, int64_t)> fn) const {
    if (bytes.space == kGlobalSpace)
      return forEachOverlappingGm(bytes, fn);
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      auto it = pages.find({bytes.space, page});
      if (it == pages.end())
        continue;
      for (const Access &earlier : *it->second) {
        const Bytes &a = earlier.touch.bytes;
        if (overlap(a, bytes))
          fn(earlier, std::max(a.begin, bytes.begin),
             std::min(a.end, bytes.end));
      }
    }
  }
  /// Cuts `bytes` out of the accesses for which `shadowed` holds.
  void cut(const Bytes &bytes,
           llvm::function_ref<bool(const Access &)> shadowed) {
    auto hit = [&](const Access &earlier) {
      return overlap(earlier.touch.bytes, bytes) && shadowed(earlier);
    };
    if (bytes.space == kGlobalSpace) {
      auto it = gmPages.find(bytes.gm.getAsOpaquePointer());
      if (it != gmPages.end() && llvm::any_of(*it->second, hit))
        cutPage(ownGmPage(bytes.gm), bytes, hit);
      return;
    }
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      auto it = pages.find({bytes.space, page});
      if (it == pages.end() || llvm::none_of(*it->second, hit))
        continue;
      cutPage(ownPage(it->first), bytes, hit);
    }
  }
  void add(const Access &access) {
    const Bytes &bytes = access.touch.bytes;
    if (bytes.space == kGlobalSpace) {
      ownGmPage(bytes.gm).push_back(access);
      return;
    }
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      Access part = access;
      part.touch.bytes.begin = std::max(bytes.begin, page << kPageShift);
      part.touch.bytes.end = std::min(bytes.end, (page + 1) << kPageShift);
      ownPage({bytes.space, page}).push_back(part);
    }
  }
  /// Every access that ran on one of `histories`, once. The histories share
  /// the entry state's accesses and mostly differ on a few pages.
  static History unite(ArrayRef<const History *> histories) {
    History united = *histories.front();
    for (const History *history : histories.drop_front()) {
      for (const auto &[key, accesses] : history->pages)
        uniteInto(united.pages, key, accesses,
                  [&, k = key] { return &united.ownPage(k); });
      for (const auto &[key, accesses] : history->gmPages)
        uniteInto(united.gmPages, key, accesses, [&, k = key] {
          return &united.ownGmPage(Value::getFromOpaquePointer(k));
        });
    }
    return united;
  }

private:
  using PageKey = std::pair<int, int64_t>; // space (-1: unplaced), page
  using Page = std::shared_ptr<std::vector<Access>>;

  /// Global memory: one page per buffer, in the order first touched (the
  /// order diagnostics come in), since GM ranges may be unbounded and
  /// buffers that may alias are checked against each other whole.
  void forEachOverlappingGm(
      const Bytes &bytes,
      llvm::function_ref<void(const Access &, int64_t, int64_t)> fn) const {
    for (const auto &[key, accesses] : gmPages) {
      Value gm = Value::getFromOpaquePointer(key);
      if (gm == bytes.gm) {
        for (const Access &earlier : *accesses)
          if (overlap(earlier.touch.bytes, bytes))
            fn(earlier, std::max(earlier.touch.bytes.begin, bytes.begin),
               std::min(earlier.touch.bytes.end, bytes.end));
      } else if (mayBeSameGm(gm, bytes.gm)) {
        // Another buffer that may be this one: its bytes and ours may be
        // any of each other's.
        for (const Access &earlier : *accesses)
          fn(earlier, earlier.touch.bytes.begin, earlier.touch.bytes.end);
      }
    }
  }
  template <typename Map, typename Key, typename Own>
  static void uniteInto(Map &united, const Key &key, const Page &accesses,
                        Own own) {
    auto [it, inserted] = united.try_emplace(key, accesses);
    if (inserted || it->second == accesses || *it->second == *accesses)
      return;
    std::vector<Access> &page = *own();
    llvm::DenseSet<Access::Key> present;
    for (const Access &access : page)
      present.insert(access.key());
    for (const Access &access : *accesses)
      if (present.insert(access.key()).second)
        page.push_back(access);
  }
  /// Cuts `bytes` out of the accesses of `accesses` that `hit` selects.
  static void cutPage(std::vector<Access> &accesses, const Bytes &bytes,
                      llvm::function_ref<bool(const Access &)> hit) {
    std::vector<Access> kept;
    kept.reserve(accesses.size() + 1);
    for (const Access &earlier : accesses) {
      if (!hit(earlier)) {
        kept.push_back(earlier);
        continue;
      }
      const Bytes &a = earlier.touch.bytes;
      if (a.begin < bytes.begin) {
        kept.push_back(earlier);
        kept.back().touch.bytes.end = bytes.begin;
      }
      if (bytes.end < a.end) {
        kept.push_back(earlier);
        kept.back().touch.bytes.begin = bytes.end;
      }
    }
    accesses = std::move(kept);
  }
  std::vector<Access> &ownGmPage(Value gm) {
    Page &page = gmPages[gm.getAsOpaquePointer()];
    if (!page)
      page = std::make_shared<std::vector<Access>>();
    else if (page.use_count() > 1)
      page = std::make_shared<std::vector<Access>>(*page);
    return *page;
  }

  /// The page, unshared, to be changed.
  std::vector<Access> &ownPage(PageKey key) {
    Page &page = pages[key];
    if (!page)
      page = std::make_shared<std::vector<Access>>();
    else if (page.use_count() > 1)
      page = std::make_shared<std::vector<Access>>(*page);
    return *page;
  }
  static constexpr int kPageShift = 12;
  static int64_t firstPage(const Bytes &b) { return b.begin >> kPageShift; }
  static int64_t lastPage(const Bytes &b) { return (b.end - 1) >> kPageShift; }
  static bool overlap(const Bytes &a, const Bytes &b) {
    return a.sameMemory(b) && a.begin < b.end && b.begin < a.end;
  }
  llvm::DenseMap<PageKey, Page> pages;
  llvm::MapVector<const void *, Page> gmPages;
};

/// The wait that consumed the latest set of a flag: its sequence numbers on
/// the waiting pipe (one per path that reached here) and one of its ops.
struct Consumer {
  SeqSet waits;
  Operation *waitOp = nullptr;
};

struct PathState {
  Knowledge executed;                       // per pipe
  std::array<Knowledge, kNumPipes> known;   // known[q][p]
  std::map<FlagKey, FlagState> flags;
  std::map<FlagKey, Consumer> consumers;
  History history;
};

class SyncChecker {
public:
  explicit SyncChecker(func::FuncOp func) : func(func) {}
  bool run(unsigned &checked);
  bool checkStructure();

private:
  void walkBlock(Block &block, PathState &state);
  void walkOp(Operation &op, PathState &state);
  void access(Operation *op, Pipe pipe, PathState &state);
  void access(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
              PathState &state);
  /// Reports every earlier access `op`'s touches on `pipe` conflict with
  /// unordered; returns the access's sequence number.
  int64_t checkAccess(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
                      PathState &state);
  /// Files the access in the history, once every check of its op is done.
  void recordAccess(Operation *op, Pipe pipe, int64_t seq,
                    ArrayRef<Touch> touches, PathState &state);
  bool checkOverlap(Operation *op, Pipe pipe);
  void settledCall(CallOpInterface call, PathState &state);
  unsigned coresOfFunction();
  unsigned accessCores(Operation *op, Pipe pipe, ArrayRef<Touch> touches) const;
  PathState merge(ArrayRef<PathState> states, Operation *at);
  void report(const Access &earlier, Operation *later, Pipe pipe,
              const Touch &touch, int64_t begin, int64_t end);
  void reportCrossCore(const Access &earlier, const Access &later);
  bool checkReach(Operation *op, Pipe pipe, ArrayRef<Touch> touches);
  unsigned coresOf(Pipe pipe, ArrayRef<Touch> touches) const;
  void setFlag(SetFlagOp set, PathState &state);
  void waitFlag(WaitFlagOp wait, PathState &state);
  bool needsBarrier(Pipe pipe) const { return pipe != Pipe::s; }

  func::FuncOp func;
  /// Sequence numbers are per pipe (knowledge is per pipe too), so that what
  /// one path ran of a pipe stays a few contiguous ranges.
  std::array<int64_t, kNumPipes> counters{};
  bool failedAny = false;
  unsigned checked = 0;
  std::optional<unsigned> functionCores;
  llvm::DenseSet<std::pair<Operation *, Operation *>> reported;
  llvm::DenseSet<Operation *> reportedFlags;
  llvm::DenseSet<Operation *> reportedOverruns;
};

void SyncChecker::report(const Access &earlier, Operation *later, Pipe pipe,
                         const Touch &touch, int64_t begin, int64_t end) {
  if (!reported.insert({earlier.op, later}).second)
    return;
  failedAny = true;
  const Bytes &a = earlier.touch.bytes;
  const char *kind = earlier.touch.write
                         ? (touch.write ? "write after write" : "read after write")
                         : "write after read";
  InFlightDiagnostic diag =
      later->emitError()
      << "unordered " << kind << ": '" << later->getName() << "' on pipe "
      << stringifyPipe(pipe) << " and '" << earlier.op->getName()
      << "' on pipe " << stringifyPipe(earlier.pipe);
  if (a.sameMemory(touch.bytes))
    diag << " touch bytes [" << begin << ", " << end << ") of "
         << memoryName(a);
  else // two GM buffers that may be one
    diag << " touch bytes [" << touch.bytes.begin << ", " << touch.bytes.end
         << ") of " << memoryName(touch.bytes) << " and [" << a.begin << ", "
         << a.end << ") of " << memoryName(a)
         << ", which may alias (mark an argument llvm.noalias if it cannot)";
  diag.attachNote(earlier.op->getLoc()) << "the earlier access";
}

/// The space a touch is of; none for global memory.
std::optional<MemorySpace> spaceOfTouch(const Touch &touch) {
  if (touch.bytes.space >= 0)
    return static_cast<MemorySpace>(touch.bytes.space);
  if (touch.bytes.space == kUnplacedSpace)
    return cast<AllocOp>(touch.bytes.alloc).getSpace();
  return std::nullopt;
}

/// Every memory the op touches must be one the target lets its pipe reach.
bool SyncChecker::checkReach(Operation *op, Pipe pipe,
                             ArrayRef<Touch> touches) {
  TargetDescription target = TargetDescription::getForOp(op);
  for (const Touch &touch : touches) {
    std::optional<MemorySpace> space = spaceOfTouch(touch);
    // GM reach is not enforced yet (kernels in the tests write GM from V).
    if (!space || target.canAccess(pipe, space, touch.write))
      continue;
    failedAny = true;
    op->emitError() << "'" << op->getName() << "' on pipe "
                    << stringifyPipe(pipe) << " "
                    << (touch.write ? "writes " : "reads ")
                    << (space ? stringifyMemorySpace(*space) : "gm")
                    << ", which " << target.getName() << " pipe "
                    << stringifyPipe(pipe) << " cannot "
                    << (touch.write ? "write" : "read") << " (it "
                    << (touch.write ? "writes " : "reads ")
                    << target.describeReach(pipe, touch.write) << ")";
    return false;
  }
  return true;
}

/// The cores an op may run on: its pipe's, narrowed to the core of every
/// on-chip space it touches.
unsigned SyncChecker::coresOf(Pipe pipe, ArrayRef<Touch> touches) const {
  TargetDescription target = TargetDescription::getForOp(func);
  unsigned cores = target.getPipe(pipe).cores;
  for (const Touch &touch : touches)
    if (std::optional<MemorySpace> space = spaceOfTouch(touch))
      cores &= target.getCore(*space);
  return cores;
}

/// Flags order the pipes of one core: two conflicting accesses on
/// different cores are never ordered here, whatever flags lie between.
void SyncChecker::reportCrossCore(const Access &earlier, const Access &later) {
  if (!reported.insert({earlier.op, later.op}).second)
    return;
  failedAny = true;
  InFlightDiagnostic diag =
      later.op->emitError()
      << "'" << later.op->getName() << "' on pipe " << stringifyPipe(later.pipe)
      << " (" << stringifyCores(later.cores) << " core) and '"
      << earlier.op->getName() << "' on pipe " << stringifyPipe(earlier.pipe)
      << " (" << stringifyCores(earlier.cores) << " core) touch "
      << memoryName(later.touch.bytes)
      << " from different cores: no set_flag/wait_flag orders them";
  diag.attachNote(earlier.op->getLoc()) << "the earlier access";
}

void SyncChecker::access(Operation *op, Pipe pipe, PathState &state) {
  SmallVector<Touch> touches = touchesOf(op);
  if (!checkReach(op, pipe, touches) || !checkOverlap(op, pipe))
    return;
  access(op, pipe, touches, state);
}

/// The bytes of `value` when it is a whole placed tile: a placed
/// dsaplan.alloc, or a static view of an arena. Other values (subviews,
/// block arguments, choices) are only known to lie somewhere.
std::optional<Bytes> exactTileBytes(Value value) {
  auto space = dsaplanSpaceOf(value);
  Operation *def = value.getDefiningOp();
  if (!space || !def || !isa<AllocOp, memref::ViewOp>(def))
    return std::nullopt;
  if (auto view = dyn_cast<memref::ViewOp>(def))
    if (!isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp()))
      return std::nullopt;
  Bytes bytes = bytesOfValue(value, *space, def);
  if (bytes.space < 0 || bytes.end - bytes.begin ==
                             whole(*space, def).end)
    return std::nullopt;
  return bytes;
}

/// A vector instruction's source and destination share a start address with
/// the same layout, or are disjoint (Ascend C's address-overlap rule): an
/// op that reads one placed tile and writes another over part of it
/// overwrites inputs before it reads them (an in-place op placed shifted).
///
///   linalg.exp {dsaplan.in_place} ins(%a : [172032, 184320))
///                                 outs(%b : [167936, 180224))
///   // error: a partial overlap
///
/// Checked on the ops marked `dsaplan.in_place`, the only ones whose inputs
/// the placement lets die where their outputs are born; the inputs and
/// outputs of other ops are live together, which the placement validator
/// keeps apart.
bool SyncChecker::checkOverlap(Operation *op, Pipe pipe) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !op->hasAttr(DsaPlanDialect::getInPlaceAttrName()))
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &read : instances) {
    if (!isa<MemoryEffects::Read>(read.getEffect()) || !read.getValue())
      continue;
    std::optional<Bytes> a = exactTileBytes(read.getValue());
    for (const MemoryEffects::EffectInstance &write : instances) {
      if (!a || !isa<MemoryEffects::Write>(write.getEffect()) ||
          !write.getValue())
        continue;
      std::optional<Bytes> b = exactTileBytes(write.getValue());
      if (!b || !a->sameMemory(*b) || a->end <= b->begin ||
          b->end <= a->begin ||
          (a->begin == b->begin &&
           read.getValue().getType() == write.getValue().getType()))
        continue;
      failedAny = true;
      op->emitError() << "'" << op->getName() << "' on pipe "
                      << stringifyPipe(pipe) << " reads bytes [" << a->begin
                      << ", " << a->end << ") of " << memoryName(*a)
                      << " and writes [" << b->begin << ", " << b->end
                      << "): a source and a destination must start at the "
                         "same address with the same layout, or be disjoint";
      return false;
    }
  }
  return true;
}

/// A call that dsaplan-settle-calls drained: its callee is synchronised on
/// its own, so it may run any pipe over any byte and use any flag. Nothing
/// of the caller may be in flight then: no flag raised and not consumed, and
/// every earlier access ordered before each pipe's (a barrier_all before
/// it), every later one after (a barrier_all after it).
void SyncChecker::settledCall(CallOpInterface call, PathState &state) {
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    InFlightDiagnostic diag = call->emitError();
    diag << "settled call with event " << std::get<2>(key) << " of <"
         << stringifyPipe(static_cast<Pipe>(std::get<0>(key))) << " -> "
         << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
         << "> in flight: the callee's own flags may consume it";
    diag.attachNote(flag.setOp->getLoc()) << "the set_flag";
    return;
  }
  TargetDescription target = TargetDescription::getForOp(func);
  unsigned cores = coresOfFunction();
  SmallVector<Touch> gm;
  for (Value operand : call->getOperands())
    if (isa<BaseMemRefType>(operand.getType()) && !dsaplanSpaceOf(operand))
      for (const Bytes &run : gmRunsOfValue(operand, call))
        for (bool write : {false, true})
          gm.push_back({run, write});
  // Every pipe's accesses are checked before any is filed: they are one
  // callee's, which orders them itself.
  std::array<SmallVector<Touch>, kNumPipes> touches;
  std::array<int64_t, kNumPipes> seqs;
  for (size_t p = 0; p < kNumPipes; ++p) {
    Pipe pipe = static_cast<Pipe>(p);
    // The callee runs on its caller's core: only that core's pipes.
    if ((target.getPipe(pipe).cores & cores) == 0)
      continue;
    touches[p] = gm;
    for (MemorySpace space : allMemorySpaces())
      for (bool write : {false, true})
        if (target.canAccess(pipe, space, write))
          touches[p].push_back({whole(space, call), write});
    seqs[p] = checkAccess(call, pipe, touches[p], state);
  }
  for (size_t p = 0; p < kNumPipes; ++p)
    if (target.getPipe(static_cast<Pipe>(p)).cores & cores)
      recordAccess(call, static_cast<Pipe>(p), seqs[p], touches[p], state);
}

/// The cores an access may run on: a settled call's pseudo-accesses stand
/// for a callee on the caller's core, whichever that is.
unsigned SyncChecker::accessCores(Operation *op, Pipe pipe,
                                  ArrayRef<Touch> touches) const {
  if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
    return kBothCores;
  return coresOf(pipe, touches);
}

/// The cores the function's own accesses run on (each op's pipe narrowed by
/// the spaces it touches); both when it has none.
unsigned SyncChecker::coresOfFunction() {
  if (functionCores)
    return *functionCores;
  unsigned cores = kNoCore;
  func.walk([&](Operation *op) {
    if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
      return;
    if (std::optional<Pipe> pipe = getOpPipe(op))
      if (isMemoryOp(op))
        cores |= coresOf(*pipe, touchesOf(op));
  });
  functionCores = cores ? cores : kBothCores;
  return *functionCores;
}

void SyncChecker::access(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
                         PathState &state) {
  int64_t seq = checkAccess(op, pipe, touches, state);
  recordAccess(op, pipe, seq, touches, state);
}

int64_t SyncChecker::checkAccess(Operation *op, Pipe pipe,
                                 ArrayRef<Touch> touches, PathState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  int64_t seq = ++counters[q];
  auto orderedBefore = [&](const Access &earlier) {
    unsigned p = static_cast<unsigned>(earlier.pipe);
    return state.known[q][p].contains(earlier.seq) ||
           (p == q && !needsBarrier(pipe));
  };
  unsigned cores = accessCores(op, pipe, touches);
  for (const Touch &touch : touches) {
    ++checked;
    // One report per earlier op, over the bytes of all its pages.
    llvm::MapVector<Operation *, std::tuple<Access, int64_t, int64_t>> races;
    state.history.forEachOverlapping(
        touch.bytes, [&](const Access &earlier, int64_t lo, int64_t hi) {
          if (!earlier.touch.write && !touch.write)
            return;
          if ((earlier.cores & cores) == 0 && earlier.cores && cores)
            return reportCrossCore(earlier, {op, pipe, seq, touch, cores});
          if (orderedBefore(earlier))
            return;
          auto [it, inserted] = races.try_emplace(earlier.op, earlier, lo, hi);
          if (!inserted) {
            std::get<1>(it->second) = std::min(std::get<1>(it->second), lo);
            std::get<2>(it->second) = std::max(std::get<2>(it->second), hi);
          }
        });
    for (auto &[earlierOp, race] : races)
      report(std::get<0>(race), op, pipe, touch, std::get<1>(race),
             std::get<2>(race));
  }
  return seq;
}

void SyncChecker::recordAccess(Operation *op, Pipe pipe, int64_t seq,
                               ArrayRef<Touch> touches, PathState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  auto orderedBefore = [&](const Access &earlier) {
    unsigned p = static_cast<unsigned>(earlier.pipe);
    return state.known[q][p].contains(earlier.seq) ||
           (p == q && !needsBarrier(pipe));
  };
  unsigned cores = accessCores(op, pipe, touches);
  // The bytes this write covers of an earlier access ordered before it:
  // anything that conflicts with the earlier access there conflicts with
  // this write too, and is ordered after the earlier one if it is ordered
  // after this write (else it is reported against this write). So cut them
  // out, and the history stays the size of the bytes in use.
  for (const Touch &touch : touches)
    if (touch.write)
      state.history.cut(touch.bytes, orderedBefore);
  for (const Touch &touch : touches)
    state.history.add({op, pipe, seq, touch, cores});
  state.executed[q].add(seq, seq);
}

/// A flag is one bit: set_flag raises it once its pipe has finished what it
/// issued before, wait_flag blocks while it is low and lowers it. So a set
/// must be ordered (happens-before, not program text) after the wait that
/// consumed the previous set of the same flag: else both sets can fire
/// before that wait, the second signal is lost and a later wait hangs.
///
///   set_flag <mte2 -> v>, 0     // (1)
///   wait_flag <mte2 -> v>, 0    // V consumes (1)
///   set_flag <mte2 -> v>, 0     // may fire before V reached the wait
///   wait_flag <mte2 -> v>, 0    // hangs if it did
void SyncChecker::setFlag(SetFlagOp set, PathState &state) {
  FlagKey key{static_cast<int>(set.getSrc()), static_cast<int>(set.getDst()),
              set.getEvent()};
  unsigned p = static_cast<unsigned>(set.getSrc());
  auto flagName = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    return diag << "event " << set.getEvent() << " of <"
                << stringifyPipe(set.getSrc()) << " -> "
                << stringifyPipe(set.getDst()) << ">";
  };
  if (state.flags.count(key)) {
    failedAny = true;
    InFlightDiagnostic diag = set.emitError();
    flagName(diag) << " is set again before its wait";
    return;
  }
  auto consumer = state.consumers.find(key);
  if (consumer != state.consumers.end()) {
    unsigned q = static_cast<unsigned>(set.getDst());
    SeqSet unordered = consumer->second.waits.minus(state.known[p][q]);
    if (!(unordered == SeqSet()) &&
        reportedOverruns.insert(set.getOperation()).second) {
      failedAny = true;
      InFlightDiagnostic diag = set.emitError();
      flagName(diag) << " may be set again before the wait that consumes "
                        "its previous set has run (nothing orders this set "
                        "after that wait): the signal would be lost and a "
                        "wait would hang";
      diag.attachNote(consumer->second.waitOp->getLoc())
          << "the wait it is not ordered after";
    }
  }
  FlagState flag{state.known[p], set.getOperation()};
  flag.knowledge[p].unite(state.executed[p]);
  state.flags[key] = flag;
}

/// A wait runs on its pipe like an access (a later set of its flag must know
/// it finished) and hands over what the set captured.
void SyncChecker::waitFlag(WaitFlagOp wait, PathState &state) {
  FlagKey key{static_cast<int>(wait.getSrc()), static_cast<int>(wait.getDst()),
              wait.getEvent()};
  auto it = state.flags.find(key);
  if (it == state.flags.end()) {
    failedAny = true;
    wait.emitError() << "waits for event " << wait.getEvent() << " of <"
                     << stringifyPipe(wait.getSrc()) << " -> "
                     << stringifyPipe(wait.getDst())
                     << "> that no set_flag raised: the pipe would hang";
    return;
  }
  unsigned q = static_cast<unsigned>(wait.getDst());
  for (size_t p = 0; p < kNumPipes; ++p)
    state.known[q][p].unite(it->second.knowledge[p]);
  state.flags.erase(it);
  int64_t seq = ++counters[q];
  state.executed[q].add(seq, seq);
  Consumer &consumer = state.consumers[key];
  consumer.waits = SeqSet();
  consumer.waits.add(seq, seq);
  consumer.waitOp = wait.getOperation();
}

void SyncChecker::walkOp(Operation &op, PathState &state) {
  if (auto set = dyn_cast<SetFlagOp>(op))
    return setFlag(set, state);
  if (auto wait = dyn_cast<WaitFlagOp>(op))
    return waitFlag(wait, state);
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    unsigned p = static_cast<unsigned>(barrier.getPipe());
    state.known[p][p].unite(state.executed[p]);
    return;
  }
  // Every pipe drains: each knows all that every pipe ran before it.
  if (isa<BarrierAllOp>(op)) {
    for (size_t q = 0; q < kNumPipes; ++q)
      for (size_t p = 0; p < kNumPipes; ++p)
        state.known[q][p].unite(state.executed[p]);
    return;
  }
  // scf.if and scf.index_switch run exactly one of their regions (an empty
  // else region runs nothing): each from the state before the op.
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    std::vector<PathState> exits;
    for (Region &region : op.getRegions()) {
      exits.push_back(state);
      if (!region.empty())
        walkBlock(region.front(), exits.back());
    }
    state = merge(exits, &op);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    std::vector<PathState> exits = {state};
    for (int i = 0; i < kUnrolledIterations; ++i) {
      walkBlock(*forOp.getBody(), state);
      exits.push_back(state);
    }
    state = merge(exits, &op);
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    std::vector<PathState> exits;
    for (int i = 0; i < kUnrolledIterations; ++i) {
      walkBlock(whileOp.getBefore().front(), state);
      exits.push_back(state);
      walkBlock(whileOp.getAfter().front(), state);
    }
    state = merge(exits, &op);
    return;
  }
  if (isa<RegionBranchOpInterface>(op)) {
    for (Region &region : op.getRegions())
      for (Block &block : region)
        walkBlock(block, state);
    return;
  }
  if (op.hasAttr(DsaPlanDialect::getSettledAttrName()))
    if (auto call = dyn_cast<CallOpInterface>(op))
      return settledCall(call, state);
  if (!isMemoryOp(&op))
    return;
  if (std::optional<Pipe> pipe = getOpPipe(&op)) {
    access(&op, *pipe, state);
    return;
  }
  failedAny = true;
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
    op.emitError() << "call to "
                   << (callee ? "@" + callee.getLeafReference().getValue().str()
                              : std::string("an indirect callee"))
                   << " passes a dsaplan tile or GM buffer but has no pipe";
    return;
  }
  op.emitError() << "'" << op.getName()
                 << "' touches a dsaplan memory space or global memory but "
                    "has no pipe";
}

void SyncChecker::walkBlock(Block &block, PathState &state) {
  for (Operation &op : block)
    walkOp(op, state);
}

PathState SyncChecker::merge(ArrayRef<PathState> states, Operation *at) {
  PathState merged;
  for (const PathState &s : states)
    for (size_t p = 0; p < kNumPipes; ++p)
      merged.executed[p].unite(s.executed[p]);
  // Known at the merge: known on every path that ran it.
  auto mergeKnowledge = [&](auto knowledgeOf) {
    Knowledge result;
    for (size_t p = 0; p < kNumPipes; ++p) {
      bool first = true;
      for (const PathState &s : states) {
        SeqSet onPath = knowledgeOf(s)[p];
        onPath.unite(merged.executed[p].minus(s.executed[p]));
        result[p] = first ? onPath : result[p].intersect(onPath);
        first = false;
      }
    }
    return result;
  };
  for (size_t q = 0; q < kNumPipes; ++q)
    merged.known[q] =
        mergeKnowledge([&](const PathState &s) -> const Knowledge & { return s.known[q]; });
  // Flags must be balanced: the same ones set on every path.
  for (const PathState &s : states) {
    for (const auto &[key, flag] : s.flags) {
      bool everywhere = llvm::all_of(states, [&, k = key](const PathState &o) {
        return o.flags.count(k) != 0;
      });
      if (!everywhere && reportedFlags.insert(flag.setOp).second) {
        failedAny = true;
        InFlightDiagnostic diag =
            at->emitError()
            << "unbalanced flags: event " << std::get<2>(key) << " of <"
            << stringifyPipe(static_cast<Pipe>(std::get<0>(key))) << " -> "
            << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
            << "> is set on some paths through this op and not on others";
        diag.attachNote(flag.setOp->getLoc()) << "set here";
      }
      if (everywhere && !merged.flags.count(key)) {
        FlagState combined{mergeKnowledge([&, k = key](const PathState &o)
                                              -> const Knowledge & {
                             return o.flags.at(k).knowledge;
                           }),
                           flag.setOp};
        merged.flags[key] = combined;
      }
    }
  }
  // A later set must be ordered after the consumer of every path.
  for (const PathState &s : states)
    for (const auto &[key, consumer] : s.consumers) {
      Consumer &into = merged.consumers[key];
      into.waits.unite(consumer.waits);
      if (!into.waitOp)
        into.waitOp = consumer.waitOp;
    }
  // Every access that may have run stays a candidate.
  SmallVector<const History *> histories;
  for (const PathState &s : states)
    histories.push_back(&s.history);
  merged.history = History::unite(histories);
  return merged;
}

/// Whether the walk above can follow `func`: every region holding an access
/// has one block, and every loop around one is an scf.for or scf.while
/// (unrolled) and every other op with regions runs them in order, once.
/// Anything else is an error here, never a silent pass.
bool SyncChecker::checkStructure() {
  auto holdsAccess = [](Region &region) {
    return region.walk([](Operation *inner) {
                   return isMemoryOp(inner) ? WalkResult::interrupt()
                                            : WalkResult::advance();
                 })
        .wasInterrupted();
  };
  bool ok = true;
  func->walk([&](Operation *op) {
    bool holds = llvm::any_of(op->getRegions(), holdsAccess);
    if (!holds)
      return;
    for (Region &region : op->getRegions())
      if (region.getBlocks().size() > 1 && holdsAccess(region)) {
        ok = false;
        if (op == func.getOperation())
          op->emitError() << "@" << func.getSymName() << ": function body with "
                          << region.getBlocks().size()
                          << " blocks (unstructured control flow) is not "
                             "supported; lift it to scf first";
        else
          op->emitError() << "'" << op->getName() << "' has a region with "
                          << region.getBlocks().size()
                          << " blocks (unstructured control flow), which is "
                             "not supported; lift it to scf first";
        return;
      }
    if (op == func.getOperation() ||
        isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp>(op))
      return;
    if (isa<scf::ForallOp, scf::ParallelOp>(op)) {
      ok = false;
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: its "
                         "iterations may run in any order; use scf.for";
      return;
    }
    auto branch = dyn_cast<RegionBranchOpInterface>(op);
    if (isa<LoopLikeOpInterface>(op) || (branch && branch.hasLoop())) {
      ok = false;
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: only "
                         "scf.for and scf.while loops are modelled; lower it "
                         "to scf.for";
    }
  });
  return ok;
}

bool SyncChecker::run(unsigned &checkedOut) {
  if (func.isExternal())
    return true; // a declaration: nothing runs here
  if (!checkStructure())
    return false;
  PathState state;
  walkBlock(func.getBody().front(), state);
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    flag.setOp->emitError() << "event " << std::get<2>(key) << " of <"
                            << stringifyPipe(static_cast<Pipe>(std::get<0>(key)))
                            << " -> "
                            << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
                            << "> is set and never waited for";
  }
  checkedOut = checked;
  return !failedAny;
}

} // namespace

LogicalResult mlir::dsaplan::verifySync(func::FuncOp func, unsigned &checked) {
  SyncChecker checker(func);
  checked = 0;
  return success(checker.run(checked));
}
