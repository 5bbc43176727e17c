//===- Requirements.cpp - What dsaplan-insert-sync must order -------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Job 1 of dsaplan-insert-sync (Plan.h): collect the accesses of every op
// that touches dsaplan memory, with its pipe and byte ranges (MemoryAccess
// analysis), find their dependencies (SyncDependencies analysis), and file
// each as a requirement of the innermost block holding both ops (forward)
// or of the body of the loop it crosses (back edge; of the block of a
// branch in that body when both accesses lie in it):
//
//   %t = ...                         // block B, op 0
//   memref.copy %gm, %t {mte2}       // op 1
//   scf.for ... {                    // op 2: body L
//     linalg.exp ins(%t) {v}         //   op 0 of L
//   }
//
// gives B the forward requirement {after 1, before 2, mte2 -> v}. A
// dependency between two regions of one op that run one after the other
// (scf.while's "before" and "do") has no gap of its block between them and
// around the back edge of a loop other than scf.for no gap either: those
// become eager pairs right after the producer.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/CountingSort.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

/// The callee of a call, for diagnostics.
std::string calleeName(CallOpInterface call) {
  if (auto symbol = call ? dyn_cast_if_present<SymbolRefAttr>(
                               call.getCallableForCallee())
                         : SymbolRefAttr())
    return "@" + symbol.getLeafReference().getValue().str();
  return "an indirect callee";
}

/// Appends the accesses of `op` on its pipe to `out`, built in place (a
/// PipeAccess moved is its accesses moved one by one), or nothing when it
/// has none; an error when it has no pipe.
LogicalResult appendAccessOf(Operation *op, MemoryAccessCache &cache,
                             SmallVectorImpl<PipeAccess> &out) {
  PipeAccess &access = out.emplace_back();
  bool unknownEffects = false;
  getMemoryAccesses(op, unknownEffects, cache, access.accesses);
  if (access.accesses.empty()) {
    out.pop_back(); // views, casts: no access of their own
    return success();
  }
  std::optional<Pipe> pipe = getOpPipe(op);
  auto call = dyn_cast<CallOpInterface>(op);
  if (!pipe && call) {
    // What the callee runs, on which pipes, and whether it syncs its own
    // accesses is unknown here: no pipe to order the call on is sound.
    op->emitError() << "call to " << calleeName(call)
                    << " passes a dsaplan tile or GM buffer but has no pipe "
                       "(give the call the dsaplan.pipe its accesses run on)";
    out.pop_back();
    return failure();
  }
  if (!pipe) {
    op->emitError() << "'" << op->getName()
                    << "' touches a dsaplan memory space or global memory "
                       "but has no pipe (a dsaplan.pipe attribute or "
                       "PipeOpInterface)";
    out.pop_back();
    return failure();
  }
  if (unknownEffects && call)
    op->emitRemark() << "call to " << calleeName(call)
                     << " has unknown memory effects: taken to read and "
                        "write all its dsaplan memrefs on pipe "
                     << stringifyPipe(*pipe);
  else if (unknownEffects)
    op->emitWarning() << "'" << op->getName()
                      << "' has unknown memory effects: taken to read and "
                         "write all its dsaplan memrefs";
  access.op = op;
  access.pipe = *pipe;
  return success();
}

/// Files `req` in `scope`. The dependencies come grouped by their later
/// access, whose neighbours in a block often give the same requirement:
/// a repeat of the last one filed is dropped here, the rest when the
/// scope is sorted (sortAndUnique).
void file(SmallVector<Requirement> &scope, const Requirement &req) {
  if (scope.empty() || !(scope.back() == req))
    scope.push_back(req);
}

/// Per `after` of a scope: the `before` (plus one) last filed with it, and
/// the pipe pairs filed with both, a bit each.
struct FiledPairs {
  unsigned before = 0;
  uint64_t pipePairs = 0;
};

/// Files `req` in `scope` unless it was filed since the last requirement
/// of another `before` with the same `after` (`filed`, the scope's). The
/// top block of a large kernel gets more than half of its requirements
/// twice or more (later accesses in one loop that wait for the same
/// producers): they are dropped here rather than sorted first.
void fileOnce(SmallVector<Requirement> &scope, std::vector<FiledPairs> &filed,
              const Requirement &req) {
  static_assert(kNumPipes * kNumPipes <= 64, "a pipe pair fits in a bit");
  if (req.after >= filed.size())
    filed.resize(std::max<size_t>(req.after + 1, 2 * filed.size()));
  FiledPairs &at = filed[req.after];
  uint64_t bit = uint64_t(1)
                 << (pipeIndex(req.src) * kNumPipes + pipeIndex(req.dst));
  if (at.before != req.before + 1)
    at = {req.before + 1, 0};
  else if (at.pipePairs & bit)
    return;
  at.pipePairs |= bit;
  scope.push_back(req);
}

