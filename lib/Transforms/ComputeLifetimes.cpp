//===- ComputeLifetimes.cpp - Attach live ranges to dsaplan.alloc ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Transforms/Passes.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANCOMPUTELIFETIMES
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

struct DsaPlanComputeLifetimesPass
    : public mlir::dsaplan::impl::DsaPlanComputeLifetimesBase<
          DsaPlanComputeLifetimesPass> {
  void runOnOperation() override {
    if (getOperation().isExternal())
      return markAllAnalysesPreserved();
    if (failed(checkSupportedStructure(getOperation())))
      return signalPassFailure();
    const BufferLifetimes &lifetimes = getAnalysis<BufferLifetimes>();
    getOperation().walk([&](AllocOp alloc) {
      alloc.setLiveAttr(lifetimes.getLiveAttr(alloc));
      ++numRanges;
      if (const ConservativeUse *use = lifetimes.getConservativeUse(alloc)) {
        ++numConservative;
        InFlightDiagnostic remark =
            alloc.emitRemark()
            << "'" << alloc.getDisplayName() << "' " << use->reason
            << ": kept live over the whole function";
        remark.attachNote(use->user->getLoc()) << "used here";
      }
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
