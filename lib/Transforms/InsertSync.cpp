//===- InsertSync.cpp - Range-aware set_flag/wait_flag insertion ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// 1. Collect the accesses of every op that touches dsaplan memory, with its
//    pipe and byte ranges (MemoryAccess analysis).
// 2. Find the dependencies by walking the function in program order over a
//    shadow of each memory space: every byte range remembers its last
//    writers and the readers since. An access depends on the last writers of
//    its bytes and, if it writes, on the readers since; older accesses are
//    ordered through those (happens-before is transitive), so the work is
//    linear in the accesses, not quadratic. Loops are walked twice: what the
//    second walk finds against the first is a dependency around the back
//    edge. Each dependency becomes a requirement in the innermost block
//    holding both ops (forward), or in the body of the loop (back edge).
// 3. Meet the requirements by walking each block forward with what every
//    pipe knows to have finished (a vector clock per pipe, as gaps of the
//    block): a requirement that is already known, through syncs of the
//    input or ones inserted earlier, gets nothing; otherwise a set right
//    after the producer and a wait right before the consumer (or a barrier).
//    The walk is block-local: chains through the branches of a nested
//    scf.if, or through single ops inside a nested loop, escape it.
// 4. Give each pair an event id and create the ops, each decision a group.
// 5. Within a budget, drop the groups the others imply (SyncPruning.h), so
//    that no inserted sync can go without leaving a dependency unordered.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Analysis/SupportedStructure.h"
#include "DsaPlan/Analysis/SyncDependencies.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Transforms/Passes.h"
#include "ReportFiles.h"
#include "SyncPictures.h"
#include "SyncPruning.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <limits>
#include <map>
#include <tuple>

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANINSERTSYNC
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr unsigned kNumPipes = 7;
/// Loop pairs of one loop and pipe pair (each holds an event id over the
/// whole loop, and nested loops need ids too).
constexpr size_t kMaxLoopPairs = 4;

/// Pipes that issue an instruction without waiting for the previous one to
/// finish, so that a same-pipe dependency needs a pipe_barrier.
bool needsBarrier(Pipe pipe) { return pipe != Pipe::s; }

unsigned pipeIndex(Pipe pipe) { return static_cast<unsigned>(pipe); }

/// A gap of a block: gap g is just before the block's op number g.
using Gap = unsigned;

/// The access of pipe `src` at op `after` of a block must finish before the
/// access of pipe `dst` at op `before` starts. Forward: after < before, both
/// in one execution of the block; around a back edge: `after` in one
/// iteration of the loop body and `before` in the next.
struct Requirement {
  unsigned after, before;
  Pipe src, dst;
  /// Consumers first, and for one consumer the latest producer first: its
  /// set carries the most knowledge.
  bool operator<(const Requirement &o) const {
    return std::make_tuple(before, -static_cast<int64_t>(after), src, dst) <
           std::make_tuple(o.before, -static_cast<int64_t>(o.after), o.src,
                           o.dst);
  }
  bool operator==(const Requirement &o) const {
    return after == o.after && before == o.before && src == o.src &&
           dst == o.dst;
  }
};

/// A flag pair (or, with set == wait, a barrier) the cover decided.
/// `rank` is the order of decisions: at one gap, the sets of later waits
/// come first, then waits and barriers in the order of decision, a set
/// whose wait is at the same gap just before it, as the cover assumed.
struct FlagPair {
  Gap set, wait;
  unsigned rank = 0;
};

/// Key of a dependency between two pipes in one block (or loop).
using PairKey = std::tuple<void *, Pipe, Pipe>;
using PipeKey = std::pair<void *, Pipe>;

//===----------------------------------------------------------------------===//
// Knowledge: what each pipe knows to have finished
//===----------------------------------------------------------------------===//

/// Knowledge is a prefix of a pipe's instruction stream: a set_flag hands
/// over everything its pipe issued before it, a barrier makes everything its
/// pipe issued before it finished. For each pipe p, a Clock entry is g + 1
/// when p's stream is known finished up to gap g of the current execution of
/// the block (which takes in all that p issued before: outside the block
/// and, in a loop body, in earlier iterations), and 0 when nothing of the
/// current execution is known.
using Clock = std::array<int32_t, kNumPipes>;

/// What a set_flag hands to its wait. `previous` (in a loop body): entry g
/// when the stream is known finished up to gap g of the previous iteration.
struct Payload {
  Clock current{}, previous{};

  /// The same knowledge, one iteration later.
  Payload nextIteration() const {
    Payload next;
    for (unsigned p = 0; p < kNumPipes; ++p)
      next.previous[p] = std::max(current[p] - 1, 0);
    return next;
  }
};

/// What each pipe knows at a gap of a block.
struct Knowledge {
  std::array<Payload, kNumPipes> of{};

