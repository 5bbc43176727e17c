//===- Checker.cpp - Independent race check of pipe synchronisation -------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Shares no code with dsaplan-insert-sync (only lib/Support's plain data:
// the interval set and the skeleton of the path-wise walk): its own byte
// ranges, its own notion of which ops access memory, and a happens-before
// that follows the hardware. Every access gets a sequence number of its pipe; each pipe q
// keeps, for every pipe p, the set of p's sequence numbers known to have
// finished before q's current point:
//
//   set_flag <p -> q>   captures what p has issued and what p knows;
//   wait_flag <p -> q>  adds the captured knowledge to q's;
//   pipe_barrier <p>    makes p's own earlier instructions finished for p.
//
// The function is walked path-wise (PathWalk.h): scf.if along both
// branches, loops unrolled three times and left after zero to three
// iterations; at a merge a sequence number stays known only if it is known
// on every path that ran it.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Verify/Checker.h"
#include "Bytes.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Support/IntervalSet.h"
#include "DsaPlan/Support/PathWalk.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <array>
#include <functional>
#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

namespace {


using Knowledge = std::array<IntervalSet, kNumPipes>;

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

struct Access {
  Operation *op;
  Pipe pipe;
  int64_t seq;
  Touch touch;
  /// The cores the op may run on (a CoreMask).
  unsigned cores = kBothCores;
  /// What tells two accesses apart: one execution of an op (its pipe and
  /// sequence number), the kind, and the bytes.
  using Key = std::tuple<int64_t, int, Operation *, int64_t, int64_t>;
  Key key() const {
    return {(seq * static_cast<int64_t>(kNumPipes) +
             static_cast<int64_t>(pipe)) * 2 + touch.write,
            touch.bytes.space, touch.bytes.alloc, touch.bytes.begin,
            touch.bytes.end};
  }
  bool operator==(const Access &o) const { return key() == o.key(); }
};

struct FlagState {
  Knowledge knowledge;
  Operation *setOp;
  bool operator==(const FlagState &o) const {
    return knowledge == o.knowledge;
  }
};

using FlagKey = std::tuple<int, int, int64_t>;

/// The accesses a later one may conflict with, filed by 4 KiB page of
/// memory: each page holds the part of each access inside it, so that an
/// access is checked against those that share a page with it and not
/// against all that ever ran. Pages are shared between the copies a branch
/// or a loop makes of the state and copied when one of them changes, since
/// most pages do not.
class History {
public:
  /// Calls `fn` on every access that overlaps `bytes`, once per page, with
  /// the overlap inside that page.
  void forEachOverlapping(
      const Bytes &bytes,
      llvm::function_ref<void(const Access &, int64_t, int64_t)> fn) const {
    if (bytes.space == kGlobalSpace)
      return forEachOverlappingGm(bytes, fn);
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      auto it = pages.find({bytes.space, page});
      if (it == pages.end())
        continue;
      for (const Access &earlier : *it->second) {
        const Bytes &a = earlier.touch.bytes;
        if (overlap(a, bytes))
          fn(earlier, std::max(a.begin, bytes.begin),
             std::min(a.end, bytes.end));
      }
    }
  }
  /// Cuts `bytes` out of the accesses for which `shadowed` holds.
  void cut(const Bytes &bytes,
           llvm::function_ref<bool(const Access &)> shadowed) {
    auto hit = [&](const Access &earlier) {
      return overlap(earlier.touch.bytes, bytes) && shadowed(earlier);
    };
    if (bytes.space == kGlobalSpace) {
      auto it = gmPages.find(bytes.gm.getAsOpaquePointer());
      if (it != gmPages.end() && llvm::any_of(*it->second, hit))
        cutPage(ownGmPage(bytes.gm), bytes, hit);
      return;
    }
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      auto it = pages.find({bytes.space, page});
      if (it == pages.end() || llvm::none_of(*it->second, hit))
        continue;
      cutPage(ownPage(it->first), bytes, hit);
    }
  }
  void add(const Access &access) {
    const Bytes &bytes = access.touch.bytes;
    if (bytes.space == kGlobalSpace) {
      ownGmPage(bytes.gm).push_back(access);
      return;
    }
    for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
      Access part = access;
      part.touch.bytes.begin = std::max(bytes.begin, page << kPageShift);
      part.touch.bytes.end = std::min(bytes.end, (page + 1) << kPageShift);
      ownPage({bytes.space, page}).push_back(part);
    }
  }
  /// Every access that ran on one of `histories`, once. The histories share
  /// the entry state's accesses and mostly differ on a few pages.
  static History unite(ArrayRef<const History *> histories) {
    History united = *histories.front();
    for (const History *history : histories.drop_front()) {
      for (const auto &[key, accesses] : history->pages)
        uniteInto(united.pages, key, accesses,
                  [&, k = key] { return &united.ownPage(k); });
      for (const auto &[key, accesses] : history->gmPages)
        uniteInto(united.gmPages, key, accesses, [&, k = key] {
          return &united.ownGmPage(Value::getFromOpaquePointer(k));
        });
    }
    return united;
  }

