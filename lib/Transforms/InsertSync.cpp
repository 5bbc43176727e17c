//===- InsertSync.cpp - Range-aware set_flag/wait_flag insertion ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// 1. Collect the accesses of every op that touches dsaplan memory, with its
//    pipe and byte ranges (MemoryAccess analysis).
// 2. For every two ops with conflicting accesses, record requirements:
//    forward (the earlier op before the later one in their innermost common
//    block), and around the back edge of the innermost loop holding both.
// 3. Meet the requirements with as few flag pairs and barriers as the
//    greedy cover below finds, skipping those the input already meets.
// 4. Give each pair an event id and create the ops.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Transforms/Passes.h"
#include "ReportFiles.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <set>
#include <tuple>

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANINSERTSYNC
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace solver = ::dsaplan::solver;

namespace {

constexpr int64_t kNumEventIds = 8;
/// Blocks with more flag pairs than this are not pruned (see
/// pruneForwardPairs).
constexpr size_t kMaxPairsToPrune = 64;

/// Pipes that issue an instruction without waiting for the previous one to
/// finish, so that a same-pipe dependency needs a pipe_barrier.
bool needsBarrier(Pipe pipe) { return pipe != Pipe::s; }

struct AccessingOp {
  Operation *op;
  Pipe pipe;
  SmallVector<MemoryAccess, 4> accesses;
};

/// A gap of a block: gap g is just before the block's op number g.
using Gap = unsigned;

/// Earlier access after op `after`, later access before op `before`, both
/// op indices of one block. Forward: after < before; around a back edge:
/// after >= before.
struct Requirement {
  unsigned after, before;
};

struct FlagPair {
  Gap set, wait;
};

/// Key of a dependency between two pipes in one block (or loop).
using PairKey = std::tuple<void *, Pipe, Pipe>;
using PipeKey = std::pair<void *, Pipe>;

/// Ops that only forward memrefs or are themselves syncs: not accesses.
bool isAccessCandidate(Operation *op) {
  return !isa<RegionBranchOpInterface, RegionBranchTerminatorOpInterface,
              SetFlagOp, WaitFlagOp, PipeBarrierOp, SeparateOp, ColocateOp,
              AllocOp, ArenaOp>(op) &&
         !op->hasTrait<OpTrait::IsTerminator>() && touchesDsaPlanMemory(op);
}

class SyncPlanner {
public:
  /// Which dependencies to honour, by the tiles of the two accesses.
  enum class Scope { All, ReuseOnly, IdentityOnly };

  SyncPlanner(func::FuncOp func, Scope scope, int64_t skipSync)
      : func(func), scope(scope), skipSync(skipSync) {}
  /// Ordered pairs of conflicting ops found: what a naive inserter would
  /// give one flag pair each.
  unsigned getNumConflicts() const { return numConflicts; }

  LogicalResult collect();
  void addRequirements();
  void coverRequirements();
  /// Drops the inserted forward pairs that chains of other pairs make
  /// unnecessary.
  void pruneForwardPairs();
  /// Whether a pair in the body and the loop's own pair, through another
  /// pipe, already order `pipe`'s access after op `req.after` of one
  /// iteration before its access at op `req.before` of the next.
  bool orderedAroundLoop(Operation *loop, Block *body, Pipe pipe,
                         const Requirement &req);
  LogicalResult materialize(unsigned &flagPairs, unsigned &loopPairs,
                            unsigned &eagerPairs, unsigned &barriers);

private:
  void addPair(const AccessingOp &first, const AccessingOp &second);
  void requireForward(Block *block, Operation *from, Operation *to, Pipe src,
                      Pipe dst);
  void requireAcrossIterations(Operation *loop, Operation *from,
                               Operation *to, Pipe src, Pipe dst);
  unsigned indexInBlock(Operation *op);
  void collectExistingSyncs(Block *block);
  double linearGap(Block *block, Gap gap);
  /// The ops of `block` by index (as they were before any insertion).
  ArrayRef<Operation *> opsOf(Block *block);
  std::optional<int64_t> takeEventId(Pipe src, Pipe dst, double begin,
                                     double end);

  /// Whether the next sync (pair or barrier, in creation order) is the one
  /// that test-skip-sync leaves out.
  bool skipNext() { return syncCounter++ == skipSync; }