  /// Whether `dst` knows that the access of `src` at `op` finished: in the
  /// current execution of the block, or in the previous iteration (which
  /// anything known of the current one covers).
  bool knows(Pipe dst, Pipe src, unsigned op, bool previousIteration) const {
    const Payload &k = of[pipeIndex(dst)];
    int32_t current = k.current[pipeIndex(src)];
    if (!previousIteration)
      return current > static_cast<int32_t>(op) + 1;
    return current >= 1 || k.previous[pipeIndex(src)] > static_cast<int32_t>(op);
  }
  /// A set_flag on `pipe` at `gap`: what the pipe knows and its own stream
  /// up to the gap.
  Payload capture(Pipe pipe, Gap gap) const {
    Payload payload = of[pipeIndex(pipe)];
    int32_t &own = payload.current[pipeIndex(pipe)];
    own = std::max<int32_t>(own, gap + 1);
    return payload;
  }
  void receive(Pipe pipe, const Payload &payload) {
    Payload &k = of[pipeIndex(pipe)];
    for (unsigned p = 0; p < kNumPipes; ++p) {
      k.current[p] = std::max(k.current[p], payload.current[p]);
      k.previous[p] = std::max(k.previous[p], payload.previous[p]);
    }
  }
  /// pipe_barrier on `pipe` at `gap`.
  void barrier(Pipe pipe, Gap gap) {
    int32_t &own = of[pipeIndex(pipe)].current[pipeIndex(pipe)];
    own = std::max<int32_t>(own, gap + 1);
  }
  /// The state at the start of the next iteration of a loop body.
  Knowledge nextIteration() const {
    Knowledge next;
    for (unsigned q = 0; q < kNumPipes; ++q)
      next.of[q] = of[q].nextIteration();
    return next;
  }
};

/// A wait or barrier the cover put at a gap of a block (sets need no entry:
/// they change nobody's knowledge until their wait).
struct Inserted {
  Pipe src, dst;
  Gap set;
  bool barrier;
};

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

class SyncPlanner {
public:
  SyncPlanner(func::FuncOp func, DependencyScope scope, int64_t skipSync)
      : func(func), scope(scope), skipSync(skipSync) {}

  LogicalResult collect();
  void findDependencies();
  void cover();
  /// Creates the syncs, each decision a group of ops.
  LogicalResult materialize();
  /// Drops the groups the others imply (SyncPruning), walking at most
  /// `budget` ops in its checks; returns how many.
  unsigned prune(int64_t budget);
  /// Moves pairs whose set may overrun an earlier set of its flag.
  LogicalResult assignSafeEventIds() {
    return ::mlir::dsaplan::assignSafeEventIds(func, groups, idRepairs);
  }
  const EventIdRepairs &getIdRepairs() const { return idRepairs; }
  /// Ops the pruning checks walked, and whether they checked every group.
  int64_t getPruneSteps() const { return pruneSteps; }
  bool isPruneComplete() const { return pruneComplete; }
  /// test-skip-sync: erases the N-th group left.
  void skipForTest();
  void count(unsigned &flagPairs, unsigned &loopPairs, unsigned &eagerPairs,
             unsigned &barriers) const;
  /// Unordered pairs of ops with conflicting accesses (an op with itself in
  /// a loop): what a naive inserter would give one flag pair each.
  unsigned countConflictingPairs() const {
    return mlir::dsaplan::countConflictingPairs(func, ops, scope);
  }
  /// Flag pairs whose set moved down to their wait for want of an event id.
  unsigned getNumLateSets() const { return numLateSets; }

private:
  int64_t pruneSteps = 0;
  bool pruneComplete = true;
  // Requirements.
  void requireForward(Operation *from, Operation *to, Pipe src, Pipe dst);
  void requireAcrossIterations(Operation *loop, Operation *from,
                               Operation *to, Pipe src, Pipe dst);

  // Cover.
  Knowledge coverBlock(Block *block);
  void meetForward(Block *block, const Requirement &req, Gap gap,
                   Knowledge &knowledge, ArrayRef<Knowledge> history,
                   SmallVectorImpl<Inserted> &inserted);
  void coverBackEdges(Block *body, Operation *loop, const Knowledge &atEnd,
                      ArrayRef<Knowledge> firstHistory,
                      ArrayRef<SmallVector<Inserted, 2>> inserted);
  Gap placeLoopPair(PairKey key, const Requirement &req, Gap wait);
  void stepOver(Operation *op, Gap gap, Knowledge &knowledge,
                std::map<std::tuple<Pipe, Pipe, int64_t>, Payload> &flags,
                bool coverNested);

  unsigned indexInBlock(Operation *op);
  void collectExistingIds(Block *block);
  double linearGap(Block *block, Gap gap);
  /// The ops of `block` by index (as they were before any insertion).
  ArrayRef<Operation *> opsOf(Block *block);
  /// The index of the last op of `block` that is or holds an access of
  /// `pipe`, or -1.
  int32_t lastIndexOf(Block *block, unsigned pipe);
  std::optional<int64_t> takeEventId(Pipe src, Pipe dst, double begin,
                                     double end);


  func::FuncOp func;
  DependencyScope scope;
  int64_t skipSync;
  enum class SyncKind { Pair, LoopPair, EagerPair, Barrier };
  std::vector<SyncGroup> groups;
  std::vector<SyncKind> groupKinds;
  unsigned numLateSets = 0;
  EventIdRepairs idRepairs;
  SmallVector<PipeAccess> ops;
  std::vector<SyncDependency> dependencies;
  DenseMap<Operation *, unsigned> accessIndex;
  /// Bit p set: the op is, or holds, an access of pipe p.
  DenseMap<Operation *, unsigned> pipesOf;
  DenseMap<Operation *, unsigned> blockIndex;
  DenseMap<Block *, std::vector<Operation *>> blockOps;
  DenseMap<Operation *, int64_t> preorder, preorderEnd;

  DenseMap<Block *, SmallVector<Requirement>> forward;
  DenseMap<Operation *, SmallVector<Requirement>> backEdge;
  /// Fallback for loops other than scf.for: a set and its wait (or a
  /// barrier) right after the op; one per op and pair of pipes orders the
  /// op before everything later on the waiting pipe.
  llvm::SetVector<std::tuple<Operation *, Pipe, Pipe>> eager;

