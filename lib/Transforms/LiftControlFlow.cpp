//===- LiftControlFlow.cpp - Make control flow what the analyses model ---===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The lifetime and sync analyses follow single-block regions, scf.if,
// scf.index_switch and the sequential loops scf.for and scf.while
// (SupportedStructure.h). Two shapes that frontends and `scf` lowering emit
// are turned into those here, in regions that hold dsaplan memory:
//
//   - a region with several blocks (cf.br chains, cf.cond_br diamonds, what
//     scf-to-cf produces) is lifted back to scf.if / scf.index_switch /
//     scf.while by MLIR's CFG-to-SCF transformation;
//
//   - scf.forall and scf.parallel become nested scf.for loops. dsaplan plans
//     the program of one AI core, which runs the iterations one after the
//     other; the loop then says so, and the sync pass orders an iteration's
//     accesses against the next one's over the back edge:
//
//       scf.forall (%i) in (4) { body(%i) }
//       // becomes
//       scf.for %i = %c0 to %c4 step %c1 { body(%i) }
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CFGToSCF.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANLIFTCONTROLFLOW
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// The regions with several blocks that hold dsaplan memory, innermost
/// first (a lifted inner region is one block when its parent is lifted).
SmallVector<Region *> collectUnstructuredRegions(Operation *function) {
  SmallVector<Region *> regions;
  function->walk<WalkOrder::PostOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      if (region.getBlocks().size() > 1 && holdsDsaPlanMemory(region))
        regions.push_back(&region);
  });
  return regions;
}

/// Lifts `region` to scf; emits an error on its parent op if MLIR's
/// transformation cannot (e.g. a terminator it has no structured form for).
LogicalResult liftRegion(Region &region, DominanceInfo &dominance) {
  ControlFlowToSCFTransformation transformation;
  Operation *owner = region.getParentOp();
  size_t blocks = region.getBlocks().size();
  if (succeeded(transformCFGToSCF(region, transformation, dominance)))
    return success();
  return owner->emitError()
         << "'" << owner->getName() << "' has a region with " << blocks
         << " blocks (unstructured control flow) that cannot be lifted to "
            "scf; dsaplan models only structured control flow";
}

/// Erases the constants nothing uses: the CFG-to-SCF transformation
/// materialises a selector constant per lifted region and leaves it when
/// the lifted form does not need it. A constant without uses is dead
/// whoever wrote it, so the output does not depend on which these were.
void eraseUnusedConstants(Operation *function) {
  SmallVector<Operation *> dead;
  function->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::ConstantLike>() && isOpTriviallyDead(op))
      dead.push_back(op);
  });
  for (Operation *op : dead)
    op->erase();
}

/// Runs the iterations of `op` (scf.forall or scf.parallel) in order as
/// nested scf.for loops; emits an error when MLIR's rewrite cannot (a
/// forall with shared outputs, a parallel loop with reductions).
LogicalResult sequentialise(Operation *op) {
  IRRewriter rewriter(op->getContext());
  rewriter.setInsertionPoint(op);
  std::string name = op->getName().getStringRef().str();
  Location loc = op->getLoc();
  LogicalResult done = failure();
  if (auto forall = dyn_cast<scf::ForallOp>(op))
    done = scf::forallToForLoop(rewriter, forall);
  else
    done = scf::parallelForToNestedFors(rewriter, cast<scf::ParallelOp>(op));
  if (succeeded(done))
    return success();
  return emitError(loc) << "'" << name
                        << "' over dsaplan memory cannot be turned into "
                           "scf.for loops (it has results or reductions); "
                           "write it as scf.for";
}

struct DsaPlanLiftControlFlowPass
    : public mlir::dsaplan::impl::DsaPlanLiftControlFlowBase<
          DsaPlanLiftControlFlowPass> {
  void runOnOperation() override {
    Operation *function = getOperation();
    bool ok = true;
    SmallVector<Region *> regions = collectUnstructuredRegions(function);
    if (!regions.empty()) {
      DominanceInfo dominance(function);
      for (Region *region : regions) {
        ok &= succeeded(liftRegion(*region, dominance));
        ++numLifted;
      }
      eraseUnusedConstants(function);
    }
    SmallVector<Operation *> parallelLoops;
    // Inner loops first: the rewrite of an outer one may clone its body.
    function->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isa<scf::ForallOp, scf::ParallelOp>(op) && holdsDsaPlanMemory(op))
        parallelLoops.push_back(op);
    });
    for (Operation *op : parallelLoops) {
      ok &= succeeded(sequentialise(op));
      ++numSequentialised;
    }
    if (!ok)
      return signalPassFailure();
    if (regions.empty() && parallelLoops.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