private:
  using PageKey = std::pair<int, int64_t>; // space (-1: unplaced), page
  using Page = std::shared_ptr<std::vector<Access>>;

  /// Global memory: one page per buffer, in the order first touched (the
  /// order diagnostics come in), since GM ranges may be unbounded and
  /// buffers that may alias are checked against each other whole.
  void forEachOverlappingGm(
      const Bytes &bytes,
      llvm::function_ref<void(const Access &, int64_t, int64_t)> fn) const {
    for (const auto &[key, accesses] : gmPages) {
      Value gm = Value::getFromOpaquePointer(key);
      if (gm == bytes.gm) {
        for (const Access &earlier : *accesses) {
          const Bytes &a = earlier.touch.bytes;
          if (a.unknown != bytes.unknown)
            fn(earlier, a.begin, a.end); // offsets differ by an unknown amount
          else if (overlap(a, bytes))
            fn(earlier, std::max(a.begin, bytes.begin),
               std::min(a.end, bytes.end));
        }
      } else if (mayBeSameGm(gm, bytes.gm)) {
        // Another buffer that may be this one: its bytes and ours may be
        // any of each other's.
        for (const Access &earlier : *accesses)
          fn(earlier, earlier.touch.bytes.begin, earlier.touch.bytes.end);
      }
    }
  }
  template <typename Map, typename Key, typename Own>
  static void uniteInto(Map &united, const Key &key, const Page &accesses,
                        Own own) {
    auto [it, inserted] = united.try_emplace(key, accesses);
    if (inserted || it->second == accesses || *it->second == *accesses)
      return;
    std::vector<Access> &page = *own();
    llvm::DenseSet<Access::Key> present;
    for (const Access &access : page)
      present.insert(access.key());
    for (const Access &access : *accesses)
      if (present.insert(access.key()).second)
        page.push_back(access);
  }
  /// Cuts `bytes` out of the accesses of `accesses` that `hit` selects.
  static void cutPage(std::vector<Access> &accesses, const Bytes &bytes,
                      llvm::function_ref<bool(const Access &)> hit) {
    std::vector<Access> kept;
    kept.reserve(accesses.size() + 1);
    for (const Access &earlier : accesses) {
      if (!hit(earlier)) {
        kept.push_back(earlier);
        continue;
      }
      const Bytes &a = earlier.touch.bytes;
      if (a.begin < bytes.begin) {
        kept.push_back(earlier);
        kept.back().touch.bytes.end = bytes.begin;
      }
      if (bytes.end < a.end) {
        kept.push_back(earlier);
        kept.back().touch.bytes.begin = bytes.end;
      }
    }
    accesses = std::move(kept);
  }
  std::vector<Access> &ownGmPage(Value gm) {
    Page &page = gmPages[gm.getAsOpaquePointer()];
    if (!page)
      page = std::make_shared<std::vector<Access>>();
    else if (page.use_count() > 1)
      page = std::make_shared<std::vector<Access>>(*page);
    return *page;
  }

  /// The page, unshared, to be changed.
  std::vector<Access> &ownPage(PageKey key) {
    Page &page = pages[key];
    if (!page)
      page = std::make_shared<std::vector<Access>>();
    else if (page.use_count() > 1)
      page = std::make_shared<std::vector<Access>>(*page);
    return *page;
  }
  static constexpr int kPageShift = 12;
  static int64_t firstPage(const Bytes &b) { return b.begin >> kPageShift; }
  static int64_t lastPage(const Bytes &b) { return (b.end - 1) >> kPageShift; }
  static bool overlap(const Bytes &a, const Bytes &b) {
    return a.sameMemory(b) && a.begin < b.end && b.begin < a.end;
  }
  llvm::DenseMap<PageKey, Page> pages;
  llvm::MapVector<const void *, Page> gmPages;
};

