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
// The tile may also be allocated in an scf.if or scf.index_switch region
// of the body (FlashAttention's causal block skip): its slots are hoisted
// out of the branch the same way, and a branch that yields it passes it
// on within the iteration. Only a loop that yields it to the next
// iteration keeps it from rotating:
//
//   scf.for %kv = ... {
//     %k = scf.if %visible -> (...) {
//       %t = dsaplan.alloc {dsaplan.buffers = 2 : i64} ...   // rotates
//       scf.yield %t
//     } else { ... }
//   }
//
// dsaplan-unroll-rotations later unrolls the ring, so that each slot gets
// its own flags. With `dsaplan.buffers = "auto"` the pass chooses one or
// two slots per tile: two for the tiles that more than one pipe touches in
// the loop (the overlap a second slot can buy), as long as the space still
// fits, dropping the smallest gains first when it does not. Under
// objective=waits a second slot must also lower the waits: the wait it
// saves (the next iteration reusing the tile's bytes) against the waits
// it adds (tiles of different pipes pushed onto each other's bytes):
//
//   softmax: x (MTE2 -> V) and y (V -> MTE3), UB room for one second slot
//   y with two slots: x shares bytes with V's tiles, reuse cost 1617
//   y with one slot:  reuse cost 2, plus y's own one-slot wait of 544
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/PlacementProblem.h"
#include "SlotRing.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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
  /// Why the tile cannot rotate (it keeps one slot), or empty.
  std::string refusal;
};

/// The pipes of the ops that use the tile through `holders`, the values
/// that may hold it (views, scf.if results, ...).
unsigned collectPipes(ArrayRef<Value> holders) {
  unsigned pipes = 0;
  for (Value holder : holders)
    for (Operation *user : holder.getUsers())
      if (std::optional<Pipe> pipe = getOpPipe(user))
        pipes |= 1u << static_cast<unsigned>(*pipe);
  return pipes;
}

/// Whether slots are hoisted out of the regions of `op` to the loop body
/// that holds it: regions that run at most once per iteration and pass a
/// tile on only through the op's results.
bool isHoistable(Operation *op) {
  return isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op);
}

/// The scf.for whose iterations rotate `alloc`'s slots: the one whose body
/// holds it, directly or in the regions of scf.if, scf.index_switch or
/// scf.execute_region ops, out of which the slots are hoisted:
///
///   scf.for %kv = ... {          // the slots go before it and rotate
///     scf.if %visible {
///       %k = dsaplan.alloc {dsaplan.buffers = 2 : i64} ...
///
/// Otherwise null, with `blocker` (if given) set to the op whose region
/// holds the tile and cannot be hoisted out of (null when the function
/// does). Looked up again at each rotation: an earlier rotation in the
/// same loop replaced the scf.for.
scf::ForOp findRotatingLoop(AllocOp alloc, Operation **blocker = nullptr) {
  for (Operation *op = alloc->getParentOp(); op; op = op->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return loop;
    if (isa<FunctionOpInterface>(op))
      break;
    if (!isHoistable(op)) {
      if (blocker)
        *blocker = op;
      break;
    }
  }
  return nullptr;
}

/// Why `alloc` cannot rotate, or the empty string. It needs a rotating
/// loop (findRotatingLoop), and none of `holders`, the values that may
/// hold it, may be carried to the next iteration:
///
///   %r = scf.if %c -> (...) { scf.yield %t } else { scf.yield %u }
///   use(%r)          // %t rotates: the scf.if passes it on in the iteration
///   scf.yield %r     // %t does not: the next iteration reads it
std::string whyNotRotatable(AllocOp alloc, ArrayRef<Value> holders) {
  std::string why;
  llvm::raw_string_ostream os(why);
  Operation *blocker = nullptr;
  scf::ForOp loop = findRotatingLoop(alloc, &blocker);
  if (!loop && !blocker)
    os << "it is not in an scf.for body; slots rotate once per scf.for "
          "iteration";
  else if (!loop && isLoopOp(blocker))
    os << "it is in the body of '" << blocker->getName()
       << "', and only scf.for loops rotate slots";
  else if (!loop)
    os << "it is in a region of '" << blocker->getName()
       << "', and slots are hoisted only out of scf.if, scf.index_switch "
          "and scf.execute_region regions";
  if (!loop)
    return why;
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (llvm::is_contained(holders, arg)) {
      os << "'scf.for' carries it to the next iteration (iter_arg #" << index
         << "): its slots would rotate under the value the next iteration "
            "reads; dsaplan-rotate-carried gives a carried tile its slots";
      break;
    }
  return why;
}