  std::map<std::pair<Pipe, Pipe>, llvm::SmallBitVector> reservedIds;

  /// The cover.
  std::map<PairKey, SmallVector<FlagPair>> forwardPairs;
  std::map<PipeKey, SmallVector<FlagPair>> forwardBarriers;
  unsigned decisions = 0;
  /// Pairs around the back edge of each loop, per pipe pair: one per
  /// producer a consumer of the next iteration needs first (per slot of a
  /// rotating buffer), up to kMaxLoopPairs.
  std::map<PairKey, SmallVector<FlagPair, 1>> loopPairs;
  /// For each loop pair: the pipes all of whose accesses in the body its
  /// set follows (what the wait after the loop learns about the loop).
  std::map<PairKey, SmallVector<unsigned, 1>> drainCovers;
  /// For an op with regions: bit r of entry q set when, at the end of every
  /// block of the op, q knows that the block's accesses of pipe r finished.
  DenseMap<Operation *, std::array<unsigned, kNumPipes>> exitCovers;

  /// Event ids taken, per pipe pair: spans in pre-order positions.
  std::map<std::pair<Pipe, Pipe>,
           SmallVector<std::tuple<double, double, int64_t>>>
      takenIds;
};

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

LogicalResult SyncPlanner::collect() {
  int64_t counter = 0;
  bool ok = true;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func)
      return WalkResult::advance();
    preorder[op] = counter++;
    if (!isAccessCandidate(op))
      return WalkResult::advance();
    bool unknownEffects = false;
    SmallVector<MemoryAccess, 4> accesses = getMemoryAccesses(op, unknownEffects);
    if (accesses.empty())
      return WalkResult::advance(); // views, casts: no access of their own
    std::optional<Pipe> pipe = getOpPipe(op);
    auto call = dyn_cast<CallOpInterface>(op);
    std::string callee = "an indirect callee";
    if (auto symbol = call ? dyn_cast_if_present<SymbolRefAttr>(
                                 call.getCallableForCallee())
                           : SymbolRefAttr())
      callee = "@" + symbol.getLeafReference().getValue().str();
    if (!pipe && call) {
      // What the callee runs, on which pipes, and whether it syncs its own
      // accesses is unknown here: no pipe to order the call on is sound.
      op->emitError() << "call to " << callee
                      << " passes a dsaplan tile but has no pipe (give the "
                         "call the dsaplan.pipe its accesses run on)";
      ok = false;
      return WalkResult::skip();
    }
    if (!pipe) {
      op->emitError() << "'" << op->getName()
                      << "' touches a dsaplan memory space but has no pipe "
                         "(a dsaplan.pipe attribute or PipeOpInterface)";
      ok = false;
      return WalkResult::skip();
    }
    if (unknownEffects && call)
      op->emitRemark() << "call to " << callee
                       << " has unknown memory effects: taken to read and "
                          "write all its dsaplan memrefs on pipe "
                       << stringifyPipe(*pipe);
    else if (unknownEffects)
      op->emitWarning() << "'" << op->getName()
                        << "' has unknown memory effects: taken to read and "
                           "write all its dsaplan memrefs";
    accessIndex[op] = ops.size();
    for (Operation *at = op; at && at != func; at = at->getParentOp())
      pipesOf[at] |= 1u << pipeIndex(*pipe);
    ops.push_back({op, *pipe, std::move(accesses)});
    // The regions of an access (a linalg body) belong to the access.
    return WalkResult::skip();
  });
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = preorder.lookup(op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, preorderEnd.lookup(&block.back()));
    preorderEnd[op] = last;
  });
  // The input's own event ids, everywhere, are never reused.
  func.walk([&](Block *block) { collectExistingIds(block); });
  return success(ok);
}

unsigned SyncPlanner::indexInBlock(Operation *op) {
  auto it = blockIndex.find(op);
  if (it != blockIndex.end())
    return it->second;
  unsigned index = 0;
  for (Operation &sibling : *op->getBlock())
    blockIndex[&sibling] = index++;
  return blockIndex.lookup(op);
}

void SyncPlanner::collectExistingIds(Block *block) {
  auto reserve = [&](Pipe src, Pipe dst, int64_t id) {
    llvm::SmallBitVector &ids = reservedIds[{src, dst}];
    ids.resize(kNumEventIds);
    if (id >= 0 && id < kNumEventIds)
      ids.set(id);
  };
  for (Operation &op : *block) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      reserve(set.getSrc(), set.getDst(), set.getEvent());
    else if (auto wait = dyn_cast<WaitFlagOp>(op))
      reserve(wait.getSrc(), wait.getDst(), wait.getEvent());
  }
}

//===----------------------------------------------------------------------===//
// Dependencies
//===----------------------------------------------------------------------===//

/// The innermost block holding both ops.
Block *commonBlock(Operation *a, Operation *b) {
  for (Block *block = a->getBlock(); block;
       block = block->getParentOp() ? block->getParentOp()->getBlock()
                                    : nullptr)
    if (block->findAncestorOpInBlock(*b))
      return block;
  return nullptr;
}

