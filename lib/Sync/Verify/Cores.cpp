//===- Cores.cpp - The verifier's cube and vector cores -------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A kernel of both cores is one program that each core runs (docs/sync.md,
// "Cross-core synchronisation"). The verifier gives the cube core's pipes
// the units 0..6 and the vector core's 7..13: the cube's MTE2 and the
// vector core's are two pipes, with two sets of flags, and nothing but a
// cross-core flag carries knowledge from one core to the other:
//
//   cross_core_set cube <fix>, mode 2, id 0
//       a signal in the vector core's counter 0, carrying what the cube's
//       FIX knows and has issued;
//   cross_core_wait vector, mode 2, id 0
//       takes the oldest signal: every pipe of the vector core learns what
//       it carries (the wait holds the whole core).
//
// A counter is checked to balance (the same signals on every path, none
// left at the end, never a wait on an empty one), to be set from one pipe
// only (so that its signals arrive in the order they are set), and to hold
// no more than the target's limit along a path. Written apart from the
// inserter and the simulator.
//
//===----------------------------------------------------------------------===//

#include "SyncChecker.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

namespace {

const char *coreOfBase(unsigned base) { return base ? "vector" : "cube"; }

/// Whether the verifier models a cross-core op's mode; reports it if not.
bool isModelledMode(Operation *op, int64_t mode) {
  if (mode == kCubeVectorMode)
    return true;
  op->emitError() << "mode " << mode
                  << " synchronises cores of one kind; the verifier models "
                     "one cube and one vector core (mode 2) only";
  return false;
}

} // namespace

/// Files the regions around `op` up to the function's.
static void markRegionsAround(Operation *op,
                              llvm::DenseSet<Region *> &regions) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentRegion())
    if (!regions.insert(region).second)
      return; // and those around it, by an op found earlier
}

/// One walk over every op answers the questions asked of the whole
/// function: whether it holds both cores, which units access memory, which
/// regions hold an access and which loops move an access's bytes.
const SyncChecker::Survey &SyncChecker::survey() {
  if (surveyed)
    return *surveyed;
  Survey &found = surveyed.emplace();
  unsigned seen = kNoCore;
  std::array<bool, kNumUnits> accessing;
  accessing.fill(false);
  func.walk([&](Operation *op) {
    // Most ops are flags and barriers: no access, and no attribute to ask.
    if (isPlanOnlyOp(op))
      return;
    bool settled = rules.isSettled(op);
    // What the walk will ask of the op as a leaf is known here (leafKindOf).
    OpFacts &facts = factsOf(op);
    if (facts.memory) {
      markRegionsAround(op, found.regionsWithAccess);
      // An scf.for whose iterations move the op's bytes (FixedPoint.cpp).
      for (Value iv : touchCache.movesWith(op))
        found.movingLoops.insert(
            cast<BlockArgument>(iv).getOwner()->getParentOp());
    }
    std::optional<Pipe> pipe;
    if (settled && isa<CallOpInterface>(op)) {
      // A settled call accesses with every pipe of its core.
      for (size_t p = 0; p < kNumPipes; ++p)
        accessing[p] = true;
      facts.leaf = {LeafKind::SettledCall};
    } else if (facts.memory) {
      pipe = getOpPipe(op);
      if (pipe)
        accessing[static_cast<unsigned>(*pipe)] = true;
      facts.leaf = pipe ? LeafInfo{LeafKind::Access, *pipe}
                        : LeafInfo{LeafKind::NoPipe};
    } else {
      facts.leaf = {LeafKind::NoAccess};
    }
    if (isa<CrossCoreSetOp, CrossCoreWaitOp>(op)) {
      seen = kBothCores;
      return;
    }
    if (settled || !pipe)
      return;
    unsigned cores =
        rules.accessCores(op, *pipe, touchCache.get(op, LoopIterations()));
    if (cores != kBothCores)
      seen |= cores;
  });
  for (unsigned q = 0; q < kNumUnits; ++q)
    if (accessing[q])
      found.accessUnits.push_back(q);
  found.bothCores = seen == kBothCores;
  return found;
}

SmallVector<unsigned, 2> SyncChecker::unitBases(unsigned cores) {
  if (!holdsBothCores())
    return {0};
  return firstUnitsOf(cores);
}

std::optional<unsigned> SyncChecker::accessUnit(Operation *op, Pipe pipe,
                                                unsigned cores) {
  SmallVector<unsigned, 2> bases = unitBases(cores);
  if (bases.size() > 1) {
    // A settled call stands for its caller's core: in a kernel of both it
    // is refused by the pipe reach of its pseudo-accesses elsewhere.
    if (reportedFlags.insert(op).second) {
      failedAny = true;
      op->emitError() << "'" << op->getName() << "' on pipe "
                      << stringifyPipe(pipe)
                      << " may run on the cube or the vector core, and this "
                         "function holds ops of both: say which with "
                         "dsaplan.core";
    }
    return std::nullopt;
  }
  return bases.front() + static_cast<unsigned>(pipe);
}

std::string SyncChecker::unitText(unsigned unit) {
  std::string name = stringifyPipe(static_cast<Pipe>(unit % kNumPipes)).str();
  if (!holdsBothCores())
    return name;
  return name + " (" + coreOfBase(unit - unit % kNumPipes) + " core)";
}

