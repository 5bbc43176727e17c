//===- dsa-opt.cpp - The dsaplan optimizer driver -------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the dsaplan dialect, passes and pipeline, and the dialects
// kernels are written in (registerDsaPlanDialects). Built a second time as
// dsa-opt-test with DSAPLAN_INCLUDE_TESTS: the dsatest dialect and the test
// passes of test/lib, which the lit tests use and users never see.
//
// Unlike mlir-opt: `--help` leads with dsaplan (the rest is behind
// `--help-hidden`), and the exit status says why a run failed, in
// dsa-solve's convention (PlanOutcome.h): 1 when a space does not fit, 2 for
// any other error, 3 when the search gave up.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/Pipeline.h"
#include "DsaPlan/Transforms/PlanOutcome.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <vector>

#ifdef DSAPLAN_INCLUDE_TESTS
namespace mlir::dsaplan::test {
void registerTestDialect(DialectRegistry &registry);
void registerTestSyncDependenciesPass();
void registerTestIncrementalCheckPass();
void registerTestInvalidFlagIdsPass();
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

/// The errors of every run of the pipeline (one per input chunk with
/// --split-input-file), for the exit status.
mlir::dsaplan::PlanErrors &planErrors() {
  static mlir::dsaplan::PlanErrors errors;
  return errors;
}

/// How many chunks reached their pipeline: a chunk that did not (a parse
/// error) failed with errors planErrors never saw.
unsigned &pipelinesSetUp() {
  static unsigned count = 0;
  return count;
}

/// How many chunks MlirOptMain processes: one, or --split-input-file's, as
/// MLIR's own splitting counts them.
unsigned countChunks(const llvm::MemoryBuffer &input, llvm::StringRef marker) {
  if (marker.empty())
    return 1;
  unsigned chunks = 0;
  (void)mlir::splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      [&](std::unique_ptr<llvm::MemoryBuffer>, llvm::raw_ostream &) {
        ++chunks;
        return mlir::success();
      },
      llvm::nulls(), marker, "");
  return chunks;
}

/// Sets up the command line's pass pipeline as MlirOptMain does, with a
/// refused pipeline option said as `dsa-opt: error: ...` rather than at
/// `<unknown>:0`, and without the empty `<unknown>:0: error:` line MLIR adds
/// after a refused pass option, e.g. `--dsaplan-insert-sync="mode=bogus"`:
/// the option parser has already printed why on stderr, and
/// Pass::initializeOptions hands the error handler an empty message (stock
/// mlir-opt prints the same line). Then counts the errors of the run.
mlir::LogicalResult
setupPipelineWithoutEmptyErrors(const mlir::MlirOptMainConfig &clConfig,
                                mlir::PassManager &pm) {
  ++pipelinesSetUp();
  pm.getContext()->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        planErrors().count(diag);
        return mlir::failure(); // for the handlers that print it
      });
  mlir::ScopedDiagnosticHandler setupErrors(
      pm.getContext(), [](mlir::Diagnostic &diag) -> mlir::LogicalResult {
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error ||
            !llvm::isa<mlir::UnknownLoc>(diag.getLocation()))
          return mlir::failure();
        std::string message = diag.str();
        if (!message.empty())
          llvm::errs() << "dsa-opt: error: " << message << "\n";
        return mlir::success();
      });
  return clConfig.setupPassPipeline(pm);
}

/// Creates the missing directories of an output path, as report-dir does.
bool createParentDirectories(llvm::StringRef path, std::string &error) {
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (path == "-" || parent.empty())
    return true;
  if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
    error = ("cannot create the directory '" + parent + "': " + ec.message())
                .str();
    return false;
  }
  return true;
}

/// Lets the printer take the output as verified when the pass manager
/// verifies after each pass (`--verify-each`, on by default), unless the
/// command line says otherwise. The printer otherwise verifies the whole
/// module once more before printing it, to fall back to the generic form
/// should it be invalid; but the parser verified the input and the pass
/// manager verified the result of every pass that changed it, so that run
/// only repeats the last one (on 10k generated allocations, about 0.6 G
/// instructions of 7.8 G, most of it linalg.add's own verifier).
void printWithoutVerifyingAgain(const mlir::MlirOptMainConfig &config) {
  llvm::cl::Option *assumeVerified =
      llvm::cl::getRegisteredOptions().lookup("mlir-print-assume-verified");
  if (!config.shouldVerifyPasses() || !assumeVerified ||
      assumeVerified->getNumOccurrences() != 0)
    return;
  (void)assumeVerified->addOccurrence(/*pos=*/0, assumeVerified->ArgStr,
                                      "true");
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
  printWithoutVerifyingAgain(config);
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
  std::unique_ptr<llvm::ToolOutputFile> output;
  if (createParentDirectories(outputFilename, errorMessage))
    output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  unsigned chunks = countChunks(*input, config.inputSplitMarker());
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config))) {
    if (pipelinesSetUp() < chunks)
      ++planErrors().errors; // a chunk that did not parse
    return mlir::failure();
  }
  output->keep();
  return mlir::success();
}
/// Whether the command line asks for `--help`; `--help-hidden` is LLVM's
/// (every option) and left to it.
bool wantsHelp(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--")
      return false;
    if (arg == "--help" || arg == "-help" || arg == "-h")
      return true;
  }
  return false;
}

