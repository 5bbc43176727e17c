//===- PlacementProblem.cpp - From a function to a solver Problem ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/PlacementProblem.h"
#include "DsaPlan/Support/ReportFiles.h"

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Analysis/SpacePool.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// The dsaplan.alloc that `value` is a view of, following view-like ops.
AllocOp findRootAlloc(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto alloc = dyn_cast<AllocOp>(def))
      return alloc;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return {};
    value = view.getViewSource();
  }
  return {};
}

class ProblemBuilder {
public:
  ProblemBuilder(const TargetDescription &target) : target(target) {}
  LogicalResult addAlloc(AllocOp alloc);
  LogicalResult addConstraint(Operation *op);
  void addInPlacePair(const InPlacePair &pair);
  /// Colocated buffers share bytes, so they must never be live together.
  LogicalResult checkColocatable(Operation *op, size_t first, size_t second);
  PlacementProblem take() { return std::move(result); }

private:
  size_t poolFor(MemorySpace space);

  const TargetDescription &target;
  PlacementProblem result;
  llvm::DenseMap<Operation *, size_t> bufferIndex;
};

size_t ProblemBuilder::poolFor(MemorySpace space) {
  auto it = llvm::find(result.spaces, space);
  if (it != result.spaces.end())
    return it - result.spaces.begin();
  result.spaces.push_back(space);
  result.problem.pools.push_back(getSpacePool(space, target));
  return result.spaces.size() - 1;
}

LogicalResult ProblemBuilder::addAlloc(AllocOp alloc) {
  LiveAttr live = alloc.getLiveAttr();
  if (!live)
    return alloc.emitOpError()
           << "'" << alloc.getDisplayName()
           << "' has no live range; run dsaplan-compute-lifetimes first";
  solver::Buffer buffer;
  buffer.id = std::to_string(result.allocs.size());
  buffer.name = alloc.getDisplayName();
  buffer.location = locationText(alloc.getLoc());
  buffer.size = alloc.getSizeInBytes();
  buffer.alignment = alloc.getEffectiveAlignment();
  buffer.pool = poolFor(alloc.getSpace());
  for (size_t i = 0, e = live.getNumIntervals(); i < e; ++i)
    buffer.live.push_back({live.getLower(i), live.getUpper(i)});
  if (std::optional<uint64_t> offset = alloc.getOffset())
    buffer.pinnedOffset = static_cast<int64_t>(*offset);
  bufferIndex[alloc] = result.allocs.size();
  result.allocs.push_back(alloc);
  result.problem.buffers.push_back(std::move(buffer));
  return success();
}

LogicalResult ProblemBuilder::checkColocatable(Operation *op, size_t first,
                                               size_t second) {
  const solver::Buffer &a = result.problem.buffers[first];
  const solver::Buffer &b = result.problem.buffers[second];
  if (!solver::liveRangesOverlap(a.live, b.live))
    return success();
  return op->emitOpError()
         << "cannot colocate '" << a.name << "' (live "
         << result.allocs[first].getLiveAttr() << ") and '" << b.name
         << "' (live " << result.allocs[second].getLiveAttr()
         << "): they are live at the same time";
}

LogicalResult ProblemBuilder::addConstraint(Operation *op) {
  SmallVector<size_t> members;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    AllocOp root = findRootAlloc(operand);
    if (!root || !bufferIndex.count(root))
      return op->emitOpError()
             << "operand " << index
             << " is not a dsaplan.alloc of this function or a view of one";
    members.push_back(bufferIndex.lookup(root));
  }
  bool colocate = isa<ColocateOp>(op);
  std::string reason;
  if (auto attr = op->getAttrOfType<StringAttr>("reason"))
    reason = attr.str();
  for (size_t i = 0; i < members.size(); ++i)
    for (size_t j = i + 1; j < members.size(); ++j) {
      if (members[i] == members[j])
        return op->emitOpError() << "operands " << i << " and " << j
                                 << " are views of the same allocation '"
                                 << result.allocs[members[i]].getDisplayName()
                                 << "'";
      if (colocate && failed(checkColocatable(op, members[i], members[j])))
        return failure();
      if (colocate)
        result.problem.colocations.push_back({members[i], members[j]});
      else
        result.problem.separations.push_back({members[i], members[j], reason});
    }
  return success();
}

