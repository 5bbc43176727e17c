//===- InsertDebugTest.cpp - The inserter's dumps between its jobs --------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What `-debug-only=dsaplan-insert-sync` prints between the inserter's jobs
// (lib/Sync/Insert/Debug.cpp) is compiled out of release builds, and
// Debian's LLVM has no -debug-only. The printers are checked here instead,
// on the results of the jobs for one loop:
//
//   scf.for %i {
//     memref.copy %g, %a {mte2}        // op 0 of the body (block 0)
//     linalg.exp ins(%a) outs(%a) {v}  // op 1
//   }                                  // the loop is op 4 of the function
//
// MTE2's write must finish before V reads (forward, in the body), and V's
// read before the next iteration's write (around the back edge): a pair
// <mte2 -> v> in the body and a loop pair <v -> mte2>, set after the exp
// (gap 2) and waited before the copy (gap 0).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

constexpr const char *kLoopKernel = R"mlir(
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @k(%g: memref<1024xf32>, %n: index) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    scf.for %i = %c0 to %n step %c1 {
      memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%a : memref<1024xf32, #dsaplan.space<ub>>)
    }
    return
  }
}
)mlir";

/// The inserter's jobs up to the plan, run on `source`'s first function.
class InsertDebugTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, memref::MemRefDialect,
                        scf::SCFDialect, DsaPlanDialect>();
    module = parseSourceString<ModuleOp>(kLoopKernel, &context);
    ASSERT_TRUE(module);
    func = *module->getOps<func::FuncOp>().begin();
    target = TargetDescription::getForOp(func);
    order.emplace(func);
    ASSERT_TRUE(succeeded(collectSyncRequirements(
        func, target, DependencyScope::All, *order, requirements)));
    decisions = coverSyncRequirements(func, *order, requirements);
    relieveIdPressure(target, *order, decisions);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  TargetDescription target;
  std::optional<ProgramOrder> order;
  SyncRequirements requirements;
  SyncDecisions decisions;
};

template <typename Print> std::string printed(Print print) {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

} // namespace

TEST_F(InsertDebugTest, Requirements) {
  std::string text =
      printed([&](raw_ostream &os) { printRequirements(os, requirements); });
  EXPECT_EQ(text, "requirements: 2 accesses, 2 dependencies\n"
                  "  block 0: op 0 (mte2) -> op 1 (v)\n"
                  "  loop @4: op 1 (v) -> op 0 (mte2) around the back edge\n");
}

TEST_F(InsertDebugTest, Decisions) {
  std::string text =
      printed([&](raw_ostream &os) { printDecisions(os, decisions); });
  EXPECT_EQ(text, "decisions:\n"
                  "  block 0: pair <mte2 -> v> set at gap 1, wait at gap 1\n"
                  "  loop @4: pair <v -> mte2> set at gap 2, wait at gap 0\n");
}

TEST_F(InsertDebugTest, Plan) {
  SyncPlan plan = assignEventIds(func, target, *order, decisions, requirements);
  std::string text =
      printed([&](raw_ostream &os) { printPlan(os, *order, plan); });
  EXPECT_EQ(text,
            "plan: 2 pairs (0 set late), 0 barriers, 0 eager\n"
            "  block 0 <v -> mte2> id 0: set at gap 2, wait at gap 0 around "
            "loop @4\n"
            "  block 0 <mte2 -> v> id 0: set at gap 1, wait at gap 1\n");
}
