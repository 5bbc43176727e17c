//===- UnrollRotations.cpp - Unroll loops whose tiles rotate --------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A loop that yields its tile iter_args as a permutation of themselves is a
// multi-buffer: in each iteration every argument holds a different tile.
// Unrolled by the period of the permutation, the body yields each argument
// unchanged and every access names one tile, which is what the sync pass
// needs to give each slot its own flags (docs/sync.md, "Rotating buffers").
// An scf.while is unrolled the same way, each copy after the first guarded
// by its condition re-checked (unrollWhile).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANUNROLLROTATIONS
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// Longer periods are left rolled: the body would grow by the period.
constexpr unsigned kMaxRotationPeriod = 8;

unsigned ringPeriod(ArrayRef<int> next);

bool isTileArgument(BlockArgument arg) {
  return isa<BaseMemRefType>(arg.getType()) &&
         getRootMemorySpace(arg).has_value();
}

/// The period of the rotation in which `loop` yields its tile iter_args,
/// or nullopt when a tile iter_arg is yielded something other than a tile
/// iter_arg. The period is the least common multiple of the lengths of the
/// rings (the cycles of "argument i takes argument j's tile"):
///
///   iter_args(%a = .., %b = .., %c = ..) ... scf.yield %b, %c, %a  // 3
///   iter_args(%a = .., %b = ..) ... scf.yield %a, %b              // 1
///
/// An argument on no ring follows one: it holds, one iteration late, the
/// tile a ring argument held (dsaplan-rotate-carried's iter_arg of the
/// previous tile), and is one tile per iteration once the ring is unrolled:
///
///   iter_args(%prev = %init, %s0 = %t0, %s1 = %t1)
///       ... scf.yield %s0, %s1, %s0                    // 2, %prev follows
std::optional<unsigned> getRotationPeriod(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<int> next(loop.getNumRegionIterArgs(), -1);
  bool anyTile = false;
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isTileArgument(arg))
      continue;
    anyTile = true;
    auto source = dyn_cast<BlockArgument>(yield.getOperand(arg.getArgNumber() -
                                                           1));
    if (!source || source.getOwner() != loop.getBody() ||
        source.getArgNumber() == 0 || !isTileArgument(source))
      return std::nullopt;
    next[arg.getArgNumber() - 1] = source.getArgNumber() - 1;
  }
  if (!anyTile)
    return std::nullopt;
  return ringPeriod(next);
}

/// The ring period of `next` (argument i takes argument next[i]'s tile, -1
/// for no tile argument): the least common multiple of its rings' lengths.
unsigned ringPeriod(ArrayRef<int> next) {
  unsigned period = 1;
  for (size_t start = 0; start < next.size(); ++start) {
    unsigned length = 0;
    for (int at = next[start]; at >= 0 && length < next.size();
         at = next[at]) {
      ++length;
      if (static_cast<size_t>(at) == start) {
        period = std::lcm(period, length);
        break;
      }
    }
  }
  return period;
}

/// The period of the rotation in which an scf.while's "do" region yields
/// its tile arguments, when the loop can be unrolled by it with its
/// condition re-checked: the "before" region forwards its arguments
/// unchanged and computes the condition from values alone (no memory
/// effect, no region: re-running it decides the same), and every tile
/// argument is yielded a tile argument.
///
///   scf.while (%i = %c0, %cur = %a, %nxt = %b) {
///     %go = arith.cmpi ult, %i, %n : index
///     scf.condition(%go) %i, %cur, %nxt
///   } do {
///   ^bb0(%j: index, %t: ..., %u: ...):
///     ...
///     scf.yield %j1, %u, %t                    // period 2
///   }
std::optional<unsigned> getRotationPeriod(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody(), *after = loop.getAfterBody();
  scf::ConditionOp condition = loop.getConditionOp();
  if (condition.getArgs().size() != before->getNumArguments() ||
      before->getArgumentTypes() != after->getArgumentTypes())
    return std::nullopt;
  for (auto [forwarded, arg] :
       llvm::zip(condition.getArgs(), before->getArguments()))
    if (forwarded != arg)
      return std::nullopt;
  for (Operation &op : before->without_terminator())
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return std::nullopt;
  auto yield = cast<scf::YieldOp>(after->getTerminator());
  SmallVector<int> next(after->getNumArguments(), -1);
  bool anyTile = false;
  for (BlockArgument arg : after->getArguments()) {
    if (!isTileArgument(arg))
      continue;
    anyTile = true;
    auto source = dyn_cast<BlockArgument>(yield.getOperand(arg.getArgNumber()));
    if (!source || source.getOwner() != after || !isTileArgument(source))
      return std::nullopt;
    next[arg.getArgNumber()] = source.getArgNumber();
  }
  if (!anyTile)
    return std::nullopt;
  return ringPeriod(next);
}

