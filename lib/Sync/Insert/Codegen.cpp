//===- Codegen.cpp - The ops of the planned syncs -------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Job 4 of dsaplan-insert-sync (Plan.h): create the set_flag, wait_flag
// and pipe_barrier ops of the plan, each pair or barrier a group (pruning
// keeps or drops a group whole). Each sync goes just before the op at its
// gap; at one gap, first the sets whose waits come later (as early as
// possible: the cover gave them what their pipe knew before the gap), then
// waits and barriers in the order the cover decided them, a set whose wait
// is at the same gap right before it:
//
//   memref.copy %gm, %a {mte2}
//   dsaplan.set_flag <mte2 -> v>, 1     // waited at a later gap
//   dsaplan.set_flag <mte3 -> v>, 0     // set late: its wait is here
//   dsaplan.wait_flag <mte3 -> v>, 0
//   linalg.exp ins(%b) outs(%c) {v}
//
// A loop pair's first set goes before its loop and its last wait (the
// drain) after it, behind the sets the cover put ahead of the drains
// (FlagPair::setAheadOfDrains); an eager pair right after its producer.
//
// The ops that the event-id repair (a handshake, a barrier_all) and the
// parking at settled calls decide on are created here as well: those jobs
// decide where, this file creates.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/CrossCore.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

namespace {

enum class SyncOpKind { Set, Wait, Barrier, BarrierAll };

/// One op to create, at a gap of a block.
struct Insertion {
  Block *block;
  Gap gap;
  /// At one gap: band 0 (sets ahead of the drains of the loop before the
  /// gap), band 1 (sets whose waits come later), band 2 (waits, barriers,
  /// sets right before their waits), each by rank (the order of the
  /// cover's decisions).
  unsigned band, rank;
  SyncOpKind kind;
  Pipe src, dst;
  int64_t id;
  size_t owner; // the group
};

class SyncBuilder {
public:
  SyncBuilder(func::FuncOp func, const ProgramOrder &order)
      : context(func.getContext()), order(order),
        setName(SetFlagOp::getOperationName(), context),
        waitName(WaitFlagOp::getOperationName(), context),
        barrierName(PipeBarrierOp::getOperationName(), context),
        noAttrs(DictionaryAttr::get(context)) {
    for (unsigned p = 0; p < kNumPipes; ++p)
      pipeAttrs[p] = PipeAttr::get(context, static_cast<Pipe>(p));
  }

  InsertedSyncs build(const SyncPlan &plan);

private:
  size_t newGroup(SyncKind kind) {
    result.groups.emplace_back();
    result.kinds.push_back(kind);
    return result.groups.size() - 1;
  }
  Operation *create(OpBuilder &b, Location loc, SyncOpKind kind, Pipe src,
                    Pipe dst, int64_t id);
  /// A set_flag or wait_flag (`FlagOp`, named `name`) <src -> dst>, id.
  template <typename FlagOp>
  Operation *createFlag(OpBuilder &b, Location loc, OperationName name,
                        Pipe src, Pipe dst, int64_t id);
  void createAtGaps(SmallVectorImpl<Insertion> &insertions);
  void createAroundLoop(const PlannedPair &pair, size_t group);
  void createEager(const PlannedEager &eager);

  /// The attribute of pipe `p`, made once.
  PipeAttr pipeAttr(Pipe p) const {
    return pipeAttrs[static_cast<unsigned>(p)];
  }
  /// The attribute of event id `id`, uniqued once per id.
  IntegerAttr idAttr(OpBuilder &b, int64_t id) {
    IntegerAttr &attr = idAttrs[id];
    if (!attr)
      attr = b.getI64IntegerAttr(id);
    return attr;
  }

