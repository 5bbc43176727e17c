//===- Plan.cpp - Program order for dsaplan-insert-sync -------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The numbering every job of dsaplan-insert-sync shares: ops in pre-order,
// blocks in pre-order, ops by index in their block, all fixed before the
// first sync is created (creating ops shifts indices).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

ProgramOrder::ProgramOrder(func::FuncOp func) {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func)
      return;
    preorder[op] = ops.size();
    ops.push_back(op);
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        blockIds[&block] = blocks.size();
        blocks.push_back(&block);
      }
  });
  // The function's own blocks come last: their ids are never compared with
  // those of nested blocks, only looked up.
  for (Block &block : func.getBody()) {
    blockIds[&block] = blocks.size();
    blocks.push_back(&block);
  }
  for (Block *block : blocks) {
    std::vector<Operation *> &byIndex = blockOps[block];
    for (Operation &op : *block) {
      blockIndex[&op] = byIndex.size();
      byIndex.push_back(&op);
    }
  }
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (op == func)
      return;
    int64_t last = preorder.lookup(op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, preorderEnd.lookup(&block.back()));
    preorderEnd[op] = last;
  });
}

double ProgramOrder::linearGap(Block *block, Gap gap) const {
  ArrayRef<Operation *> byIndex = opsOf(block);
  if (gap < byIndex.size())
    return position(byIndex[gap]) - 0.5;
  return endPosition(byIndex.back()) + 0.5;
}

Block *mlir::dsaplan::sync::loopBody(Operation *loop) {
  if (auto whileOp = dyn_cast<scf::WhileOp>(loop))
    return whileOp.getAfterBody();
  return &loop->getRegion(0).front();
}

Operation *mlir::dsaplan::sync::enclosingLoop(Block *block) {
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return op;
  return nullptr;
}

Block *mlir::dsaplan::sync::commonBlock(Operation *a, Operation *b) {
  for (Block *block = a->getBlock(); block;
       block = block->getParentOp() ? block->getParentOp()->getBlock()
                                    : nullptr)
    if (block->findAncestorOpInBlock(*b))
      return block;
  return nullptr;
}
