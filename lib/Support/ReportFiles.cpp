//===- ReportFiles.cpp - Per-function report files ------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/ReportFiles.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

LogicalResult mlir::dsaplan::writeFunctionFile(func::FuncOp func,
                                               StringRef dir,
                                               const Twine &suffix,
                                               const std::string &text) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return func.emitError() << "cannot create the directory '" << dir
                            << "': " << ec.message();
  SmallString<128> path(dir);
  llvm::sys::path::append(path, func.getSymName() + suffix);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return func.emitError() << "cannot write '" << path
                            << "': " << ec.message();
  os << text;
  return success();
}

std::string mlir::dsaplan::reportInstanceName(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  std::string name = module && module.getSymName()
                         ? module.getSymName()->str() + "::"
                         : std::string();
  return name + func.getSymName().str();
}

std::string mlir::dsaplan::locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto named = dyn_cast<NameLoc>(loc))
    return locationText(named.getChildLoc());
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
}

StringAttr mlir::dsaplan::findName(Operation *op) {
  if (auto name = op->getAttrOfType<StringAttr>("name"))
    return name;
  StringAttr found;
  op->getLoc()->walk([&](Location loc) {
    if (auto named = dyn_cast<NameLoc>(loc)) {
      found = named.getName();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}
