//===- TestInvalidFlagIds.cpp - Make every flag id out of range -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// `-test-dsaplan-invalid-flag-ids`: sets the event id of every set_flag and
// wait_flag to 1000, past any target's count, so that the function no longer
// verifies. With `--verify-each` (the default) the pass manager rejects the
// result; with `--verify-each=false` dsa-opt's printer must still verify
// it and print it in generic form (dsa-opt lets the printer skip its own
// verification only when the pass manager verified). The lit test
// test/Tools/dsa-opt-printer-verification.mlir runs both.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

struct TestInvalidFlagIdsPass
    : public PassWrapper<TestInvalidFlagIdsPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestInvalidFlagIdsPass)

  StringRef getArgument() const final {
    return "test-dsaplan-invalid-flag-ids";
  }
  StringRef getDescription() const final {
    return "Set every flag's event id out of range (an invalid result)";
  }

  void runOnOperation() override {
    IntegerAttr outOfRange =
        IntegerAttr::get(IntegerType::get(&getContext(), 64), 1000);
    getOperation().walk([&](Operation *op) {
      if (isa<SetFlagOp, WaitFlagOp>(op))
        op->setAttr("event", outOfRange);
    });
  }
};

} // namespace

namespace mlir {
namespace dsaplan {
namespace test {
void registerTestInvalidFlagIdsPass() {
  PassRegistration<TestInvalidFlagIdsPass>();
}
} // namespace test
} // namespace dsaplan
} // namespace mlir
