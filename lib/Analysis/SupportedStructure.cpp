//===- SupportedStructure.cpp - Control flow the analyses model -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

bool isDsaPlanValue(Value value) {
  return getRootMemorySpace(value).has_value();
}

} // namespace

bool mlir::dsaplan::holdsDsaPlanMemory(Region &region) {
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

bool mlir::dsaplan::holdsDsaPlanMemory(Operation *op) {
  return llvm::any_of(op->getRegions(),
                      [](Region &r) { return holdsDsaPlanMemory(r); });
}

namespace {

/// The allocation `value` is a view of, through view-like ops, if any.
Operation *rootAllocation(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<AllocOp, memref::AllocOp, memref::AllocaOp>(def))
      return def;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return nullptr;
    value = view.getViewSource();
  }
  return nullptr;
}

/// A tile allocated in a loop body and passed to the next iteration (the
/// shape one-shot bufferization emits for "keep the previous row"):
///
///   scf.for ... iter_args(%prev = %init) {
///     %cur = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
///     linalg.add ins(%prev, %cur ...) outs(%cur ...)
///     scf.yield %cur
///   }
///
/// One allocation gets one offset, so the next iteration's %cur would sit on
/// the %prev it still reads. It needs two slots that rotate, which
/// dsaplan-rotate-carried makes (in --dsa-plan): refused when that has not
/// run, with the way around it.
bool checkCarriedAllocations(Operation *loop) {
  bool ok = true;
  auto check = [&](Operation *terminator) {
    for (Value operand : terminator->getOperands()) {
      Operation *alloc = rootAllocation(operand);
      if (!alloc || !loop->isProperAncestor(alloc) ||
          !isDsaPlanValue(alloc->getResult(0)))
        continue;
      ok = false;
      InFlightDiagnostic diag =
          alloc->emitError()
          << "a tile allocated in the body of '" << loop->getName()
          << "' is carried to the next iteration: it would share its one "
             "offset with the tile the next iteration allocates while that "
             "iteration still reads it; run dsaplan-rotate-carried (part of "
             "--dsa-plan) to give it rotating slots, or allocate two tiles "
             "before the loop and pass them as iter_args (ping-pong)";
      diag.attachNote(terminator->getLoc()) << "carried here";
    }
  };
  for (Region &region : loop->getRegions())
    for (Block &block : region)
      if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
        check(&block.back());
  return ok;
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
                           "supported; lift it to scf first (dsaplan-lift-control-flow, "
                           "part of --dsa-plan)";
      else
        op->emitError() << "'" << op->getName() << "' has a region with "
                        << blocks
                        << " blocks (unstructured control flow), which is "
                           "not supported; lift it to scf first "
                           "(dsaplan-lift-control-flow, part of --dsa-plan)";
      return;
    }
  };
  checkRegions(function);
  function->walk([&](Operation *op) {
    if (op == function)
      return;
    checkRegions(op);
    if (isa<scf::ForOp, scf::WhileOp>(op) && !checkCarriedAllocations(op))
      ok = false;
    // An op without regions holds no memory in them (and most ops have
    // none: asked first, it spares them isLoopOp's interface look-ups).
    if (op->getNumRegions() == 0 || isa<scf::ForOp, scf::WhileOp>(op) ||
        !isLoopOp(op) || !holdsDsaPlanMemory(op))
      return;
    ok = false;
    if (isa<scf::ForallOp, scf::ParallelOp>(op))
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: its "
                         "iterations may run in any order; run "
                         "dsaplan-lift-control-flow (part of --dsa-plan) to "
                         "run them in order as scf.for, as one core does";
    else
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: only "
                         "scf.for and scf.while loops are modelled; lower it "
                         "to scf.for";
  });
  return success(ok);
}
