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
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

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
  unsigned period = 1;
  for (size_t start = 0; start < next.size(); ++start) {
    // The length of the ring through `start`, if it is on one.
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
    // Unchanged: the pass manager need not verify the function again.
    if (!unrolledAny)
      markAllAnalysesPreserved();
  }
};

} // namespace
