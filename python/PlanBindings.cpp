//===- PlanBindings.cpp - dsaplan.plan: the pipeline from Python ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// `_dsaplan.plan(text, filename, options)`: parses a kernel and runs
// `--dsa-plan` on it in process (buildDsaPlanPipeline), with the options
// parsed as dsa-opt parses them. Every diagnostic is returned as data, with
// its location and, for a space that does not fit, its tag (PlanOutcome.h),
// and the exit status dsa-opt would give.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "DsaPlan/Transforms/Pipeline.h"
#include "DsaPlan/Transforms/PlanOutcome.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// A diagnostic as data, recorded while the GIL is released.
struct Record {
  std::string severity, message, file;
  unsigned line = 0, column = 0;
  PlacementFailure failure = PlacementFailure::None;
  std::vector<Record> notes;
};

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

Record record(Diagnostic &diag) {
  Record out;
  out.severity = severityName(diag.getSeverity());
  out.message = diag.str();
  if (auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    out.file = file.getFilename().str();
    out.line = file.getLine();
    out.column = file.getColumn();
  }
  out.failure = getPlacementFailure(diag);
  for (Diagnostic &note : diag.getNotes())
    out.notes.push_back(record(note));
  return out;
}

py::dict toDict(const Record &r) {
  py::dict out;
  out["severity"] = r.severity;
  out["message"] = r.message;
  out["file"] = r.file;
  out["line"] = r.line;
  out["column"] = r.column;
  out["failure"] = r.failure == PlacementFailure::Infeasible ? "infeasible"
                   : r.failure == PlacementFailure::GaveUp   ? "gave-up"
                                                             : "";
  py::list notes;
  for (const Record &note : r.notes)
    notes.append(toDict(note));
  out["notes"] = notes;
  return out;
}

/// The pipeline on `text`: the placed module's text, or nothing on failure.
/// Diagnostics go to `records`, errors are counted in `errors`.
std::optional<std::string> runPipeline(const std::string &text,
                                       const std::string &filename,
                                       const DsaPlanPipelineOptions &options,
                                       std::vector<Record> &records,
                                       PlanErrors &errors) {
  DialectRegistry registry;
  registerDsaPlanDialects(registry);
  // One thread: the caller's; deterministic, and no pool per call.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  // As dsa-opt: an error is its line, not the op it is on in generic form.
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors.count(diag);
    records.push_back(record(diag));
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, filename), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return std::nullopt;
  PassManager pm = PassManager::on<ModuleOp>(&context);
  buildDsaPlanPipeline(pm, options);
  if (failed(pm.run(*module)))
    return std::nullopt;
  std::string placed;
  llvm::raw_string_ostream os(placed);
  module->print(os);
  return placed;
}

py::dict planText(const std::string &text, const std::string &filename,
                  const std::string &optionText) {
  py::dict out;
  DsaPlanPipelineOptions options;
  std::string error;
  if (failed(parseDsaPlanPipelineOptions(optionText, options, error))) {
    out["option_error"] = error;
    out["exit_status"] = static_cast<int>(kPlanError);
    return out;
  }
  std::vector<Record> records;
  PlanErrors errors;
  std::optional<std::string> placed;
  {
    py::gil_scoped_release release;
    placed = runPipeline(text, filename, options, records, errors);
  }
  py::list diagnostics;
  for (const Record &r : records)
    diagnostics.append(toDict(r));
  out["diagnostics"] = diagnostics;
  out["exit_status"] = errors.exitStatus(!placed);
  if (placed)
    out["mlir"] = *placed;
  return out;
}

} // namespace

void ::dsaplan::python::definePlan(py::module_ &module) {
  module.def("plan", &planText, py::arg("text"), py::arg("filename"),
             py::arg("options"),
             "Runs --dsa-plan with `options` (its option text) on the kernel "
             "`text` named `filename`; returns plain data (see dsaplan.plan).");
  module.def(
      "plan_option_names",
      [] {
        std::vector<std::string> names;
        for (const std::string &name : getDsaPlanPipelineOptionNames())
          names.push_back(name);
        return names;
      },
      "The options of --dsa-plan, sorted.");
}
