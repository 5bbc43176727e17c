//===- BufferLifetimes.cpp - Live ranges of dsaplan allocations -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A buffer is live from its first access to its last one, in program order,
// with three refinements:
//
//  - Views. Accesses through any alias count: views, casts, subviews and the
//    values that region-branch ops forward (scf.for iter_args and results,
//    scf.if results, scf.while arguments). Aliases come from MLIR's
//    BufferViewFlowAnalysis.
//
//  - Loops. A buffer accessed inside a loop but allocated outside it is live
//    over the whole loop: iteration i+1 may read what iteration i wrote. So is
//    a buffer that the loop carries (an alias is an iter_arg or a result). A
//    buffer allocated and accessed inside one iteration is live only there.
//
//  - Exclusive branches. Inside an scf.if, a branch that does not access the
//    buffer is a hole in its range unless the buffer is live both before and
//    after the if; a branch that accesses it is refined recursively. So
//
//      %t = dsaplan.alloc          // written before the if
//      scf.if %c {
//        use %t                    // [a, b)
//        %x = dsaplan.alloc; use %x  // [b, c): may share bytes with %t
//      } else {
//        use %t                    // [d, e)
//      }
//
//    gives %t the range [w, b) u [d, e) and %x [b, c).
//
// Reads happen at an op's first point and writes at its second, and a read
// lasts through the op's write point: by default an op's inputs and outputs
// are co-live and never share bytes. An op carrying `dsaplan.in_place` ends
// the read of its in-place input (getInPlacePair) at its read point, so the
// output may take exactly the input's bytes; the placement problem colocates
// the two, since a partial overlap is what the hardware forbids.
//
// A buffer passed to a call is read and written at the call's points: the
// callee borrows it for the call. A buffer that escapes (returned, passed to
// a call that returns a memref, used by an op with unknown memory effects)
// is live over the whole function, and the reason is recorded for a remark.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Support/IntervalSet.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::dsaplan;

//===----------------------------------------------------------------------===//
// In-place pairs
//===----------------------------------------------------------------------===//

/// Whether `instances` hold an effect of kind `EffectT` on `value`.
template <typename EffectT>
static bool hasEffectOn(ArrayRef<MemoryEffects::EffectInstance> instances,
                        Value value) {
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &i) {
    return i.getValue() == value && isa<EffectT>(i.getEffect());
  });
}

bool mlir::dsaplan::isTileOp(Operation *op) {
  if (isa<AllocOp>(op))
    return true;
  auto view = dyn_cast<memref::ViewOp>(op);
  return view && isa_and_nonnull<ArenaOp>(view.getSource().getDefiningOp());
}

std::optional<InPlaceTiles> mlir::dsaplan::getInPlaceTiles(Operation *op) {
  if (!op->hasAttr(DsaPlanDialect::getInPlaceAttrName()))
    return std::nullopt;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return std::nullopt;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  // Whole tiles only: a view's start is not the tile's, and a tile reached
  // through a region value may be one of several.
  auto isTile = [](Value value) {
    Operation *def = value.getDefiningOp();
    return def && isTileOp(def);
  };
  for (Value output : op->getOperands()) {
    if (!isTile(output) || !hasEffectOn<MemoryEffects::Write>(instances, output))
      continue;
    for (Value input : op->getOperands())
      if (isTile(input) && input != output &&
          input.getType() == output.getType() &&
          hasEffectOn<MemoryEffects::Read>(instances, input) &&
          !hasEffectOn<MemoryEffects::Write>(instances, input))
        return InPlaceTiles{input, output};
  }
  return std::nullopt;
}

std::optional<InPlacePair> mlir::dsaplan::getInPlacePair(Operation *op) {
  std::optional<InPlaceTiles> tiles = getInPlaceTiles(op);
  if (!tiles)
    return std::nullopt;
  auto input = tiles->input.getDefiningOp<AllocOp>();
  auto output = tiles->output.getDefiningOp<AllocOp>();
  if (!input || !output)
    return std::nullopt;
  return InPlacePair{input, output};
}

//===----------------------------------------------------------------------===//
// Live range computation
//===----------------------------------------------------------------------===//