  func::FuncOp func;
  Scope scope;
  int64_t skipSync;
  unsigned numConflicts = 0;
  int64_t syncCounter = 0;
  SmallVector<AccessingOp> ops;
  DenseMap<Operation *, unsigned> blockIndex;
  DenseMap<Block *, std::vector<Operation *>> blockOps;
  DenseMap<Operation *, int64_t> preorder, preorderEnd;

  std::map<PairKey, SmallVector<Requirement>> forward, backEdge;
  std::map<PipeKey, SmallVector<Requirement>> forwardBarrier, backEdgeBarrier;
  /// Eager fallback: a set and its wait (or a barrier) right after an op.
  SmallVector<std::tuple<Operation *, Pipe, Pipe>> eager;

  /// Syncs of the input, per block, as gaps.
  std::map<PairKey, SmallVector<FlagPair>> existingPairs;
  std::map<PipeKey, SmallVector<Gap>> existingBarriers;
  std::map<std::pair<Pipe, Pipe>, llvm::SmallBitVector> reservedIds;

  /// The cover.
  std::map<PairKey, SmallVector<FlagPair>> forwardPairs;
  std::map<PipeKey, SmallVector<Gap>> forwardBarriers;
  std::map<PairKey, FlagPair> loopPairs;
  std::map<PipeKey, Gap> loopBarriers;

