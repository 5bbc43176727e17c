//===- StripForCpu.cpp - Remove the dsaplan dialect for a CPU run ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The first half of the differential-execution check: a dsaplan kernel,
// before or after placement, becomes a module of builtin, func, scf, arith,
// memref and linalg only, which MLIR's standard lowering runs on the CPU.
// Placed tiles stay views of one buffer per space, so two tiles placed at
// overlapping bytes still overwrite each other. That buffer is one
// module-level memref.global per space, shared by every function of the
// module as the core's one UB (L1, ...) is: the arenas of a caller and of
// its callee are the same bytes, so a callee tile placed over a caller tile
// live across the call clobbers it on the CPU as it would on the chip.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANSTRIPFORCPU
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// The namespace of the dialect this pass removes.
constexpr StringLiteral kDialect = "dsaplan";

/// Whether `attr` belongs to the dsaplan dialect.
bool isDsaPlanAttr(Attribute attr) {
  return attr.getDialect().getNamespace() == kDialect;
}

/// `type` without a `#dsaplan.space<...>` memory space, or nullopt when it
/// has none (the replacer then leaves it alone).
std::optional<Type> stripSpace(BaseMemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space || !isa<MemorySpaceAttr>(space))
    return std::nullopt;
  if (auto ranked = dyn_cast<MemRefType>(type))
    return MemRefType::get(ranked.getShape(), ranked.getElementType(),
                           ranked.getLayout(), Attribute());
  return UnrankedMemRefType::get(type.getElementType(), Attribute());
}

/// Replaces `op` (a dsaplan.alloc) by a memref.alloc of the same type and
/// alignment, named `name` if it is set.
void replaceByMemRefAlloc(Operation *op, IntegerAttr alignment,
                          StringAttr name) {
  OpBuilder builder(op);
  auto type = cast<MemRefType>(op->getResult(0).getType());
  auto alloc = memref::AllocOp::create(builder, op->getLoc(), type, alignment);
  if (name)
    alloc->setAttr("name", name);
  op->getResult(0).replaceAllUsesWith(alloc.getResult());
  op->erase();
}

/// The alignment of the module-level buffers, in bytes: at least that of
/// every element type a tile may have, so a view at a placed offset (a
/// multiple of its element size) is aligned for its elements on the CPU.
constexpr int64_t kGlobalAlignment = 64;

/// The name of the buffer of `space` (SymbolTable::insert renames it if a
/// symbol of the module already has it).
std::string globalName(MemorySpace space) {
  return ("__dsaplan_" + stringifyMemorySpace(space)).str();
}

/// Replaces the dsaplan.arena ops of one space under one symbol table by
/// memref.get_global of one zero-initialised, private, mutable
/// memref.global of that space, as large as the largest of them. An arena
/// smaller than the global (a function with a target of its own) is a
/// memref.reinterpret_cast of its first bytes. Returns the global.
memref::GlobalOp replaceByGlobal(Operation *symbolTableOp, MemorySpace space,
                                 ArrayRef<ArenaOp> arenas) {
  ArenaOp first = arenas.front();
  MemRefType largest = first.getResult().getType();
  for (ArenaOp arena : arenas)
    if (arena.getResult().getType().getNumElements() >
        largest.getNumElements())
      largest = arena.getResult().getType();

  // Built unattached, then inserted by the symbol table, which renames it
  // if the name is taken.
  OpBuilder builder(symbolTableOp->getContext());
  auto zeros = DenseElementsAttr::get(
      RankedTensorType::get(largest.getShape(), largest.getElementType()),
      builder.getI8IntegerAttr(0));
  auto global = memref::GlobalOp::create(
      builder, first.getLoc(), globalName(space),
      builder.getStringAttr("private"), largest, zeros,
      /*constant=*/false, builder.getI64IntegerAttr(kGlobalAlignment));
  Block &body = symbolTableOp->getRegion(0).front();
  SymbolTable(symbolTableOp).insert(global, body.begin());

  for (ArenaOp arena : arenas) {
    OpBuilder at(arena);
    Value bytes = memref::GetGlobalOp::create(at, arena.getLoc(), Type(largest),
                                              global.getSymName());
    MemRefType type = arena.getResult().getType();
    if (type != largest)
      bytes = memref::ReinterpretCastOp::create(
          at, arena.getLoc(), type, bytes, /*offset=*/0,
          /*sizes=*/type.getShape(), /*strides=*/ArrayRef<int64_t>{1});
    arena.getResult().replaceAllUsesWith(bytes);
    arena.erase();
  }
  return global;
}