void SyncPlanner::findDependencies() {
  dependencies = findSyncDependencies(func, ops, scope);
  for (const SyncDependency &dep : dependencies) {
    const PipeAccess &x = ops[dep.earlier], &y = ops[dep.later];
    if (x.pipe == y.pipe && !needsBarrier(x.pipe))
      continue; // an in-order pipe orders its own accesses
    if (dep.loop)
      requireAcrossIterations(dep.loop, x.op, y.op, x.pipe, y.pipe);
    else
      requireForward(x.op, y.op, x.pipe, y.pipe);
  }
  for (auto &[block, reqs] : forward) {
    llvm::sort(reqs);
    reqs.erase(std::unique(reqs.begin(), reqs.end()), reqs.end());
  }
  for (auto &[loop, reqs] : backEdge) {
    llvm::sort(reqs);
    reqs.erase(std::unique(reqs.begin(), reqs.end()), reqs.end());
  }
}

void SyncPlanner::requireForward(Operation *from, Operation *to, Pipe src,
                                 Pipe dst) {
  Block *block = commonBlock(from, to);
  Operation *fromAncestor = block->findAncestorOpInBlock(*from);
  Operation *toAncestor = block->findAncestorOpInBlock(*to);
  // Two regions of one op that run one after the other, such as the
  // "before" and "do" regions of an scf.while: no gap of `block` lies
  // between the two accesses.
  if (fromAncestor == toAncestor) {
    eager.insert({from, src, dst});
    return;
  }
  forward[block].push_back(
      {indexInBlock(fromAncestor), indexInBlock(toAncestor), src, dst});
}

void SyncPlanner::requireAcrossIterations(Operation *loop, Operation *from,
                                          Operation *to, Pipe src, Pipe dst) {
  auto forOp = dyn_cast<scf::ForOp>(loop);
  if (!forOp) {
    eager.insert({from, src, dst}); // scf.while and other loops
    return;
  }
  Block *body = forOp.getBody();
  backEdge[loop].push_back({indexInBlock(body->findAncestorOpInBlock(*from)),
                            indexInBlock(body->findAncestorOpInBlock(*to)),
                            src, dst});
}

//===----------------------------------------------------------------------===//
// Cover
//===----------------------------------------------------------------------===//

void SyncPlanner::cover() { coverBlock(&func.getBody().front()); }

/// Walks `block` forward, meeting its forward requirements; then, for an
/// scf.for body, walks it once more as the next iteration for the
/// requirements around the back edge. Returns what the pipes know at its
/// end.
Knowledge SyncPlanner::coverBlock(Block *block) {
  ArrayRef<Operation *> blockOps = opsOf(block);
  Gap end = blockOps.size();
  auto found = forward.find(block);
  ArrayRef<Requirement> reqs;
  if (found != forward.end())
    reqs = found->second;
  std::vector<Knowledge> history(end + 1);
  std::vector<SmallVector<Inserted, 2>> inserted(end + 1);
  std::map<std::tuple<Pipe, Pipe, int64_t>, Payload> flags;
  Knowledge knowledge;
  size_t next = 0;
  for (Gap gap = 0; gap <= end; ++gap) {
    history[gap] = knowledge;
    for (; next < reqs.size() && reqs[next].before == gap; ++next)
      meetForward(block, reqs[next], gap, knowledge, history, inserted[gap]);
    if (gap < end)
      stepOver(blockOps[gap], gap, knowledge, flags, /*coverNested=*/true);
  }
  Operation *parent = block->getParentOp();
  if (isa<scf::ForOp>(parent) && backEdge.count(parent))
    coverBackEdges(block, parent, knowledge, history, inserted);
  return knowledge;
}

void SyncPlanner::meetForward(Block *block, const Requirement &req, Gap gap,
                              Knowledge &knowledge,
                              ArrayRef<Knowledge> history,
                              SmallVectorImpl<Inserted> &inserted) {
  if (knowledge.knows(req.dst, req.src, req.after, /*previous=*/false))
    return;
  if (req.src == req.dst) {
    forwardBarriers[{block, req.src}].push_back({gap, gap, decisions++});
    knowledge.barrier(req.src, gap);
    inserted.push_back({req.src, req.dst, gap, /*barrier=*/true});
    return;
  }
  // The set right after the producer; a set at this very gap follows the
  // waits made so far.
  Gap set = req.after + 1;
  const Knowledge &atSet = set == gap ? knowledge : history[set];
  Payload payload = atSet.capture(req.src, set);
  forwardPairs[{block, req.src, req.dst}].push_back({set, gap, decisions++});
  knowledge.receive(req.dst, payload);
  inserted.push_back({req.src, req.dst, set, /*barrier=*/false});
}