namespace {

struct Access {
  Operation *op;
  PointInterval points;
};

/// What a user of a buffer is, found once per op: an op that touches
/// several tiles (a linalg op's inputs and output) is met once per tile, and
/// each question below is an interface look-up (or, for the in-place pair,
/// a look-up of the op's attributes and its effects).
struct UserFacts {
  enum class Kind {
    /// The buffer may be reached through values this function does not
    /// see: a return, or a call that returns a memref (which may be the
    /// buffer itself). A call without memref results only borrows it.
    Escapes,
    /// A call that borrows it.
    Call,
    /// Only flows to another SSA value (a forwarded region value, a
    /// separate or colocate marker) without being read or written.
    Forwards,
    /// Anything else: a view (which only forwards its source), or an op
    /// with memory effects, or one with unknown effects.
    Other,
  };
  Kind kind = Kind::Other;
  /// The source of a view (ViewLikeOpInterface), else null.
  Value viewSource;
  /// Whether the op says its memory effects, and those (once asked).
  bool effectful = false, effectsKnown = false;
  SmallVector<MemoryEffects::EffectInstance, 4> effects;
  /// The input an in-place op may share bytes with (getInPlaceTiles), once
  /// asked.
  bool inPlaceKnown = false;
  Value inPlaceInput;
};

/// A terminator that leaves the function (func.return, not scf.yield).
bool returnsFromFunction(Operation *op) {
  return op->hasTrait<OpTrait::ReturnLike>() &&
         isa_and_nonnull<FunctionOpInterface>(op->getParentOp());
}

/// What `user` is, but for a view (UserFacts::Kind).
UserFacts::Kind kindOf(Operation *user) {
  bool call = isa<CallOpInterface>(user);
  if (returnsFromFunction(user) ||
      (call && llvm::any_of(user->getResultTypes(),
                            llvm::IsaPred<BaseMemRefType>)))
    return UserFacts::Kind::Escapes;
  if (call)
    return UserFacts::Kind::Call;
  if (!isa<ViewLikeOpInterface>(user) &&
      isa<RegionBranchOpInterface, RegionBranchTerminatorOpInterface,
          SeparateOp, ColocateOp>(user))
    return UserFacts::Kind::Forwards;
  return UserFacts::Kind::Other;
}

/// The facts of each user, found once.
class UserCache {
public:
  UserFacts &of(Operation *user) {
    auto [it, inserted] = facts.try_emplace(user);
    UserFacts &found = it->second;
    if (!inserted)
      return found;
    found.kind = kindOf(user);
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      found.viewSource = view.getViewSource();
    found.effectful = isa<MemoryEffectOpInterface>(user);
    return found;
  }
  ArrayRef<MemoryEffects::EffectInstance> effectsOf(Operation *user,
                                                    UserFacts &found) {
    if (!found.effectsKnown) {
      cast<MemoryEffectOpInterface>(user).getEffects(found.effects);
      found.effectsKnown = true;
    }
    return found.effects;
  }
  Value inPlaceInputOf(Operation *user, UserFacts &found) {
    if (!found.inPlaceKnown) {
      if (std::optional<InPlaceTiles> pair = getInPlaceTiles(user))
        found.inPlaceInput = pair->input;
      found.inPlaceKnown = true;
    }
    return found.inPlaceInput;
  }

private:
  DenseMap<Operation *, UserFacts> facts;
};

/// Whether the buffer is live where the walk is, on this path: accessed
/// before in the scope the walk refines, or live on entering it.
struct LiveIn {
  bool live = false;
};

/// Computes the live range of one allocation: a walk (RegionWalk.h) of the
/// ops from the first access to the last, which enters the control flow
/// whose regions may refine the range (an exclusive op's branches, the
/// body of a loop that the buffer lives one iteration of) and takes every
/// other op whole.
class LiveRangeBuilder : public RegionWalkClient<LiveIn> {
public:
  LiveRangeBuilder(const ProgramPoints &points, UserCache &users,
                   Operation *tile)
      : points(points), users(users), tile(tile) {}

  /// Records the accesses of `alias`, and the uses that force a
  /// whole-function range.
  void addAccessesOf(Value alias);
  void addCarryingLoops(Value alias);
  SmallVector<PointInterval, 2> build(Region &body);
  /// The earliest use that forces a whole-function range, if any.
  std::optional<ConservativeUse> getEscape() const;

private:
  friend class RegionWalker<LiveRangeBuilder, LiveIn>;
  /// A loop is entered only when the buffer lives within one iteration.
  static constexpr unsigned kLoopIterations = 1;

