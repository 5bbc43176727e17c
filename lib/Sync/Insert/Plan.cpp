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
  // One walk numbers each op before its regions and, after them, records
  // the last position inside it (the positions of an op's subtree follow
  // its own).
  SmallVector<int64_t> open;
  func->walk([&](Operation *op, const WalkStage &stage) {
    if (op == func)
      return;
    if (stage.isBeforeAllRegions()) {
      int64_t at = ops.size();
      preorder[op] = at;
      ops.push_back(op);
      ends.push_back(at);
      open.push_back(at);
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          blockIds[&block] = blocks.size();
          blocks.push_back(&block);
        }
    }
    if (stage.isAfterAllRegions())
      ends[open.pop_back_val()] = ops.size() - 1;
  });
  // The function's own blocks come last: their ids are never compared with
  // those of nested blocks, only looked up.
  for (Block &block : func.getBody()) {
    blockIds[&block] = blocks.size();
    blocks.push_back(&block);
  }
  indices.resize(ops.size());
  for (Block *block : blocks) {
    std::vector<Operation *> &byIndex = blockOps[block];
    for (Operation &op : *block) {
      auto it = preorder.find(&op);
      if (it != preorder.end())
        indices[it->second] = byIndex.size();
      byIndex.push_back(&op);
    }
  }
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
