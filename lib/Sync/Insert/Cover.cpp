//===- Cover.cpp - Flag pairs that meet the sync requirements -------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Job 2 of dsaplan-insert-sync (Plan.h): meet the requirements by
// walking each block forward with what every pipe knows to have finished
// (a vector clock per pipe, as gaps of the block). A requirement that is
// already known, through syncs of the input or ones decided earlier, gets
// nothing; otherwise a set right after the producer and a wait right before
// the consumer (or a barrier):
//
//   memref.copy %gm, %a {mte2}     // op 0
//   memref.copy %gm, %b {mte2}     // op 1
//                                  // set <mte2 -> v> (after op 1)
//   linalg.exp ins(%a) outs(%c) {v}
//   linalg.exp ins(%b) outs(%d) {v}
//
// One pair at gap 2 meets both {0 -> 2} and {1 -> 3}: the set after op 1
// hands V what MTE2 finished up to op 1. The walk is block-local: chains
// through the branches of a nested scf.if, or through single ops inside a
// nested loop, escape it (pruning makes up for what that costs).
//
// The blocks are walked by the shared RegionWalker (RegionWalk.h), each
// block once, each from its own clock: an op with regions changes what its
// block knows only through what the ends of its blocks knew (exitCovers)
// and through the drains of its loop pairs, so the cover keeps a stack of
// block walks (BlockCover) rather than a state along the paths.
//
// An scf.for body is scanned a second time as the next iteration; a
// requirement around the back edge that nothing orders gets a loop pair:
// set after its producer (and before the loop, for the first iteration),
// waited before its consumer (and after the loop, for the last). Each
// producer the next iteration needs first gets its own pair, so that with
// a rotating buffer unrolled, a load into slot s waits only for slot s's
// last reader.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Plan.h"

