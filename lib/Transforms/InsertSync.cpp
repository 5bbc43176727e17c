//===- InsertSync.cpp - Range-aware set_flag/wait_flag insertion ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The dsaplan-insert-sync pass: runs the jobs of Plan.h in order on
// each function and reports what they did.
//
// 1. SyncRequirements: the accesses (pipe and byte ranges) and their
//    dependencies, found by walking the function in program order over a
//    shadow of each memory space (SyncDependencies analysis), filed as
//    requirements of blocks and loop bodies.
// 2. SyncCover: the flag pairs and barriers that meet them, given what every
//    pipe already knows through syncs of the input or decided earlier.
// 3. SyncEventIds: an event id for each pair.
// 4. SyncCodegen: the ops, each decision a group.
// 5. The one-bit flag repair (EventIds.cpp: a set never overruns the
//    previous set of its flag), then, within a budget, tidySyncs
//    (Pruning.h): dropping the groups the others imply, so that no inserted
//    sync can go without leaving a dependency unordered, and moving loop
//    pairs out of outer loops and pre-sets up.
// 6. With report-dir, the syncs as JSON (Report.h) and the memory maps
//    with the syncs drawn in (Pictures.h).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Sync/Insert/CrossCore.h"
#include "DsaPlan/Sync/Insert/Pictures.h"
#include "DsaPlan/Sync/Insert/Plan.h"
#include "DsaPlan/Sync/Insert/Pruning.h"
#include "DsaPlan/Sync/Insert/Report.h"
#include "DsaPlan/Sync/Insert/SettledCalls.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "dsaplan-insert-sync"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANINSERTSYNC
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// Groups whose flags the repair replaced by barrier_all count as such.
void markBarrierAllGroups(InsertedSyncs &syncs) {
  for (auto [group, kind] : llvm::zip(syncs.groups, syncs.kinds))
    if (!group.empty() && llvm::all_of(group, llvm::IsaPred<BarrierAllOp>))
      kind = SyncKind::BarrierAll;
}

/// test-tag-syncs: marks every op of the N-th group left after pruning (in
/// creation order) with `test.sync = N`, so that a driver can leave each
/// sync out of one planned kernel in turn by erasing the ops of one mark,
/// without planning the kernel again per sync:
///
///   dsaplan.set_flag <mte2 -> v>, 0 {test.sync = 3 : i64}
///   dsaplan.wait_flag <mte2 -> v>, 0 {test.sync = 3 : i64}
///
/// The mark is outside the dsaplan namespace: the dialect refuses names it
/// does not know.
void tagForTest(const InsertedSyncs &syncs) {
  for (auto [index, group] : llvm::enumerate(syncs.groups))
    for (Operation *op : group)
      op->setAttr("test.sync", Builder(op->getContext()).getI64IntegerAttr(
                                   static_cast<int64_t>(index)));
}

/// "4 cross-core flag pairs (2 around loops) for 6 dependencies between the
/// cores".
std::string describeCrossCore(const CrossCorePlan &plan) {
  unsigned loops = llvm::count_if(
      plan.pairs, [](const CrossCorePair &pair) { return pair.loop; });
  return llvm::formatv("{0} cross-core flag pairs ({1} around loops) for {2} "
                       "dependencies between the cores",
                       plan.pairs.size(), loops, plan.numDependencies)
      .str();
}

unsigned countKind(const InsertedSyncs &syncs, SyncKind kind) {
  return llvm::count(syncs.kinds, kind);
}

