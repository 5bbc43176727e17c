//===- SettleCalls.cpp - Drain the pipes around calls ---------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Each function's syncs are planned on its own, but a core has one set of
// pipes and flags. A call to a function of the module that touches memory
// therefore gets a barrier_all on each side: the callee starts on idle
// pipes with no flag of its caller in flight, and its caller goes on only
// once the callee's accesses have finished.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Analysis/ModuleCalls.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANSETTLECALLS
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// Whether running `func` may touch memory a pipe accesses: an op of its
/// own with a memref operand, or a call of a function that does. Callees
/// come first in `callersFirst` reversed, so their answers are known.
bool touchesMemory(func::FuncOp func,
                   const llvm::DenseMap<Operation *, bool> &calleeTouches) {
  WalkResult result = func.walk([&](Operation *op) {
    if (auto call = dyn_cast<CallOpInterface>(op))
      if (func::FuncOp callee = getCalledFunction(call))
        return calleeTouches.lookup(callee) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    return touchesSyncedMemory(op) ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return result.wasInterrupted();
}

struct DsaPlanSettleCallsPass
    : public mlir::dsaplan::impl::DsaPlanSettleCallsBase<
          DsaPlanSettleCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<ModuleCalls> calls = ModuleCalls::build(getOperation());
    if (failed(calls))
      return signalPassFailure();
    llvm::DenseMap<Operation *, bool> touches;
    for (func::FuncOp func : llvm::reverse(calls->getCallersFirst()))
      touches[func] = !func.isExternal() && touchesMemory(func, touches);
    bool settledAny = false;
    for (func::FuncOp callee : calls->getCallersFirst()) {
      if (!touches.lookup(callee))
        continue;
      for (const CallSite &site : calls->getCallSites(callee))
        settledAny |= settle(site.call);
    }
    // Unchanged: the pass manager need not verify the module again.
    if (!settledAny)
      markAllAnalysesPreserved();
  }

  /// Drains every pipe on both sides of `call`, once; two calls in a row
  /// share the barrier_all between them. Whether it changed anything.
  bool settle(CallOpInterface call) {
    StringRef settled = DsaPlanDialect::getSettledAttrName();
    if (call->hasAttr(settled))
      return false;
    OpBuilder builder(call);
    if (!isa_and_nonnull<BarrierAllOp>(call->getPrevNode()))
      BarrierAllOp::create(builder, call->getLoc());
    builder.setInsertionPointAfter(call);
    if (!isa_and_nonnull<BarrierAllOp>(call->getNextNode()))
      BarrierAllOp::create(builder, call->getLoc());
    call->setAttr(settled, builder.getUnitAttr());
    ++numSettledCalls;
    return true;
  }
};

} // namespace
