//===- RotateCarried.cpp - Slots for tiles carried into later iterations --===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// dsaplan-rotate-carried makes the rotation of dsaplan-multi-buffer where
// correctness forces it: a tile allocated in a loop body and carried to the next iteration
// (the shape one-shot bufferization emits to keep the previous row) gets
// as many slots as iterations it stays live, so the iteration that
// allocates it again never writes over the value it still reads:
//
//   scf.for ... iter_args(%prev = %init) {
//     %cur = dsaplan.alloc : memref<64xf32, ub>
//     add(%prev, %cur) -> %cur
//     scf.yield %cur
//   }
//   // becomes
//   %cur0 = dsaplan.alloc {name = "cur.0"} ...
//   %cur1 = dsaplan.alloc {name = "cur.1"} ...
//   scf.for ... iter_args(%prev = %init, %s0 = %cur0, %s1 = %cur1) {
//     add(%prev, %s0) -> %s0
//     scf.yield %s0, %s1, %s0
//   }
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"
#include "SlotRing.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANROTATECARRIED
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr StringLiteral kBuffersAttr = DsaPlanDialect::getBuffersAttrName();


/// The innermost scf.for or scf.while whose body holds `alloc`; null when
/// a loop of another kind is nearer, or no loop.
Operation *getEnclosingLoop(AllocOp alloc) {
  for (Operation *op = alloc->getParentOp(); op; op = op->getParentOp()) {
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return op;
    if (isLoopOp(op) || isa<FunctionOpInterface>(op))
      return nullptr;
  }
  return nullptr;
}

/// Which values of one iteration of `loop` may hold a tile, given the ones
/// that do (`add`): views of them, and results and arguments of the region
/// ops nested in the loop that are passed one (an scf.if that yields it),
/// conservatively:
///
///   %v = memref.cast %cur ...                  // holds
///   %y = scf.if %c -> ... { scf.yield %cur } else { scf.yield %prev }
///                                              // holds (on one path)
class TileHolders {
public:
  explicit TileHolders(Operation *loop) : loop(loop) {}

  void add(Value value) {
    roots.insert(value);
    known.clear();
  }

  bool mayHold(Value value) {
    if (!isa<BaseMemRefType>(value.getType()))
      return false;
    if (roots.contains(value))
      return true;
    auto [it, inserted] = known.try_emplace(value, Answer::Deciding);
    if (!inserted) {
      // A value met again while it is being decided adds nothing on this
      // path; the answers that relied on that are not kept (below).
      if (it->second == Answer::Deciding)
        ++cyclesMet;
      return it->second == Answer::Holds;
    }
    unsigned cyclesBefore = cyclesMet;
    bool holds = decide(value);
    if (holds || cyclesMet == cyclesBefore)
      known[value] = holds ? Answer::Holds : Answer::DoesNot;
    else
      known.erase(value);
    return holds;
  }

private:
  bool decide(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      return owner != loop && loop->isProperAncestor(owner) &&
             regionOpMayHold(owner);
    }
    Operation *def = value.getDefiningOp();
    if (!loop->isProperAncestor(def))
      return false;
    if (def->getNumRegions() && regionOpMayHold(def))
      return true;
    return llvm::any_of(getAliasSources(value),
                        [&](Value source) { return mayHold(source); });
  }

  /// Whether a region op passes a holder in (operand) or out (terminator).
  bool regionOpMayHold(Operation *op) {
    if (llvm::any_of(op->getOperands(),
                     [&](Value operand) { return mayHold(operand); }))
      return true;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>() &&
            llvm::any_of(block.back().getOperands(),
                         [&](Value operand) { return mayHold(operand); }))
          return true;
    return false;
  }

  enum class Answer { Deciding, Holds, DoesNot };

  Operation *loop;
  DenseSet<Value> roots;
  DenseMap<Value, Answer> known;
  unsigned cyclesMet = 0;
};