/// An in-place op's output takes exactly its dying input's offset: the two
/// are colocated when the input's range ends where the output's begins (the
/// lifetimes end the in-place read at the op's read point). Tiles that stay
/// live together are disjoint anyway; so are tiles the user separated, and
/// two that are both pinned keep their pins (the verifier checks them).
///
///   %a: live [5, 7)   linalg.exp {dsaplan.in_place} ins(%a) outs(%b)
///   %b: live [7, 10)  -> colocated: %b starts exactly where %a starts
void ProblemBuilder::addInPlacePair(const InPlacePair &pair) {
  auto input = bufferIndex.find(pair.input);
  auto output = bufferIndex.find(pair.output);
  if (input == bufferIndex.end() || output == bufferIndex.end())
    return;
  size_t a = input->second, b = output->second;
  const std::vector<solver::Buffer> &buffers = result.problem.buffers;
  if (buffers[a].pool != buffers[b].pool ||
      solver::liveRangesOverlap(buffers[a].live, buffers[b].live) ||
      (buffers[a].pinnedOffset && buffers[b].pinnedOffset))
    return;
  for (const solver::Separation &separation : result.problem.separations)
    if ((separation.first == a && separation.second == b) ||
        (separation.first == b && separation.second == a))
      return;
  result.problem.colocations.push_back({a, b});
}

} // namespace

