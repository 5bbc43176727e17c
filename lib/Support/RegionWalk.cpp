//===- RegionWalk.cpp - How control runs an op's regions ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The questions RegionWalk.h puts to RegionBranchOpInterface, answered once
// for the walker and for the clients that ask them directly.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/RegionWalk.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// Where control may go on entering `branch`.
SmallVector<RegionSuccessor> entrySuccessors(RegionBranchOpInterface branch) {
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  return successors;
}

/// Whether every region of `branch` hands control back to the op and to no
/// other region.
bool regionsOnlyReturn(RegionBranchOpInterface branch) {
  for (Region &region : branch->getRegions()) {
    SmallVector<RegionSuccessor> successors;
    branch.getSuccessorRegions(region, successors);
    if (!llvm::all_of(successors, [](const RegionSuccessor &successor) {
          return successor.isParent();
        }))
      return false;
  }
  return true;
}

/// What the interfaces answer for the structured control flow every
/// kernel is made of, without asking them: the walks ask at every visit of
/// an op, and RegionBranchOpInterface::hasLoop follows the region graph
/// (some 1,500 instructions for an scf.if). Each answer is the one the
/// general path below gives for every op of that kind.
std::optional<ControlKind> knownControlKind(Operation *op) {
  if (isa<scf::ForOp, scf::WhileOp>(op))
    return ControlKind::Loop; // LoopLikeOpInterface
  if (isa<scf::IfOp>(op))
    return ControlKind::OneOf; // then, and else or none; both return
  return std::nullopt;
}

} // namespace

bool mlir::dsaplan::isLoopOp(Operation *op) {
  // Most ops asked have no region: no interface needs asking.
  if (op->getNumRegions() == 0)
    return false;
  if (std::optional<ControlKind> kind = knownControlKind(op))
    return *kind == ControlKind::Loop;
  if (isa<LoopLikeOpInterface>(op))
    return true;
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  return branch && branch.hasLoop();
}

ControlKind mlir::dsaplan::getControlKind(Operation *op) {
  if (op->getNumRegions() == 0)
    return ControlKind::Leaf;
  if (std::optional<ControlKind> kind = knownControlKind(op))
    return *kind;
  if (isLoopOp(op))
    return ControlKind::Loop;
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return ControlKind::Leaf;
  // A choice on entry between regions (or none) that all return: exactly
  // one of them runs.
  if (entrySuccessors(branch).size() > 1 && regionsOnlyReturn(branch))
    return ControlKind::OneOf;
  return ControlKind::Sequence;
}

bool mlir::dsaplan::mayRunNoRegion(Operation *op) {
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return true;
  return llvm::any_of(entrySuccessors(branch),
                      [](const RegionSuccessor &s) { return s.isParent(); });
}