void requireForward(const ProgramOrder &order, SyncRequirements &result,
                    Operation *from, Operation *to, Pipe src, Pipe dst) {
  Block *block = commonBlock(from, to);
  Operation *fromAncestor = block->findAncestorOpInBlock(*from);
  Operation *toAncestor = block->findAncestorOpInBlock(*to);
  // Two regions of one op that run one after the other, such as the
  // "before" and "do" regions of an scf.while: no gap of `block` lies
  // between the two accesses.
  if (fromAncestor == toAncestor) {
    result.eager.insert({from, src, dst});
    return;
  }
  file(result.forward[order.blockId(block)],
       {order.indexInBlock(fromAncestor), order.indexInBlock(toAncestor), src,
        dst});
}

/// The block of `from` when `from` and `to` lie in one block nested in the
/// body of `loop` through branches only (scf.if, scf.index_switch): the
/// dependency runs from one execution of that block to the next.
Block *sharedBranchBlock(Operation *loop, Operation *from, Operation *to) {
  Block *block = commonBlock(from, to);
  if (block == loopBody(loop))
    return nullptr;
  for (Operation *op = block->getParentOp(); op != loop; op = op->getParentOp())
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(op))
      return nullptr;
  return block;
}

void requireAcrossIterations(const ProgramOrder &order,
                             SyncRequirements &result, Operation *loop,
                             Operation *from, Operation *to, Pipe src,
                             Pipe dst) {
  // An scf.while's iterations run its "do" region: a dependency from one
  // execution of it to the next gets pairs there, as an scf.for's body
  // does; one from or to the "before" region has no gap between.
  Block *body = isa<scf::ForOp, scf::WhileOp>(loop) ? loopBody(loop) : nullptr;
  if (!body || !body->findAncestorOpInBlock(*from) ||
      !body->findAncestorOpInBlock(*to)) {
    result.eager.insert({from, src, dst});
    return;
  }
  unsigned after = order.indexInBlock(body->findAncestorOpInBlock(*from));
  unsigned before = order.indexInBlock(body->findAncestorOpInBlock(*to));
  // A producer ahead of its consumer in the body (GM rows two iterations
  // apart: a load of row r + 2, a store of row r) is ordered within each
  // iteration: the wait before the consumer of iteration i + 1 follows the
  // set after the producer of iteration i + 1, which follows the producer
  // of iteration i on its pipe. A pair around the back edge would set
  // before its own wait in every iteration, which no event id keeps safe.
  if (after < before) {
    file(result.forward[order.blockId(body)], {after, before, src, dst});
    return;
  }
  // Both in one block of a branch: a pair of that block, so that an
  // iteration that skips the branch neither waits nor sets. (A barrier
  // needs no balance: it stays before the branch.)
  Block *branch = src != dst ? sharedBranchBlock(loop, from, to) : nullptr;
  if (branch) {
    unsigned producer = order.indexInBlock(branch->findAncestorOpInBlock(*from));
    unsigned consumer = order.indexInBlock(branch->findAncestorOpInBlock(*to));
    if (consumer <= producer) {
      file(result.branchBackEdge[order.blockId(branch)],
           {producer, consumer, src, dst});
      return;
    }
  }
  file(result.backEdge[order.position(loop)], {after, before, src, dst});
}

/// A requirement's place among those of its `before` in
/// Requirement::operator<'s order (the latest `after` first, then the
/// pipes), as one integer: a run of one `before` sorts by comparing those.
uint64_t keyWithinBefore(const Requirement &req) {
  static_assert(kNumPipes <= (1u << 16), "a pipe fits in 16 bits");
  return (static_cast<uint64_t>(~req.after) << 32) |
         (static_cast<uint64_t>(req.src) << 16) |
         static_cast<uint64_t>(req.dst);
}

Requirement fromKeyWithinBefore(uint64_t key, unsigned before) {
  return {~static_cast<unsigned>(key >> 32), before,
          static_cast<Pipe>((key >> 16) & 0xffff),
          static_cast<Pipe>(key & 0xffff)};
}

