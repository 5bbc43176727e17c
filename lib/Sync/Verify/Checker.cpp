//===- Checker.cpp - Independent race check of pipe synchronisation -------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Shares no code with dsaplan-insert-sync (only lib/Support's plain data:
// the interval set and the region walker): its own byte
// ranges, its own notion of which ops access memory, and a happens-before
// that follows the hardware. Every access gets a sequence number of its pipe;
// each pipe q keeps, for every pipe p, the set of p's sequence numbers known to
// have finished before q's current point:
//
//   set_flag <p -> q>   captures what p has issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own earlier instructions finished for p.
//
// The function is walked path-wise (RegionWalk.h): scf.if along both
// branches, loops unrolled three times and left after zero to three
// iterations; at a merge a sequence number stays known only if it is known
// on every path that ran it. A quick walk that leaves a loop once its
// iterations repeat themselves runs first (FixedPoint.cpp); the full walk
// runs, and reports, only when it fails.
//
// This file holds the walk and the accesses; the flags and merges are in
// HappensBefore.cpp, the target's rules in MachineRules.h, the earlier
// accesses in History.h (SyncChecker.h).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Verify/Checker.h"
#include "SyncChecker.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"

#include <thread>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

void SyncChecker::report(const Access &earlier, Operation *later, unsigned unit,
                         const Touch &touch, int64_t begin, int64_t end) {
  if (!reported.insert({earlier.op, later}).second)
    return;
  failedAny = true;
  const Bytes &a = earlier.touch.bytes;
  const char *kind = earlier.touch.write
                         ? (touch.write ? "write after write" : "read after write")
                         : "write after read";
  InFlightDiagnostic diag =
      later->emitError()
      << "unordered " << kind << ": '" << later->getName() << "' on pipe "
      << unitText(unit) << " and '" << earlier.op->getName() << "' on pipe "
      << unitText(earlier.unit);
  if (a.sameMemory(touch.bytes))
    diag << " touch bytes [" << begin << ", " << end << ") of "
         << memoryName(a);
  else if (a.gm == touch.bytes.gm) // offsets with different unknown terms
    diag << " touch bytes [" << touch.bytes.begin << ", " << touch.bytes.end
         << ") and [" << a.begin << ", " << a.end << ") of "
         << memoryName(a) << " plus offsets that differ by an unknown amount";
  else // two GM buffers that may be one
    diag << " touch bytes [" << touch.bytes.begin << ", " << touch.bytes.end
         << ") of " << memoryName(touch.bytes) << " and [" << a.begin << ", "
         << a.end << ") of " << memoryName(a)
         << ", which may alias (mark an argument llvm.noalias if it cannot)";
  diag.attachNote(earlier.op->getLoc()) << "the earlier access";
}

namespace {

/// Whether `set` holds every number from `lo` to `hi` (both included).
bool includesRange(const IntervalSet &set, int64_t lo, int64_t hi) {
  ArrayRef<IntervalSet::Interval> intervals = set.getIntervals();
  if (intervals.empty())
    return false;
  // Mostly all in the first interval (long known) or the last.
  if (lo >= intervals.front().first && hi < intervals.front().second)
    return true;
  if (lo >= intervals.back().first)
    return hi < intervals.back().second;
  const auto *it = llvm::upper_bound(
      intervals, lo,
      [](int64_t v, const IntervalSet::Interval &r) { return v < r.first; });
  return it != intervals.begin() && hi < std::prev(it)->second;
}

/// Per earlier op an access races, one of its accesses and the bytes of
/// all its pages the two share.
using Races =
    llvm::MapVector<Operation *, std::tuple<Access, int64_t, int64_t>>;

LLVM_ATTRIBUTE_NOINLINE void noteRace(Races &races, const Access &earlier,
                                      int64_t lo, int64_t hi) {
  auto [it, inserted] = races.try_emplace(earlier.op, earlier, lo, hi);
  if (!inserted) {
    std::get<1>(it->second) = std::min(std::get<1>(it->second), lo);
    std::get<2>(it->second) = std::max(std::get<2>(it->second), hi);
  }
}

} // namespace