  bool enterBlock(Block &block, LiveIn &state, Block::iterator &begin,
                  Block::iterator &end);
  WalkStep step(Operation &op, LiveIn &state);
  std::optional<LiveIn> merge(ArrayRef<LiveIn> exits, Operation *) {
    return LiveIn{llvm::any_of(exits, [](LiveIn in) { return in.live; })};
  }
  /// Whether the buffer is live when control leaves `region` (accessed
  /// after it, within the scope the walk refines).
  bool liveOutOf(Region &region) const;
  /// Whether the buffer is accessed after `op`, within that scope.
  bool liveAfter(Operation *op) const;
  /// liveAfter(op) for an op whose end point is `opEnd`, known already.
  bool liveAfter(Operation *op, int64_t opEnd) const;
  /// The end point of `block`'s last op, kept for the block last asked
  /// about (the walk asks for one block's ops in a row).
  int64_t blockEnd(Block *block) const {
    if (block != endBlock) {
      endBlock = block;
      endOfBlock = points.end(&block->back());
    }
    return endOfBlock;
  }
  /// The block the walk of `body` may start in (see build).
  Block &startBlock(Region &body) const;
  void add(int64_t lower, int64_t upper) { intervals.insert(lower, upper); }
  /// Accesses whose op lies in [lower, upper), in point order.
  ArrayRef<Access> accessesIn(int64_t lower, int64_t upper) const;
  /// Whether accessesIn(lower, upper) is not empty, in one search.
  bool accessedIn(int64_t lower, int64_t upper) const;
  /// The op of `block` that is or contains `op`.
  static Operation *ancestorIn(Block *block, Operation *op) {
    return block->findAncestorOpInBlock(*op);
  }

