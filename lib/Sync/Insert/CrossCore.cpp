//===- CrossCore.cpp - Cross-core flag pairs of a mixed kernel -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The cross-core job of dsaplan-insert-sync (CrossCore.h): a pair per
// dependency between the cores, placed as the cover places intra-core
// pairs (innermost common block, or around an scf.for back edge), less
// those another pair implies; then an id per pair. A pair X is implied by a pair Y between the
// same cores on the same pipe when Y's set comes no earlier than X's
// producer and Y's wait no later than X's consumer (the set fires after
// everything earlier on its pipe; the wait holds the whole core):
//
//   memref.copy %acc0, %ws0 {fix}     // X: producer      Y: producer
//   memref.copy %acc1, %ws1 {fix}     //                  Y: set after this
//   memref.copy %ws0, %x0 {mte2}      // X, Y: consumer   Y: wait before this
//   memref.copy %ws1, %x1 {mte2}      // Y's consumer, ordered by X's wait
//
// Around a back edge, any forward pair of the body on the same pipe and
// cores whose wait comes no later implies the loop pair: its set in the
// next iteration follows everything of this one on its pipe.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/CrossCore.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

Core coreOfMask(unsigned mask) {
  return mask == kCubeCore ? Core::cube : Core::vector;
}

bool sameFlow(const CrossCorePair &a, const CrossCorePair &b) {
  return a.block == b.block && a.from == b.from && a.to == b.to &&
         a.pipe == b.pipe;
}

/// Whether pair `y` orders what pair `x` orders.
bool implies(const CrossCorePair &y, const CrossCorePair &x) {
  if (!sameFlow(x, y))
    return false;
  if (!x.loop)
    return !y.loop && y.after >= x.after && y.before <= x.before;
  if (!y.loop)
    return y.before <= x.before; // a forward pair of the body
  return y.after >= x.after && y.before <= x.before;
}

class CrossCorePlanner {
public:
  CrossCorePlanner(func::FuncOp func, const TargetDescription &target,
                   const ProgramOrder &order,
                   const SyncRequirements &requirements)
      : func(func), target(target), order(order), requirements(requirements) {
  }

  FailureOr<CrossCorePlan> run();

private:
  LogicalResult addPair(const SyncDependency &dep);
  void dropImplied();
  LogicalResult assignIds();

  func::FuncOp func;
  const TargetDescription &target;
  const ProgramOrder &order;
  const SyncRequirements &requirements;
  CrossCorePlan plan;
};

LogicalResult CrossCorePlanner::addPair(const SyncDependency &dep) {
  const PipeAccess &earlier = requirements.accesses[dep.earlier];
  const PipeAccess &later = requirements.accesses[dep.later];
  auto refuse = [&](const Twine &why) {
    InFlightDiagnostic diag =
        later.op->emitError()
        << "'" << later.op->getName() << "' on pipe "
        << stringifyPipe(later.pipe) << " depends on '"
        << earlier.op->getName() << "' on pipe "
        << stringifyPipe(earlier.pipe) << " of the other core, and " << why;
    diag.attachNote(earlier.op->getLoc()) << "the earlier access";
    return diag;
  };
  if (!target.signalsCrossCore(earlier.pipe))
    return refuse(Twine("a cross-core set cannot be issued on pipe ") +
                  stringifyPipe(earlier.pipe) +
                  ": give the access a pipe that can signal");
  CrossCorePair pair;
  pair.from = coreOfMask(getAccessCores(earlier, target));
  pair.to = coreOfMask(getAccessCores(later, target));
  pair.pipe = earlier.pipe;
  if (dep.loop) {
    auto loop = dyn_cast<scf::ForOp>(dep.loop);
    if (!loop)
      return refuse("a cross-core pair around the back edge of '" +
                    dep.loop->getName().getStringRef() +
                    "' is not supported (only scf.for)");
    pair.loop = loop;
    pair.block = loop.getBody();
  } else {
    pair.block = commonBlock(earlier.op, later.op);
  }
  Operation *from = pair.block->findAncestorOpInBlock(*earlier.op);
  Operation *to = pair.block->findAncestorOpInBlock(*later.op);
  if (!dep.loop && from == to)
    return refuse("the two run in regions of one op ('" +
                  from->getName().getStringRef() +
                  "'), where a cross-core pair cannot balance");
  pair.after = order.indexInBlock(from);
  pair.before = order.indexInBlock(to);
  plan.pairs.push_back(pair);
  return success();
}

void CrossCorePlanner::dropImplied() {
  auto key = [&](const CrossCorePair &p) {
    return std::make_tuple(order.blockId(p.block), p.loop != nullptr, p.after,
                           p.before, p.from, p.pipe);
  };
  llvm::sort(plan.pairs, [&](const CrossCorePair &a, const CrossCorePair &b) {
    return key(a) < key(b);
  });
  plan.pairs.erase(std::unique(plan.pairs.begin(), plan.pairs.end(),
                               [&](const CrossCorePair &a,
                                   const CrossCorePair &b) {
                                 return key(a) == key(b);
                               }),
                   plan.pairs.end());
  SmallVector<CrossCorePair> kept;
  for (const CrossCorePair &x : plan.pairs) {
    bool implied = llvm::any_of(plan.pairs, [&](const CrossCorePair &y) {
      return key(x) != key(y) && implies(y, x);
    });
    if (!implied)
      kept.push_back(x);
  }
  plan.pairs = std::move(kept);
}

/// Pairs in program order of their sets, ids counted apart per receiving
/// core (each core has its own counters).
LogicalResult CrossCorePlanner::assignIds() {
  llvm::stable_sort(plan.pairs, [&](const CrossCorePair &a,
                                    const CrossCorePair &b) {
    auto at = [&](const CrossCorePair &p) {
      return order.linearGap(p.block, p.after);
    };
    return at(a) < at(b);
  });
  int64_t next[2] = {0, 0};
  int64_t ids = target.getCrossCore().ids;
  for (CrossCorePair &pair : plan.pairs) {
    int64_t &counter = next[static_cast<unsigned>(pair.to)];
    pair.id = counter++;
  }
  for (Core core : {Core::cube, Core::vector}) {
    int64_t used = next[static_cast<unsigned>(core)];
    if (used > ids)
      return func.emitError()
             << "@" << func.getSymName() << " needs " << used
             << " cross-core flag pairs signalling the "
             << stringifyCore(core) << " core, and " << target.getName()
             << " has " << ids << " cross-core ids";
  }
  return success();
}

FailureOr<CrossCorePlan> CrossCorePlanner::run() {
  plan.numDependencies = requirements.crossCore.size();
  bool ok = true;
  for (const SyncDependency &dep : requirements.crossCore)
    ok &= succeeded(addPair(dep));
  if (!ok)
    return failure();
  dropImplied();
  if (failed(assignIds()))
    return failure();
  return plan;
}

} // namespace

FailureOr<CrossCorePlan> mlir::dsaplan::sync::planCrossCoreSyncs(
    func::FuncOp func, const TargetDescription &target,
    const ProgramOrder &order, const SyncRequirements &requirements) {
  return CrossCorePlanner(func, target, order, requirements).run();
}