SyncChecker::Site SyncChecker::siteOf(Operation *op, Pipe pipe,
                                      ArrayRef<Touch> touches) {
  unsigned cores = rules.accessCores(op, pipe, touches);
  std::optional<unsigned> unit = accessUnit(op, pipe, cores);
  return {cores, unit.value_or(static_cast<unsigned>(pipe)), unit.has_value()};
}

void SyncChecker::access(Operation *op, Pipe pipe, PathState &state) {
  ArrayRef<Touch> touches = touchCache.get(op, state.iterations);
  // The target's rules and the site depend on the touches alone: checked at
  // their first meeting, and again at each while they fail (each meeting
  // reports again, as a walk that checks every visit would).
  auto [known, first] = sites.try_emplace(touches.data());
  if (first) {
    if (!rules.checkReach(op, pipe, touches) || !rules.checkOverlap(op, pipe)) {
      sites.erase(known);
      failedAny = true;
      return;
    }
    known->second = siteOf(op, pipe, touches);
  }
  if (!known->second.placed)
    return;
  access(op, pipe, known->second, touches, state);
}

void SyncChecker::access(Operation *op, Pipe pipe, Site site,
                         ArrayRef<Touch> touches, PathState &state) {
  int64_t seq = checkAccess(op, pipe, site, touches, state);
  recordAccess(op, pipe, site, seq, touches, state);
}

int64_t SyncChecker::checkAccess(Operation *op, Pipe pipe, Site site,
                                 ArrayRef<Touch> touches, PathState &state) {
  unsigned q = site.unit;
  int64_t seq = ++counters[q];
  auto orderedBefore = orderedBeforeUnit(state, q, pipe);
  // A page whose accesses q knows finished by their numbers' bounds (or
  // q's own, in order) holds no race: skipped whole.
  const Knowledge &knownByQ = state.known[q];
  bool ownOrdered = !needsBarrier(pipe);
  auto knowsRange = [&](unsigned p, int64_t lo, int64_t hi) {
    return (p == q && ownOrdered) || includesRange(knownByQ[p], lo, hi);
  };
  // One report per earlier op, over the bytes of all its pages (one map for
  // every touch: most find nothing to file).
  Races races;
  for (const Touch &touch : touches) {
    ++checked;
    races.clear();
    // Reads conflict with earlier writes only. Most earlier accesses are
    // ordered: that test stays inline, the filing of a race does not.
    state.history.forEachOverlapping(
        touch.bytes, !touch.write, gmAliasing, knowsRange,
        [&](const Access &earlier, int64_t lo, int64_t hi) {
          if (!orderedBefore(earlier))
            noteRace(races, earlier, lo, hi);
        });
    for (auto &[earlierOp, race] : races)
      report(std::get<0>(race), op, q, touch, std::get<1>(race),
             std::get<2>(race));
  }
  return seq;
}

void SyncChecker::recordAccess(Operation *op, Pipe pipe, Site site,
                               int64_t seq, ArrayRef<Touch> touches,
                               PathState &state) {
  unsigned q = site.unit;
  auto orderedBefore = orderedBeforeUnit(state, q, pipe);
  // The bytes this write covers of an earlier access ordered before it:
  // anything that conflicts with the earlier access there conflicts with
  // this write too, and is ordered after the earlier one if it is ordered
  // after this write (else it is reported against this write). So cut them
  // out, and the history stays the size of the bytes in use.
  for (const Touch &touch : touches)
    if (touch.write)
      state.history.cut(touch.bytes, orderedBefore);
  for (const Touch &touch : touches)
    state.history.add({op, pipe, seq, touch, site.cores, q});
  state.executed[q].insert(seq, seq + 1);
  // A quick walk forgets what no later access can race (FixedPoint.cpp): it
  // reports nothing, and what it keeps decides as all would. The full walk
  // keeps all, as it always did.
  if (!quick)
    return;
  // Found at the first sweep (most filings sweep nothing): the numbers
  // below a prefix need no look at each unit's knowledge.
  std::optional<std::array<int64_t, kNumUnits>> prefixes;
  for (const Touch &touch : touches)
    state.history.forgetSettled(touch.bytes, [&](const Access &earlier) {
      if (!prefixes)
        prefixes = settledPrefixes(state);
      return earlier.seq < (*prefixes)[earlier.unit] ||
             settledForAll(state, earlier.unit, earlier.seq);
    });
}

