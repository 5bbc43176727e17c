//===- Report.cpp - The syncs of a function as JSON -----------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Report.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/ReportFiles.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// The entry of a sync op, without its location; none for another op.
std::optional<llvm::json::Object> syncEntry(Operation *op) {
  if (auto set = dyn_cast<SetFlagOp>(op))
    return llvm::json::Object{{"op", "set_flag"},
                              {"src", stringifyPipe(set.getSrc())},
                              {"dst", stringifyPipe(set.getDst())},
                              {"event", set.getEvent()}};
  if (auto wait = dyn_cast<WaitFlagOp>(op))
    return llvm::json::Object{{"op", "wait_flag"},
                              {"src", stringifyPipe(wait.getSrc())},
                              {"dst", stringifyPipe(wait.getDst())},
                              {"event", wait.getEvent()}};
  if (auto barrier = dyn_cast<PipeBarrierOp>(op))
    return llvm::json::Object{{"op", "pipe_barrier"},
                              {"pipe", stringifyPipe(barrier.getPipe())}};
  if (isa<BarrierAllOp>(op))
    return llvm::json::Object{{"op", "barrier_all"}};
  return std::nullopt;
}

} // namespace

LogicalResult mlir::dsaplan::writeSyncList(func::FuncOp func, StringRef dir) {
  llvm::json::Array syncs;
  func.walk([&](Operation *op) {
    std::optional<llvm::json::Object> entry = syncEntry(op);
    if (!entry)
      return;
    (*entry)["location"] = locationText(op->getLoc());
    syncs.push_back(std::move(*entry));
  });
  // docs/schemas/syncs.json is the schema of this version.
  llvm::json::Object report{{"schema_version", 1},
                            {"function", func.getSymName()},
                            {"syncs", std::move(syncs)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
  return writeFunctionFile(func, dir, ".syncs.json", text);
}