  /// Event ids taken, per pipe pair: spans in pre-order positions.
  std::map<std::pair<Pipe, Pipe>, SmallVector<std::tuple<double, double, int64_t>>>
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
    if (!pipe) {
      op->emitError() << "'" << op->getName()
                      << "' touches a dsaplan memory space but has no pipe "
                         "(a dsaplan.pipe attribute or PipeOpInterface)";
      ok = false;
      return WalkResult::skip();
    }
    if (unknownEffects)
      op->emitWarning() << "'" << op->getName()
                        << "' has unknown memory effects: taken to read and "
                           "write all its dsaplan memrefs";
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
  // The input's own syncs, everywhere: their event ids are never reused.
  func.walk([&](Block *block) { collectExistingSyncs(block); });
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

/// Records the input's own set/wait pairs and barriers of `block`.
void SyncPlanner::collectExistingSyncs(Block *block) {
  std::map<std::tuple<Pipe, Pipe, int64_t>, unsigned> openSets;
  unsigned index = 0;
  for (Operation &op : *block) {
    if (auto set = dyn_cast<SetFlagOp>(op)) {
      openSets[{set.getSrc(), set.getDst(), set.getEvent()}] = index;
      reservedIds[{set.getSrc(), set.getDst()}].resize(kNumEventIds);
      reservedIds[{set.getSrc(), set.getDst()}].set(set.getEvent());
    } else if (auto wait = dyn_cast<WaitFlagOp>(op)) {
      auto it = openSets.find({wait.getSrc(), wait.getDst(), wait.getEvent()});
      reservedIds[{wait.getSrc(), wait.getDst()}].resize(kNumEventIds);
      reservedIds[{wait.getSrc(), wait.getDst()}].set(wait.getEvent());
      if (it != openSets.end()) {
        // The set orders what precedes it; the wait, what follows it.
        existingPairs[{block, wait.getSrc(), wait.getDst()}].push_back(
            {it->second, index + 1});
        openSets.erase(it);
      }
    } else if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
      existingBarriers[{block, barrier.getPipe()}].push_back(index);
    }
    ++index;
  }
}

//===----------------------------------------------------------------------===//
// Requirements
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

void SyncPlanner::requireForward(Block *block, Operation *from,
                                 Operation *to, Pipe src, Pipe dst) {
  Requirement req{indexInBlock(block->findAncestorOpInBlock(*from)),
                  indexInBlock(block->findAncestorOpInBlock(*to))};
  if (src == dst)
    forwardBarrier[{block, src}].push_back(req);
  else
    forward[{block, src, dst}].push_back(req);
}

void SyncPlanner::requireAcrossIterations(Operation *loop, Operation *from,
                                          Operation *to, Pipe src, Pipe dst) {
  Block *body = loop->getNumRegions() == 1 && loop->getRegion(0).hasOneBlock()
                    ? &loop->getRegion(0).front()
                    : nullptr;
  if (!body || !isa<scf::ForOp>(loop)) {
    eager.push_back({from, src, dst}); // scf.while and other loops
    return;
  }
  Requirement req{indexInBlock(body->findAncestorOpInBlock(*from)),
                  indexInBlock(body->findAncestorOpInBlock(*to))};
  if (src == dst)
    backEdgeBarrier[{loop, src}].push_back(req);
  else
    backEdge[{loop, src, dst}].push_back(req);
}

/// Records what orders `first` (earlier in program order) and `second`.
void SyncPlanner::addPair(const AccessingOp &first,
                          const AccessingOp &second) {
  // An op meets itself again only in a later iteration of a loop.
  if (first.op == second.op) {
    Operation *parent = first.op->getParentOp();
    while (parent && parent != func && !isLoopOp(parent))
      parent = parent->getParentOp();
    if (!parent || parent == func)
      return;
  }
  bool conflict = false;
  for (const MemoryAccess &a : first.accesses)
    for (const MemoryAccess &b : second.accesses) {
      bool sameTile = a.tile && a.tile == b.tile;
      if (a.conflictsWith(b) &&
          !(scope == Scope::ReuseOnly && sameTile) &&
          !(scope == Scope::IdentityOnly && !sameTile))
        conflict = true;
    }
  if (!conflict)
    return;
  ++numConflicts;
  if (first.pipe == second.pipe && !needsBarrier(first.pipe))
    return;
  Operation *x = first.op, *y = second.op;
  Block *block = commonBlock(x, y);
  if (x != y && block->findAncestorOpInBlock(*x) != block->findAncestorOpInBlock(*y))
    requireForward(block, x, y, first.pipe, second.pipe);
  // Around the back edge of the innermost loop holding both: the later op
  // of iteration i before the earlier op of iteration i+1, and, when they
  // are in exclusive branches of one op, the other way round too.
  for (Operation *parent = block->getParentOp(); parent && parent != func;
       parent = parent->getParentOp()) {
    if (!isLoopOp(parent))
      continue;
    requireAcrossIterations(parent, y, x, second.pipe, first.pipe);
    if (x != y && block->findAncestorOpInBlock(*x) == block->findAncestorOpInBlock(*y))
      requireAcrossIterations(parent, x, y, first.pipe, second.pipe);
    break;
  }
}

void SyncPlanner::addRequirements() {
  // Candidate pairs: ops whose accesses overlap, found per region by a sweep
  // over ranges sorted by their first byte.
  struct Span {
    int64_t begin, end;
    unsigned op;
    bool isWrite;
  };
  std::vector<std::pair<MemoryRegion, std::vector<Span>>> regions;
  for (unsigned i = 0; i < ops.size(); ++i)
    for (const MemoryAccess &access : ops[i].accesses) {
      auto it = llvm::find_if(regions, [&](const auto &entry) {
        return entry.first == access.region;
      });
      if (it == regions.end()) {
        regions.push_back({access.region, {}});
        it = std::prev(regions.end());
      }
      it->second.push_back({access.begin, access.end, i, access.isWrite});
    }
  // Two reads never conflict: a read is paired with open writes only.
  std::vector<std::pair<unsigned, unsigned>> candidates;
  for (auto &[region, spans] : regions) {
    llvm::sort(spans, [](const Span &a, const Span &b) {
      return std::tie(a.begin, a.op) < std::tie(b.begin, b.op);
    });
    std::vector<Span> openReads, openWrites;
    for (const Span &span : spans) {
      auto ended = [&](const Span &o) { return o.end <= span.begin; };
      llvm::erase_if(openReads, ended);
      llvm::erase_if(openWrites, ended);
      auto pairWith = [&](const std::vector<Span> &open) {
        for (const Span &o : open)
          candidates.push_back(
              {std::min(o.op, span.op), std::max(o.op, span.op)});
      };
      pairWith(openWrites);
      if (span.isWrite)
        pairWith(openReads);
      (span.isWrite ? openWrites : openReads).push_back(span);
    }
  }
  // An op against itself: its next execution in a loop.
  for (unsigned i = 0; i < ops.size(); ++i)
    candidates.push_back({i, i});
  llvm::sort(candidates);
  candidates.erase(std::unique(candidates.begin(), candidates.end()),
                   candidates.end());
  for (auto [i, j] : candidates)
    addPair(ops[i], ops[j]);
}

//===----------------------------------------------------------------------===//
// Cover
//===----------------------------------------------------------------------===//

bool pairCovers(const FlagPair &pair, const Requirement &req) {
  return pair.set >= req.after + 1 && pair.wait <= req.before &&
         pair.set <= pair.wait;
}

void SyncPlanner::coverRequirements() {
  for (auto &[key, reqs] : forward) {
    llvm::sort(reqs, [](const Requirement &a, const Requirement &b) {
      return a.before != b.before ? a.before < b.before : a.after > b.after;
    });
    SmallVector<FlagPair> &pairs = forwardPairs[key];
    const SmallVector<FlagPair> &given = existingPairs[key];
    // Requirements come by increasing `before`, so every pair made so far
    // waits early enough: one covers iff its set is late enough.
    Gap latestSet = 0;
    for (const Requirement &req : reqs) {
      auto covers = [&](const FlagPair &p) { return pairCovers(p, req); };
      if ((!pairs.empty() && latestSet >= req.after + 1) ||
          llvm::any_of(given, covers))
        continue;
      pairs.push_back({req.after + 1, req.before});
      latestSet = std::max(latestSet, req.after + 1);
    }
  }
  for (auto &[key, reqs] : forwardBarrier) {
    llvm::sort(reqs, [](const Requirement &a, const Requirement &b) {
      return a.before != b.before ? a.before < b.before : a.after > b.after;
    });
    SmallVector<Gap> &gaps = forwardBarriers[key];
    const SmallVector<Gap> &given = existingBarriers[key];
    // As above: barriers made so far sit at or before `before`.
    for (const Requirement &req : reqs) {
      auto coversOp = [&](Gap index) { return index > req.after && index < req.before; };
      if ((!gaps.empty() && gaps.back() >= req.after + 1) ||
          llvm::any_of(given, coversOp))
        continue;
      gaps.push_back(req.before);
    }
  }
  pruneForwardPairs();
  for (auto &[key, reqs] : backEdge) {
    auto [loop, src, dst] = key;
    Block *body = &static_cast<Operation *>(loop)->getRegion(0).front();
    PairKey bodyKey{body, src, dst};
    const SmallVector<FlagPair> &inBody = forwardPairs[bodyKey];
    const SmallVector<FlagPair> &given = existingPairs[bodyKey];
    std::optional<FlagPair> pair;
    for (const Requirement &req : reqs) {
      // A pair in the body whose set follows the earlier access also orders
      // it before the next iteration.
      auto covers = [&](const FlagPair &p) { return p.set >= req.after + 1; };
      if (llvm::any_of(inBody, covers) || llvm::any_of(given, covers))
        continue;
      if (!pair)
        pair = FlagPair{req.after + 1, req.before};
      pair->set = std::max<Gap>(pair->set, req.after + 1);
      pair->wait = std::min<Gap>(pair->wait, req.before);
    }
    if (pair)
      loopPairs[key] = *pair;
  }
  for (auto &[key, reqs] : backEdgeBarrier) {
    auto [loop, pipe] = key;
    Block *body = &static_cast<Operation *>(loop)->getRegion(0).front();
    const SmallVector<Gap> &inBody = forwardBarriers[{body, pipe}];
    const SmallVector<Gap> &given = existingBarriers[{body, pipe}];
    std::optional<Gap> gap;
    for (const Requirement &req : reqs) {
      auto covers = [&](Gap g) { return g >= req.after + 1 || g <= req.before; };
      auto coversOp = [&](Gap i) { return i > req.after || i < req.before; };
      if (llvm::any_of(inBody, covers) || llvm::any_of(given, coversOp) ||
          orderedAroundLoop(static_cast<Operation *>(loop), body, pipe, req))
        continue;
      gap = std::max<Gap>(gap.value_or(0), req.after + 1);
    }
    if (gap)
      loopBarriers[key] = *gap;
  }
}

/// A pair of some pipes in one block, as the pruning sees it.
struct BlockPair {
  Pipe src, dst;
  FlagPair gaps;
  bool removable;
  SmallVector<FlagPair> *owner;
  size_t index;
};

/// Whether the pairs order an access of `src` after op `req.after` before
/// one of `dst` at op `req.before`: directly, or through a third pipe that
/// waits for `src` and then signals `dst`.
bool ordered(ArrayRef<const BlockPair *> pairs, Pipe src, Pipe dst,
             const Requirement &req) {
  for (const BlockPair *a : pairs) {
    if (a->src != src || a->gaps.set < req.after + 1 ||
        a->gaps.set > a->gaps.wait)
      continue;
    if (a->dst == dst && a->gaps.wait <= req.before)
      return true;
    for (const BlockPair *b : pairs)
      // Strictly later: at one gap, sets are created before waits.
      if (b->src == a->dst && b->dst == dst && b->gaps.set > a->gaps.wait &&
          b->gaps.set <= b->gaps.wait && b->gaps.wait <= req.before)
        return true;
  }
  return false;
}

void SyncPlanner::pruneForwardPairs() {
  // Everything that orders pipes in each block: inserted pairs (removable)
  // and the input's pairs.
  std::map<Block *, std::vector<BlockPair>> perBlock;
  for (auto &[key, pairs] : forwardPairs) {
    auto [block, src, dst] = key;
    for (size_t i = 0; i < pairs.size(); ++i)
      perBlock[static_cast<Block *>(block)].push_back(
          {src, dst, pairs[i], true, &pairs, i});
  }
  for (auto &[key, pairs] : existingPairs) {
    auto [block, src, dst] = key;
    for (const FlagPair &pair : pairs)
      perBlock[static_cast<Block *>(block)].push_back(
          {src, dst, pair, false, nullptr, 0});
  }
  std::set<std::pair<SmallVector<FlagPair> *, size_t>> dropped;
  for (auto &[block, all] : perBlock) {
    // The check is cubic in the pairs of a block: generated kernels with
    // hundreds of pairs in one block keep them all.
    if (all.size() > kMaxPairsToPrune)
      continue;
    for (size_t k = all.size(); k-- > 0;) {
      if (!all[k].removable)
        continue;
      SmallVector<const BlockPair *> rest;
      for (size_t j = 0; j < all.size(); ++j)
        if (j != k && !dropped.count({all[j].owner, all[j].index}))
          rest.push_back(&all[j]);
      bool needed = false;
      for (auto &[key, reqs] : forward) {
        auto [reqBlock, src, dst] = key;
        if (reqBlock != block)
          continue;
        for (const Requirement &req : reqs)
          needed |= !ordered(rest, src, dst, req);
      }
      if (!needed)
        dropped.insert({all[k].owner, all[k].index});
    }
  }
  for (auto &[key, pairs] : forwardPairs) {
    SmallVector<FlagPair> kept;
    for (size_t i = 0; i < pairs.size(); ++i)
      if (!dropped.count({&pairs, i}))
        kept.push_back(pairs[i]);
    pairs = std::move(kept);
  }
}

bool SyncPlanner::orderedAroundLoop(Operation *loop, Block *body, Pipe pipe,
                                    const Requirement &req) {
  for (auto &[key, pairs] : forwardPairs) {
    auto [block, src, dst] = key;
    if (block != body)
      continue;
    for (const FlagPair &inBody : pairs) {
      // pipe -> r in this iteration, then the loop's r -> pipe pair.
      auto back = loopPairs.find({loop, dst, src});
      if (src == pipe && inBody.set >= req.after + 1 &&
          back != loopPairs.end() && back->second.set > inBody.wait &&
          back->second.wait <= req.before)
        return true;
      // The loop's pipe -> r pair, then r -> pipe in the next iteration.
      auto ahead = loopPairs.find({loop, pipe, src});
      if (dst == pipe && ahead != loopPairs.end() &&
          ahead->second.set >= req.after + 1 && inBody.set > ahead->second.wait &&
          inBody.wait <= req.before)
        return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Sync pictures
//===----------------------------------------------------------------------===//

/// The nearest op of the block that accesses dsaplan memory, walking from
/// `from` in `step` direction (+1 or -1), skipping syncs and views.
Operation *neighbourAccess(Operation *from, int step) {
  for (Operation *op = step > 0 ? from->getNextNode() : from->getPrevNode();
       op; op = step > 0 ? op->getNextNode() : op->getPrevNode()) {
    bool unknown = false;
    if (isAccessCandidate(op) && !getMemoryAccesses(op, unknown).empty())
      return op;
  }
  return nullptr;
}

/// The pictures' problem: one pool per space, one buffer per tile.
struct SyncPicture {
  solver::Problem problem;
  solver::Placement placement;
  std::vector<std::vector<solver::SyncArrow>> arrows; // per pool
  DenseMap<Operation *, size_t> bufferOf;
  std::map<std::pair<int, Operation *>, size_t> poolOf;
};

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
  auto &taken = takenIds[{src, dst}];
  for (auto [b, e, id] : taken)
    if (b <= end && begin <= e)
      used.set(id);
  for (int64_t id = 0; id < kNumEventIds; ++id)
    if (!used.test(id)) {
      taken.push_back({begin, end, id});
      return id;
    }
  return std::nullopt;
}

/// Inserts `build` at `gap` of `block`: before op number `gap`. A set takes
/// the location of the op it follows, a wait or barrier that of the op it
/// precedes, so that the IR and diagnostics point at the accesses.
template <typename BuildFn>
void insertAtGap(Block *block, Gap gap, bool isSet, BuildFn build) {
  auto it = block->begin();
  std::advance(it, gap);
  Location loc = (isSet && it != block->begin()) ? std::prev(it)->getLoc()
                                                  : it->getLoc();
  OpBuilder builder(block, it);
  build(builder, loc);
}

LogicalResult SyncPlanner::materialize(unsigned &flagPairs,
                                       unsigned &loopPairCount,
                                       unsigned &eagerPairs,
                                       unsigned &barrierCount) {
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
                       {block, pair.set, pair.wait, nullptr, src, dst, -1}});
  }
  for (auto &[key, pair] : loopPairs) {
    auto [loopPtr, src, dst] = key;
    Operation *loop = static_cast<Operation *>(loopPtr);
    spans.push_back({preorder.lookup(loop) - 0.5,
                     preorderEnd.lookup(loop) + 0.5,
                     {&loop->getRegion(0).front(), pair.set, pair.wait, loop,
                      src, dst, -1}});
  }
  llvm::sort(spans, [](const Span &a, const Span &b) {
    return std::make_tuple(a.begin, a.end, a.plan.src, a.plan.dst) <
           std::make_tuple(b.begin, b.end, b.plan.src, b.plan.dst);
  });
  SmallVector<Planned> planned;
  for (Span &span : spans) {
    std::optional<int64_t> id =
        takeEventId(span.plan.src, span.plan.dst, span.begin, span.end);
    if (!id) {
      // The access that would wait, or the loop.
      Operation *anchor = span.plan.loop
                              ? span.plan.loop
                              : opsOf(span.plan.block)[span.plan.wait];
      return anchor->emitError()
             << "no free event id for <" << stringifyPipe(span.plan.src)
             << " -> " << stringifyPipe(span.plan.dst)
             << ">: eight dependencies are in flight";
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

  // Create ops from the highest gap down, so that indices stay valid.
  struct Insertion {
    Block *block;
    Gap gap;
    int order; // 0 set, 1 wait, 2 barrier
    Pipe src, dst;
    int64_t id;
  };
  SmallVector<Insertion> insertions;
  llvm::DenseSet<const Planned *> skipped;
  for (const Planned &p : planned) {
    if (skipNext()) {
      skipped.insert(&p);
      continue;
    }
    insertions.push_back({p.block, p.set, 0, p.src, p.dst, p.id});
    insertions.push_back({p.block, p.wait, 1, p.src, p.dst, p.id});
    if (p.loop)
      ++loopPairCount;
    else
      ++flagPairs;
  }
  for (auto &[key, gaps] : forwardBarriers)
    for (Gap gap : gaps)
      if (!skipNext())
        insertions.push_back({static_cast<Block *>(key.first), gap, 2,
                              key.second, key.second, -1});
  for (auto &[key, gap] : loopBarriers)
    if (!skipNext())
      insertions.push_back(
          {&static_cast<Operation *>(key.first)->getRegion(0).front(), gap, 2,
           key.second, key.second, -1});
  // Same gap: sets, then waits, then barriers; later gaps first.
  llvm::stable_sort(insertions, [](const Insertion &a, const Insertion &b) {
    if (a.block != b.block)
      return a.block < b.block;
    if (a.gap != b.gap)
      return a.gap > b.gap;
    return a.order > b.order;
  });
  for (const Insertion &ins : insertions)
    insertAtGap(ins.block, ins.gap, ins.order == 0, [&](OpBuilder &b,
                                                         Location loc) {
      if (ins.order == 0)
        SetFlagOp::create(b, loc, pipeAttr(ins.src), pipeAttr(ins.dst),
                          eventAttr(b, ins.id));
      else if (ins.order == 1)
        WaitFlagOp::create(b, loc, pipeAttr(ins.src), pipeAttr(ins.dst),
                           eventAttr(b, ins.id));
      else {
        PipeBarrierOp::create(b, loc, pipeAttr(ins.src));
        ++barrierCount;
      }
    });
  // The loops' first set and last wait go around the loop op, after every
  // insertion by index is done.
  for (const Planned &p : planned) {
    if (!p.loop || skipped.contains(&p))
      continue;
    OpBuilder before(p.loop);
    SetFlagOp::create(before, p.loop->getLoc(), pipeAttr(p.src),
                      pipeAttr(p.dst), eventAttr(before, p.id));
    OpBuilder after(p.loop->getBlock(), std::next(p.loop->getIterator()));
    WaitFlagOp::create(after, p.loop->getLoc(), pipeAttr(p.src),
                       pipeAttr(p.dst), eventAttr(after, p.id));
  }
  for (auto [op, src, dst, id] : eagerPlanned) {
    if (skipNext())
      continue;
    OpBuilder after(op->getBlock(), std::next(op->getIterator()));
    if (src == dst) {
      PipeBarrierOp::create(after, op->getLoc(), pipeAttr(src));
      ++barrierCount;
      continue;
    }
    SetFlagOp::create(after, op->getLoc(), pipeAttr(src), pipeAttr(dst),
                      eventAttr(after, id));
    WaitFlagOp::create(after, op->getLoc(), pipeAttr(src), pipeAttr(dst),
                       eventAttr(after, id));
    ++eagerPairs;
  }
  return success();
}

std::string locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
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
    return writeSyncPictures();
  }