/// A call that dsaplan-settle-calls drained: its callee is synchronised on
/// its own, so it may run any pipe over any byte and use any flag. Nothing
/// of the caller may be in flight then: no flag raised and not consumed, and
/// every earlier access ordered before each pipe's (a barrier_all before
/// it), every later one after (a barrier_all after it).
void SyncChecker::settledCall(CallOpInterface call, PathState &state) {
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    InFlightDiagnostic diag = call->emitError();
    diag << "settled call with event " << std::get<2>(key) << " of <"
         << unitText(std::get<0>(key)) << " -> " << unitText(std::get<1>(key))
         << "> in flight: the callee's own flags may consume it";
    diag.attachNote(flag.setOp->getLoc()) << "the set_flag";
    return;
  }
  unsigned cores = rules.coresOfFunction();
  // Every pipe's accesses are checked before any is filed: they are one
  // callee's, which orders them itself.
  std::array<SmallVector<Touch>, kNumPipes> touches;
  std::array<int64_t, kNumPipes> seqs;
  std::array<Site, kNumPipes> callSites;
  for (size_t p = 0; p < kNumPipes; ++p) {
    Pipe pipe = static_cast<Pipe>(p);
    // The callee runs on its caller's core: only that core's pipes.
    if ((target.getPipe(pipe).cores & cores) == 0)
      continue;
    touches[p] = settledCallTouches(call, pipe, target,
                                    touchCache.unknownTerms());
    callSites[p] = siteOf(call, pipe, touches[p]);
    seqs[p] = checkAccess(call, pipe, callSites[p], touches[p], state);
  }
  for (size_t p = 0; p < kNumPipes; ++p)
    if (target.getPipe(static_cast<Pipe>(p)).cores & cores)
      recordAccess(call, static_cast<Pipe>(p), callSites[p], seqs[p],
                   touches[p], state);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

/// An op that is no control flow: an access if it touches shared memory.
bool SyncChecker::leaf(Operation &op, PathState &state) {
  LeafInfo info = leafInfoOf(op);
  switch (info.kind) {
  case LeafKind::SettledCall:
    settledCall(cast<CallOpInterface>(op), state);
    return true;
  case LeafKind::NoAccess:
    return true;
  case LeafKind::Access:
    access(&op, info.pipe, state);
    return true;
  case LeafKind::NoPipe:
    break;
  }
  failedAny = true;
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
    op.emitError() << "call to "
                   << (callee ? "@" + callee.getLeafReference().getValue().str()
                              : std::string("an indirect callee"))
                   << " passes a dsaplan tile or GM buffer but has no pipe";
    return true;
  }
  op.emitError() << "'" << op.getName()
                 << "' touches a dsaplan memory space or global memory but "
                    "has no pipe";
  return true;
}

/// What a leaf is, which the walk asks at each of its visits (an op in a
/// loop is visited once per unrolled iteration and path).
SyncChecker::LeafInfo SyncChecker::leafKindOf(Operation &op, bool memory) {
  if (rules.isSettled(&op) && isa<CallOpInterface>(op))
    return {LeafKind::SettledCall};
  if (!memory)
    return {LeafKind::NoAccess};
  if (std::optional<Pipe> pipe = getOpPipe(&op))
    return {LeafKind::Access, *pipe};
  return {LeafKind::NoPipe};
}

