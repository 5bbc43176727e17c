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

/// The period of the permutation in which `loop` yields its tile iter_args,
/// or nullopt when they are not such a permutation (a tile yielded from
/// elsewhere, or two arguments yielding the same one):
///
///   iter_args(%a = .., %b = .., %c = ..) ... scf.yield %b, %c, %a  // 3
///   iter_args(%a = .., %b = ..) ... scf.yield %a, %b              // 1
std::optional<unsigned> getRotationPeriod(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<int> next(loop.getNumRegionIterArgs(), -1);
  SmallVector<bool> taken(next.size(), false);
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
    unsigned from = source.getArgNumber() - 1;
    if (taken[from])
      return std::nullopt;
    taken[from] = true;
    next[arg.getArgNumber() - 1] = from;
  }
  if (!anyTile)
    return std::nullopt;
  unsigned period = 1;
  for (size_t start = 0; start < next.size(); ++start) {
    unsigned length = 0;
    for (int at = start; next[at] >= 0; at = next[at]) {
      ++length;
      if (static_cast<size_t>(next[at]) == start)
        break;
      if (length > next.size())
        return std::nullopt;
    }
    if (length)
      period = std::lcm(period, length);
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
    for (scf::ForOp loop : loops) {
      std::optional<unsigned> period = getRotationPeriod(loop);
      if (!period || *period < 2 || *period > kMaxRotationPeriod)
        continue;
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, *period);
      if (failed(unrolled) || !unrolled->mainLoopOp)
        continue;
      forwardInvariantIterArgs(*unrolled->mainLoopOp);
      ++numUnrolled;
    }
  }
};

} // namespace