/// mlir-opt's options a dsaplan user needs, in the order `--help` lists them.
constexpr llvm::StringLiteral kGeneralOptions[] = {
    "split-input-file", "verify-diagnostics",      "mlir-pass-statistics",
    "mlir-timing",      "mlir-print-ir-after-all", "show-dialects",
    "version"};

/// The passes registered as `dsaplan-*`, sorted: the stages of --dsa-plan
/// and the passes beside it (simulate, strip-for-cpu).
std::vector<std::string> dsaplanPassNames() {
  std::vector<std::string> names;
  for (const auto &entry : llvm::cl::getRegisteredOptions())
    if (entry.first.starts_with("dsaplan-") &&
        mlir::PassInfo::lookup(entry.first))
      names.push_back(entry.first.str());
  llvm::sort(names);
  return names;
}

/// `--help`: dsaplan first (the pipeline with its options, then its passes),
/// a few general options, the exit statuses; everything else (MLIR's and
/// LLVM's 500 lines, each pass's options) is behind `--help-hidden`.
void printHelp(mlir::DialectRegistry &registry) {
  // The options MlirOptMain registers when it parses, to print some here.
  mlir::MlirOptMainConfig::registerCLOptions(registry);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  llvm::raw_ostream &os = llvm::outs();
  const mlir::PassPipelineInfo *pipeline =
      mlir::PassPipelineInfo::lookup("dsa-plan");
  const auto &options = llvm::cl::getRegisteredOptions();
  // LLVM pads each description to this column; it must pass every option
  // (a narrower column underflows the padding).
  size_t descIndent = pipeline->getOptionWidth() + 4;
  for (llvm::StringRef name : kGeneralOptions)
    if (llvm::cl::Option *option = options.lookup(name))
      descIndent = std::max(descIndent, option->getOptionWidth());
  for (const std::string &name : dsaplanPassNames())
    descIndent = std::max(descIndent, name.size() + 6);
  descIndent += 2;
  os << "OVERVIEW: dsaplan optimizer driver: places every on-chip tile of an "
        "Ascend kernel\n"
        "at a fixed offset and synchronises its pipes (docs/README.md)\n\n"
        "USAGE: dsa-opt [options] <input file, - or none for stdin>\n\n"
        "THE PIPELINE:\n";
  pipeline->printHelpStr(2, descIndent);
  os << "\nITS STAGES AND OTHER DSAPLAN PASSES (their options: --help-hidden, "
        "or\ndocs/reference/DsaPlanPasses.md):\n";
  for (const std::string &name : dsaplanPassNames())
    os.indent(2) << "--" << name
                 << std::string(
                        std::max<size_t>(1, descIndent - 4 - name.size()), ' ')
                 << "- " << mlir::PassInfo::lookup(name)->getPassDescription()
                 << "\n";
  os << "\nGENERAL OPTIONS:\n  -o <filename>" << std::string(descIndent - 15, ' ')
     << "- Output filename (default: standard output; missing directories "
        "are created)\n";
  for (llvm::StringRef name : kGeneralOptions)
    if (llvm::cl::Option *option = options.lookup(name))
      option->printOptionInfo(descIndent);
  os << "\nEXIT STATUS:\n"
        "  0  success\n"
        "  1  a space does not fit, proved (the error gives the certificate)\n"
        "  2  any other error: unreadable input, a bad option, a refused "
        "kernel\n"
        "  3  a space does not fit within the search budget, not proved "
        "(raise node-budget)\n\n"
        "Every option (MLIR's and LLVM's): dsa-opt --help-hidden\n";
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
  mlir::dsaplan::test::registerTestIncrementalCheckPass();
  mlir::dsaplan::test::registerTestInvalidFlagIdsPass();
#endif
  mlir::dsaplan::registerDsaPlanDialects(registry);
  mlir::dsaplan::registerDsaPlanPasses();
  mlir::dsaplan::registerDsaPlanPipeline();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  std::vector<char *> args = withShortDiagnostics(argc, argv);
  int numArgs = static_cast<int>(args.size()) - 1;
  char **argData = args.data();
  llvm::InitLLVM initLLVM(numArgs, argData);
  if (wantsHelp(numArgs, argData)) {
    printHelp(registry);
    return 0;
  }
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      numArgs, argData, "dsaplan optimizer driver\n", registry);
  bool failed =
      mlir::failed(runOptMain(inputFilename, outputFilename, registry));
  return planErrors().exitStatus(failed);
}