  const ProgramPoints &points;
  UserCache &users;
  /// The op that defines the tile (isTileOp).
  Operation *tile;
  SmallVector<Access> accesses;
  SmallVector<ConservativeUse> escapes;
  llvm::SmallPtrSet<Operation *, 4> carryingLoops;
  IntervalSet intervals;
  mutable Block *endBlock = nullptr;
  mutable int64_t endOfBlock = 0;
};

void LiveRangeBuilder::addAccessesOf(Value alias) {
  for (OpOperand &use : alias.getUses()) {
    Operation *user = use.getOwner();
    UserFacts &facts = users.of(user);
    StringRef userName = user->getName().getStringRef();
    if (facts.kind == UserFacts::Kind::Escapes) {
      escapes.push_back({user, ("escapes through '" + userName + "'").str()});
      continue;
    }
    if (facts.kind == UserFacts::Kind::Call) {
      // The callee runs between the call's points: the tile is read and
      // written there, and nothing of it is left to the callee afterwards.
      int64_t readPoint = points.readPoint(user);
      accesses.push_back({user, {readPoint, readPoint + 2}});
      continue;
    }
    if (facts.kind == UserFacts::Kind::Forwards ||
        (facts.viewSource && facts.viewSource == alias))
      continue;
    if (!facts.effectful) {
      escapes.push_back({user, ("is used by '" + userName +
                                "', which has unknown memory effects")
                                   .str()});
      continue;
    }
    bool reads = false, writes = false;
    for (const MemoryEffects::EffectInstance &instance :
         users.effectsOf(user, facts)) {
      if (instance.getValue() != alias)
        continue;
      reads |= isa<MemoryEffects::Read>(instance.getEffect());
      writes |= isa<MemoryEffects::Write>(instance.getEffect());
    }
    if (!reads && !writes)
      continue;
    Value inPlaceInput = users.inPlaceInputOf(user, facts);
    bool inPlace = inPlaceInput && inPlaceInput == use.get();
    ProgramPoints::Span at = points.span(user);
    int64_t readPoint = at.begin, writePoint = at.begin + 1;
    int64_t lower = reads ? readPoint : writePoint;
    int64_t upper = (reads && inPlace && !writes) ? writePoint : at.end;
    // An access by an op with regions (say a linalg.generic) ends at the
    // op's own write point, not at the end of its body.
    upper = std::min(upper, writePoint + 1);
    accesses.push_back({user, {lower, upper}});
  }
}

std::optional<ConservativeUse> LiveRangeBuilder::getEscape() const {
  if (escapes.empty())
    return std::nullopt;
  // The earliest in program order, so the remark does not depend on the
  // (pointer) order in which aliases were visited.
  return *llvm::min_element(escapes, [&](const ConservativeUse &a,
                                         const ConservativeUse &b) {
    return points.readPoint(a.user) < points.readPoint(b.user);
  });
}

void LiveRangeBuilder::addCarryingLoops(Value alias) {
  Operation *owner = nullptr;
  if (auto arg = dyn_cast<BlockArgument>(alias))
    owner = arg.getOwner()->getParentOp();
  else
    owner = alias.getDefiningOp();
  if (owner && isLoopOp(owner))
    carryingLoops.insert(owner);
}

ArrayRef<Access> LiveRangeBuilder::accessesIn(int64_t lower,
                                              int64_t upper) const {
  auto first = llvm::partition_point(accesses, [&](const Access &access) {
    return access.points.lower < lower;
  });
  auto last = std::partition_point(first, accesses.end(),
                                   [&](const Access &access) {
                                     return access.points.lower < upper;
                                   });
  return ArrayRef<Access>(&*first, last - first);
}

SmallVector<PointInterval, 2> LiveRangeBuilder::build(Region &body) {
  llvm::sort(accesses, [](const Access &a, const Access &b) {
    return a.points.lower < b.points.lower;
  });
  if (accesses.empty()) {
    // Never accessed: it still exists at its own op.
    add(points.begin(tile), points.end(tile));
  } else if (!body.empty()) {
    LiveIn state;
    RegionWalker<LiveRangeBuilder, LiveIn>(*this, kLoopIterations)
        .walkBlock(startBlock(body), state);
  }
  SmallVector<PointInterval, 2> range;
  for (auto [lower, upper] : intervals.getIntervals())
    range.push_back({lower, upper});
  return range;
}

/// The tile's own block when every access lies in it and the walk from
/// `body` down to it adds nothing: each op around the block is a loop the
/// tile lives one iteration of (entered with the buffer dead) or an
/// exclusive op (entered dead, its other regions unaccessed), in a region
/// of one block, and nothing after it accesses the buffer. Else `body`'s
/// block. Most tiles of a large kernel live in a nested block, and the walk
/// down costs a look-up of the accesses and the points per level.
///
///   scf.for {          // dead on entry: enter, add nothing
///     scf.if {         // dead on entry: enter, add nothing
///       %t = alloc     // the walk starts here, dead
///       use %t
///     }
///   }
Block &LiveRangeBuilder::startBlock(Region &body) const {
  Block &whole = body.front();
  Block *block = tile->getBlock();
  if (block == &whole || block->empty())
    return whole;
  int64_t blockBegin = points.begin(&block->front());
  int64_t blockEnd = points.end(&block->back());
  if (accesses.front().points.lower < blockBegin ||
      accesses.back().points.lower >= blockEnd)
    return whole;
  for (Operation *op = block->getParentOp(); op != body.getParentOp();
       op = op->getParentOp()) {
    if (!op || !op->getParentRegion()->hasOneBlock() ||
        !isa<RegionBranchOpInterface>(op))
      return whole;
    if (isLoopOp(op) ? carryingLoops.contains(op)
                     : getControlKind(op) != ControlKind::OneOf)
      return whole;
  }
  return *block;
}

bool LiveRangeBuilder::liveOutOf(Region &region) const {
  // The function's body and a loop's body (the buffer lives within one
  // iteration) end the scope; an exclusive op's branch ends where the op
  // does.
  Operation *parent = region.getParentOp();
  if (isa<FunctionOpInterface>(parent) || isLoopOp(parent))
    return false;
  return liveAfter(parent);
}

bool LiveRangeBuilder::accessedIn(int64_t lower, int64_t upper) const {
  auto first = llvm::partition_point(accesses, [&](const Access &access) {
    return access.points.lower < lower;
  });
  return first != accesses.end() && first->points.lower < upper;
}

bool LiveRangeBuilder::liveAfter(Operation *op) const {
  return liveAfter(op, points.end(op));
}

bool LiveRangeBuilder::liveAfter(Operation *op, int64_t opEnd) const {
  Block *block = op->getBlock();
  return accessedIn(opEnd, blockEnd(block)) ||
         liveOutOf(*block->getParent());
}

/// Adds the parts of `block`'s region that no op of it accounts for: all
/// of it when nothing inside accesses the buffer (live through it or not),
/// or the region has several blocks (no order between them to rely on);
/// else the ops before the first access (when live on entry) and after the
/// last (when live on leaving), and leaves the ops from the first to the
/// last to the walk.
bool LiveRangeBuilder::enterBlock(Block &block, LiveIn &state,
                                  Block::iterator &begin,
                                  Block::iterator &end) {
  if (block.empty())
    return false;
  Region &region = *block.getParent();
  int64_t regionBegin = points.begin(&region.front().front());
  int64_t regionEnd = points.end(&region.back().back());
  ArrayRef<Access> inside = accessesIn(regionBegin, regionEnd);
  bool liveOut = liveOutOf(region);
  if (inside.empty()) {
    if (state.live && liveOut)
      add(regionBegin, regionEnd);
    return false;
  }
  if (!region.hasOneBlock()) {
    add(regionBegin, regionEnd);
    return false;
  }
  Operation *first = ancestorIn(&block, inside.front().op);
  Operation *last = ancestorIn(&block, inside.back().op);
  if (state.live)
    add(regionBegin, points.begin(first));
  if (liveOut)
    add(points.end(last), regionEnd);
  begin = first->getIterator();
  end = std::next(last->getIterator());
  return true;
}

/// The live part of one op between the first access of its block and the
/// last: an op without access is live through when the buffer is live on
/// both sides of it; an access op from its access on (or from its start,
/// when live before it) to its last access (or its end, when live after).
/// Control flow the buffer may be dead in part of is entered: the branches
/// of an exclusive op, and the body of a loop that the buffer lives one
/// iteration of.
WalkStep LiveRangeBuilder::step(Operation &op, LiveIn &state) {
  ProgramPoints::Span at = points.span(&op);
  int64_t begin = at.begin, end = at.end;
  ArrayRef<Access> own = accessesIn(begin, end);
  if (own.empty()) {
    if (state.live && liveAfter(&op, end))
      add(begin, end);
    return WalkStep::Done;
  }
  bool liveIn = state.live, liveOut = liveAfter(&op, end);
  state.live = true;
  // Ops that are not control flow are leaves, even with regions (linalg).
  if (!isa<RegionBranchOpInterface>(op)) {
    int64_t lower = liveIn ? begin : own.front().points.lower;
    int64_t upper = liveOut ? end : own.front().points.upper;
    for (const Access &access : own)
      upper = std::max(upper, access.points.upper);
    add(lower, upper);
    return WalkStep::Done;
  }
  // Accesses by the op itself (not by ops nested in it) cover its own points.
  bool accessedByOp = llvm::any_of(accessesIn(begin, begin + 2),
                                   [&](const Access &a) { return a.op == &op; });
  if (isLoopOp(&op)) {
    if (!op.isProperAncestor(tile) || carryingLoops.contains(&op) ||
        accessedByOp) {
      add(begin, end);
      return WalkStep::Done;
    }
    // Local to one iteration: nothing before the loop accesses it.
    state.live = false;
    return WalkStep::Enter;
  }
  if (getControlKind(&op) == ControlKind::OneOf && !accessedByOp) {
    if (liveIn)
      add(begin, begin + 2);
    state.live = liveIn;
    return WalkStep::Enter;
  }
  add(begin, end);
  return WalkStep::Done;
}

} // namespace