  /// `<function>.<space>.sync.svg`: the tiles as placed (x: program point of
  /// the placed IR, from first to last access), and an arrow per flag pair
  /// from the access before its set to the access after its wait.
  LogicalResult writeSyncPictures();

  void runOnOperation() override {
    std::optional<SyncPlanner::Scope> scope =
        llvm::StringSwitch<std::optional<SyncPlanner::Scope>>(mode)
            .Case("all", SyncPlanner::Scope::All)
            .Case("reuse-only", SyncPlanner::Scope::ReuseOnly)
            .Case("identity-only", SyncPlanner::Scope::IdentityOnly)
            .Default(std::nullopt);
    if (!scope) {
      getOperation().emitError() << "unknown mode '" << mode
                                 << "' (expected all, reuse-only or "
                                    "identity-only)";
      return signalPassFailure();
    }
    SyncPlanner planner(getOperation(), *scope, testSkipSync);
    if (failed(planner.collect()))
      return signalPassFailure();
    planner.addRequirements();
    planner.coverRequirements();
    unsigned pairs = 0, loops = 0, eagerPairs = 0, barriers = 0;
    if (failed(planner.materialize(pairs, loops, eagerPairs, barriers)))
      return signalPassFailure();
    numFlagPairs += pairs;
    numLoopPairs += loops;
    numEagerPairs += eagerPairs;
    numBarriers += barriers;
    numConflicts += planner.getNumConflicts();
    // Pass statistics are compiled out of release LLVM builds: the remark is
    // how a driver reads the counts.
    if (!reportDir.empty() && failed(writeSyncReport()))
      return signalPassFailure();
    if (summary)
      mlir::emitRemark(getOperation().getLoc())
          << "@" << getOperation().getSymName() << ": " << pairs + loops + eagerPairs
          << " flag pairs (" << loops << " around loops, " << eagerPairs
          << " eager), " << barriers << " barriers for "
          << planner.getNumConflicts() << " conflicting pairs";
  }
};

