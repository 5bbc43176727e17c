//===- SupportedStructure.cpp - Control flow the analyses model -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

bool isDsaPlanValue(Value value) {
  return getRootMemorySpace(value).has_value();
}

/// Whether anything in `region` names dsaplan memory.
bool holdsDsaPlanMemory(Region &region) {
  for (Block &block : region)
    if (llvm::any_of(block.getArguments(), isDsaPlanValue))
      return true;
  WalkResult found = region.walk([](Operation *op) {
    if (llvm::any_of(op->getOperands(), isDsaPlanValue) ||
        llvm::any_of(op->getResults(), isDsaPlanValue))
      return WalkResult::interrupt();
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        if (llvm::any_of(block.getArguments(), isDsaPlanValue))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

bool holdsDsaPlanMemory(Operation *op) {
  return llvm::any_of(op->getRegions(),
                      [](Region &r) { return holdsDsaPlanMemory(r); });
}

} // namespace

LogicalResult mlir::dsaplan::checkSupportedStructure(Operation *function) {
  bool ok = true;
  auto checkRegions = [&](Operation *op) {
    for (Region &region : op->getRegions()) {
      size_t blocks = region.getBlocks().size();
      if (blocks <= 1 || !holdsDsaPlanMemory(region))
        continue;
      ok = false;
      if (auto function = dyn_cast<FunctionOpInterface>(op))
        op->emitError() << "@" << function.getName() << ": function body with " << blocks
                        << " blocks (unstructured control flow) is not "
                           "supported; lift it to scf first";
      else
        op->emitError() << "'" << op->getName() << "' has a region with "
                        << blocks
                        << " blocks (unstructured control flow), which is "
                           "not supported; lift it to scf first";
      return;
    }
  };
  checkRegions(function);
  function->walk([&](Operation *op) {
    if (op == function)
      return;
    checkRegions(op);
    if (!isLoopOp(op) || isa<scf::ForOp, scf::WhileOp>(op) ||
        !holdsDsaPlanMemory(op))
      return;
    ok = false;
    if (isa<scf::ForallOp, scf::ParallelOp>(op))
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: its "
                         "iterations may run in any order; use scf.for";
    else
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: only "
                         "scf.for and scf.while loops are modelled; lower it "
                         "to scf.for";
  });
  return success(ok);
}