/// The wait that consumed the latest set of a flag: its sequence numbers on
/// the waiting pipe (one per path that reached here) and one of its ops.
struct Consumer {
  IntervalSet waits;
  Operation *waitOp = nullptr;
};

struct PathState {
  Knowledge executed;                       // per pipe
  std::array<Knowledge, kNumPipes> known;   // known[q][p]
  std::map<FlagKey, FlagState> flags;
  std::map<FlagKey, Consumer> consumers;
  History history;
  /// The iteration of each scf.for the walk is in (GM offsets move with it).
  LoopIterations iterations;
};

class SyncChecker {
public:
  SyncChecker(func::FuncOp func, const TargetDescription &target)
      : func(func), target(target) {}
  bool run(unsigned &checked);
  bool checkStructure();

private:
  friend class PathWalker<SyncChecker, PathState>;
  PathStep visit(Operation &op, PathState &state);
  /// Region ops other than scf.if, scf.index_switch, scf.for and scf.while
  /// (checkStructure refuses the loops among them) run their regions in
  /// order; any other op with regions (a linalg op) is one access.
  bool walksInto(Operation &op) { return isa<RegionBranchOpInterface>(op); }
  bool leaf(Operation &op, PathState &state);
  void access(Operation *op, Pipe pipe, PathState &state);
  void access(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
              PathState &state);
  /// Reports every earlier access `op`'s touches on `pipe` conflict with
  /// unordered; returns the access's sequence number.
  int64_t checkAccess(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
                      PathState &state);
  /// Files the access in the history, once every check of its op is done.
  void recordAccess(Operation *op, Pipe pipe, int64_t seq,
                    ArrayRef<Touch> touches, PathState &state);
  bool checkOverlap(Operation *op, Pipe pipe);
  void settledCall(CallOpInterface call, PathState &state);
  unsigned coresOfFunction();
  unsigned accessCores(Operation *op, Pipe pipe, ArrayRef<Touch> touches) const;
  std::optional<PathState> merge(ArrayRef<PathState> states, Operation *at);
  void report(const Access &earlier, Operation *later, Pipe pipe,
              const Touch &touch, int64_t begin, int64_t end);
  void reportCrossCore(const Access &earlier, const Access &later);
  bool checkReach(Operation *op, Pipe pipe, ArrayRef<Touch> touches);
  unsigned coresOf(Pipe pipe, ArrayRef<Touch> touches) const;
  void setFlag(SetFlagOp set, PathState &state);
  void waitFlag(WaitFlagOp wait, PathState &state);
  bool needsBarrier(Pipe pipe) const { return target.needsBarrier(pipe); }

  func::FuncOp func;
  const TargetDescription &target;
  /// Sequence numbers are per pipe (knowledge is per pipe too), so that what
  /// one path ran of a pipe stays a few contiguous ranges.
  std::array<int64_t, kNumPipes> counters{};
  bool failedAny = false;
  unsigned checked = 0;
  std::optional<unsigned> functionCores;
  llvm::DenseSet<std::pair<Operation *, Operation *>> reported;
  llvm::DenseSet<Operation *> reportedFlags;
  llvm::DenseSet<Operation *> reportedOverruns;
};