/// A set adds a signal to the other core's counter, carrying what its pipe
/// knows and has issued.
void SyncChecker::crossCoreSet(CrossCoreSetOp set, PathState &state) {
  if (!isModelledMode(set, set.getMode())) {
    failedAny = true;
    return;
  }
  unsigned p =
      firstUnitOf(set.getCore()) + static_cast<unsigned>(set.getPipe());
  Core to = otherCore(set.getCore());
  Counter &counter = state.counters[{firstUnitOf(to), set.getId()}];
  auto name = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    return diag << "cross-core id " << set.getId() << " of the "
                << stringifyCore(to) << " core";
  };
  if (counter.setter >= 0 && counter.setter != static_cast<int>(p)) {
    failedAny = true;
    InFlightDiagnostic diag = set.emitError();
    name(diag) << " is set on " << unitText(p) << " and on "
               << unitText(counter.setter)
               << ": its signals may arrive in either order, and a wait may "
                  "take the wrong one";
    return;
  }
  int64_t limit = target.getCrossCore().counterLimit;
  if (static_cast<int64_t>(counter.signals.size()) >= limit) {
    failedAny = true;
    InFlightDiagnostic diag = set.emitError();
    name(diag) << " would hold " << counter.signals.size() + 1
               << " signals, and a counter of " << target.getName() << " holds "
               << limit;
    return;
  }
  counter.setter = p;
  counter.signals.push_back(
      {FlagState::capture(state.known, p, state.executed[p]),
       set.getOperation()});
}

/// A wait takes the oldest signal; it holds the whole core, so every pipe
/// of the core learns what the signal carries, and that the wait passed.
void SyncChecker::crossCoreWait(CrossCoreWaitOp wait, PathState &state) {
  if (!isModelledMode(wait, wait.getMode())) {
    failedAny = true;
    return;
  }
  unsigned base = firstUnitOf(wait.getCore());
  Counter &counter = state.counters[{base, wait.getId()}];
  if (counter.signals.empty()) {
    failedAny = true;
    wait.emitError() << "waits on cross-core id " << wait.getId() << " of the "
                     << stringifyCore(wait.getCore())
                     << " core, which no cross_core_set has signalled on "
                        "this path: the core would hang";
    return;
  }
  FlagState signal = counter.signals.front();
  counter.signals.erase(counter.signals.begin());
  unsigned s = base + static_cast<unsigned>(Pipe::s);
  int64_t seq = ++counters[s];
  state.executed[s].insert(seq, seq + 1);
  for (unsigned q = base; q < base + kNumPipes; ++q) {
    for (size_t p = 0; p < kNumUnits; ++p)
      state.known.unite(q, p, signal[p]);
    state.known.own(q)[s].insert(seq, seq + 1);
  }
}

/// Counters must hold as many signals on every path; what a signal carries
/// at the merge is what it carries on every path that set it.
void SyncChecker::mergeCounters(ArrayRef<PathState> states, Operation *at,
                                PathState &merged) {
  std::set<CounterKey> keys;
  for (const PathState &s : states)
    for (const auto &[key, counter] : s.counters)
      keys.insert(key);
  for (const CounterKey &key : keys) {
    auto signalsOn = [&](const PathState &s) -> const Counter * {
      auto it = s.counters.find(key);
      return it == s.counters.end() ? nullptr : &it->second;
    };
    const Counter *first = signalsOn(states.front());
    size_t size = first ? first->signals.size() : 0;
    bool balanced = llvm::all_of(states, [&](const PathState &s) {
      const Counter *c = signalsOn(s);
      return (c ? c->signals.size() : 0) == size;
    });
    if (!balanced) {
      if (reportedFlags.insert(at).second) {
        failedAny = true;
        at->emitError() << "unbalanced cross-core flags: id " << key.second
                        << " of the " << coreOfBase(key.first)
                        << " core holds a different number of signals on "
                           "different paths through this op";
      }
      continue;
    }
    Counter &into = merged.counters[key];
    for (const PathState &s : states)
      if (const Counter *c = signalsOn(s); c && c->setter >= 0)
        into.setter = c->setter;
    for (size_t i = 0; i < size; ++i) {
      Knowledge knowledge;
      Operation *setOp = nullptr;
      for (size_t p = 0; p < kNumUnits; ++p) {
        bool firstPath = true;
        for (const PathState &s : states) {
          const FlagState &on = signalsOn(s)->signals[i];
          IntervalSet known = on[p];
          known.unite(merged.executed[p].minus(s.executed[p]));
          knowledge[p] = firstPath ? known : knowledge[p].intersect(known);
          setOp = on.setOp;
          firstPath = false;
        }
      }
      into.signals.push_back(
          {std::make_shared<const Capture>(std::move(knowledge)), setOp});
    }
  }
}

void SyncChecker::reportLeftOverSignals(const PathState &state) {
  for (const auto &[key, counter] : state.counters) {
    if (counter.signals.empty())
      continue;
    failedAny = true;
    counter.signals.front().setOp->emitError()
        << "cross-core id " << key.second << " of the " << coreOfBase(key.first)
        << " core ends the function holding " << counter.signals.size()
        << (counter.signals.size() == 1 ? " signal" : " signals")
        << " that no cross_core_wait takes";
  }
}