struct DsaPlanInsertSyncPass
    : public mlir::dsaplan::impl::DsaPlanInsertSyncBase<DsaPlanInsertSyncPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return; // a declaration: nothing runs here
    if (failed(checkSupportedStructure(func)))
      return signalPassFailure();
    TargetDescription target = TargetDescription::getForOp(func);
    // Numbered before anything is inserted: the pictures count the points
    // of this pass's input.
    std::optional<SyncPictures> pictures;
    if (!reportDir.empty())
      pictures.emplace(func, target);
    ProgramOrder order(func);
    SyncRequirements requirements;
    if (failed(collectSyncRequirements(func, target, mode, order,
                                       requirements)))
      return signalPassFailure();
    LLVM_DEBUG(llvm::dbgs() << "@" << func.getSymName() << " ";
               printRequirements(llvm::dbgs(), requirements));
    FailureOr<CrossCorePlan> crossCore =
        planCrossCoreSyncs(func, target, order, requirements);
    if (failed(crossCore))
      return signalPassFailure();
    createCrossCoreOps(func, order, *crossCore);
    SyncDecisions decisions = coverSyncRequirements(func, order, requirements);
    relieveIdPressure(target, order, decisions);
    LLVM_DEBUG(printDecisions(llvm::dbgs(), decisions));
    SyncPlan plan =
        assignEventIds(func, target, order, decisions, requirements);
    LLVM_DEBUG(printPlan(llvm::dbgs(), order, plan));
    InsertedSyncs syncs = createSyncOps(func, order, plan);
    LLVM_DEBUG(llvm::dbgs() << "codegen: " << syncs.groups.size()
                            << " groups\n");
    EventIdRepairs repairs;
    assignSafeEventIds(func, target, syncs.groups, repairs);
    LLVM_DEBUG(llvm::dbgs() << "event-id repair: " << repairs.moved
                            << " moved, " << repairs.handshakes
                            << " handshakes, " << repairs.rounds
                            << " rounds walking " << repairs.steps
                            << " ops\n");
    markBarrierAllGroups(syncs);
    TidyCounts pruned =
        tidySyncs(func, target, requirements, syncs, pruneBudget);
    LLVM_DEBUG(llvm::dbgs() << "hoisting: " << pruned.hoisted
                            << " loop pairs out of outer loops\n");
    numEarlyPresets += pruned.earlier;
    LLVM_DEBUG(llvm::dbgs() << "pruning: " << pruned.dropped << " dropped, "
                            << pruned.steps << " ops walked"
                            << (pruned.complete ? "" : " (budget spent)")
                            << "\n");
    numParkedFlags += parkFlagsAtSettledCalls(func);
    if (testTagSyncs)
      tagForTest(syncs);
    unsigned pairs = countKind(syncs, SyncKind::Pair);
    unsigned loops = countKind(syncs, SyncKind::LoopPair);
    unsigned eagerPairs = countKind(syncs, SyncKind::EagerPair);
    unsigned barriers = countKind(syncs, SyncKind::Barrier);
    numPruned += pruned.dropped;
    numPruneSteps += pruned.steps;
    numFlagPairs += pairs;
    numLoopPairs += loops;
    numEagerPairs += eagerPairs;
    numLateSets += plan.numLateSets;
    numMovedIds += repairs.moved;
    numHandshakes += repairs.handshakes;
    numRepairRounds += repairs.rounds;
    numRepairSteps += repairs.steps;
    numBarriers += barriers;
    unsigned barriersAll = countKind(syncs, SyncKind::BarrierAll);
    numBarriersAll += barriersAll;
    // Counting every conflicting pair is what the planner avoids: only for
    // the summary.
    unsigned conflicts =
        summary ? countConflictingPairs(func, requirements.accesses, mode) : 0;
    numConflicts += conflicts;
    if (pictures && (failed(writeSyncList(func, reportDir)) ||
                     failed(pictures->write(reportDir))))
      return signalPassFailure();
    // Pass statistics are compiled out of release LLVM builds: the remark is
    // how a driver reads the counts.
    if (summary)
      mlir::emitRemark(func.getLoc())
          << "@" << func.getSymName() << ": " << pairs + loops + eagerPairs
          << " flag pairs (" << loops << " around loops, " << eagerPairs
          << " eager, " << plan.numLateSets
          << " set late for want of an event id; before pruning, "
          << repairs.moved << " moved to another id and " << repairs.handshakes
          << " handshakes added so that no set overruns its flag, "
          << barriersAll << " barrier_all for want of a safe event id), "
          << barriers << " barriers for " << conflicts
          << " conflicting pairs; " << pruned.dropped
          << " dropped as implied by the others (" << pruned.steps
          << " ops walked"
          << (pruned.complete ? "" : ", stopped by prune-budget") << ")"
          << (pruned.hoisted ? "; " + std::to_string(pruned.hoisted) +
                            " loop pairs set and drained outside their outer "
                            "loops"
                      : std::string());
    if (summary && !crossCore->pairs.empty())
      mlir::emitRemark(func.getLoc())
          << "@" << func.getSymName() << ": "
          << describeCrossCore(*crossCore);
  }
};

} // namespace