void SyncChecker::report(const Access &earlier, Operation *later, Pipe pipe,
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
      << stringifyPipe(pipe) << " and '" << earlier.op->getName()
      << "' on pipe " << stringifyPipe(earlier.pipe);
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

/// The space a touch is of; none for global memory.
std::optional<MemorySpace> spaceOfTouch(const Touch &touch) {
  if (touch.bytes.space >= 0)
    return static_cast<MemorySpace>(touch.bytes.space);
  if (touch.bytes.space == kUnplacedSpace)
    return cast<AllocOp>(touch.bytes.alloc).getSpace();
  return std::nullopt;
}

/// Every memory the op touches must be one the target lets its pipe reach.
bool SyncChecker::checkReach(Operation *op, Pipe pipe,
                             ArrayRef<Touch> touches) {
  for (const Touch &touch : touches) {
    std::optional<MemorySpace> space = spaceOfTouch(touch);
    // GM reach is not enforced yet (kernels in the tests write GM from V).
    if (!space || target.canAccess(pipe, space, touch.write))
      continue;
    failedAny = true;
    op->emitError() << "'" << op->getName() << "' on pipe "
                    << stringifyPipe(pipe) << " "
                    << (touch.write ? "writes " : "reads ")
                    << (space ? stringifyMemorySpace(*space) : "gm")
                    << ", which " << target.getName() << " pipe "
                    << stringifyPipe(pipe) << " cannot "
                    << (touch.write ? "write" : "read") << " (it "
                    << (touch.write ? "writes " : "reads ")
                    << target.describeReach(pipe, touch.write) << ")";
    return false;
  }
  return true;
}

/// The cores an op may run on: its pipe's, narrowed to the core of every
/// on-chip space it touches.
unsigned SyncChecker::coresOf(Pipe pipe, ArrayRef<Touch> touches) const {
  unsigned cores = target.getPipe(pipe).cores;
  for (const Touch &touch : touches)
    if (std::optional<MemorySpace> space = spaceOfTouch(touch))
      cores &= target.getCore(*space);
  return cores;
}

/// Flags order the pipes of one core: two conflicting accesses on
/// different cores are never ordered here, whatever flags lie between.
void SyncChecker::reportCrossCore(const Access &earlier, const Access &later) {
  if (!reported.insert({earlier.op, later.op}).second)
    return;
  failedAny = true;
  InFlightDiagnostic diag =
      later.op->emitError()
      << "'" << later.op->getName() << "' on pipe " << stringifyPipe(later.pipe)
      << " (" << stringifyCores(later.cores) << " core) and '"
      << earlier.op->getName() << "' on pipe " << stringifyPipe(earlier.pipe)
      << " (" << stringifyCores(earlier.cores) << " core) touch "
      << memoryName(later.touch.bytes)
      << " from different cores: no set_flag/wait_flag orders them";
  diag.attachNote(earlier.op->getLoc()) << "the earlier access";
}

void SyncChecker::access(Operation *op, Pipe pipe, PathState &state) {
  SmallVector<Touch> touches = touchesOf(op, state.iterations);
  if (!checkReach(op, pipe, touches) || !checkOverlap(op, pipe))
    return;
  access(op, pipe, touches, state);
}

/// A vector instruction's source and destination share a start address with
/// the same layout, or are disjoint (Ascend C's address-overlap rule): an
/// op that reads one placed tile and writes another over part of it
/// overwrites inputs before it reads them (an in-place op placed shifted).
///
///   linalg.exp {dsaplan.in_place} ins(%a : [172032, 184320))
///                                 outs(%b : [167936, 180224))
///   // error: a partial overlap
///
/// Checked on the ops marked `dsaplan.in_place`, the only ones whose inputs
/// the placement lets die where their outputs are born; the inputs and
/// outputs of other ops are live together, which the placement validator
/// keeps apart.
bool SyncChecker::checkOverlap(Operation *op, Pipe pipe) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !op->hasAttr(DsaPlanDialect::getInPlaceAttrName()))
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &read : instances) {
    if (!isa<MemoryEffects::Read>(read.getEffect()) || !read.getValue())
      continue;
    std::optional<Bytes> a = exactTileBytes(read.getValue());
    for (const MemoryEffects::EffectInstance &write : instances) {
      if (!a || !isa<MemoryEffects::Write>(write.getEffect()) ||
          !write.getValue())
        continue;
      std::optional<Bytes> b = exactTileBytes(write.getValue());
      if (!b || !a->sameMemory(*b) || a->end <= b->begin ||
          b->end <= a->begin ||
          (a->begin == b->begin &&
           read.getValue().getType() == write.getValue().getType()))
        continue;
      failedAny = true;
      op->emitError() << "'" << op->getName() << "' on pipe "
                      << stringifyPipe(pipe) << " reads bytes [" << a->begin
                      << ", " << a->end << ") of " << memoryName(*a)
                      << " and writes [" << b->begin << ", " << b->end
                      << "): a source and a destination must start at the "
                         "same address with the same layout, or be disjoint";
      return false;
    }
  }
  return true;
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
         << stringifyPipe(static_cast<Pipe>(std::get<0>(key))) << " -> "
         << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
         << "> in flight: the callee's own flags may consume it";
    diag.attachNote(flag.setOp->getLoc()) << "the set_flag";
    return;
  }
  TargetDescription target = TargetDescription::getForOp(func);
  unsigned cores = coresOfFunction();
  // Every pipe's accesses are checked before any is filed: they are one
  // callee's, which orders them itself.
  std::array<SmallVector<Touch>, kNumPipes> touches;
  std::array<int64_t, kNumPipes> seqs;
  for (size_t p = 0; p < kNumPipes; ++p) {
    Pipe pipe = static_cast<Pipe>(p);
    // The callee runs on its caller's core: only that core's pipes.
    if ((target.getPipe(pipe).cores & cores) == 0)
      continue;
    touches[p] = settledCallTouches(call, pipe, target);
    seqs[p] = checkAccess(call, pipe, touches[p], state);
  }
  for (size_t p = 0; p < kNumPipes; ++p)
    if (target.getPipe(static_cast<Pipe>(p)).cores & cores)
      recordAccess(call, static_cast<Pipe>(p), seqs[p], touches[p], state);
}