/// Sorts `reqs` and drops repeats when they come in increasing order of
/// `before`, as they are filed: the dependencies come by later access, and
/// the op of a block that is or holds a later access does not go back. Each
/// run of one `before` (tens of requirements in the top block of a large
/// kernel) is sorted alone, by integer keys. False, and `reqs` as they
/// were, when they do not come in that order.
bool sortRunsOfBefore(SmallVector<Requirement> &reqs) {
  for (size_t i = 1; i < reqs.size(); ++i)
    if (reqs[i].before < reqs[i - 1].before)
      return false;
  SmallVector<uint64_t, 64> keys;
  size_t kept = 0;
  for (size_t first = 0, n = reqs.size(); first < n;) {
    unsigned before = reqs[first].before;
    keys.clear();
    for (; first < n && reqs[first].before == before; ++first)
      keys.push_back(keyWithinBefore(reqs[first]));
    std::sort(keys.begin(), keys.end());
    // The run's requirements are read: `kept` never passes `first`.
    for (size_t i = 0; i < keys.size(); ++i)
      if (i == 0 || keys[i] != keys[i - 1])
        reqs[kept++] = fromKeyWithinBefore(keys[i], before);
  }
  reqs.truncate(kept);
  return true;
}

/// `reqs` in Requirement::operator<'s order without repeats. They usually
/// come in order of `before` (sortRunsOfBefore). Else the top block of a
/// large kernel files hundreds of thousands of requirements, which a
/// comparison sort spends ~50 instructions apiece on: those are ordered by
/// three stable counting sorts, least significant key first (the pipe
/// pair, the latest `after` first, then `before`); a scope of a few by one
/// comparison sort, with a comparator (llvm::sort without one hands
/// trivially copyable elements to qsort, a call per comparison).
void sortAndUnique(SmallVector<Requirement> &reqs) {
  if (sortRunsOfBefore(reqs))
    return;
  constexpr size_t kFewRequirements = 64;
  if (reqs.size() <= kFewRequirements) {
    llvm::sort(reqs, [](const Requirement &a, const Requirement &b) {
      return a < b;
    });
  } else {
    unsigned numGaps = 0;
    for (const Requirement &req : reqs)
      numGaps = std::max({numGaps, req.before + 1, req.after + 1});
    SmallVector<Requirement> other(reqs.size());
    groupByKey<Requirement>(
        reqs, kNumPipes * kNumPipes,
        [](const Requirement &req) {
          return pipeIndex(req.src) * kNumPipes + pipeIndex(req.dst);
        },
        other);
    groupByKey<Requirement>(
        other, numGaps,
        [&](const Requirement &req) { return numGaps - 1 - req.after; }, reqs);
    groupByKey<Requirement>(
        reqs, numGaps, [](const Requirement &req) { return req.before; },
        other);
    reqs = std::move(other);
  }
  reqs.erase(std::unique(reqs.begin(), reqs.end()), reqs.end());
}

template <typename Key>
void sortAndUnique(std::map<Key, SmallVector<Requirement>> &byScope) {
  for (auto &[scope, reqs] : byScope)
    sortAndUnique(reqs);
}

/// Files the forward requirements (requireForward) without looking the
/// blocks and ops up again for each: a large kernel has hundreds of
/// thousands of dependencies between a few thousand accesses. Each access
/// keeps the blocks around it from the function's body inward, by id, with
/// the index of the op of each that is or holds the access; two accesses'
/// innermost common block is the last their lists share.
class ForwardFiler {
public:
  ForwardFiler(func::FuncOp func, const ProgramOrder &order,
               ArrayRef<PipeAccess> accesses, SyncRequirements &result)
      : result(result) {
    firstLevel.reserve(accesses.size() + 1);
    for (const PipeAccess &access : accesses) {
      firstLevel.push_back(levels.size());
      for (Operation *op = access.op; op && op != func;
           op = op->getBlock()->getParentOp())
        levels.push_back(
            {order.blockId(op->getBlock()), order.indexInBlock(op)});
      std::reverse(levels.begin() + firstLevel.back(), levels.end());
    }
    firstLevel.push_back(levels.size());
  }

