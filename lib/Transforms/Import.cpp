//===- Import.cpp - memref.alloc in a dsaplan space -> dsaplan.alloc ------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Support/ReportFiles.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANIMPORT
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// Replaces `alloc` (memref.alloc or memref.alloca) by a dsaplan.alloc.
template <typename AllocLikeOp>
LogicalResult importAlloc(AllocLikeOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !alloc.getDynamicSizes().empty() ||
      !alloc.getSymbolOperands().empty())
    return alloc.emitOpError()
           << "allocates " << type
           << " with a dynamic shape; a dsaplan space needs static shapes";
  OpBuilder builder(alloc);
  std::optional<uint64_t> alignment = alloc.getAlignment();
  auto placed = AllocOp::create(
      builder, alloc.getLoc(), type, findName(alloc),
      alignment ? builder.getI64IntegerAttr(*alignment) : IntegerAttr(),
      LiveAttr(), IntegerAttr());
  // Keep other discardable attributes (e.g. pipe hints) on the new op.
  for (NamedAttribute attr : alloc->getDiscardableAttrs())
    if (attr.getName() != "name")
      placed->setAttr(attr.getName(), attr.getValue());
  if (failed(placed.verify()))
    return failure();
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      user->erase();
  alloc.replaceAllUsesWith(placed.getResult());
  alloc.erase();
  return success();
}

struct DsaPlanImportPass
    : public mlir::dsaplan::impl::DsaPlanImportBase<DsaPlanImportPass> {
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          getMemorySpace(op->getResult(0).getType()))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      LogicalResult imported =
          isa<memref::AllocOp>(op) ? importAlloc(cast<memref::AllocOp>(op))
                                   : importAlloc(cast<memref::AllocaOp>(op));
      if (failed(imported))
        return signalPassFailure();
      ++numImported;
    }
  }
};

} // namespace
