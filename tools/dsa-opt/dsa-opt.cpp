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
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

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

/// Sets up the command line's pass pipeline as MlirOptMain does, without
/// the empty `<unknown>:0: error:` line MLIR adds after a refused pass
/// option, e.g. `--dsaplan-insert-sync="mode=bogus"`: the option parser has
/// already printed why on stderr, and Pass::initializeOptions hands the
/// error handler an empty message (stock mlir-opt prints the same line).
mlir::LogicalResult
setupPipelineWithoutEmptyErrors(const mlir::MlirOptMainConfig &clConfig,
                                mlir::PassManager &pm) {
  mlir::ScopedDiagnosticHandler dropEmptyErrors(
      pm.getContext(), [](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        return mlir::success(
            diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
            llvm::isa<mlir::UnknownLoc>(diag.getLocation()) &&
            diag.str().empty());
      });
  return clConfig.setupPassPipeline(pm);
}

/// mlir-opt's driver on the parsed command line, with the pipeline set up
/// by setupPipelineWithoutEmptyErrors.
mlir::LogicalResult runOptMain(llvm::StringRef inputFilename,
                               llvm::StringRef outputFilename,
                               mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig clConfig =
      mlir::MlirOptMainConfig::createFromCLOptions();
  mlir::MlirOptMainConfig config = clConfig;
  config.setPassPipelineSetupFn([clConfig](mlir::PassManager &pm) {
    return setupPipelineWithoutEmptyErrors(clConfig, pm);
  });
  // Listing dialects or passes reads no input (not even stdin).
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::MlirOptMain(llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""),
                             registry, config);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
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
  int numArgs = static_cast<int>(args.size()) - 1;
  char **argData = args.data();
  llvm::InitLLVM initLLVM(numArgs, argData);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      numArgs, argData, "dsaplan optimizer driver\n", registry);
  return mlir::asMainReturnCode(
      runOptMain(inputFilename, outputFilename, registry));
}