  /// Inlined into the loop over the dependencies: a call per dependency
  /// costs a fifth of what it does.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void require(const SyncDependency &dep,
                                            const PipeAccess &x,
                                            const PipeAccess &y,
                                            const ProgramOrder &order) {
    const Level *from = levels.data() + firstLevel[dep.earlier];
    const Level *to = levels.data() + firstLevel[dep.later];
    size_t depth =
        std::min(firstLevel[dep.earlier + 1] - firstLevel[dep.earlier],
                 firstLevel[dep.later + 1] - firstLevel[dep.later]);
    if (from[0].blockId != to[0].blockId) { // not one outermost block
      requireForward(order, result, x.op, y.op, x.pipe, y.pipe);
      return;
    }
    size_t common = 0;
    while (common + 1 < depth &&
           from[common + 1].blockId == to[common + 1].blockId)
      ++common;
    const Level &a = from[common], &b = to[common];
    // Two regions of one op that run one after the other, such as the
    // "before" and "do" regions of an scf.while: no gap of the block lies
    // between the two accesses.
    if (a.index == b.index) {
      result.eager.insert({x.op, x.pipe, y.pipe});
      return;
    }
    if (a.blockId >= scopes.size())
      scopes.resize(a.blockId + 1);
    Scope &scope = scopes[a.blockId];
    if (!scope.reqs)
      scope.reqs = &result.forward[a.blockId];
    fileOnce(*scope.reqs, scope.filed, {a.index, b.index, x.pipe, y.pipe});
  }

private:
  /// A block around an access, by id, and the index in it of the op that
  /// is or holds the access.
  struct Level {
    unsigned blockId, index;
  };
  /// The requirements of a block (std::map entries stay where they are)
  /// and what fileOnce filed there.
  struct Scope {
    SmallVector<Requirement> *reqs = nullptr;
    std::vector<FiledPairs> filed;
  };

  SyncRequirements &result;
  /// The levels of access i, outermost first: [firstLevel[i],
  /// firstLevel[i + 1]).
  std::vector<Level> levels;
  std::vector<size_t> firstLevel;
  /// By block id.
  std::vector<Scope> scopes;
};

} // namespace

LogicalResult mlir::dsaplan::sync::collectSyncRequirements(
    func::FuncOp func, const TargetDescription &target, DependencyScope scope,
    const ProgramOrder &order, SyncRequirements &result) {
  bool ok = true;
  // A tile is written by one op and read by others: its runs once.
  MemoryAccessCache cache;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func || !cache.isAccessCandidate(op))
      return WalkResult::advance();
    size_t index = result.accesses.size();
    if (failed(appendAccessOf(op, cache, result.accesses))) {
      ok = false;
      return WalkResult::skip();
    }
    if (result.accesses.size() == index)
      return WalkResult::advance();
    if (failed(verifyPipeReach(result.accesses.back(), target))) {
      result.accesses.pop_back();
      ok = false;
      return WalkResult::skip();
    }
    result.accessIndex[op] = index;
    // An op that has the bit already got it with all its ancestors.
    unsigned pipeBit = 1u << pipeIndex(result.accesses.back().pipe);
    for (Operation *at = op; at && at != func; at = at->getParentOp()) {
      unsigned &pipes = result.pipesOf[at];
      if (pipes & pipeBit)
        break;
      pipes |= pipeBit;
    }
    // The regions of an access (a linalg body) belong to the access.
    return WalkResult::skip();
  });
  if (!ok)
    return failure();
  result.dependencies = findSyncDependencies(func, result.accesses,
                                             result.accessIndex, scope);
  FailureOr<std::vector<SyncDependency>> crossCore =
      splitCrossCore(result.accesses, result.dependencies, target);
  if (failed(crossCore))
    return failure();
  result.crossCore = std::move(*crossCore);
  ForwardFiler forward(func, order, result.accesses, result);
  for (const SyncDependency &dep : result.dependencies) {
    const PipeAccess &x = result.accesses[dep.earlier];
    const PipeAccess &y = result.accesses[dep.later];
    if (x.pipe == y.pipe && !target.needsBarrier(x.pipe))
      continue; // an in-order pipe orders its own accesses
    if (dep.loop)
      requireAcrossIterations(order, result, dep.loop, x.op, y.op, x.pipe,
                              y.pipe);
    else
      forward.require(dep, x, y, order);
  }
  sortAndUnique(result.forward);
  sortAndUnique(result.backEdge);
  sortAndUnique(result.branchBackEdge);
  return success();
}