#include "DsaPlan/Support/RegionWalk.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <optional>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// Loop pairs of one loop and pipe pair the cover makes at most, a bound on
/// its work; IdPressure.cpp then merges them down to what the event ids
/// allow.
constexpr size_t kMaxLoopPairs = 64;

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

  bool operator==(const Payload &o) const {
    return current == o.current && previous == o.previous;
  }

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
  /// barrier_all at `gap`: every pipe knows every stream up to the gap.
  void barrierAll(Gap gap) {
    for (Payload &k : of)
      for (int32_t &known : k.current)
        known = std::max<int32_t>(known, gap + 1);
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

using LoopKey = std::tuple<int64_t, Pipe, Pipe>;
using InputFlags = std::map<std::tuple<Pipe, Pipe, int64_t>, Payload>;
/// By the gap right after an scf.for with drains: what the pipes knew
/// there without the drains (the waits after the loop of its pairs).
using UndrainedKnowledge = std::map<Gap, Knowledge>;

/// The cover's walk of one block, from its own clock: what the pipes know
/// at the next gap, what they knew at each gap passed, and the waits and
/// barriers put at each gap (the next iteration of a loop body runs them
/// again).
struct BlockCover {
  BlockCover(Block *block, ArrayRef<Operation *> ops,
             ArrayRef<Requirement> requirements)
      : block(block), ops(ops), requirements(requirements),
        history(ops.size() + 1), inserted(ops.size() + 1) {}

  Block *block;
  ArrayRef<Operation *> ops;
  /// The block's forward requirements, by consumer; `nextRequirement` is
  /// the first not yet met.
  ArrayRef<Requirement> requirements;
  size_t nextRequirement = 0;
  /// The gap of the next op walked.
  Gap next = 0;
  Knowledge knowledge;
  std::vector<Knowledge> history;
  std::vector<SmallVector<Inserted, 2>> inserted;
  InputFlags flags;
  UndrainedKnowledge undrained;
  /// The op at gap `enteredGap` when the walker went into its regions:
  /// after them, it changes the knowledge by what their blocks' ends knew
  /// (`nestedCovers`, as in SyncCover::exitCovers).
  Operation *entered = nullptr;
  Gap enteredGap = 0;
  std::array<unsigned, kNumPipes> nestedCovers;
};

/// The walker's state, unused: each block starts from its own clock rather
/// than from what was known before its op, so the cover keeps a stack of
/// BlockCovers instead of a state that flows along the paths.
struct NoPathState {};

/// Walks the function's blocks (each once, by RegionWalker), meeting each
/// block's forward requirements and, at the end of a loop body, those
/// around its back edge.
class SyncCover : public RegionWalkClient<NoPathState> {
public:
  SyncCover(const ProgramOrder &order, const SyncRequirements &requirements)
      : order(order), requirements(requirements) {}

  SyncDecisions run(func::FuncOp func) {
    // Each block once, in order; loops too: the next iteration of a loop
    // body is coverBackEdges' (a scan of the body's own ops, see there).
    NoPathState none;
    RegionWalker<SyncCover, NoPathState>(*this, /*loopIterations=*/1)
        .walkBlock(func.getBody().front(), none);
    return std::move(decisions);
  }

  //===--------------------------------------------------------------------===//
  // The walker's hooks
  //===--------------------------------------------------------------------===//

  bool enterBlock(Block &block, NoPathState &, Block::iterator &,
                  Block::iterator &);
  WalkStep step(Operation &op, NoPathState &);
  void leaveBlock(Block &block, NoPathState &);
  /// Nothing to merge: what an op's blocks knew at their ends reaches its
  /// block in leaveEnteredOp.
  std::optional<NoPathState> merge(ArrayRef<NoPathState>, Operation *) {
    return NoPathState();
  }
  /// The exits are empty: a branch's or a loop's fit on the stack.
  static constexpr unsigned kInlineExits = 4;

private:
  /// Whether the cover walks the blocks of `op`: an op with regions that is
  /// not itself an access (an scf.if, a loop; not a linalg op, whose body
  /// is part of its access).
  bool coversRegionsOf(Operation *op) const {
    return op->getNumRegions() && !requirements.accessIndex.count(op);
  }
  void arriveAt(BlockCover &cover, Gap gap);
  void leaveEnteredOp(BlockCover &cover);
  void meetForward(BlockCover &cover, const Requirement &req, Gap gap);
  void coverBackEdges(Block *body, Operation *loop, const Knowledge &atEnd,
                      ArrayRef<Knowledge> firstHistory,
                      ArrayRef<SmallVector<Inserted, 2>> inserted);
  Gap placeLoopPair(SmallVector<FlagPair, 1> &pairs, const Requirement &req,
                    Gap wait);
  bool stepOverInputSync(Operation *op, Gap gap, Knowledge &knowledge,
                         InputFlags &flags);
  void stepOverNested(Operation *op, Gap gap, Knowledge &knowledge,
                      UndrainedKnowledge *undrained);
  /// Whether the cover gave `loop` pairs around its back edge (of its body
  /// or of a block of a branch in it), whose waits after it are drains.
  bool hasDrains(Operation *loop) const;
  /// For each pipe, the index of the last op of `block` that is or holds
  /// an access of it, or -1.
  std::array<int32_t, kNumPipes> lastIndices(Block *block) const;

  const ProgramOrder &order;
  const SyncRequirements &requirements;
  SyncDecisions decisions;
  unsigned numDecisions = 0;
  /// The blocks being walked, innermost last.
  std::vector<BlockCover> covers;
  /// For each loop pair: the pipes all of whose accesses in the body its
  /// set follows (what the wait after the loop learns about the loop).
  std::map<LoopKey, SmallVector<unsigned, 1>> drainCovers;
  /// For an op with regions: bit r of entry q set when, at the end of every
  /// block of the op, q knows that the block's accesses of pipe r finished.
  DenseMap<Operation *, std::array<unsigned, kNumPipes>> exitCovers;
};

//===----------------------------------------------------------------------===//
// The walk: each block forward from its own clock
//===----------------------------------------------------------------------===//

bool SyncCover::enterBlock(Block &block, NoPathState &, Block::iterator &,
                           Block::iterator &) {
  auto found = requirements.forward.find(order.blockId(&block));
  ArrayRef<Requirement> reqs;
  if (found != requirements.forward.end())
    reqs = found->second;
  covers.emplace_back(&block, order.opsOf(&block), reqs);
  return true;
}

/// Meets the requirements whose consumer is the op at gap `next`, then
/// steps over the op or goes into its regions. The gaps are those of the
/// ops ProgramOrder numbered: an op created since (the cross-core syncs,
/// created before the cover) is not one of them, and the cover passes it
/// by as if it were not there.
WalkStep SyncCover::step(Operation &op, NoPathState &) {
  BlockCover &cover = covers.back();
  if (cover.next == cover.ops.size() || cover.ops[cover.next] != &op)
    return WalkStep::Done;
  Gap gap = cover.next++;
  arriveAt(cover, gap);
  if (stepOverInputSync(&op, gap, cover.knowledge, cover.flags) ||
      !coversRegionsOf(&op))
    return WalkStep::Done;
  cover.entered = &op;
  cover.enteredGap = gap;
  cover.nestedCovers.fill((1u << kNumPipes) - 1);
  return WalkStep::Enter;
}

/// The requirements at the block's end; then, for an scf.for body (or a
/// block of a branch in a loop), the body once more as the next iteration
/// for the requirements around the back edge. What the pipes know at the
/// end goes to the op holding the block.
void SyncCover::leaveBlock(Block &block, NoPathState &) {
  BlockCover &cover = covers.back();
  assert(cover.block == &block && cover.next == cover.ops.size() &&
         "the walker ends the block it entered, after its last op");
  arriveAt(cover, cover.ops.size());
  Operation *parent = block.getParentOp();
  if (isa<scf::ForOp, scf::WhileOp>(parent) && loopBody(parent) == &block &&
      requirements.backEdge.count(order.position(parent)))
    coverBackEdges(&block, parent, cover.knowledge, cover.history,
                   cover.inserted);
  else if (requirements.branchBackEdge.count(order.blockId(&block)))
    coverBackEdges(&block, enclosingLoop(&block), cover.knowledge,
                   cover.history, cover.inserted);
  if (covers.size() > 1) {
    // Syncs inside an op order what is inside it: a pipe that knows, at the
    // end of each of its blocks, that all of the block's accesses of a pipe
    // finished, knows it after the op (a branch or a loop that does not run
    // has none to wait for).
    BlockCover &holder = covers[covers.size() - 2];
    assert(holder.entered == parent && "a nested block of the entered op");
    std::array<int32_t, kNumPipes> last = lastIndices(&block);
    for (unsigned q = 0; q < kNumPipes; ++q)
      for (unsigned r = 0; r < kNumPipes; ++r)
        if (cover.knowledge.of[q].current[r] < last[r] + 2)
          holder.nestedCovers[q] &= ~(1u << r);
  }
  covers.pop_back();
}

/// Reaching `gap`: the op before it, if the walker went into its regions,
/// is left now; then what is known is recorded and the requirements whose
/// consumer is at the gap are met.
void SyncCover::arriveAt(BlockCover &cover, Gap gap) {
  if (cover.entered)
    leaveEnteredOp(cover);
  cover.history[gap] = cover.knowledge;
  ArrayRef<Requirement> reqs = cover.requirements;
  for (size_t &next = cover.nextRequirement;
       next < reqs.size() && reqs[next].before == gap; ++next)
    meetForward(cover, reqs[next], gap);
}

/// After the walker went through the blocks of the op entered, what their
/// ends knew becomes what the pipes know after the op. Those are all its
/// blocks, once each (as the cover's own recursion walked them): the walker
/// goes into a branch's or a loop's entry blocks, and the regions of the
/// registered branches and loops (scf, affine) hold one block; any other
/// op's blocks it walks one after the other. Not done in merge(), which
/// the walker calls after a branch or a loop but not after an op it walks
/// in sequence (scf.execute_region).
void SyncCover::leaveEnteredOp(BlockCover &cover) {
  Operation *op = cover.entered;
  cover.entered = nullptr;
  exitCovers[op] = cover.nestedCovers;
  stepOverNested(op, cover.enteredGap, cover.knowledge, &cover.undrained);
}

/// Meets `req` at `gap`, unless its consumer's pipe knows already that its
/// producer finished: with a barrier (one pipe) or a pair whose set
/// follows the producer.
void SyncCover::meetForward(BlockCover &cover, const Requirement &req,
                            Gap gap) {
  Knowledge &knowledge = cover.knowledge;
  if (knowledge.knows(req.dst, req.src, req.after, /*previous=*/false))
    return;
  unsigned blockId = order.blockId(cover.block);
  if (req.src == req.dst) {
    decisions.barriers[{blockId, req.src}].push_back({gap, gap, numDecisions++});
    knowledge.barrier(req.src, gap);
    cover.inserted[gap].push_back({req.src, req.dst, gap, /*barrier=*/true});
    return;
  }
  // The set right after the producer; a set at this very gap follows the
  // waits made so far.
  Gap set = req.after + 1;
  const Knowledge &atSet = set == gap ? knowledge : cover.history[set];
  Payload payload = atSet.capture(req.src, set);
  FlagPair pair{set, gap, numDecisions++};
  // Right after a loop, the set goes ahead of the loop's drains (and of the
  // waits made at this gap) when it hands over the same without them: a
  // drain would hold its pipe, and the set, until the drained pipe is done.
  auto atLoopExit = cover.undrained.find(set);
  pair.setAheadOfDrains = atLoopExit != cover.undrained.end() &&
                          atLoopExit->second.capture(req.src, set) == payload;
  decisions.pairs[{blockId, req.src, req.dst}].push_back(pair);
  knowledge.receive(req.dst, payload);
  cover.inserted[gap].push_back({req.src, req.dst, set, /*barrier=*/false});
}

//===----------------------------------------------------------------------===//
// What one op does to the knowledge
//===----------------------------------------------------------------------===//

/// A sync of the input: a set_flag hands its wait what its pipe knows, a
/// barrier finishes its pipes' streams up to the gap. False for other ops.
bool SyncCover::stepOverInputSync(Operation *op, Gap gap,
                                  Knowledge &knowledge, InputFlags &flags) {
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    flags[{set.getSrc(), set.getDst(), set.getEvent()}] =
        knowledge.capture(set.getSrc(), gap);
    return true;
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    auto it = flags.find({wait.getSrc(), wait.getDst(), wait.getEvent()});
    if (it != flags.end()) {
      knowledge.receive(wait.getDst(), it->second);
      flags.erase(it);
    }
    return true;
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    knowledge.barrier(barrier.getPipe(), gap);
    return true;
  }
  if (isa<BarrierAllOp>(op)) {
    knowledge.barrierAll(gap);
    return true;
  }
  return false;
}