/// The cores an access may run on: a settled call's pseudo-accesses stand
/// for a callee on the caller's core, whichever that is.
unsigned SyncChecker::accessCores(Operation *op, Pipe pipe,
                                  ArrayRef<Touch> touches) const {
  if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
    return kBothCores;
  return coresOf(pipe, touches);
}

/// The cores the function's own accesses run on (each op's pipe narrowed by
/// the spaces it touches); both when it has none.
unsigned SyncChecker::coresOfFunction() {
  if (functionCores)
    return *functionCores;
  unsigned cores = kNoCore;
  func.walk([&](Operation *op) {
    if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
      return;
    if (std::optional<Pipe> pipe = getOpPipe(op))
      if (isMemoryOp(op))
        cores |= coresOf(*pipe, touchesOf(op, LoopIterations()));
  });
  functionCores = cores ? cores : kBothCores;
  return *functionCores;
}

void SyncChecker::access(Operation *op, Pipe pipe, ArrayRef<Touch> touches,
                         PathState &state) {
  int64_t seq = checkAccess(op, pipe, touches, state);
  recordAccess(op, pipe, seq, touches, state);
}

int64_t SyncChecker::checkAccess(Operation *op, Pipe pipe,
                                 ArrayRef<Touch> touches, PathState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  int64_t seq = ++counters[q];
  auto orderedBefore = [&](const Access &earlier) {
    unsigned p = static_cast<unsigned>(earlier.pipe);
    return state.known[q][p].contains(earlier.seq) ||
           (p == q && !needsBarrier(pipe));
  };
  unsigned cores = accessCores(op, pipe, touches);
  for (const Touch &touch : touches) {
    ++checked;
    // One report per earlier op, over the bytes of all its pages.
    llvm::MapVector<Operation *, std::tuple<Access, int64_t, int64_t>> races;
    state.history.forEachOverlapping(
        touch.bytes, [&](const Access &earlier, int64_t lo, int64_t hi) {
          if (!earlier.touch.write && !touch.write)
            return;
          if ((earlier.cores & cores) == 0 && earlier.cores && cores)
            return reportCrossCore(earlier, {op, pipe, seq, touch, cores});
          if (orderedBefore(earlier))
            return;
          auto [it, inserted] = races.try_emplace(earlier.op, earlier, lo, hi);
          if (!inserted) {
            std::get<1>(it->second) = std::min(std::get<1>(it->second), lo);
            std::get<2>(it->second) = std::max(std::get<2>(it->second), hi);
          }
        });
    for (auto &[earlierOp, race] : races)
      report(std::get<0>(race), op, pipe, touch, std::get<1>(race),
             std::get<2>(race));
  }
  return seq;
}

void SyncChecker::recordAccess(Operation *op, Pipe pipe, int64_t seq,
                               ArrayRef<Touch> touches, PathState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  auto orderedBefore = [&](const Access &earlier) {
    unsigned p = static_cast<unsigned>(earlier.pipe);
    return state.known[q][p].contains(earlier.seq) ||
           (p == q && !needsBarrier(pipe));
  };
  unsigned cores = accessCores(op, pipe, touches);
  // The bytes this write covers of an earlier access ordered before it:
  // anything that conflicts with the earlier access there conflicts with
  // this write too, and is ordered after the earlier one if it is ordered
  // after this write (else it is reported against this write). So cut them
  // out, and the history stays the size of the bytes in use.
  for (const Touch &touch : touches)
    if (touch.write)
      state.history.cut(touch.bytes, orderedBefore);
  for (const Touch &touch : touches)
    state.history.add({op, pipe, seq, touch, cores});
  state.executed[q].insert(seq, seq + 1);
}