/// What one op does to the knowledge: syncs of the input, and around a
/// nested loop its own flag pairs (set before it, waited after it).
void SyncPlanner::stepOver(
    Operation *op, Gap gap, Knowledge &knowledge,
    std::map<std::tuple<Pipe, Pipe, int64_t>, Payload> &flags,
    bool coverNested) {
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    flags[{set.getSrc(), set.getDst(), set.getEvent()}] =
        knowledge.capture(set.getSrc(), gap);
    return;
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    auto it = flags.find({wait.getSrc(), wait.getDst(), wait.getEvent()});
    if (it != flags.end()) {
      knowledge.receive(wait.getDst(), it->second);
      flags.erase(it);
    }
    return;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    knowledge.barrier(barrier.getPipe(), gap);
    return;
  }
  if (op->getNumRegions() == 0 || accessIndex.count(op))
    return;
  // What the pipes knew before the op: a loop's drain pair hands over what
  // its pipe knew at its set, before the loop or inside it, never what the
  // pipe learns from the loop's exit.
  const Knowledge beforeOp = knowledge;
  // Syncs inside the op order what is inside it: a pipe that knows, at the
  // end of each of its blocks, that all of the block's accesses of a pipe
  // finished, knows it after the op (a branch or a loop that does not run
  // has none to wait for).
  if (coverNested) {
    std::array<unsigned, kNumPipes> covers;
    covers.fill((1u << kNumPipes) - 1);
    for (Region &region : op->getRegions())
      for (Block &nested : region) {
        Knowledge atEnd = coverBlock(&nested);
        for (unsigned q = 0; q < kNumPipes; ++q)
          for (unsigned r = 0; r < kNumPipes; ++r)
            if (atEnd.of[q].current[r] < lastIndexOf(&nested, r) + 2)
              covers[q] &= ~(1u << r);
      }
    exitCovers[op] = covers;
  }
  // Where the op may run no block (a loop, an scf.if without else), that
  // path keeps only what was known before it.
  auto ifOp = dyn_cast<scf::IfOp>(op);
  bool mayRunNoBlock = !(ifOp && !ifOp.getElseRegion().empty()) &&
                       !isa<scf::IndexSwitchOp, scf::ExecuteRegionOp>(op);
  const std::array<unsigned, kNumPipes> &covers = exitCovers[op];
  for (unsigned q = 0; q < kNumPipes; ++q)
    for (unsigned r = 0; r < kNumPipes; ++r) {
      int32_t &known = knowledge.of[q].current[r];
      if ((covers[q] >> r & 1) &&
          (!mayRunNoBlock || known >= static_cast<int32_t>(gap) + 1))
        known = std::max<int32_t>(known, gap + 2);
    }
  if (!isa<scf::ForOp>(op))
    return;
  // The wait after the loop receives the set before it (zero iterations)
  // or the body's last set, which follows every access of the pipes it
  // covers: then those accesses of the loop are known finished too.
  for (unsigned src = 0; src < kNumPipes; ++src)
    for (unsigned dst = 0; dst < kNumPipes; ++dst) {
      PairKey key{op, static_cast<Pipe>(src), static_cast<Pipe>(dst)};
      auto covered = drainCovers.find(key);
      if (covered == drainCovers.end())
        continue;
      for (unsigned covers : covered->second) {
        Payload payload = beforeOp.capture(static_cast<Pipe>(src), gap);
        for (unsigned r = 0; r < kNumPipes; ++r)
          if ((covers >> r & 1) &&
              payload.current[r] >= static_cast<int32_t>(gap) + 1)
            payload.current[r] = gap + 2;
        knowledge.receive(static_cast<Pipe>(dst), payload);
      }
    }
}

int32_t SyncPlanner::lastIndexOf(Block *block, unsigned pipe) {
  ArrayRef<Operation *> blockOps = opsOf(block);
  for (int32_t i = blockOps.size() - 1; i >= 0; --i)
    if (pipesOf.lookup(blockOps[i]) >> pipe & 1)
      return i;
  return -1;
}

/// The body as the next iteration: the first walk's knowledge at its end is
/// about the previous iteration now. Inserted syncs of the first walk run
/// again; a back-edge requirement nothing orders gets the loop's pair of
/// its pipes (set after the last producer, waited before the first
/// consumer; set before the loop for the first iteration, waited after it
/// for the last) or a barrier before the consumer.
void SyncPlanner::coverBackEdges(Block *body, Operation *loop,
                                 const Knowledge &atEnd,
                                 ArrayRef<Knowledge> firstHistory,
                                 ArrayRef<SmallVector<Inserted, 2>> inserted) {
  ArrayRef<Operation *> blockOps = opsOf(body);
  Gap end = blockOps.size();
  ArrayRef<Requirement> reqs = backEdge.find(loop)->second;
  std::vector<Knowledge> history(end + 1);
  std::map<std::tuple<Pipe, Pipe, int64_t>, Payload> flags;
  Knowledge knowledge = atEnd.nextIteration();
  size_t next = 0;
  for (Gap gap = 0; gap <= end; ++gap) {
    history[gap] = knowledge;
    for (const Inserted &ins : inserted[gap]) {
      if (ins.barrier)
        knowledge.barrier(ins.src, gap);
      else
        knowledge.receive(ins.dst, (ins.set == gap ? knowledge : history[ins.set])
                                       .capture(ins.src, ins.set));
    }
    for (; next < reqs.size() && reqs[next].before == gap; ++next) {
      const Requirement &req = reqs[next];
      if (knowledge.knows(req.dst, req.src, req.after, /*previous=*/true))
        continue;
      if (req.src == req.dst) {
        forwardBarriers[{body, req.src}].push_back({gap, gap, decisions++});
        knowledge.barrier(req.src, gap);
        continue;
      }
      // The set of the previous iteration hands over what the producer
      // knew then, as knowledge of the previous iteration.
      Gap set = placeLoopPair({loop, req.src, req.dst}, req, gap);
      knowledge.receive(req.dst, firstHistory[set]
                                     .capture(req.src, set)
                                     .nextIteration());
    }
    if (gap < end)
      stepOver(blockOps[gap], gap, knowledge, flags, /*coverNested=*/false);
  }
  for (auto &[key, pairs] : loopPairs) {
    if (std::get<0>(key) != loop)
      continue;
    SmallVector<unsigned, 1> &covered = drainCovers[key];
    covered.clear();
    for (const FlagPair &pair : pairs) {
      Payload atSet =
          firstHistory[pair.set].capture(std::get<1>(key), pair.set);
      unsigned covers = 0;
      for (unsigned r = 0; r < kNumPipes; ++r)
        if (atSet.current[r] >= lastIndexOf(body, r) + 2)
          covers |= 1u << r;
      covered.push_back(covers);
    }
  }
}

