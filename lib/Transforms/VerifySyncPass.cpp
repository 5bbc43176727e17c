//===- VerifySyncPass.cpp - The dsaplan-verify-sync pass ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The pass around lib/Sync/Verify: the checker emits its own diagnostics;
// the pass counts and fails.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Verify/Checker.h"
#include "DsaPlan/Transforms/Passes.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANVERIFYSYNC
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

struct DsaPlanVerifySyncPass
    : public mlir::dsaplan::impl::DsaPlanVerifySyncBase<DsaPlanVerifySyncPass> {
  void runOnOperation() override {
    unsigned checked = 0;
    LogicalResult result = verifySync(getOperation(), checked);
    numChecked += checked;
    if (failed(result))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
