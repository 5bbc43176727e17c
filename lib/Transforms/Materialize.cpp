//===- Materialize.cpp - Placed allocs -> fixed-offset arena views --------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANMATERIALIZE
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

struct DsaPlanMaterializePass
    : public mlir::dsaplan::impl::DsaPlanMaterializeBase<DsaPlanMaterializePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<AllocOp> allocs;
    func.walk([&](AllocOp alloc) { allocs.push_back(alloc); });
    for (AllocOp alloc : allocs)
      if (!alloc.getOffset()) {
        alloc.emitOpError() << "'" << alloc.getDisplayName()
                            << "' has no offset; run dsaplan-assign-offsets "
                               "first";
        return signalPassFailure();
      }
    SmallVector<Operation *> constraints;
    func.walk([&](Operation *op) {
      if (isa<SeparateOp, ColocateOp>(op))
        constraints.push_back(op);
    });
    for (Operation *op : constraints)
      op->erase();
    if (keepAllocs || allocs.empty())
      return;

    // All arenas first: the rewrite below erases ops, possibly the one the
    // entry builder would insert before.
    TargetDescription target = TargetDescription::getForOp(func);
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    DenseMap<unsigned, Value> arenas;
    for (AllocOp alloc : allocs) {
      MemorySpace space = alloc.getSpace();
      Value &arena = arenas[static_cast<unsigned>(space)];
      if (arena)
        continue;
      int64_t capacity = target.getSpace(space).capacity;
      auto type = MemRefType::get({capacity}, entry.getI8Type(), nullptr,
                                  alloc.getType().getMemorySpace());
      arena = ArenaOp::create(entry, func.getLoc(), type,
                              MemorySpaceAttr::get(&getContext(), space));
      ++numArenas;
    }
    for (AllocOp alloc : allocs) {
      Value arena = arenas.lookup(static_cast<unsigned>(alloc.getSpace()));
      OpBuilder builder(alloc);
      Value offset = arith::ConstantIndexOp::create(builder, alloc.getLoc(),
                                                    *alloc.getOffset());
      // The view carries the tile's name in its location (findName): the
      // sync pictures and diagnostics name it as the allocation was.
      Location loc = alloc.getLoc();
      if (StringAttr name = alloc.getNameAttr())
        loc = NameLoc::get(name, loc);
      auto view = memref::ViewOp::create(builder, loc,
                                         alloc.getType(), arena, offset,
                                         ValueRange());
      alloc.replaceAllUsesWith(view.getResult());
      alloc.erase();
      ++numViews;
    }
  }
};

} // namespace