FailureOr<PlacementProblem>
mlir::dsaplan::buildPlacementProblem(func::FuncOp func,
                                     const TargetDescription &target) {
  ProblemBuilder builder(target);
  WalkResult allocs = func.walk([&](AllocOp alloc) {
    return failed(builder.addAlloc(alloc)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  if (allocs.wasInterrupted())
    return failure();
  WalkResult constraints = func.walk([&](Operation *op) {
    if (!isa<SeparateOp, ColocateOp>(op))
      return WalkResult::advance();
    return failed(builder.addConstraint(op)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
  });
  if (constraints.wasInterrupted())
    return failure();
  func.walk([&](Operation *op) {
    if (std::optional<InPlacePair> pair = getInPlacePair(op))
      builder.addInPlacePair(*pair);
  });
  return builder.take();
}

namespace {

/// One kind of access to an allocation: a pipe reading or writing it, and
/// the cycles of the longest such op in the cost model.
struct TileAccess {
  Pipe pipe;
  bool isWrite;
  int64_t cycles;
  /// The target's PipeDescription::needsBarrier of `pipe`.
  bool needsBarrier;
};

/// The cycles the cost model gives `op` on `pipe`: the simulator's rule
/// (a pipe's fixed cost plus the bytes of every memref operand at its rate),
/// or 1, no estimate, when an operand has no static size.
int64_t estimateCycles(Operation *op, Pipe pipe, const CostModel &costs) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    int64_t size = getStaticSizeInBytes(type);
    if (size < 0)
      return 1;
    bytes += size;
  }
  return costs.baseCycles(pipe, bytes);
}

/// Records that `access` (by an op of `cycles`) touches an allocation, once
/// per pipe and direction, keeping the longest op.
void addTileAccess(SmallVectorImpl<TileAccess> &accesses, TileAccess access) {
  for (TileAccess &known : accesses)
    if (known.pipe == access.pipe && known.isWrite == access.isWrite) {
      known.cycles = std::max(known.cycles, access.cycles);
      return;
    }
  accesses.push_back(access);
}

/// Per allocation of `allocs`, how each pipe accesses it (through views,
/// as the sync pass sees it: the same access model).
SmallVector<SmallVector<TileAccess, 4>>
accessesPerAlloc(func::FuncOp func, ArrayRef<AllocOp> allocs,
                 const TargetDescription &target, const CostModel &costs) {
  llvm::DenseMap<Operation *, size_t> indexOf;
  for (size_t index = 0; index < allocs.size(); ++index)
    indexOf[AllocOp(allocs[index]).getOperation()] = index;
  SmallVector<SmallVector<TileAccess, 4>> result(allocs.size());
  func.walk([&](Operation *op) {
    std::optional<Pipe> pipe = getOpPipe(op);
    if (!pipe)
      return;
    int64_t cycles = estimateCycles(op, *pipe, costs);
    bool unknownEffects = false;
    for (const MemoryAccess &access : getMemoryAccesses(op, unknownEffects)) {
      Operation *tile = access.region.unplacedAlloc ? access.region.unplacedAlloc
                                                    : access.tile;
      auto it = indexOf.find(tile);
      if (it != indexOf.end())
        addTileAccess(result[it->second], {*pipe, access.isWrite, cycles,
                                           target.needsBarrier(*pipe)});
    }
  });
  return result;
}

/// A reuse penalty: the cycles of waiting, and whether a flag pair (not
/// only a barrier) orders the reuse.
struct ReuseWait {
  int64_t cycles = 0;
  bool crossPipe = false;
};

/// The wait that placing a tile accessed as `later` over the bytes of an
/// expired tile accessed as `earlier` causes. An access of `later` on
/// another pipe than a conflicting access of `earlier` (one of them writes)
/// waits, through a flag pair, for that op to finish: the wait is the
/// longest such op. Otherwise a pipe that needs one orders the two by a
/// pipe_barrier: kSamePipeReuseCost.
///
///   earlier: MTE2 writes (544 cycles), V reads (264 cycles)
///   later:   MTE2 writes                 -> a flag pair, V's read: 264
ReuseWait reuseWait(ArrayRef<TileAccess> earlier, ArrayRef<TileAccess> later) {
  ReuseWait wait;
  for (const TileAccess &first : earlier)
    for (const TileAccess &second : later) {
      if (!first.isWrite && !second.isWrite)
        continue;
      if (first.pipe != second.pipe) {
        wait.crossPipe = true;
        wait.cycles = std::max(wait.cycles, first.cycles);
      } else if (first.needsBarrier && !wait.crossPipe) {
        wait.cycles = kSamePipeReuseCost;
      }
    }
  return wait;
}

/// Whether one loop's body allocates both `a` and `b`: each iteration's
/// tiles then also follow the previous iteration's, in either order.
bool allocatedInOneLoop(AllocOp a, AllocOp b) {
  for (Operation *parent = a->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isLoopOp(parent) && parent->isProperAncestor(b))
      return true;
  return false;
}

/// The reuse penalty of two allocations never live together: the wait of
/// each order in which one may follow the other on shared bytes, summed.
/// By their live ranges `first` may precede `second`, or `second` `first`
/// (both, when the intervals interleave); one loop's body gives both.
ReuseWait reusePenalty(const solver::Buffer &first, AllocOp firstAlloc,
                       ArrayRef<TileAccess> firstAccesses,
                       const solver::Buffer &second, AllocOp secondAlloc,
                       ArrayRef<TileAccess> secondAccesses) {
  bool bothOrders = allocatedInOneLoop(firstAlloc, secondAlloc);
  bool firstBefore = first.live.back().upper <= second.live.front().lower;
  bool secondBefore = second.live.back().upper <= first.live.front().lower;
  ReuseWait total;
  auto add = [&](ReuseWait wait) {
    total.cycles += wait.cycles;
    total.crossPipe |= wait.crossPipe;
  };
  if (bothOrders || !secondBefore)
    add(reuseWait(firstAccesses, secondAccesses));
  if (bothOrders || !firstBefore)
    add(reuseWait(secondAccesses, firstAccesses));
  return total;
}

} // namespace

void mlir::dsaplan::addReusePenalties(func::FuncOp func, PlacementProblem &pp,
                                      const TargetDescription &target,
                                      const CostModel &costs) {
  pp.problem.objective = solver::Objective::ReuseCost;
  const std::vector<solver::Buffer> &buffers = pp.problem.buffers;
  SmallVector<size_t> perPool(pp.problem.pools.size(), 0);
  for (const solver::Buffer &buffer : buffers)
    ++perPool[buffer.pool];
  if (llvm::all_of(perPool,
                   [](size_t count) {
                     return count == 0 || count > kMaxPenalisedAllocs;
                   }))
    return;
  SmallVector<SmallVector<TileAccess, 4>> accesses =
      accessesPerAlloc(func, pp.allocs, target, costs);
  for (size_t a = 0; a < buffers.size(); ++a) {
    // A pool past the limit gets no penalties: skip its pairs whole, not
    // one by one (10,000 tiles are 50 million pairs).
    if (perPool[buffers[a].pool] > kMaxPenalisedAllocs)
      continue;
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      if (buffers[a].pool != buffers[b].pool ||
          solver::liveRangesOverlap(buffers[a].live, buffers[b].live))
        continue;
      ReuseWait penalty =
          reusePenalty(buffers[a], pp.allocs[a], accesses[a], buffers[b],
                       pp.allocs[b], accesses[b]);
      if (penalty.cycles)
        pp.problem.reusePenalties.push_back(
            {a, b, penalty.cycles,
             penalty.crossPipe ? "cross_pipe" : "generic"});
    }
  }
}

int64_t mlir::dsaplan::getOneSlotWait(func::FuncOp func, AllocOp alloc,
                                      const TargetDescription &target,
                                      const CostModel &costs) {
  SmallVector<SmallVector<TileAccess, 4>> accesses =
      accessesPerAlloc(func, {alloc}, target, costs);
  return reuseWait(accesses.front(), accesses.front()).cycles;
}