/// Drops every discardable attribute named `dsaplan.*` from `op`.
void dropDsaPlanAttrs(Operation *op) {
  SmallVector<StringAttr> names;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("dsaplan."))
      names.push_back(attr.getName());
  for (StringAttr name : names)
    op->removeDiscardableAttr(name);
}

/// Whether `op` still mentions the dsaplan dialect: as its own dialect, in an
/// attribute, or in the type of a result or of a block argument.
bool mentionsDsaPlan(Operation *op) {
  if (op->getDialect() && op->getDialect()->getNamespace() == kDialect)
    return true;
  bool found = false;
  AttrTypeWalker walker;
  walker.addWalk([&](Attribute attr) {
    if (isDsaPlanAttr(attr))
      found = true;
  });
  walker.walk(op->getAttrDictionary());
  for (Type type : op->getResultTypes())
    walker.walk(type);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        walker.walk(arg.getType());
  return found;
}

struct DsaPlanStripForCpuPass
    : public mlir::dsaplan::impl::DsaPlanStripForCpuBase<
          DsaPlanStripForCpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    eraseAndReplaceOps(module);
    module->walk(dropDsaPlanAttrs);

    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [](BaseMemRefType type) { return stripSpace(type); });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    foldTrivialSpaceCasts(module);

    if (failed(checkNothingLeft(module)) || failed(verify(module)))
      return signalPassFailure();
  }

  /// Erases the sync and constraint ops, turns allocs into memref.alloc and
  /// the arenas of each space into views of one module-level buffer.
  void eraseAndReplaceOps(ModuleOp module) {
    SmallVector<Operation *> ops;
    // Per (symbol table, space), in the order first met: the output does
    // not depend on pointer values.
    llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<ArenaOp>>
        arenas;
    module.walk([&](Operation *op) {
      if (auto arena = dyn_cast<ArenaOp>(op))
        arenas[{SymbolTable::getNearestSymbolTable(op->getParentOp()),
                static_cast<unsigned>(arena.getSpace())}]
            .push_back(arena);
      else if (isa<SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp,
                   CrossCoreSetOp, CrossCoreWaitOp, SeparateOp, ColocateOp,
                   AllocOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto alloc = dyn_cast<AllocOp>(op)) {
        replaceByMemRefAlloc(op, alloc.getAlignmentAttr(), alloc.getNameAttr());
        ++numAllocs;
      } else {
        if (!isa<SeparateOp, ColocateOp>(op))
          ++numErasedSyncs;
        op->erase();
      }
    }
    for (auto &[key, group] : arenas) {
      replaceByGlobal(key.first, static_cast<MemorySpace>(key.second), group);
      numArenas += group.size();
      ++numGlobals;
    }
  }

  /// Replaces every memref.memory_space_cast that no longer changes the
  /// type by its source.
  static void foldTrivialSpaceCasts(ModuleOp module) {
    SmallVector<memref::MemorySpaceCastOp> casts;
    module.walk([&](memref::MemorySpaceCastOp cast) {
      if (cast.getSource().getType() == cast.getType())
        casts.push_back(cast);
    });
    for (memref::MemorySpaceCastOp cast : casts) {
      cast.getResult().replaceAllUsesWith(cast.getSource());
      cast.erase();
    }
  }

  /// Reports every op that still mentions the dsaplan dialect.
  static LogicalResult checkNothingLeft(ModuleOp module) {
    LogicalResult result = success();
    module.walk([&](Operation *op) {
      if (!mentionsDsaPlan(op))
        return;
      op->emitOpError()
          << "cannot be made runnable on the CPU: it still uses the dsaplan "
             "dialect after dsaplan-strip-for-cpu";
      result = failure();
    });
    return result;
  }
};

} // namespace
