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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#ifdef DSAPLAN_INCLUDE_TESTS
namespace mlir::dsaplan::test {
void registerTestDialect(DialectRegistry &registry);
void registerTestSyncDependenciesPass();
} // namespace mlir::dsaplan::test
#endif

int main(int argc, char **argv) {
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
                  mlir::vector::VectorDialect>();
  mlir::dsaplan::registerDsaPlanPasses();
  mlir::dsaplan::registerDsaPlanPipeline();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dsaplan optimizer driver\n", registry));
}