/// An op whose blocks the cover walked: what their ends knew
/// (exitCovers[op]), and around a nested loop its own flag pairs (set
/// before it, waited after it). For a loop with drains, `undrained` gets
/// the knowledge after it without them.
void SyncCover::stepOverNested(Operation *op, Gap gap, Knowledge &knowledge,
                               UndrainedKnowledge *undrained) {
  // What the pipes knew before the op: a loop's drain pair hands over what
  // its pipe knew at its set, before the loop or inside it, never what the
  // pipe learns from the loop's exit.
  const Knowledge beforeOp = knowledge;
  // Where the op may leave without running a block to its end (a loop, an
  // scf.if without else), that path keeps only what was known before it.
  bool mayRunNoBlock = isLoopOp(op) || mayRunNoRegion(op);
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
  if (undrained && hasDrains(op))
    undrained->emplace(gap + 1, knowledge);
  // The wait after the loop receives the set before it (zero iterations)
  // or the body's last set, which follows every access of the pipes it
  // covers: then those accesses of the loop are known finished too.
  for (unsigned src = 0; src < kNumPipes; ++src)
    for (unsigned dst = 0; dst < kNumPipes; ++dst) {
      LoopKey key{order.position(op), static_cast<Pipe>(src),
                  static_cast<Pipe>(dst)};
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

bool SyncCover::hasDrains(Operation *loop) const {
  int64_t position = order.position(loop);
  for (const auto &[key, pairs] : decisions.loopPairs)
    if (std::get<0>(key) == position && !pairs.empty())
      return true;
  for (const auto &[key, pairs] : decisions.branchLoopPairs)
    if (!pairs.empty() &&
        enclosingLoop(order.blockWithId(std::get<0>(key))) == loop)
      return true;
  return false;
}

std::array<int32_t, kNumPipes> SyncCover::lastIndices(Block *block) const {
  std::array<int32_t, kNumPipes> last;
  last.fill(-1);
  // One scan back for all pipes, until each has its last op.
  unsigned missing = (1u << kNumPipes) - 1;
  ArrayRef<Operation *> blockOps = order.opsOf(block);
  for (int32_t i = blockOps.size() - 1; i >= 0 && missing; --i) {
    unsigned found = requirements.pipesOf.lookup(blockOps[i]) & missing;
    for (unsigned pipe = 0; pipe < kNumPipes; ++pipe)
      if (found >> pipe & 1)
        last[pipe] = i;
    missing &= ~found;
  }
  return last;
}

/// The body as the next iteration: the first walk's knowledge at its end is
/// about the previous iteration now. Inserted syncs of the first walk run
/// again; a back-edge requirement nothing orders gets the loop's pair of
/// its pipes (set after the last producer, waited before the first
/// consumer; set before the loop for the first iteration, waited after it
/// for the last) or a barrier before the consumer.
///
/// A scan of the body's own ops, not a walk of control flow: an op with
/// regions counts by what the first walk learnt of its blocks (exitCovers)
/// and is not gone into again.
void SyncCover::coverBackEdges(Block *body, Operation *loop,
                                 const Knowledge &atEnd,
                                 ArrayRef<Knowledge> firstHistory,
                                 ArrayRef<SmallVector<Inserted, 2>> inserted) {
  ArrayRef<Operation *> blockOps = order.opsOf(body);
  Gap end = blockOps.size();
  // The body of `loop`, or a block of a branch in it: then the previous
  // execution of the block may be several iterations back, and what ran
  // in between is not counted (what the pipes knew at its end still holds).
  bool branch = body->getParentOp() != loop;
  ArrayRef<Requirement> reqs =
      branch ? requirements.branchBackEdge.find(order.blockId(body))->second
             : requirements.backEdge.find(order.position(loop))->second;
  std::vector<Knowledge> history(end + 1);
  InputFlags flags;
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
        decisions.barriers[{order.blockId(body), req.src}].push_back({gap, gap, numDecisions++});
        knowledge.barrier(req.src, gap);
        continue;
      }
      // The set of the previous iteration hands over what the producer
      // knew then, as knowledge of the previous iteration.
      SmallVector<FlagPair, 1> &pairs =
          branch ? decisions.branchLoopPairs[{order.blockId(body), req.src,
                                              req.dst}]
                 : decisions.loopPairs[{order.position(loop), req.src,
                                        req.dst}];
      Gap set = placeLoopPair(pairs, req, gap);
      knowledge.receive(req.dst, firstHistory[set]
                                     .capture(req.src, set)
                                     .nextIteration());
    }
    if (gap == end)
      break;
    Operation *op = blockOps[gap];
    if (!stepOverInputSync(op, gap, knowledge, flags) && coversRegionsOf(op))
      stepOverNested(op, gap, knowledge, /*undrained=*/nullptr);
  }
  // The wait after the loop learns from a branch's pairs nothing of the
  // body's accesses: the branch may not have run in the last iterations.
  if (branch)
    return;
  // The loop's pairs, keyed first by its position.
  int64_t position = order.position(loop);
  std::array<int32_t, kNumPipes> last = lastIndices(body);
  for (auto it = decisions.loopPairs.lower_bound(
           {position, static_cast<Pipe>(0), static_cast<Pipe>(0)});
       it != decisions.loopPairs.end() && std::get<0>(it->first) == position;
       ++it) {
    auto &[key, pairs] = *it;
    SmallVector<unsigned, 1> &covered = drainCovers[key];
    covered.clear();
    for (const FlagPair &pair : pairs) {
      Payload atSet =
          firstHistory[pair.set].capture(std::get<1>(key), pair.set);
      unsigned covers = 0;
      for (unsigned r = 0; r < kNumPipes; ++r)
        if (atSet.current[r] >= last[r] + 2)
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
/// load into slot s waits only for slot s's last reader (IdPressure.cpp
/// merges the pairs of one slot when there are too many). Past kMaxLoopPairs
/// pairs, the last pair's set moves down to cover `req` too (each pair
/// holds an event id for the whole loop).
Gap SyncCover::placeLoopPair(SmallVector<FlagPair, 1> &pairs,
                             const Requirement &req, Gap wait) {
  Gap set = req.after + 1;
  if (pairs.size() < kMaxLoopPairs) {
    pairs.push_back({set, wait, numDecisions++});
    return set;
  }
  pairs.back().set = std::max(pairs.back().set, set);
  return pairs.back().set;
}


} // namespace

SyncDecisions
mlir::dsaplan::sync::coverSyncRequirements(func::FuncOp func,
                                           const ProgramOrder &order,
                                           const SyncRequirements &requirements) {
  return SyncCover(order, requirements).run(func);
}