LogicalResult DsaPlanInsertSyncPass::writeSyncPictures() {
  func::FuncOp func = getOperation();
  ProgramPoints points(func);
  TargetDescription target = TargetDescription::getForOp(func);
  SyncPicture picture;
  // Tiles and their first and last accesses.
  std::map<Operation *, std::pair<int64_t, int64_t>> extent;
  SmallVector<Operation *> tiles;
  func.walk([&](Operation *op) {
    bool unknown = false;
    if (!isAccessCandidate(op))
      return;
    int64_t point = points.readPoint(op);
    for (const MemoryAccess &access : getMemoryAccesses(op, unknown)) {
      if (!access.tile || access.region.unplacedAlloc)
        continue;
      auto [it, inserted] = extent.try_emplace(access.tile, point, point + 2);
      if (inserted)
        tiles.push_back(access.tile);
      it->second.first = std::min(it->second.first, point);
      it->second.second = std::max(it->second.second, point + 2);
    }
  });
  for (Operation *tile : tiles) {
    MemoryAccess bytes = getTileBytes(tile);
    auto key = std::make_pair(static_cast<int>(bytes.region.space),
                              static_cast<Operation *>(nullptr));
    auto [poolIt, newPool] =
        picture.poolOf.try_emplace(key, picture.problem.pools.size());
    if (newPool) {
      solver::Pool pool;
      pool.id = pool.name = stringifyMemorySpace(bytes.region.space).str();
      pool.capacity = target.getSpace(bytes.region.space).capacity;
      for (ByteRange r : target.getSpace(bytes.region.space).reserved)
        pool.reserved.push_back({r.begin, r.end});
      picture.problem.pools.push_back(pool);
      picture.arrows.emplace_back();
    }
    solver::Buffer buffer;
    buffer.id = std::to_string(picture.problem.buffers.size());
    std::string name;
    if (auto alloc = dyn_cast<AllocOp>(tile))
      name = alloc.getDisplayName();
    else
      name = locationText(tile->getLoc());
    buffer.name = name;
    buffer.size = bytes.end - bytes.begin;
    buffer.pool = poolIt->second;
    buffer.live = {{extent[tile].first, extent[tile].second}};
    picture.bufferOf[tile] = picture.problem.buffers.size();
    picture.problem.buffers.push_back(buffer);
    picture.placement.push_back(bytes.begin);
  }
  // An arrow per set/wait pair, between the accesses around them.
  func.walk([&](SetFlagOp set) {
    Operation *before = neighbourAccess(set, -1);
    Operation *wait = set->getNextNode();
    while (wait && !(isa<WaitFlagOp>(wait) &&
                     cast<WaitFlagOp>(wait).getSrc() == set.getSrc() &&
                     cast<WaitFlagOp>(wait).getDst() == set.getDst() &&
                     cast<WaitFlagOp>(wait).getEvent() == set.getEvent()))
      wait = wait->getNextNode();
    Operation *after = wait ? neighbourAccess(wait, +1) : nullptr;
    if (!before || !after)
      return;
    bool unknown = false;
    SmallVector<MemoryAccess, 4> from = getMemoryAccesses(before, unknown);
    SmallVector<MemoryAccess, 4> to = getMemoryAccesses(after, unknown);
    for (const MemoryAccess &a : from)
      for (const MemoryAccess &b : to)
        if (a.overlaps(b) && !a.region.unplacedAlloc) {
          auto pool = picture.poolOf.find(
              {static_cast<int>(a.region.space), nullptr});
          if (pool == picture.poolOf.end())
            continue;
          picture.arrows[pool->second].push_back(
              {points.readPoint(before) + 1, std::max(a.begin, b.begin),
               points.readPoint(after), std::max(a.begin, b.begin),
               std::string("<") + stringifyPipe(set.getSrc()).str() + " -> " +
                   stringifyPipe(set.getDst()).str() + ">, " +
                   std::to_string(set.getEvent())});
          return;
        }
  });
  for (size_t pool = 0; pool < picture.problem.pools.size(); ++pool) {
    solver::PoolResult result;
    result.pool = pool;
    result.peak = solver::peakOf(picture.problem, picture.placement, pool);
    result.lowerBound = solver::lowerBound(picture.problem, pool);
    for (const solver::Buffer &b : picture.problem.buffers)
      result.buffers += b.pool == pool;
    result.status = result.peak <= result.lowerBound
                        ? solver::PoolStatus::Optimal
                        : solver::PoolStatus::Feasible;
    const std::string &space = picture.problem.pools[pool].name;
    if (failed(writeFunctionFile(
            func, reportDir, "." + space + ".sync.svg",
            solver::writeMemoryMapSvg(
                picture.problem, picture.placement, result,
                func.getSymName().str() + " - " + space + " with syncs",
                picture.arrows[pool]))))
      return failure();
  }
  return success();
}

} // namespace