/// The tile's request (the dialect verified the attribute: a depth from 1
/// to 4, or "auto"). A depth above one that the tile cannot rotate with is
/// an error; "auto" (and one slot) falls back to one slot.
FailureOr<Candidate> readCandidate(AllocOp alloc,
                                   BufferViewFlowAnalysis &aliases) {
  Candidate candidate{alloc, std::nullopt, 0, alloc.getSizeInBytes(), ""};
  if (auto depth = alloc->getAttrOfType<IntegerAttr>(kBuffersAttr))
    candidate.depth = depth.getInt();
  SmallVector<Value> holders = resolveAliases(aliases, alloc.getResult());
  candidate.refusal = whyNotRotatable(alloc, holders);
  if (!candidate.refusal.empty() && candidate.depth.value_or(1) > 1)
    return alloc.emitOpError()
           << "'" << alloc.getDisplayName() << "' asks for " << *candidate.depth
           << " slots of " << candidate.bytes << " B in "
           << stringifyMemorySpace(alloc.getSpace()) << " (" << kBuffersAttr
           << ") but " << candidate.refusal;
  candidate.pipes = collectPipes(holders);
  return candidate;
}

/// How `func` places with `depths` applied, tried on a copy in a scratch
/// module (with the function's target): nullopt when some space does not
/// fit, else the reuse cost of the placement (0 unless `costs` is given:
/// then it is placed as dsaplan-assign-offsets does under objective=waits).
std::optional<int64_t> placeWith(func::FuncOp func,
                                 ArrayRef<Candidate> candidates,
                                 ArrayRef<int64_t> depths,
                                 const TargetDescription &target,
                                 const CostModel *costs) {
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
  for (auto [candidate, depth] : llvm::zip(candidates, depths)) {
    auto alloc =
        cast<AllocOp>(mapping.lookup(AllocOp(candidate.alloc).getOperation()));
    rotateSlots(alloc, findRotatingLoop(alloc), depth);
  }
  BufferLifetimes lifetimes(copy.getOperation());
  copy.walk([&](AllocOp alloc) {
    alloc.setLiveAttr(lifetimes.getLiveAttr(alloc));
  });
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<PlacementProblem> problem = buildPlacementProblem(copy, target);
  if (failed(problem))
    return std::nullopt;
  solver::SolveOptions options;
  options.algorithm = solver::Algorithm::MultiStart;
  if (costs) {
    addReusePenalties(copy, *problem, target, *costs);
    options.algorithm = solver::Algorithm::Auto;
  }
  solver::Solution solution = solver::solve(problem->problem, options);
  int64_t reuseCost = 0;
  for (const solver::PoolResult &pool : solution.pools) {
    if (pool.status != solver::PoolStatus::Optimal &&
        pool.status != solver::PoolStatus::Feasible)
      return std::nullopt;
    reuseCost += pool.reuseCost;
  }
  return reuseCost;
}

/// Why an "auto" tile got the slots it got.
enum class SlotReason {
  /// One pipe touches it in the loop: a second slot buys no overlap.
  OnePipe,
  /// Two slots, where they fit (and, under objective=waits, pay).
  Overlap,
  /// Back to one slot: two would not fit.
  NoRoom,
  /// Back to one slot: two would add more waits than they save.
  Waits,
  /// One slot: the tile cannot rotate (Candidate::refusal).
  Refused,
};

/// The reason, and for SlotReason::Waits the waits of both choices (the
/// reuse cost of the placement plus the one-slot waits; -1 when the
/// placement with two slots was not found).
struct SlotChoice {
  SlotReason reason;
  int64_t waitsWithTwo = 0, waitsWithOne = 0;
};