  MLIRContext *context;
  const ProgramOrder &order;
  /// The names and (empty) discardable attributes of the ops created, and
  /// the attributes every flag op takes, made once rather than looked up
  /// and uniqued per op (a large kernel gets tens of thousands of flag
  /// ops): the generated builders look the op's name up by its string and
  /// unique an empty dictionary for each.
  OperationName setName, waitName, barrierName;
  DictionaryAttr noAttrs;
  std::array<PipeAttr, kNumPipes> pipeAttrs;
  DenseMap<int64_t, IntegerAttr> idAttrs;
  InsertedSyncs result;
  /// The sets of band 0: a loop's drains go after them.
  llvm::SmallPtrSet<Operation *, 4> aheadOfDrains;
};

/// Creates an op of `name` without operands, results or regions, with
/// `properties`, at `b`'s insertion point: what `OpT::create` does, from
/// the name and attributes made once.
template <typename Properties>
Operation *createWithProperties(OpBuilder &b, Location loc, OperationName name,
                                DictionaryAttr noAttrs, Properties properties) {
  Operation *op = Operation::create(loc, name, TypeRange(), ValueRange(),
                                    noAttrs, OpaqueProperties(&properties),
                                    BlockRange(), /*numRegions=*/0);
  return b.insert(op);
}

template <typename FlagOp>
Operation *SyncBuilder::createFlag(OpBuilder &b, Location loc,
                                   OperationName name, Pipe src, Pipe dst,
                                   int64_t id) {
  typename FlagOp::Properties properties;
  properties.src = pipeAttr(src);
  properties.dst = pipeAttr(dst);
  properties.event = idAttr(b, id);
  return createWithProperties(b, loc, name, noAttrs, properties);
}

Operation *SyncBuilder::create(OpBuilder &b, Location loc, SyncOpKind kind,
                               Pipe src, Pipe dst, int64_t id) {
  switch (kind) {
  case SyncOpKind::Set:
    return createFlag<SetFlagOp>(b, loc, setName, src, dst, id);
  case SyncOpKind::Wait:
    return createFlag<WaitFlagOp>(b, loc, waitName, src, dst, id);
  case SyncOpKind::Barrier: {
    PipeBarrierOp::Properties properties;
    properties.pipe = pipeAttr(src);
    return createWithProperties(b, loc, barrierName, noAttrs, properties);
  }
  case SyncOpKind::BarrierAll:
    return BarrierAllOp::create(b, loc);
  }
  llvm_unreachable("unknown sync op kind");
}

void SyncBuilder::createAtGaps(SmallVectorImpl<Insertion> &insertions) {
  // Each insertion's place is looked up once, not at every comparison (two
  // map lookups each); the sort compares the same keys, so it orders as it
  // would with the lookups in the comparison.
  // The sort moves each insertion's index with its place, not the
  // insertion itself: the same comparisons, so the same order.
  using Place = std::tuple<int64_t, unsigned, unsigned, SyncOpKind>;
  SmallVector<std::pair<Place, unsigned>> placed;
  placed.reserve(insertions.size());
  for (auto [index, i] : llvm::enumerate(insertions))
    placed.push_back({{order.position(order.opsOf(i.block)[i.gap]), i.band,
                       i.rank, i.kind},
                      static_cast<unsigned>(index)});
  llvm::sort(placed, [](const std::pair<Place, unsigned> &a,
                        const std::pair<Place, unsigned> &b) {
    return a.first < b.first;
  });
  for (const auto &entry : placed) {
    const Insertion &ins = insertions[entry.second];
    ArrayRef<Operation *> blockOps = order.opsOf(ins.block);
    Operation *anchor = blockOps[ins.gap];
    // A set takes the location of the op it follows, a wait or barrier that
    // of the op it precedes, so that the IR and diagnostics point at the
    // accesses.
    Location loc = ins.kind == SyncOpKind::Set && ins.gap > 0
                       ? blockOps[ins.gap - 1]->getLoc()
                       : anchor->getLoc();
    OpBuilder b(anchor);
    Operation *op = create(b, loc, ins.kind, ins.src, ins.dst, ins.id);
    result.groups[ins.owner].push_back(op);
    if (ins.band == 0)
      aheadOfDrains.insert(op);
  }
}

void SyncBuilder::createAroundLoop(const PlannedPair &pair, size_t group) {
  Operation *behind = pair.loop->getNextNode();
  while (aheadOfDrains.contains(behind))
    behind = behind->getNextNode();
  OpBuilder after(behind);
  if (pair.id < 0) {
    // The drain orders the loop's last iteration before what follows it:
    // without an id, a barrier after the loop does (no pre-set is needed).
    result.groups[group].push_back(create(after, pair.loop->getLoc(),
                                          SyncOpKind::BarrierAll, pair.src,
                                          pair.dst, -1));
    return;
  }
  OpBuilder before(pair.loop);
  result.groups[group].push_back(create(before, pair.loop->getLoc(),
                                        SyncOpKind::Set, pair.src, pair.dst,
                                        pair.id));
  result.groups[group].push_back(create(after, pair.loop->getLoc(),
                                        SyncOpKind::Wait, pair.src, pair.dst,
                                        pair.id));
}

void SyncBuilder::createEager(const PlannedEager &eager) {
  Operation *op = eager.after;
  OpBuilder after(op->getBlock(), std::next(op->getIterator()));
  if (eager.src == eager.dst) {
    result.groups[newGroup(SyncKind::Barrier)].push_back(create(
        after, op->getLoc(), SyncOpKind::Barrier, eager.src, eager.dst, -1));
    return;
  }
  if (eager.id < 0) {
    result.groups[newGroup(SyncKind::BarrierAll)].push_back(create(
        after, op->getLoc(), SyncOpKind::BarrierAll, eager.src, eager.dst, -1));
    return;
  }
  size_t group = newGroup(SyncKind::EagerPair);
  // The builder inserts after the op: the set first, then its wait.
  Operation *set = create(after, op->getLoc(), SyncOpKind::Set, eager.src,
                          eager.dst, eager.id);
  Operation *wait = create(after, op->getLoc(), SyncOpKind::Wait, eager.src,
                           eager.dst, eager.id);
  result.groups[group].append({set, wait});
}

InsertedSyncs SyncBuilder::build(const SyncPlan &plan) {
  SmallVector<Insertion> insertions;
  SmallVector<size_t> groupOfPair;
  for (const PlannedPair &p : plan.pairs) {
    if (p.id < 0) {
      // No event id: the wait's place drains every pipe instead.
      groupOfPair.push_back(newGroup(SyncKind::BarrierAll));
      insertions.push_back({p.block, p.wait, 2, 2 * p.rank + 1,
                            SyncOpKind::BarrierAll, p.src, p.dst, -1,
                            groupOfPair.back()});
      continue;
    }
    size_t group = newGroup(p.loop ? SyncKind::LoopPair : SyncKind::Pair);
    groupOfPair.push_back(group);
    unsigned setBand = p.setAheadOfDrains ? 0 : p.set == p.wait ? 2 : 1;
    insertions.push_back({p.block, p.set, setBand, 2 * p.rank,
                          SyncOpKind::Set, p.src, p.dst, p.id, group});
    insertions.push_back({p.block, p.wait, 2, 2 * p.rank + 1,
                          SyncOpKind::Wait, p.src, p.dst, p.id, group});
  }
  for (const PlannedBarrier &p : plan.barriers)
    insertions.push_back({p.block, p.gap, 2, 2 * p.rank + 1,
                          SyncOpKind::Barrier, p.pipe, p.pipe, -1,
                          newGroup(SyncKind::Barrier)});
  createAtGaps(insertions);
  // The loops' first set and last wait go around the loop op, after every
  // insertion by index is done.
  for (auto [pair, group] : llvm::zip(plan.pairs, groupOfPair))
    if (pair.loop)
      createAroundLoop(pair, group);
  for (const PlannedEager &eager : plan.eager)
    createEager(eager);
  return std::move(result);
}

} // namespace