/// The "before" region of `loop` on `args`, cloned at `b`: the condition
/// and the values it forwards (`args` themselves).
Value cloneCondition(OpBuilder &b, scf::WhileOp loop, ValueRange args) {
  IRMapping map;
  map.map(loop.getBeforeBody()->getArguments(), args);
  for (Operation &op : loop.getBeforeBody()->without_terminator())
    b.clone(op, map);
  return map.lookupOrDefault(loop.getConditionOp().getCondition());
}

/// Copies `body` (the "do" region's ops but its yield) `copies` more times
/// after the first, each in an scf.if on the condition re-checked: the
/// values the do region yields, from `args` (the first copy's yield).
/// Where the condition fails, the copy is skipped and the loop leaves at
/// its next check, which decides the same.
SmallVector<Value> cloneGuardedCopies(OpBuilder &b, scf::WhileOp loop,
                                      ArrayRef<Operation *> body,
                                      ValueRange args, unsigned copies) {
  if (copies == 0)
    return SmallVector<Value>(args);
  Location loc = loop.getLoc();
  Value go = cloneCondition(b, loop, args);
  auto guard = scf::IfOp::create(b, loc, TypeRange(args), go,
                                 /*withElseRegion=*/true);
  OpBuilder thenBuilder = guard.getThenBodyBuilder();
  IRMapping map;
  map.map(loop.getAfterBody()->getArguments(), args);
  for (Operation *op : body)
    thenBuilder.clone(*op, map);
  SmallVector<Value> yielded;
  for (Value v : loop.getYieldOp().getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  SmallVector<Value> inner =
      cloneGuardedCopies(thenBuilder, loop, body, yielded, copies - 1);
  scf::YieldOp::create(thenBuilder, loc, inner);
  OpBuilder elseBuilder = guard.getElseBodyBuilder();
  scf::YieldOp::create(elseBuilder, loc, args);
  return SmallVector<Value>(guard.getResults());
}

/// Unrolls an scf.while by `period`: the do region runs its body, then up to
/// period - 1 more copies, each guarded by the condition. Every entry to the
/// do region then holds the tiles in their initial order (a guard that
/// fails leaves them rotated, but the loop then leaves), so each tile
/// argument is replaced by its initial tile in the do region:
///
///   } do {                                  } do {
///     load %t; sum %t                         load %a; sum %a
///     scf.yield %j1, %u, %t          =>       %r:3 = scf.if (%j1 < %n) {
///   }                                           load %b; sum %b
///                                               scf.yield %j2, %a, %b
///                                             } else {
///                                               scf.yield %j1, %b, %a
///                                             }
///                                             scf.yield %r#0, %r#1, %r#2
void unrollWhile(scf::WhileOp loop, unsigned period) {
  Block *after = loop.getAfterBody();
  SmallVector<Operation *> body;
  for (Operation &op : after->without_terminator())
    body.push_back(&op);
  scf::YieldOp yield = loop.getYieldOp();
  OpBuilder b(yield);
  SmallVector<Value> results =
      cloneGuardedCopies(b, loop, body, yield.getOperands(), period - 1);
  yield->setOperands(results);
  // The copies name the arguments rotated: now each names its tile.
  for (BlockArgument arg : after->getArguments())
    if (isTileArgument(arg))
      arg.replaceAllUsesWith(loop.getInits()[arg.getArgNumber()]);
}

/// Replaces each iter_arg that `loop` yields unchanged by its initial value,
/// in the body and in the loop's results.
void forwardInvariantIterArgs(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (yield.getOperand(index) != arg)
      continue;
    Value init = loop.getInitArgs()[index];
    arg.replaceAllUsesWith(init);
    loop.getResult(index).replaceAllUsesWith(init);
  }
}

struct DsaPlanUnrollRotationsPass
    : public mlir::dsaplan::impl::DsaPlanUnrollRotationsBase<
          DsaPlanUnrollRotationsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // Inner loops first (post-order), so an outer body is unrolled with
    // its inner loops already settled.
    bool unrolledAny = false;
    for (scf::ForOp loop : loops) {
      std::optional<unsigned> period = getRotationPeriod(loop);
      if (!period || *period < 2 || *period > kMaxRotationPeriod)
        continue;
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, *period);
      if (failed(unrolled) || !unrolled->mainLoopOp)
        continue;
      forwardInvariantIterArgs(*unrolled->mainLoopOp);
      ++numUnrolled;
      unrolledAny = true;
    }
    SmallVector<scf::WhileOp> whiles;
    getOperation().walk([&](scf::WhileOp loop) { whiles.push_back(loop); });
    for (scf::WhileOp loop : whiles) {
      std::optional<unsigned> period = getRotationPeriod(loop);
      if (!period || *period < 2 || *period > kMaxRotationPeriod)
        continue;
      unrollWhile(loop, *period);
      ++numUnrolled;
      unrolledAny = true;
    }
    // Unchanged: the pass manager need not verify the function again.
    if (!unrolledAny)
      markAllAnalysesPreserved();
  }
};

} // namespace