SyncChecker::OpFacts &SyncChecker::factsOf(Operation *op) {
  auto [known, first] = opFacts.try_emplace(op);
  if (first)
    known->second.memory = touchCache.isMemoryOp(op);
  return known->second;
}

SyncChecker::LeafInfo SyncChecker::leafInfoOf(Operation &op) {
  OpFacts &facts = factsOf(&op);
  if (!facts.leaf)
    facts.leaf = leafKindOf(op, facts.memory);
  return *facts.leaf;
}

/// Whether the walk above can follow `func`: every region holding an access
/// has one block, and every loop around one is an scf.for or scf.while
/// (unrolled) and every other op with regions runs them in order, once.
/// Anything else is an error here, never a silent pass.
bool SyncChecker::checkStructure() {
  const llvm::DenseSet<Region *> &withAccess = survey().regionsWithAccess;
  auto holdsAccess = [&](Region &region) {
    return withAccess.contains(&region);
  };
  bool ok = true;
  func->walk([&](Operation *op) {
    bool holds = llvm::any_of(op->getRegions(), holdsAccess);
    if (!holds)
      return;
    for (Region &region : op->getRegions())
      if (region.getBlocks().size() > 1 && holdsAccess(region)) {
        ok = false;
        if (op == func.getOperation())
          op->emitError() << "@" << func.getSymName() << ": function body with "
                          << region.getBlocks().size()
                          << " blocks (unstructured control flow) is not "
                             "supported; lift it to scf first";
        else
          op->emitError() << "'" << op->getName() << "' has a region with "
                          << region.getBlocks().size()
                          << " blocks (unstructured control flow), which is "
                             "not supported; lift it to scf first";
        return;
      }
    if (op == func.getOperation() ||
        isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp>(op))
      return;
    if (isa<scf::ForallOp, scf::ParallelOp>(op)) {
      ok = false;
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: its "
                         "iterations may run in any order; use scf.for";
      return;
    }
    auto branch = dyn_cast<RegionBranchOpInterface>(op);
    if (isa<LoopLikeOpInterface>(op) || (branch && branch.hasLoop())) {
      ok = false;
      op->emitError() << "'" << op->getName()
                      << "' over dsaplan memory is not supported: only "
                         "scf.for and scf.while loops are modelled; lower it "
                         "to scf.for";
    }
  });
  return ok;
}

bool SyncChecker::run(unsigned &checkedOut) {
  if (func.isExternal())
    return true; // a declaration: nothing runs here
  if (!checkStructure())
    return false;
  PathState state;
  RegionWalker<SyncChecker, PathState>(*this, kLoopIterations)
      .walkBlock(func.getBody().front(), state);
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    flag.setOp->emitError() << "event " << std::get<2>(key) << " of <"
                            << unitText(std::get<0>(key)) << " -> "
                            << unitText(std::get<1>(key))
                            << "> is set and never waited for";
  }
  reportLeftOverSignals(state);
  checkedOut = checked;
  return !failedAny;
}

/// A quick walk first (FixedPoint.cpp), its diagnostics dropped: it fails
/// whenever the full walk would. Only then the full walk, whose diagnostics
/// are the ones shown, the same wherever the quick walk left a loop. A
/// function of both cores has no quick walk: the checker that found so,
/// which has walked nothing yet, walks it fully (its touches computed once).
LogicalResult mlir::dsaplan::verifySync(func::FuncOp func, unsigned &checked) {
  TargetDescription target = TargetDescription::getForOp(func);
  checked = 0;
  SyncChecker quick(func, target, /*quick=*/true);
  if (!quick.mayWalkQuickly()) {
    quick.walkFully();
    return success(quick.run(checked));
  }
  {
    // Only this thread's: the pass may check other functions on others.
    ScopedDiagnosticHandler drop(
        func.getContext(), [thread = std::this_thread::get_id()](Diagnostic &) {
          return success(std::this_thread::get_id() == thread);
        });
    if (quick.run(checked))
      return success();
  }
  SyncChecker checker(func, target);
  checked = 0;
  return success(checker.run(checked));
}