/// A flag is one bit: set_flag raises it once its pipe has finished what it
/// issued before, wait_flag blocks while it is low and lowers it. So a set
/// must be ordered (happens-before, not program text) after the wait that
/// consumed the previous set of the same flag: else both sets can fire
/// before that wait, the second signal is lost and a later wait hangs.
///
///   set_flag <mte2 -> v>, 0     // (1)
///   wait_flag <mte2 -> v>, 0    // V consumes (1)
///   set_flag <mte2 -> v>, 0     // may fire before V reached the wait
///   wait_flag <mte2 -> v>, 0    // hangs if it did
void SyncChecker::setFlag(SetFlagOp set, PathState &state) {
  FlagKey key{static_cast<int>(set.getSrc()), static_cast<int>(set.getDst()),
              set.getEvent()};
  unsigned p = static_cast<unsigned>(set.getSrc());
  auto flagName = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    return diag << "event " << set.getEvent() << " of <"
                << stringifyPipe(set.getSrc()) << " -> "
                << stringifyPipe(set.getDst()) << ">";
  };
  if (state.flags.count(key)) {
    failedAny = true;
    InFlightDiagnostic diag = set.emitError();
    flagName(diag) << " is set again before its wait";
    return;
  }
  auto consumer = state.consumers.find(key);
  if (consumer != state.consumers.end()) {
    unsigned q = static_cast<unsigned>(set.getDst());
    IntervalSet unordered = consumer->second.waits.minus(state.known[p][q]);
    if (!unordered.empty() &&
        reportedOverruns.insert(set.getOperation()).second) {
      failedAny = true;
      InFlightDiagnostic diag = set.emitError();
      flagName(diag) << " may be set again before the wait that consumes "
                        "its previous set has run (nothing orders this set "
                        "after that wait): the signal would be lost and a "
                        "wait would hang";
      diag.attachNote(consumer->second.waitOp->getLoc())
          << "the wait it is not ordered after";
    }
  }
  FlagState flag{state.known[p], set.getOperation()};
  flag.knowledge[p].unite(state.executed[p]);
  state.flags[key] = flag;
}

/// A wait runs on its pipe like an access (a later set of its flag must know
/// it finished) and hands over what the set captured.
void SyncChecker::waitFlag(WaitFlagOp wait, PathState &state) {
  FlagKey key{static_cast<int>(wait.getSrc()), static_cast<int>(wait.getDst()),
              wait.getEvent()};
  auto it = state.flags.find(key);
  if (it == state.flags.end()) {
    failedAny = true;
    wait.emitError() << "waits for event " << wait.getEvent() << " of <"
                     << stringifyPipe(wait.getSrc()) << " -> "
                     << stringifyPipe(wait.getDst())
                     << "> that no set_flag raised: the pipe would hang";
    return;
  }
  unsigned q = static_cast<unsigned>(wait.getDst());
  for (size_t p = 0; p < kNumPipes; ++p)
    state.known[q][p].unite(it->second.knowledge[p]);
  state.flags.erase(it);
  int64_t seq = ++counters[q];
  state.executed[q].insert(seq, seq + 1);
  Consumer &consumer = state.consumers[key];
  consumer.waits = IntervalSet();
  consumer.waits.insert(seq, seq + 1);
  consumer.waitOp = wait.getOperation();
}

/// One op of the walk; the structure (branches, loops) is PathWalker's.
PathStep SyncChecker::visit(Operation &op, PathState &state) {
  countIteration(op, state.iterations);
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    setFlag(set, state);
    return PathStep::Done;
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    waitFlag(wait, state);
    return PathStep::Done;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    unsigned p = static_cast<unsigned>(barrier.getPipe());
    state.known[p][p].unite(state.executed[p]);
    return PathStep::Done;
  }
  // Every pipe drains: each knows all that every pipe ran before it.
  if (isa<BarrierAllOp>(op)) {
    for (size_t q = 0; q < kNumPipes; ++q)
      for (size_t p = 0; p < kNumPipes; ++p)
        state.known[q][p].unite(state.executed[p]);
    return PathStep::Done;
  }
  return PathStep::Structure;
}

