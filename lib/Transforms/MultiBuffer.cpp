//===- MultiBuffer.cpp - Give loop tiles several rotating slots -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A tile allocated in a loop body with `dsaplan.buffers = N` becomes N tiles
// allocated before the loop and rotated through iter_args, so that
// iteration i uses slot i mod N and MTE2 can fill slot i+1 while V still
// computes on slot i:
//
//   scf.for %i = ... {
//     %t = dsaplan.alloc {dsaplan.buffers = 2 : i64} : memref<..., ub>
//     use(%t)
//   }
//   // becomes
//   %t0 = dsaplan.alloc {name = "t.0"} ...
//   %t1 = dsaplan.alloc {name = "t.1"} ...
//   scf.for %i = ... iter_args(%s0 = %t0, %s1 = %t1) {
//     use(%s0)
//     scf.yield %s1, %s0
//   }
//
// dsaplan-unroll-rotations later unrolls the ring, so that each slot gets
// its own flags. With `dsaplan.buffers = "auto"` the pass chooses one or
// two slots per tile: two for the tiles that more than one pipe touches in
// the loop (the overlap a second slot can buy), as long as the space still
// fits, dropping the smallest gains first when it does not.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/PlacementProblem.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANMULTIBUFFER
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr StringLiteral kBuffersAttr = DsaPlanDialect::getBuffersAttrName();

/// A tile that asks for slots, and what a second slot would buy.
struct Candidate {
  AllocOp alloc;
  /// Explicit depth, or nullopt for "auto".
  std::optional<int64_t> depth;
  /// Pipes that touch the tile in the loop (bit per pipe).
  unsigned pipes = 0;
  int64_t bytes = 0;
};

/// The pipes of the ops that use `value`, through views.
void collectPipes(Value value, unsigned &pipes) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (std::optional<Pipe> pipe = getOpPipe(user))
      pipes |= 1u << static_cast<unsigned>(*pipe);
    if (isa<ViewLikeOpInterface>(user))
      for (Value result : user->getResults())
        collectPipes(result, pipes);
  }
}

/// Checks that `alloc` can rotate: directly in an scf.for body and never
/// yielded. Emits the error otherwise.
LogicalResult checkRotatable(AllocOp alloc) {
  auto loop = dyn_cast<scf::ForOp>(alloc->getParentOp());
  if (!loop)
    return alloc.emitOpError()
           << "'" << alloc.getDisplayName() << "' asks for "
           << kBuffersAttr << " but is not allocated directly in an "
           << "scf.for body; only scf.for loops rotate slots";
  for (Operation *user : alloc->getUsers())
    if (isa<scf::YieldOp>(user))
      return alloc.emitOpError()
             << "'" << alloc.getDisplayName() << "' asks for "
             << kBuffersAttr
             << " but is yielded to the next iteration; its slots would "
                "rotate under the value the next iteration reads";
  return success();
}

/// The tile's request (the dialect verified the attribute: a depth from 1
/// to 4, or "auto").
FailureOr<Candidate> readCandidate(AllocOp alloc) {
  Candidate candidate{alloc, std::nullopt, 0, alloc.getSizeInBytes()};
  if (auto depth = alloc->getAttrOfType<IntegerAttr>(kBuffersAttr))
    candidate.depth = depth.getInt();
  if (failed(checkRotatable(alloc)))
    return failure();
  collectPipes(alloc.getResult(), candidate.pipes);
  return candidate;
}

/// Replaces `alloc` (in an scf.for body) by `depth` allocations before the
/// loop, rotated through new iter_args.
void rotateSlots(AllocOp alloc, int64_t depth) {
  alloc->removeAttr(kBuffersAttr);
  if (depth == 1)
    return;
  auto loop = cast<scf::ForOp>(alloc->getParentOp());
  OpBuilder before(loop);
  SmallVector<Value> slots;
  std::string name = alloc.getDisplayName();
  for (int64_t slot = 0; slot < depth; ++slot) {
    auto copy = cast<AllocOp>(before.clone(*alloc));
    copy.setNameAttr(before.getStringAttr(name + "." + std::to_string(slot)));
    slots.push_back(copy);
  }
  IRRewriter rewriter(loop->getContext());
  NewYieldValuesFn ring = [&](OpBuilder &, Location,
                              ArrayRef<BlockArgument> args) {
    SmallVector<Value> next;
    for (size_t slot = 0; slot < args.size(); ++slot)
      next.push_back(args[(slot + 1) % args.size()]);
    return next;
  };
  FailureOr<LoopLikeOpInterface> rotated =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(rewriter, slots,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       ring);
  assert(succeeded(rotated) && "scf.for takes additional yields");
  auto newLoop = cast<scf::ForOp>(rotated->getOperation());
  Value first = newLoop.getRegionIterArgs()[newLoop.getNumRegionIterArgs() -
                                            depth];
  alloc.getResult().replaceAllUsesWith(first);
  alloc.erase();
}

