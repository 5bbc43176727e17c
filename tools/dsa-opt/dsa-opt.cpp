//===- dsa-opt.cpp - The dsaplan optimizer driver -------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the dsaplan dialect and passes, and the dialects kernels are
// written in: func, scf, memref, arith, cf, linalg, vector, math, affine and
// bufferization; with the tests built,
// also the dsatest dialect and the test passes of test/lib.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"

#include <vector>

#ifdef DSAPLAN_INCLUDE_TESTS
namespace mlir::dsaplan::test {
void registerTestDialect(DialectRegistry &registry);
void registerTestSyncDependenciesPass();
} // namespace mlir::dsaplan::test
#endif

namespace {
/// The arguments with `--mlir-print-op-on-diagnostic=false` first: an error
/// is one line and the source line, not the op (a function or the whole
/// module) in generic form. Given again, the option wins (the last
/// occurrence counts).
std::vector<char *> withShortDiagnostics(int argc, char **argv) {
  static char shortDiagnostics[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  args.insert(args.begin() + 1, shortDiagnostics);
  args.push_back(nullptr);
  return args;
}
} // namespace

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "dsaplan version " << DSAPLAN_VERSION << "\n";
  });
  mlir::DialectRegistry registry;
#ifdef DSAPLAN_INCLUDE_TESTS
  mlir::dsaplan::test::registerTestDialect(registry);
  mlir::dsaplan::test::registerTestSyncDependenciesPass();
#endif
  registry.insert<mlir::dsaplan::DsaPlanDialect, mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::ub::UBDialect, mlir::vector::VectorDialect>();
  mlir::dsaplan::registerDsaPlanPasses();
  mlir::dsaplan::registerDsaPlanPipeline();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  std::vector<char *> args = withShortDiagnostics(argc, argv);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(static_cast<int>(args.size()) - 1, args.data(),
                        "dsaplan optimizer driver\n", registry));
}