InsertedSyncs mlir::dsaplan::sync::createSyncOps(func::FuncOp func,
                                                 const ProgramOrder &order,
                                                 const SyncPlan &plan) {
  return SyncBuilder(func, order).build(plan);
}

//===----------------------------------------------------------------------===//
// Ops decided by the later jobs
//===----------------------------------------------------------------------===//

void mlir::dsaplan::sync::createHandshake(WaitFlagOp wait, int64_t event,
                                          SyncGroup &group) {
  OpBuilder b(wait->getBlock(), std::next(wait->getIterator()));
  auto id = b.getI64IntegerAttr(event);
  group.push_back(SetFlagOp::create(b, wait.getLoc(), wait.getDstAttr(),
                                    wait.getSrcAttr(), id));
  group.push_back(WaitFlagOp::create(b, wait.getLoc(), wait.getDstAttr(),
                                     wait.getSrcAttr(), id));
}

Operation *mlir::dsaplan::sync::createBarrierAllBefore(Operation *op) {
  OpBuilder b(op);
  return BarrierAllOp::create(b, op->getLoc());
}

void mlir::dsaplan::sync::createParkedFlag(Operation *before, Operation *after,
                                           Location loc, Pipe src, Pipe dst,
                                           int64_t event) {
  OpBuilder builder(before);
  MLIRContext *context = before->getContext();
  auto srcAttr = PipeAttr::get(context, src);
  auto dstAttr = PipeAttr::get(context, dst);
  WaitFlagOp::create(builder, loc, srcAttr, dstAttr,
                     builder.getI64IntegerAttr(event));
  builder.setInsertionPointAfter(after);
  SetFlagOp::create(builder, loc, srcAttr, dstAttr,
                    builder.getI64IntegerAttr(event));
}