/// An op that is no control flow: an access if it touches shared memory.
bool SyncChecker::leaf(Operation &op, PathState &state) {
  if (op.hasAttr(DsaPlanDialect::getSettledAttrName()))
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      settledCall(call, state);
      return true;
    }
  if (!isMemoryOp(&op))
    return true;
  if (std::optional<Pipe> pipe = getOpPipe(&op)) {
    access(&op, *pipe, state);
    return true;
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

std::optional<PathState> SyncChecker::merge(ArrayRef<PathState> states,
                                            Operation *at) {
  PathState merged;
  // The paths agree on the loops around the merge; the loop they leave (if
  // any) is not entered again without starting over.
  merged.iterations = states.front().iterations;
  for (const PathState &s : states)
    for (size_t p = 0; p < kNumPipes; ++p)
      merged.executed[p].unite(s.executed[p]);
  // Known at the merge: known on every path that ran it.
  auto mergeKnowledge = [&](auto knowledgeOf) {
    Knowledge result;
    for (size_t p = 0; p < kNumPipes; ++p) {
      bool first = true;
      for (const PathState &s : states) {
        IntervalSet onPath = knowledgeOf(s)[p];
        onPath.unite(merged.executed[p].minus(s.executed[p]));
        result[p] = first ? onPath : result[p].intersect(onPath);
        first = false;
      }
    }
    return result;
  };
  for (size_t q = 0; q < kNumPipes; ++q)
    merged.known[q] =
        mergeKnowledge([&](const PathState &s) -> const Knowledge & { return s.known[q]; });
  // Flags must be balanced: the same ones set on every path.
  for (const PathState &s : states) {
    for (const auto &[key, flag] : s.flags) {
      bool everywhere = llvm::all_of(states, [&, k = key](const PathState &o) {
        return o.flags.count(k) != 0;
      });
      if (!everywhere && reportedFlags.insert(flag.setOp).second) {
        failedAny = true;
        InFlightDiagnostic diag =
            at->emitError()
            << "unbalanced flags: event " << std::get<2>(key) << " of <"
            << stringifyPipe(static_cast<Pipe>(std::get<0>(key))) << " -> "
            << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
            << "> is set on some paths through this op and not on others";
        diag.attachNote(flag.setOp->getLoc()) << "set here";
      }
      if (everywhere && !merged.flags.count(key)) {
        FlagState combined{mergeKnowledge([&, k = key](const PathState &o)
                                              -> const Knowledge & {
                             return o.flags.at(k).knowledge;
                           }),
                           flag.setOp};
        merged.flags[key] = combined;
      }
    }
  }
  // A later set must be ordered after the consumer of every path.
  for (const PathState &s : states)
    for (const auto &[key, consumer] : s.consumers) {
      Consumer &into = merged.consumers[key];
      into.waits.unite(consumer.waits);
      if (!into.waitOp)
        into.waitOp = consumer.waitOp;
    }
  // Every access that may have run stays a candidate.
  SmallVector<const History *> histories;
  for (const PathState &s : states)
    histories.push_back(&s.history);
  merged.history = History::unite(histories);
  return merged;
}

/// Whether the walk above can follow `func`: every region holding an access
/// has one block, and every loop around one is an scf.for or scf.while
/// (unrolled) and every other op with regions runs them in order, once.
/// Anything else is an error here, never a silent pass.
bool SyncChecker::checkStructure() {
  auto holdsAccess = [](Region &region) {
    return region.walk([](Operation *inner) {
                   return isMemoryOp(inner) ? WalkResult::interrupt()
                                            : WalkResult::advance();
                 })
        .wasInterrupted();
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
  PathWalker<SyncChecker, PathState>(*this).walkBlock(func.getBody().front(),
                                                      state);
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    flag.setOp->emitError() << "event " << std::get<2>(key) << " of <"
                            << stringifyPipe(static_cast<Pipe>(std::get<0>(key)))
                            << " -> "
                            << stringifyPipe(static_cast<Pipe>(std::get<1>(key)))
                            << "> is set and never waited for";
  }
  checkedOut = checked;
  return !failedAny;
}

} // namespace

LogicalResult mlir::dsaplan::verifySync(func::FuncOp func, unsigned &checked) {
  TargetDescription target = TargetDescription::getForOp(func);
  SyncChecker checker(func, target);
  checked = 0;
  return success(checker.run(checked));
}