/// The arguments of `loop` that receive, at the back edge, a value that may
/// hold the tile: scf.for's iter_args, scf.while's "before" arguments. For
/// scf.while, the "do" arguments the condition forwards a holder to join
/// `holders` first (same iteration).
SmallVector<Value> carriedOverBackEdge(Operation *loop, TileHolders &holders) {
  SmallVector<Value> next;
  if (auto forLoop = dyn_cast<scf::ForOp>(loop)) {
    auto yield = cast<scf::YieldOp>(forLoop.getBody()->getTerminator());
    for (auto [operand, arg] :
         llvm::zip(yield.getOperands(), forLoop.getRegionIterArgs()))
      if (holders.mayHold(operand))
        next.push_back(arg);
    return next;
  }
  auto whileLoop = cast<scf::WhileOp>(loop);
  for (auto [operand, arg] : llvm::zip(whileLoop.getConditionOp().getArgs(),
                                       whileLoop.getAfterArguments()))
    if (holders.mayHold(operand))
      holders.add(arg);
  for (auto [operand, arg] : llvm::zip(whileLoop.getYieldOp().getOperands(),
                                       whileLoop.getBeforeArguments()))
    if (holders.mayHold(operand))
      next.push_back(arg);
  return next;
}

/// In how many iterations of `loop` the tile `alloc` allocates is live: 1
/// when no later iteration reads it, 2 when the next one does (through an
/// iter_arg), and so on; nullopt past kMaxBuffers (or when a loop carries
/// it for ever, e.g. an iter_arg yielded back unchanged on some path).
std::optional<int64_t> countLiveIterations(AllocOp alloc, Operation *loop) {
  TileHolders holders(loop);
  holders.add(alloc.getResult());
  for (int64_t iterations = 1; iterations <= DsaPlanDialect::kMaxBuffers;
       ++iterations) {
    SmallVector<Value> next = carriedOverBackEdge(loop, holders);
    if (next.empty())
      return iterations;
    holders = TileHolders(loop);
    for (Value arg : next)
      holders.add(arg);
  }
  return std::nullopt;
}

struct DsaPlanRotateCarriedPass
    : public mlir::dsaplan::impl::DsaPlanRotateCarriedBase<
          DsaPlanRotateCarriedPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<AllocOp> worklist;
    getOperation().walk([&](AllocOp alloc) { worklist.push_back(alloc); });
    bool failedAny = false, rotatedAny = false;
    // Slots land in the enclosing block, which may be an outer loop's body
    // that carries them in turn: they join the worklist.
    for (size_t next = 0; next < worklist.size(); ++next) {
      AllocOp alloc = worklist[next];
      Operation *loop = getEnclosingLoop(alloc);
      if (!loop)
        continue;
      std::optional<int64_t> iterations = countLiveIterations(alloc, loop);
      if (!iterations) {
        alloc.emitOpError()
            << "'" << alloc.getDisplayName() << "' is carried by '"
            << loop->getName() << "' into more than "
            << DsaPlanDialect::kMaxBuffers - 1
            << " later iterations, or without bound (an iter_arg that may "
               "be yielded back unchanged): no fixed number of rotating "
               "slots keeps it; copy it into a tile allocated before the "
               "loop";
        failedAny = true;
        continue;
      }
      if (*iterations == 1)
        continue;
      int64_t depth = *iterations;
      if (auto asked = alloc->getAttrOfType<IntegerAttr>(kBuffersAttr))
        depth = std::max(depth, asked.getInt());
      for (Value slot : rotateSlots(alloc, loop, depth))
        worklist.push_back(slot.getDefiningOp<AllocOp>());
      ++numRotated;
      rotatedAny = true;
    }
    if (failedAny)
      return signalPassFailure();
    // Unchanged: the pass manager need not verify the function again.
    if (!rotatedAny)
      markAllAnalysesPreserved();
  }
};

} // namespace