struct DsaPlanMultiBufferPass
    : public mlir::dsaplan::impl::DsaPlanMultiBufferBase<
          DsaPlanMultiBufferPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<Candidate> candidates;
    bool failedAny = false;
    std::optional<BufferViewFlowAnalysis> aliases;
    func.walk([&](AllocOp alloc) {
      if (!alloc->hasAttr(kBuffersAttr))
        return;
      if (!aliases)
        aliases.emplace(func);
      FailureOr<Candidate> candidate = readCandidate(alloc, *aliases);
      if (failed(candidate))
        failedAny = true;
      else
        candidates.push_back(*candidate);
    });
    if (failedAny)
      return signalPassFailure();
    if (candidates.empty())
      return markAllAnalysesPreserved();
    std::string error;
    if (!costModel.applyOverrides(costs, error)) {
      func.emitError() << "dsaplan-multi-buffer: " << error;
      return signalPassFailure();
    }
    SmallVector<int64_t> depths = chooseDepths(func, candidates);
    for (auto [candidate, depth] : llvm::zip(candidates, depths)) {
      if (depth > 1)
        ++numRotated;
      rotateSlots(candidate.alloc, findRotatingLoop(candidate.alloc), depth);
    }
  }

  /// Explicit depths as given; "auto" tiles touched by one pipe get one
  /// slot, the others two, then the smallest gains (bytes moved while
  /// another pipe works) go back to one slot until the function fits, and
  /// under objective=waits wherever one slot makes fewer waits.
  SmallVector<int64_t> chooseDepths(func::FuncOp func,
                                    ArrayRef<Candidate> candidates) {
    SmallVector<int64_t> depths;
    SmallVector<SlotChoice> reasons;
    SmallVector<size_t> autoTiles;
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      bool rotates = candidate.refusal.empty();
      bool overlaps = rotates && llvm::popcount(candidate.pipes) > 1;
      depths.push_back(candidate.depth.value_or(overlaps ? 2 : 1));
      reasons.push_back({!rotates   ? SlotReason::Refused
                         : overlaps ? SlotReason::Overlap
                                    : SlotReason::OnePipe});
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
    while (!autoTiles.empty() &&
           !placeWith(func, candidates, depths, target, nullptr) &&
           demoted < autoTiles.size()) {
      depths[autoTiles[demoted]] = 1;
      reasons[autoTiles[demoted++]].reason = SlotReason::NoRoom;
    }
    if (objective == PlacementObjective::Waits)
      demoteForWaits(func, candidates, ArrayRef(autoTiles).drop_front(demoted),
                     target, depths, reasons);
    for (auto [index, candidate] : llvm::enumerate(candidates))
      if (!candidate.depth)
        reportChoice(candidate, depths[index], reasons[index]);
    return depths;
  }

  /// objective=waits: the waits of a choice of depths are the reuse cost of
  /// its placement plus the one-slot waits of the "auto" tiles left at one
  /// slot. Each tile of `kept` (at two slots, in demotion order) goes back
  /// to one where that makes fewer waits.
  void demoteForWaits(func::FuncOp func, ArrayRef<Candidate> candidates,
                      ArrayRef<size_t> kept, const TargetDescription &target,
                      SmallVectorImpl<int64_t> &depths,
                      SmallVectorImpl<SlotChoice> &reasons) {
    if (kept.empty())
      return;
    SmallVector<int64_t> oneSlotWaits;
    for (const Candidate &candidate : candidates)
      oneSlotWaits.push_back(
          candidate.depth || !candidate.refusal.empty() ||
                  llvm::popcount(candidate.pipes) < 2
              ? 0
              : getOneSlotWait(func, candidate.alloc, target, costModel));
    auto waitsOf = [&](ArrayRef<int64_t> choice) -> std::optional<int64_t> {
      std::optional<int64_t> reuseCost =
          placeWith(func, candidates, choice, target, &costModel);
      if (!reuseCost)
        return std::nullopt;
      int64_t waits = *reuseCost;
      for (auto [depth, wait] : llvm::zip(choice, oneSlotWaits))
        waits += depth == 1 ? wait : 0;
      return waits;
    };
    std::optional<int64_t> best = waitsOf(depths);
    for (size_t index : kept) {
      depths[index] = 1;
      std::optional<int64_t> waits = waitsOf(depths);
      if (waits && (!best || *waits < *best)) {
        reasons[index] = {SlotReason::Waits, best.value_or(-1), *waits};
        best = waits;
      } else {
        depths[index] = 2;
      }
    }
  }

  void reportChoice(const Candidate &candidate, int64_t depth,
                    const SlotChoice &choice) {
    if (!summary)
      return;
    AllocOp alloc = candidate.alloc;
    InFlightDiagnostic remark = alloc.emitRemark()
                                << "'" << alloc.getDisplayName()
                                << "': " << depth
                                << (depth == 1 ? " slot" : " slots");
    switch (choice.reason) {
    case SlotReason::OnePipe:
      remark << " (one pipe touches it in the loop: a second slot would "
                "buy no overlap)";
      break;
    case SlotReason::NoRoom:
      remark << " (two would not fit: smaller gains than the tiles kept "
                "at two)";
      break;
    case SlotReason::Waits:
      remark << " (two would add more waits than they save: ";
      if (choice.waitsWithTwo < 0)
        remark << "the placement with two was not found";
      else
        remark << choice.waitsWithTwo << " cycles of waits with two";
      remark << ", " << choice.waitsWithOne
             << " with one, its own wait included)";
      break;
    case SlotReason::Refused:
      remark << " (cannot rotate: " << candidate.refusal << ")";
      break;
    case SlotReason::Overlap:
      remark << " (" << llvm::popcount(candidate.pipes)
             << " pipes touch it in the loop; +" << candidate.bytes
             << " B for the second slot)";
      break;
    }
  }

  /// The cycle estimates the waits are counted in (`costs` applied).
  CostModel costModel = CostModel::defaults();
};

} // namespace
