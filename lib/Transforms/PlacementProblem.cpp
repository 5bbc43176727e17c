//===- PlacementProblem.cpp - From a function to a solver Problem ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/PlacementProblem.h"
#include "ReportFiles.h"

#include "DsaPlan/Analysis/MemoryAccess.h"

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

solver::Pool makePool(MemorySpace space, const SpaceDescription &desc) {
  solver::Pool pool;
  pool.id = pool.name = stringifyMemorySpace(space).str();
  pool.capacity = desc.capacity;
  pool.alignment = desc.alignment;
  for (ByteRange range : desc.reserved)
    pool.reserved.push_back({range.begin, range.end});
  return pool;
}

class ProblemBuilder {
public:
  ProblemBuilder(const TargetDescription &target) : target(target) {}
  LogicalResult addAlloc(AllocOp alloc);
  LogicalResult addConstraint(Operation *op);
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
  result.problem.pools.push_back(makePool(space, target.getSpace(space)));
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
  return builder.take();
}

namespace {

/// Per allocation of `pp`, the pipes that read or write it (bit per pipe).
SmallVector<uint32_t> pipesPerAlloc(func::FuncOp func,
                                    const PlacementProblem &pp) {
  llvm::DenseMap<Operation *, size_t> indexOf;
  for (size_t index = 0; index < pp.allocs.size(); ++index)
    indexOf[AllocOp(pp.allocs[index]).getOperation()] = index;
  SmallVector<uint32_t> pipes(pp.allocs.size(), 0);
  func.walk([&](Operation *op) {
    std::optional<Pipe> pipe = getOpPipe(op);
    if (!pipe)
      return;
    bool unknownEffects = false;
    for (const MemoryAccess &access : getMemoryAccesses(op, unknownEffects)) {
      Operation *tile = access.region.unplacedAlloc ? access.region.unplacedAlloc
                                                    : access.tile;
      auto it = indexOf.find(tile);
      if (it != indexOf.end())
        pipes[it->second] |= 1u << static_cast<uint32_t>(*pipe);
    }
  });
  return pipes;
}

/// The penalty of reusing bytes between tiles touched by `a` and `b`
/// (pipe masks), or 0.
int64_t penaltyOf(uint32_t a, uint32_t b) {
  if (!a || !b)
    return 0;
  bool onePipe = a == b && llvm::isPowerOf2_32(a);
  if (!onePipe)
    return kCrossPipeReuseCost;
  return a == (1u << static_cast<uint32_t>(Pipe::s)) ? 0 : kSamePipeReuseCost;
}

} // namespace

void mlir::dsaplan::addReusePenalties(func::FuncOp func, PlacementProblem &pp) {
  pp.problem.objective = solver::Objective::ReuseCost;
  SmallVector<uint32_t> pipes = pipesPerAlloc(func, pp);
  const std::vector<solver::Buffer> &buffers = pp.problem.buffers;
  SmallVector<size_t> perPool(pp.problem.pools.size(), 0);
  for (const solver::Buffer &buffer : buffers)
    ++perPool[buffer.pool];
  for (size_t a = 0; a < buffers.size(); ++a)
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      if (buffers[a].pool != buffers[b].pool ||
          perPool[buffers[a].pool] > kMaxPenalisedAllocs ||
          solver::liveRangesOverlap(buffers[a].live, buffers[b].live))
        continue;
      int64_t cost = penaltyOf(pipes[a], pipes[b]);
      if (cost)
        pp.problem.reusePenalties.push_back(
            {a, b, cost,
             cost == kCrossPipeReuseCost ? "cross_pipe" : "generic"});
    }
}