//===----------------------------------------------------------------------===//
// Cross-core pairs
//===----------------------------------------------------------------------===//

namespace {
/// The mode of a pair between the cube core and the vector cores of a
/// group.
constexpr int64_t kCubeVectorMode = 2;

void createCrossCoreSet(OpBuilder &b, Location loc,
                        const CrossCorePair &pair) {
  MLIRContext *context = b.getContext();
  CrossCoreSetOp::create(b, loc, CoreAttr::get(context, pair.from),
                         PipeAttr::get(context, pair.pipe),
                         b.getI64IntegerAttr(kCubeVectorMode),
                         b.getI64IntegerAttr(pair.id));
}

void createCrossCoreWait(OpBuilder &b, Location loc,
                         const CrossCorePair &pair) {
  CrossCoreWaitOp::create(b, loc, CoreAttr::get(b.getContext(), pair.to),
                          b.getI64IntegerAttr(kCubeVectorMode),
                          b.getI64IntegerAttr(pair.id));
}
} // namespace

void mlir::dsaplan::sync::createCrossCoreOps(func::FuncOp func,
                                             const ProgramOrder &order,
                                             const CrossCorePlan &plan) {
  OpBuilder b(func.getContext());
  for (const CrossCorePair &pair : plan.pairs) {
    ArrayRef<Operation *> ops = order.opsOf(pair.block);
    Operation *producer = ops[pair.after];
    Operation *consumer = ops[pair.before];
    if (pair.loop) {
      b.setInsertionPoint(pair.loop);
      createCrossCoreSet(b, pair.loop->getLoc(), pair);
      b.setInsertionPointAfter(pair.loop);
      createCrossCoreWait(b, pair.loop->getLoc(), pair);
    }
    b.setInsertionPointAfter(producer);
    createCrossCoreSet(b, producer->getLoc(), pair);
    b.setInsertionPoint(consumer);
    createCrossCoreWait(b, consumer->getLoc(), pair);
  }
}