/// A loop pair whose set follows `req`'s producer and whose wait is at
/// `wait`; returns the set's gap. Each producer that the next iteration's
/// first unmet consumer needs gets its own pair, so a consumer waits for
/// the producer it needs and not for the last one of the body: with a
/// rotating buffer unrolled (dsaplan-unroll-rotations), iteration i+1's
/// load into slot s waits only for slot s's last reader. Past kMaxLoopPairs
/// pairs, the last pair's set moves down to cover `req` too (each pair
/// holds an event id for the whole loop).
Gap SyncPlanner::placeLoopPair(PairKey key, const Requirement &req, Gap wait) {
  SmallVector<FlagPair, 1> &pairs = loopPairs[key];
  Gap set = req.after + 1;
  if (pairs.size() < kMaxLoopPairs) {
    pairs.push_back({set, wait, decisions++});
    return set;
  }
  pairs.back().set = std::max(pairs.back().set, set);
  return pairs.back().set;
}

//===----------------------------------------------------------------------===//
// Event ids and ops
//===----------------------------------------------------------------------===//

/// A gap as a position in the pre-order numbering of all ops.
ArrayRef<Operation *> SyncPlanner::opsOf(Block *block) {
  std::vector<Operation *> &ops = blockOps[block];
  if (ops.empty())
    for (Operation &op : *block)
      ops.push_back(&op);
  return ops;
}

double SyncPlanner::linearGap(Block *block, Gap gap) {
  ArrayRef<Operation *> ops = opsOf(block);
  if (gap < ops.size())
    return preorder.lookup(ops[gap]) - 0.5;
  return preorderEnd.lookup(ops.back()) + 0.5;
}

std::optional<int64_t> SyncPlanner::takeEventId(Pipe src, Pipe dst,
                                                double begin, double end) {
  llvm::SmallBitVector used(kNumEventIds);
  auto reserved = reservedIds.find({src, dst});
  if (reserved != reservedIds.end())
    used |= reserved->second;
  // A pair whose set sits right before its wait (eager, or set late) is in
  // flight for no time: two such never overlap, even at one point.
  bool instant = begin == end;
  auto &taken = takenIds[{src, dst}];
  for (auto [b, e, id] : taken)
    if (b <= end && begin <= e && !(instant && b == e))
      used.set(id);
  for (int64_t id = 0; id < kNumEventIds; ++id)
    if (!used.test(id)) {
      taken.push_back({begin, end, id});
      return id;
    }
  return std::nullopt;
}

