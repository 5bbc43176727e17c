//===- DialectFuzzer.cpp - libFuzzer target: dsaplan IR text --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the MLIR parser with the dialects dsa-opt
// registers (registerDsaPlanDialects: dsaplan, func, arith, scf, memref, ...)
// and runs the verifier on what parses; a module that verifies then goes
// through `--dsa-plan` with its default options, as `dsa-opt --dsa-plan`
// would run it. Diagnostics are swallowed: an input may be rejected, but
// never crash the parser, the verifier or a pass, nor trip ASan or UBSan.
// Seeded with the .mlir files of test/ and examples/ (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>

namespace {

/// One context for every input: registering and loading the dialects is
/// the dearest part of a run. Threading off: the fuzzer wants one thread.
mlir::MLIRContext &fuzzContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    mlir::dsaplan::registerDsaPlanDialects(registry);
    auto *created = new mlir::MLIRContext(
        registry, mlir::MLIRContext::Threading::DISABLED);
    created->loadAllAvailableDialects();
    return created;
  }();
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &context = fuzzContext();
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  mlir::dsaplan::buildDsaPlanPipeline(pm, mlir::dsaplan::DsaPlanPipelineOptions());
  (void)pm.run(*module);
  return 0;
}