/// Whether every space of `func` still fits with `depths` applied, tried on
/// a copy in a scratch module (with the function's target).
bool fitsWith(func::FuncOp func, ArrayRef<Candidate> candidates,
              ArrayRef<int64_t> depths, const TargetDescription &target) {
  OpBuilder builder(func.getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
  // The copy sits outside the function's module: it takes the target
  // along (assign-offsets reads it from the nearest enclosing op).
  for (Operation *scope = func; scope; scope = scope->getParentOp())
    if (Attribute attr =
            scope->getAttr(DsaPlanDialect::getTargetAttrName())) {
      scratch->getOperation()->setAttr(DsaPlanDialect::getTargetAttrName(),
                                       attr);
      break;
    }
  IRMapping mapping;
  builder.setInsertionPointToEnd(scratch->getBody());
  auto copy = cast<func::FuncOp>(builder.clone(*func, mapping));
  for (auto [candidate, depth] : llvm::zip(candidates, depths))
    rotateSlots(cast<AllocOp>(mapping.lookup(AllocOp(candidate.alloc).getOperation())),
                depth);
  BufferLifetimes lifetimes(copy.getOperation());
  copy.walk([&](AllocOp alloc) {
    alloc.setLiveAttr(lifetimes.getLiveAttr(alloc));
  });
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<PlacementProblem> problem = buildPlacementProblem(copy, target);
  if (failed(problem))
    return false;
  solver::SolveOptions options;
  options.algorithm = solver::Algorithm::MultiStart;
  solver::Solution solution = solver::solve(problem->problem, options);
  return llvm::all_of(solution.pools, [](const solver::PoolResult &pool) {
    return pool.status == solver::PoolStatus::Optimal ||
           pool.status == solver::PoolStatus::Feasible;
  });
}

struct DsaPlanMultiBufferPass
    : public mlir::dsaplan::impl::DsaPlanMultiBufferBase<
          DsaPlanMultiBufferPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<Candidate> candidates;
    bool failedAny = false;
    func.walk([&](AllocOp alloc) {
      if (!alloc->hasAttr(kBuffersAttr))
        return;
      FailureOr<Candidate> candidate = readCandidate(alloc);
      if (failed(candidate))
        failedAny = true;
      else
        candidates.push_back(*candidate);
    });
    if (failedAny)
      return signalPassFailure();
    if (candidates.empty())
      return markAllAnalysesPreserved();
    SmallVector<int64_t> depths = chooseDepths(func, candidates);
    for (auto [candidate, depth] : llvm::zip(candidates, depths)) {
      if (depth > 1)
        ++numRotated;
      rotateSlots(candidate.alloc, depth);
    }
  }

  /// Explicit depths as given; "auto" tiles touched by one pipe get one
  /// slot, the others two, then the smallest gains (bytes moved while
  /// another pipe works) go back to one slot until the function fits.
  SmallVector<int64_t> chooseDepths(func::FuncOp func,
                                    ArrayRef<Candidate> candidates) {
    SmallVector<int64_t> depths;
    SmallVector<size_t> autoTiles;
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      bool overlaps = llvm::popcount(candidate.pipes) > 1;
      depths.push_back(candidate.depth.value_or(overlaps ? 2 : 1));
      if (!candidate.depth && overlaps)
        autoTiles.push_back(index);
    }
    // Demotion order: the smallest tile first (least overlap bought), in
    // program order among equals.
    llvm::stable_sort(autoTiles, [&](size_t a, size_t b) {
      return candidates[a].bytes < candidates[b].bytes;
    });
    TargetDescription target = TargetDescription::getForOp(func);
    size_t demoted = 0;
    while (!autoTiles.empty() && !fitsWith(func, candidates, depths, target) &&
           demoted < autoTiles.size())
      depths[autoTiles[demoted++]] = 1;
    for (auto [index, candidate] : llvm::enumerate(candidates))
      if (!candidate.depth)
        reportChoice(candidate, depths[index]);
    return depths;
  }

  void reportChoice(const Candidate &candidate, int64_t depth) {
    if (!summary)
      return;
    AllocOp alloc = candidate.alloc;
    InFlightDiagnostic remark = alloc.emitRemark()
                                << "'" << alloc.getDisplayName()
                                << "': " << depth
                                << (depth == 1 ? " slot" : " slots");
    if (llvm::popcount(candidate.pipes) < 2)
      remark << " (one pipe touches it in the loop: a second slot would "
                "buy no overlap)";
    else if (depth == 1)
      remark << " (two would not fit: smaller gains than the tiles kept "
                "at two)";
    else
      remark << " (" << llvm::popcount(candidate.pipes)
             << " pipes touch it in the loop; +" << candidate.bytes
             << " B for the second slot)";
  }
};

} // namespace