LogicalResult SyncPlanner::materialize() {
  auto eventAttr = [&](OpBuilder &b, int64_t id) {
    return b.getI64IntegerAttr(id);
  };
  auto pipeAttr = [&](Pipe pipe) {
    return PipeAttr::get(func.getContext(), pipe);
  };
  // Decide every id first: creating ops shifts block indices.
  struct Planned {
    Block *block;
    Gap set, wait;
    Operation *loop;
    Pipe src, dst;
    int64_t id;
    unsigned rank;
  };
  // Pairs in program order (the maps above are keyed by pointers), so that
  // event ids are the same on every run.
  struct Span {
    double begin, end;
    Planned plan;
  };
  SmallVector<Span> spans;
  for (auto &[key, pairs] : forwardPairs) {
    auto [blockPtr, src, dst] = key;
    Block *block = static_cast<Block *>(blockPtr);
    for (const FlagPair &pair : pairs)
      spans.push_back({linearGap(block, pair.set), linearGap(block, pair.wait),
                       {block, pair.set, pair.wait, nullptr, src, dst, -1,
                        pair.rank}});
  }
  for (auto &[key, pairs] : loopPairs) {
    auto [loopPtr, src, dst] = key;
    Operation *loop = static_cast<Operation *>(loopPtr);
    for (const FlagPair &pair : pairs)
      spans.push_back({preorder.lookup(loop) - 0.5,
                       preorderEnd.lookup(loop) + 0.5,
                       {&loop->getRegion(0).front(), pair.set, pair.wait, loop,
                        src, dst, -1, pair.rank}});
  }
  llvm::sort(spans, [](const Span &a, const Span &b) {
    return std::make_tuple(a.begin, a.end, a.plan.src, a.plan.dst,
                           a.plan.rank) <
           std::make_tuple(b.begin, b.end, b.plan.src, b.plan.dst,
                           b.plan.rank);
  });
  SmallVector<Planned> planned;
  for (Span &span : spans) {
    std::optional<int64_t> id =
        takeEventId(span.plan.src, span.plan.dst, span.begin, span.end);
    if (!id && !span.plan.loop) {
      // Out of ids: the set moves down to just before its wait. It follows
      // the producer still (and hands over more), and its flag is in flight
      // for no time. Pairs of one block and pipe pair never nest, so this
      // only fails inside eight pairs of enclosing blocks or loops, or when
      // the input took the ids.
      double at = linearGap(span.plan.block, span.plan.wait);
      id = takeEventId(span.plan.src, span.plan.dst, at, at);
      if (id) {
        span.plan.set = span.plan.wait;
        ++numLateSets;
      }
    }
    if (!id) {
      // The access that would wait, or the loop.
      Operation *anchor = span.plan.loop
                              ? span.plan.loop
                              : opsOf(span.plan.block)[span.plan.wait];
      return anchor->emitError()
             << "no free event id for <" << stringifyPipe(span.plan.src)
             << " -> " << stringifyPipe(span.plan.dst)
             << ">: all eight are in flight here or taken by the input's "
                "syncs";
    }
    span.plan.id = *id;
    planned.push_back(span.plan);
  }
  SmallVector<std::tuple<Operation *, Pipe, Pipe, int64_t>> eagerPlanned;
  for (auto [op, src, dst] : eager) {
    if (src == dst) {
      eagerPlanned.push_back({op, src, dst, -1});
      continue;
    }
    double at = preorderEnd.lookup(op) + 0.5;
    std::optional<int64_t> id = takeEventId(src, dst, at, at);
    if (!id)
      return op->emitError() << "no free event id for <" << stringifyPipe(src)
                             << " -> " << stringifyPipe(dst) << ">";
    eagerPlanned.push_back({op, src, dst, *id});
  }

  // Each sync goes just before the op at its gap (ops created before one
  // anchor stay in creation order). At one gap: first the sets whose waits
  // come later (as early as possible: the cover gave them what their pipe
  // knew before the gap), then waits and barriers in the order the cover
  // decided them, a set whose wait is at the same gap right before it.
  struct Insertion {
    Block *block;
    Gap gap;
    unsigned group, rank;
    int kind; // 0 set, 1 wait, 2 barrier
    Pipe src, dst;
    int64_t id;
    size_t owner; // the group
  };
  SmallVector<Insertion> insertions;
  auto newGroup = [&](SyncKind kind) {
    groups.emplace_back();
    groupKinds.push_back(kind);
    return groups.size() - 1;
  };
  SmallVector<size_t> groupOfPlan;
  for (const Planned &p : planned) {
    size_t group = newGroup(p.loop ? SyncKind::LoopPair : SyncKind::Pair);
    groupOfPlan.push_back(group);
    bool setAtWait = p.set == p.wait;
    insertions.push_back({p.block, p.set, setAtWait ? 1u : 0u, 2 * p.rank, 0,
                          p.src, p.dst, p.id, group});
    insertions.push_back(
        {p.block, p.wait, 1, 2 * p.rank + 1, 1, p.src, p.dst, p.id, group});
  }
  // Barriers in program order, not in the order of the map (keyed by block
  // pointers): their group numbers decide the order of pruning and what
  // test-skip-sync leaves out, which must not depend on the heap layout.
  struct PlannedBarrier {
    Block *block;
    FlagPair barrier;
    Pipe pipe;
    int64_t position;
  };
  SmallVector<PlannedBarrier> plannedBarriers;
  for (auto &[key, barriers] : forwardBarriers) {
    Block *block = static_cast<Block *>(key.first);
    for (const FlagPair &barrier : barriers)
      plannedBarriers.push_back(
          {block, barrier, key.second,
           preorder.lookup(opsOf(block)[barrier.wait])});
  }
  llvm::stable_sort(plannedBarriers, [](const PlannedBarrier &a,
                                        const PlannedBarrier &b) {
    return std::make_tuple(a.position, a.pipe) <
           std::make_tuple(b.position, b.pipe);
  });
  for (const PlannedBarrier &p : plannedBarriers)
    insertions.push_back({p.block, p.barrier.wait, 1, 2 * p.barrier.rank + 1,
                          2, p.pipe, p.pipe, -1,
                          newGroup(SyncKind::Barrier)});
  llvm::sort(insertions, [&](const Insertion &a, const Insertion &b) {
    auto order = [&](const Insertion &i) {
      return std::make_tuple(preorder.lookup(opsOf(i.block)[i.gap]), i.group,
                             i.rank, i.kind);
    };
    return order(a) < order(b);
  });
  for (const Insertion &ins : insertions) {
    ArrayRef<Operation *> blockOps = opsOf(ins.block);
    Operation *anchor = blockOps[ins.gap];
    // A set takes the location of the op it follows, a wait or barrier that
    // of the op it precedes, so that the IR and diagnostics point at the
    // accesses.
    Location loc = ins.kind == 0 && ins.gap > 0 ? blockOps[ins.gap - 1]->getLoc()
                                                : anchor->getLoc();
    OpBuilder b(anchor);
    Operation *created;
    if (ins.kind == 0)
      created = SetFlagOp::create(b, loc, pipeAttr(ins.src), pipeAttr(ins.dst),
                                  eventAttr(b, ins.id));
    else if (ins.kind == 1)
      created = WaitFlagOp::create(b, loc, pipeAttr(ins.src),
                                   pipeAttr(ins.dst), eventAttr(b, ins.id));
    else
      created = PipeBarrierOp::create(b, loc, pipeAttr(ins.src));
    groups[ins.owner].push_back(created);
  }
  // The loops' first set and last wait go around the loop op, after every
  // insertion by index is done.
  for (auto [p, group] : llvm::zip(planned, groupOfPlan)) {
    if (!p.loop)
      continue;
    OpBuilder before(p.loop);
    groups[group].push_back(SetFlagOp::create(before, p.loop->getLoc(),
                                              pipeAttr(p.src), pipeAttr(p.dst),
                                              eventAttr(before, p.id)));
    OpBuilder after(p.loop->getBlock(), std::next(p.loop->getIterator()));
    groups[group].push_back(WaitFlagOp::create(after, p.loop->getLoc(),
                                               pipeAttr(p.src), pipeAttr(p.dst),
                                               eventAttr(after, p.id)));
  }
  for (auto [op, src, dst, id] : eagerPlanned) {
    OpBuilder after(op->getBlock(), std::next(op->getIterator()));
    if (src == dst) {
      groups[newGroup(SyncKind::Barrier)].push_back(
          PipeBarrierOp::create(after, op->getLoc(), pipeAttr(src)));
      continue;
    }
    size_t group = newGroup(SyncKind::EagerPair);
    groups[group].push_back(SetFlagOp::create(
        after, op->getLoc(), pipeAttr(src), pipeAttr(dst), eventAttr(after, id)));
    groups[group].push_back(WaitFlagOp::create(
        after, op->getLoc(), pipeAttr(src), pipeAttr(dst), eventAttr(after, id)));
  }
  return success();
}

