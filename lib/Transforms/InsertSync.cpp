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
// 5. SyncPruning: the one-bit flag repair (a set never overruns the
//    previous set of its flag), then, within a budget, dropping the groups
//    the others imply, so that no inserted sync can go without leaving a
//    dependency unordered.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Support/ReportFiles.h"
#include "DsaPlan/Sync/Insert/CrossCore.h"
#include "DsaPlan/Sync/Insert/Pictures.h"
#include "DsaPlan/Sync/Insert/Plan.h"
#include "DsaPlan/Sync/Insert/Pruning.h"
#include "DsaPlan/Sync/Insert/SettledCalls.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

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

/// What pruning did.
struct PruneCounts {
  unsigned dropped = 0;
  int64_t steps = 0;
  bool complete = true;
};

/// The dependencies as pairs of ops, for the path-wise checks.
std::vector<Dependency> dependencyPairs(const SyncRequirements &requirements) {
  std::vector<Dependency> pairs;
  for (const SyncDependency &dep : requirements.dependencies) {
    Operation *earlier = requirements.accesses[dep.earlier].op;
    Operation *later = requirements.accesses[dep.later].op;
    if (pairs.empty() || pairs.back().earlier != earlier ||
        pairs.back().later != later)
      pairs.push_back({earlier, later});
  }
  return pairs;
}

/// Drops the groups the others imply (pruneSyncGroups). Its steps are those
/// `check` walked since `stepsBefore`.
PruneCounts pruneImplied(IncrementalCheck &check, InsertedSyncs &syncs,
                         int64_t stepsBefore) {
  PruneCounts counts;
  PruneResult result = pruneSyncGroups(check, syncs.groups);
  counts.steps = check.steps() - stepsBefore;
  counts.complete = result.complete;
  // In one pass: erasing each dropped group from the vectors moved every
  // group after it (20,000 groups, 79 dropped, at 10k allocations).
  size_t kept = 0;
  for (size_t i = 0; i < syncs.groups.size(); ++i) {
    if (result.erased[i]) {
      ++counts.dropped;
      continue;
    }
    if (kept != i) {
      syncs.groups[kept] = std::move(syncs.groups[i]);
      syncs.kinds[kept] = syncs.kinds[i];
    }
    ++kept;
  }
  syncs.groups.resize(kept);
  syncs.kinds.resize(kept);
  return counts;
}

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

  /// `<function>.syncs.json`: every sync of the function, in program order,
  /// with the location of the access it belongs to; and the memory maps of
  /// `pictures`, with those syncs.
  LogicalResult writeSyncReport(const SyncPictures &pictures) {
    llvm::json::Array syncs;
    getOperation().walk([&](Operation *op) {
      llvm::json::Object entry;
      if (auto set = dyn_cast<SetFlagOp>(op))
        entry = llvm::json::Object{{"op", "set_flag"},
                                   {"src", stringifyPipe(set.getSrc())},
                                   {"dst", stringifyPipe(set.getDst())},
                                   {"event", set.getEvent()}};
      else if (auto wait = dyn_cast<WaitFlagOp>(op))
        entry = llvm::json::Object{{"op", "wait_flag"},
                                   {"src", stringifyPipe(wait.getSrc())},
                                   {"dst", stringifyPipe(wait.getDst())},
                                   {"event", wait.getEvent()}};
      else if (auto barrier = dyn_cast<PipeBarrierOp>(op))
        entry = llvm::json::Object{{"op", "pipe_barrier"},
                                   {"pipe", stringifyPipe(barrier.getPipe())}};
      else if (isa<BarrierAllOp>(op))
        entry = llvm::json::Object{{"op", "barrier_all"}};
      else
        return;
      entry["location"] = locationText(op->getLoc());
      syncs.push_back(std::move(entry));
    });
    // docs/schemas/syncs.json is the schema of this version.
    llvm::json::Object report{{"schema_version", 1},
                              {"function", getOperation().getSymName()},
                              {"syncs", std::move(syncs)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
    if (failed(writeFunctionFile(getOperation(), reportDir, ".syncs.json",
                                 text)))
      return failure();
    return pictures.write(reportDir);
  }

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
    PruneCounts pruned;
    unsigned hoisted = 0, earlier = 0;
    if (pruneBudget > 0 && !syncs.groups.empty()) {
      DependencyIndex dependencies(func, target,
                                   dependencyPairs(requirements));
      // One check for every job below: each walks from its change on.
      IncrementalCheck check(func, target, dependencies, pruneBudget);
      // The first walk, of the whole function, counts as the pruning's.
      pruned = pruneImplied(check, syncs, 0);
      // On the pruned syncs, so that a pair pruning would drop is not moved
      // first; a move can make other syncs redundant, so prune again after.
      if (pruned.complete) {
        hoisted = hoistLoopPairs(check, syncs.groups);
        if (hoisted && !check.exhausted()) {
          PruneCounts again = pruneImplied(check, syncs, check.steps());
          pruned.dropped += again.dropped;
          pruned.steps += again.steps;
          pruned.complete = again.complete;
        }
      }
      // On the final syncs: a pre-set that fires sooner orders less, so it
      // makes no other sync redundant.
      if (pruned.complete && !check.exhausted())
        earlier = movePresetsEarlier(check, syncs.groups);
    }
    LLVM_DEBUG(llvm::dbgs() << "hoisting: " << hoisted
                            << " loop pairs out of outer loops\n");
    numEarlyPresets += earlier;
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
    if (pictures && failed(writeSyncReport(*pictures)))
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
          << (hoisted ? "; " + std::to_string(hoisted) +
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