//===----------------------------------------------------------------------===//
// BufferLifetimes
//===----------------------------------------------------------------------===//

SmallVector<Value>
mlir::dsaplan::resolveAliases(BufferViewFlowAnalysis &aliases, Value root) {
  // Most tiles have a few aliases: searched in the vector, no set
  // allocated per tile.
  llvm::SmallSetVector<Value, 8> found;
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Value alias : aliases.resolve(value)) {
      if (!found.insert(alias))
        continue;
      for (Operation *user : alias.getUsers())
        for (Value result : user->getResults())
          if (!found.contains(result) &&
              llvm::is_contained(getAliasSources(result), alias))
            worklist.push_back(result);
    }
  }
  return SmallVector<Value>(found.begin(), found.end());
}

BufferLifetimes::BufferLifetimes(Operation *function) : points(function) {
  BufferViewFlowAnalysis aliases(function);
  Region &body = function->getRegion(0);
  UserCache users;
  function->walk([&](Operation *tile) {
    if (!isTileOp(tile))
      return;
    LiveRangeBuilder builder(points, users, tile);
    for (Value alias : resolveAliases(aliases, tile->getResult(0))) {
      builder.addCarryingLoops(alias);
      builder.addAccessesOf(alias);
    }
    if (std::optional<ConservativeUse> escape = builder.getEscape()) {
      conservative[tile] = *escape;
      ranges[tile] = {{0, points.size()}};
      return;
    }
    ranges[tile] = builder.build(body);
  });
}

ArrayRef<PointInterval> BufferLifetimes::getLiveRange(Operation *tile) const {
  auto it = ranges.find(tile);
  if (it == ranges.end())
    return {};
  return it->second;
}

const ConservativeUse *
BufferLifetimes::getConservativeUse(Operation *tile) const {
  auto it = conservative.find(tile);
  return it == conservative.end() ? nullptr : &it->second;
}

LiveAttr BufferLifetimes::getLiveAttr(AllocOp alloc) const {
  SmallVector<int64_t> bounds;
  for (PointInterval interval : getLiveRange(alloc))
    bounds.append({interval.lower, interval.upper});
  return LiveAttr::get(alloc.getContext(), bounds);
}
