//===- SlotRing.cpp - Rotating slots of a loop tile -----------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "SlotRing.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr StringLiteral kBuffersAttr = DsaPlanDialect::getBuffersAttrName();

/// `depth` copies of `alloc` before `loop`, named "<name>.<slot>".
SmallVector<Value> cloneSlots(AllocOp alloc, Operation *loop, int64_t depth) {
  OpBuilder before(loop);
  SmallVector<Value> slots;
  std::string name = alloc.getDisplayName();
  for (int64_t slot = 0; slot < depth; ++slot) {
    auto copy = cast<AllocOp>(before.clone(*alloc));
    copy.setNameAttr(before.getStringAttr(name + "." + std::to_string(slot)));
    slots.push_back(copy);
  }
  return slots;
}

/// The ring: slot argument i takes argument i+1's tile in the next
/// iteration.
SmallVector<Value> nextInRing(ArrayRef<BlockArgument> args) {
  SmallVector<Value> next;
  for (size_t slot = 0; slot < args.size(); ++slot)
    next.push_back(args[(slot + 1) % args.size()]);
  return next;
}

/// Adds `slots` as new iter_args of `loop` that rotate; returns the new
/// loop's first slot argument.
Value rotateThroughFor(scf::ForOp loop, ArrayRef<Value> slots) {
  IRRewriter rewriter(loop->getContext());
  NewYieldValuesFn ring = [&](OpBuilder &, Location,
                              ArrayRef<BlockArgument> args) {
    return nextInRing(args);
  };
  FailureOr<LoopLikeOpInterface> rotated =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, slots,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       ring);
  assert(succeeded(rotated) && "scf.for takes additional yields");
  auto newLoop = cast<scf::ForOp>(rotated->getOperation());
  return newLoop.getRegionIterArgs()[newLoop.getNumRegionIterArgs() -
                                     slots.size()];
}

/// Adds `slots` as new operands of `loop` that the "before" region passes
/// on unchanged and the "do" region yields rotated; returns the first slot
/// argument of `home` (the region the tile was allocated in) in the new
/// loop.
Value rotateThroughWhile(scf::WhileOp loop, Region *home,
                         ArrayRef<Value> slots) {
  bool inBefore = home == &loop.getBefore();
  SmallVector<Value> inits(loop.getInits());
  llvm::append_range(inits, slots);
  SmallVector<Type> types(loop.getResultTypes());
  for (Value slot : slots)
    types.push_back(slot.getType());
  OpBuilder builder(loop);
  auto newLoop = scf::WhileOp::create(builder, loop.getLoc(), types, inits);
  newLoop.getBefore().takeBody(loop.getBefore());
  newLoop.getAfter().takeBody(loop.getAfter());
  auto addSlotArgs = [&](Block *block) {
    SmallVector<BlockArgument> args;
    for (Value slot : slots)
      args.push_back(block->addArgument(slot.getType(), loop.getLoc()));
    return args;
  };
  SmallVector<BlockArgument> beforeArgs = addSlotArgs(newLoop.getBeforeBody());
  SmallVector<BlockArgument> afterArgs = addSlotArgs(newLoop.getAfterBody());
  scf::ConditionOp condition = newLoop.getConditionOp();
  for (BlockArgument arg : beforeArgs)
    condition.getArgsMutable().append(arg);
  scf::YieldOp yield = newLoop.getYieldOp();
  for (Value next : nextInRing(afterArgs))
    yield.getResultsMutable().append(next);
  loop->replaceAllUsesWith(
      newLoop->getResults().take_front(loop->getNumResults()));
  loop.erase();
  return inBefore ? beforeArgs.front() : afterArgs.front();
}

} // namespace

SmallVector<Value> mlir::dsaplan::rotateSlots(AllocOp alloc, Operation *loop,
                                              int64_t depth) {
  alloc->removeAttr(kBuffersAttr);
  if (depth == 1)
    return {};
  SmallVector<Value> slots = cloneSlots(alloc, loop, depth);
  Value first;
  if (auto forLoop = dyn_cast<scf::ForOp>(loop))
    first = rotateThroughFor(forLoop, slots);
  else
    first = rotateThroughWhile(cast<scf::WhileOp>(loop),
                               loop->getRegion(0).isAncestor(
                                   alloc->getParentRegion())
                                   ? &loop->getRegion(0)
                                   : &loop->getRegion(1),
                               slots);
  alloc.getResult().replaceAllUsesWith(first);
  alloc.erase();
  return slots;
}

