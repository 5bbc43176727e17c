//===- TestSyncDependencies.cpp - Print the SyncDependencies analysis -----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// `-test-dsaplan-sync-dependencies`: a remark on every access naming the
// accesses it depends on (by their `test.name` attribute), so that a test
// states the analysis' answer beside the IR:
//
//   memref.copy %gm, %row {test.name = "load"}  // remark: load depends on exp
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SyncDependencies.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

StringRef nameOf(Operation *op) {
  if (auto name = op->getAttrOfType<StringAttr>("test.name"))
    return name.getValue();
  return op->getName().getStringRef();
}

struct TestSyncDependenciesPass
    : public PassWrapper<TestSyncDependenciesPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSyncDependenciesPass)

  StringRef getArgument() const final {
    return "test-dsaplan-sync-dependencies";
  }
  StringRef getDescription() const final {
    return "Remark on each access with the accesses it depends on";
  }

  void runOnOperation() override {
    SmallVector<PipeAccess> accesses;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      std::optional<Pipe> pipe = getOpPipe(op);
      bool unknownEffects = false;
      if (!pipe || op == getOperation())
        return WalkResult::advance();
      SmallVector<MemoryAccess, 4> touched =
          getMemoryAccesses(op, unknownEffects);
      if (touched.empty())
        return WalkResult::advance();
      accesses.push_back({op, *pipe, std::move(touched)});
      return WalkResult::skip();
    });
    std::vector<SyncDependency> dependencies =
        findSyncDependencies(getOperation(), accesses, DependencyScope::All);
    for (size_t i = 0; i < accesses.size(); ++i) {
      std::string text;
      llvm::raw_string_ostream os(text);
      for (const SyncDependency &dep : dependencies) {
        if (dep.later != i)
          continue;
        os << (text.empty() ? "" : ", ") << nameOf(accesses[dep.earlier].op);
        if (dep.loop)
          os << " (previous iteration)";
      }
      accesses[i].op->emitRemark()
          << nameOf(accesses[i].op) << " depends on "
          << (text.empty() ? "nothing" : text);
    }
  }
};

} // namespace

namespace mlir::dsaplan::test {
void registerTestSyncDependenciesPass() {
  PassRegistration<TestSyncDependenciesPass>();
}
} // namespace mlir::dsaplan::test