unsigned SyncPlanner::prune(int64_t budget) {
  if (groups.empty() || budget <= 0)
    return 0;
  std::vector<Dependency> pairs;
  for (const SyncDependency &dep : dependencies)
    if (pairs.empty() || pairs.back().earlier != ops[dep.earlier].op ||
        pairs.back().later != ops[dep.later].op)
      pairs.push_back({ops[dep.earlier].op, ops[dep.later].op});
  // Dropping a pair can also drop a set that another sync had to be
  // ordered before (a flag is one bit), so a pass that drops something may
  // make an earlier kept sync droppable: passes go on until one drops
  // nothing or the budget is spent.
  unsigned count = 0;
  pruneSteps = 0;
  pruneComplete = true;
  for (;;) {
    PruneResult result =
        pruneSyncGroups(func, pairs, groups, budget - pruneSteps);
    pruneSteps += result.steps;
    pruneComplete = result.complete;
    unsigned dropped = 0;
    for (size_t i = groups.size(); i-- > 0;)
      if (result.erased[i]) {
        groups.erase(groups.begin() + i);
        groupKinds.erase(groupKinds.begin() + i);
        ++dropped;
      }
    count += dropped;
    if (dropped == 0 || !pruneComplete || pruneSteps >= budget)
      return count;
  }
}

void SyncPlanner::skipForTest() {
  if (skipSync < 0 || skipSync >= static_cast<int64_t>(groups.size()))
    return;
  for (Operation *op : groups[skipSync])
    op->erase();
  groups.erase(groups.begin() + skipSync);
  groupKinds.erase(groupKinds.begin() + skipSync);
}

void SyncPlanner::count(unsigned &flagPairs, unsigned &loopPairs,
                        unsigned &eagerPairs, unsigned &barriers) const {
  for (SyncKind kind : groupKinds) {
    flagPairs += kind == SyncKind::Pair;
    loopPairs += kind == SyncKind::LoopPair;
    eagerPairs += kind == SyncKind::EagerPair;
    barriers += kind == SyncKind::Barrier;
  }
}

struct DsaPlanInsertSyncPass
    : public mlir::dsaplan::impl::DsaPlanInsertSyncBase<DsaPlanInsertSyncPass> {
  using Base::Base;

  /// `<function>.syncs.json`: every sync of the function, in program order,
  /// with the location of the access it belongs to.
  LogicalResult writeSyncReport() {
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
      else
        return;
      entry["location"] = locationText(op->getLoc());
      syncs.push_back(std::move(entry));
    });
    llvm::json::Object report{{"function", getOperation().getSymName()},
                              {"syncs", std::move(syncs)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
    if (failed(writeFunctionFile(getOperation(), reportDir, ".syncs.json",
                                 text)))
      return failure();
    return writeSyncPictures(getOperation(), reportDir);
  }

  void runOnOperation() override {
    if (getOperation().isExternal())
      return; // a declaration: nothing runs here
    if (failed(checkSupportedStructure(getOperation())))
      return signalPassFailure();
    SyncPlanner planner(getOperation(), mode, testSkipSync);
    if (failed(planner.collect()))
      return signalPassFailure();
    planner.findDependencies();
    planner.cover();
    if (failed(planner.materialize()) ||
        failed(planner.assignSafeEventIds()))
      return signalPassFailure();
    unsigned pruned = planner.prune(pruneBudget);
    planner.skipForTest();
    unsigned pairs = 0, loops = 0, eagerPairs = 0, barriers = 0;
    planner.count(pairs, loops, eagerPairs, barriers);
    numPruned += pruned;
    numPruneSteps += planner.getPruneSteps();
    numFlagPairs += pairs;
    numLoopPairs += loops;
    numEagerPairs += eagerPairs;
    numLateSets += planner.getNumLateSets();
    numMovedIds += planner.getIdRepairs().moved;
    numHandshakes += planner.getIdRepairs().handshakes;
    numBarriers += barriers;
    // Counting every conflicting pair is what the planner avoids: only for
    // the summary.
    unsigned conflicts = summary ? planner.countConflictingPairs() : 0;
    numConflicts += conflicts;
    // Pass statistics are compiled out of release LLVM builds: the remark is
    // how a driver reads the counts.
    if (!reportDir.empty() && failed(writeSyncReport()))
      return signalPassFailure();
    if (summary)
      mlir::emitRemark(getOperation().getLoc())
          << "@" << getOperation().getSymName() << ": " << pairs + loops + eagerPairs
          << " flag pairs (" << loops << " around loops, " << eagerPairs
          << " eager, " << planner.getNumLateSets()
          << " set late for want of an event id; before pruning, "
          << planner.getIdRepairs().moved << " moved to another id and "
          << planner.getIdRepairs().handshakes
          << " handshakes added so that no set overruns its flag), "
          << barriers
          << " barriers for " << conflicts << " conflicting pairs; "
          << pruned << " dropped as implied by the others ("
          << planner.getPruneSteps() << " ops walked"
          << (planner.isPruneComplete() ? "" : ", stopped by prune-budget")
          << ")";
  }
};

} // namespace
