//===- Debug.cpp - The inserter's intermediate results as text ------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What `-debug-only=dsaplan-insert-sync` prints between the jobs (in builds
// with LLVM's debug output): each job's result in program positions, e.g.
//
//   requirements: 3 accesses, 2 dependencies
//     block 0: op 1 (mte2) -> op 2 (v)
//     loop @4: op 3 (v) -> op 1 (mte2) around the back edge
//   decisions:
//     block 0: pair <mte2 -> v> set at gap 2, wait at gap 2
//     loop @4: pair <v -> mte2> set at gap 4, wait at gap 1
//   plan: 2 pairs (0 set late), 0 barriers, 0 eager
//     block 0 <mte2 -> v> id 0: set at gap 2, wait at gap 2
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

void printPair(raw_ostream &os, Pipe src, Pipe dst) {
  os << "<" << stringifyPipe(src) << " -> " << stringifyPipe(dst) << ">";
}

void printRequirement(raw_ostream &os, const Requirement &r) {
  os << "op " << r.after << " (" << stringifyPipe(r.src) << ") -> op "
     << r.before << " (" << stringifyPipe(r.dst) << ")";
}

} // namespace

void mlir::dsaplan::sync::printRequirements(raw_ostream &os,
                                            const SyncRequirements &r) {
  os << "requirements: " << r.accesses.size() << " accesses, "
     << r.dependencies.size() << " dependencies\n";
  for (const auto &[block, requirements] : r.forward)
    for (const Requirement &requirement : requirements) {
      os << "  block " << block << ": ";
      printRequirement(os, requirement);
      os << "\n";
    }
  for (const auto &[loop, requirements] : r.backEdge)
    for (const Requirement &requirement : requirements) {
      os << "  loop @" << loop << ": ";
      printRequirement(os, requirement);
      os << " around the back edge\n";
    }
  for (const auto &[block, requirements] : r.branchBackEdge)
    for (const Requirement &requirement : requirements) {
      os << "  block " << block << ": ";
      printRequirement(os, requirement);
      os << " around its loop's back edge\n";
    }
  for (const auto &[op, src, dst] : r.eager) {
    os << "  eager after '" << op->getName() << "': ";
    printPair(os, src, dst);
    os << "\n";
  }
}

void mlir::dsaplan::sync::printDecisions(raw_ostream &os,
                                         const SyncDecisions &d) {
  os << "decisions:\n";
  for (const auto &[key, pairs] : d.pairs)
    for (const FlagPair &pair : pairs) {
      os << "  block " << std::get<0>(key) << ": pair ";
      printPair(os, std::get<1>(key), std::get<2>(key));
      os << " set at gap " << pair.set << ", wait at gap " << pair.wait
         << "\n";
    }
  for (const auto &[key, barriers] : d.barriers)
    for (const FlagPair &barrier : barriers)
      os << "  block " << key.first << ": barrier <"
         << stringifyPipe(key.second) << "> at gap " << barrier.wait << "\n";
  for (const auto &[key, pairs] : d.loopPairs)
    for (const FlagPair &pair : pairs) {
      os << "  loop @" << std::get<0>(key) << ": pair ";
      printPair(os, std::get<1>(key), std::get<2>(key));
      os << " set at gap " << pair.set << ", wait at gap " << pair.wait
         << "\n";
    }
  for (const auto &[key, pairs] : d.branchLoopPairs)
    for (const FlagPair &pair : pairs) {
      os << "  block " << std::get<0>(key) << ": loop pair ";
      printPair(os, std::get<1>(key), std::get<2>(key));
      os << " set at gap " << pair.set << ", wait at gap " << pair.wait
         << "\n";
    }
}

void mlir::dsaplan::sync::printPlan(raw_ostream &os, const ProgramOrder &order,
                                    const SyncPlan &plan) {
  os << "plan: " << plan.pairs.size() << " pairs (" << plan.numLateSets
     << " set late), " << plan.barriers.size() << " barriers, "
     << plan.eager.size() << " eager\n";
  for (const PlannedPair &pair : plan.pairs) {
    os << "  block " << order.blockId(pair.block) << " ";
    printPair(os, pair.src, pair.dst);
    os << " id " << pair.id << ": set at gap " << pair.set
       << ", wait at gap " << pair.wait;
    if (pair.loop)
      os << " around loop @" << order.position(pair.loop);
    os << "\n";
  }
  for (const PlannedBarrier &barrier : plan.barriers)
    os << "  block " << order.blockId(barrier.block) << " barrier <"
       << stringifyPipe(barrier.pipe) << "> at gap " << barrier.gap << "\n";
}
