//===- Pictures.cpp - Memory maps with the syncs drawn in -----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Reads a function whose tiles are placed, numbers it and takes its tiles'
// live ranges before the syncs go in, and draws each memory space with the
// syncs on top once they are in, through the one memory-map writer of
// lib/Solver/Report.cpp. Reads the IR only; decides nothing.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pictures.h"

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Analysis/SpacePool.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Support/ReportFiles.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "DsaPlan/Solver/Solve.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace solver = ::dsaplan::solver;

namespace {

/// How many accesses of the setting (waiting) pipe before the set (after
/// the wait) are tried for the pair of accesses a flag pair orders: a
/// budget in ops, so that a picture of a large kernel stays linear.
constexpr int kMaxCandidates = 16;

/// The name of an arrow's end on no tile of the placement.
constexpr const char *kUnknownTile = "(no tile)";

Operation *enclosingLoop(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp())
    if (isLoopOp(parent))
      return parent;
  return nullptr;
}

/// The ops of a function in the order they run, from its ops in pre-order
/// (sync::ProgramOrder): after an op, the rest of its innermost loop's
/// body, then (the next iteration) the body from its start, then what
/// follows the loop.
///
///   scf.for {            findAfter(set) visits: B, then (next
///     A; set; B          iteration) A, set, B, then C
///   }
///   C
class ExecutionOrder {
public:
  explicit ExecutionOrder(func::FuncOp func)
      : order(func), last(order.endPosition(&func.getBody().back().back())) {}

  /// Calls `visit(op, nextIteration)` on the ops that run after `from`,
  /// nearest first, until it returns true; returns that op, or null.
  Operation *
  findAfter(Operation *from,
            function_ref<bool(Operation *, bool nextIteration)> visit) const {
    int64_t begin = order.endPosition(from) + 1;
    for (Operation *loop = enclosingLoop(from);; loop = enclosingLoop(loop)) {
      int64_t end = loop ? order.endPosition(loop) : last;
      for (int64_t p = begin; p <= end; ++p)
        if (visit(order.opAt(p), false))
          return order.opAt(p);
      if (!loop)
        return nullptr;
      for (int64_t p = order.position(loop) + 1; p < begin; ++p)
        if (visit(order.opAt(p), true))
          return order.opAt(p);
      begin = end + 1;
    }
  }

  /// Calls `visit(op)` on the ops before `from` in program order, nearest
  /// first (the last op of an earlier loop before the loop), until it
  /// returns true; returns that op, or null.
  Operation *findBefore(Operation *from,
                        function_ref<bool(Operation *)> visit) const {
    for (int64_t p = order.position(from); p-- > 0;)
      if (visit(order.opAt(p)))
        return order.opAt(p);
    return nullptr;
  }

private:
  sync::ProgramOrder order;
  int64_t last;
};

/// Whether `op` is an access of `pipe`: what a flag of that pipe orders.
bool isAccessOn(Operation *op, Pipe pipe) {
  return isAccessCandidate(op) && getOpPipe(op) == pipe;
}

/// The accesses of `op` to the placed on-chip spaces.
SmallVector<MemoryAccess, 4> placedAccesses(Operation *op) {
  bool unknown = false;
  SmallVector<MemoryAccess, 4> placed;
  for (const MemoryAccess &access : getMemoryAccesses(op, unknown))
    if (!access.region.isGlobal() && !access.region.unplacedAlloc)
      placed.push_back(access);
  return placed;
}

std::string opText(Operation *op) {
  return op->getName().getStringRef().str() + " (" +
         stringifyPipe(*getOpPipe(op)).str() + ", " +
         locationText(op->getLoc()) + ")";
}

/// The name a tile is drawn with: the allocation's (a view carries it in
/// its location, findName), else where it comes from.
std::string tileName(Operation *tile) {
  if (auto alloc = dyn_cast<AllocOp>(tile))
    return alloc.getDisplayName();
  if (StringAttr name = findName(tile))
    return name.str();
  return "tile@" + locationText(tile->getLoc());
}

/// The tiles of a function as a placement (one pool per space, one buffer
/// per tile, at its offset, over its live range), and what is drawn on
/// each pool.
class PictureBuilder {
public:
  PictureBuilder(func::FuncOp func, const TargetDescription &target,
                 const BufferLifetimes &lifetimes, const ExecutionOrder &order)
      : func(func), target(target), points(lifetimes.getPoints()),
        order(order) {}

  void addTile(Operation *tile, const BufferLifetimes &lifetimes);
  /// The peak and its lower bound of each pool, once every tile is in.
  void finishPools();
  void addFlagPair(SetFlagOp set);
  void addBarrier(PipeBarrierOp barrier);
  void addBarrierAll(BarrierAllOp barrier);
  LogicalResult write(StringRef dir) const;

private:
  /// The pool of `space`, if a tile is in it.
  std::optional<size_t> poolOf(MemorySpace space) const;
  /// The name of the tile of `pool` live at `point` that holds `address`,
  /// or kUnknownTile.
  std::string nameAt(size_t pool, int64_t point, int64_t address) const;
  /// Draws the flag pair `set`..`wait` as an arrow from `from` to `to` on
  /// each space where they share bytes, one of them writing, and which is
  /// not in `drawn` yet (then added to it); unless `anyBytes`, only where
  /// both ends are on a tile (not an access whose bytes are not known
  /// exactly, such as through a value that one of several tiles flows
  /// into).
  void addArrows(SetFlagOp set, Operation *wait, Operation *from, Operation *to,
                 bool nextIteration, bool anyBytes,
                 SmallVectorImpl<size_t> &drawn);

  func::FuncOp func;
  const TargetDescription &target;
  const ProgramPoints &points;
  const ExecutionOrder &order;
  solver::Problem problem;
  solver::Placement placement;
  std::vector<solver::PoolResult> results; // per pool
  std::vector<solver::MemoryMapExtras> extras; // per pool
};

void PictureBuilder::addTile(Operation *tile,
                             const BufferLifetimes &lifetimes) {
  MemoryAccess bytes = getTileBytes(tile);
  MemorySpace space = bytes.region.space;
  std::optional<size_t> pool = poolOf(space);
  if (!pool) {
    pool = problem.pools.size();
    problem.pools.push_back(getSpacePool(space, target));
    extras.emplace_back();
  }
  solver::Buffer buffer;
  buffer.id = std::to_string(problem.buffers.size());
  buffer.name = tileName(tile);
  buffer.location = locationText(tile->getLoc());
  buffer.size = bytes.end - bytes.begin;
  buffer.alignment = problem.pools[*pool].alignment;
  buffer.pool = *pool;
  for (PointInterval interval : lifetimes.getLiveRange(tile))
    buffer.live.push_back({interval.lower, interval.upper});
  problem.buffers.push_back(std::move(buffer));
  placement.push_back(bytes.begin);
}

void PictureBuilder::finishPools() {
  problem.document.instance = reportInstanceName(func);
  for (size_t pool = 0; pool < problem.pools.size(); ++pool) {
    solver::PoolResult result;
    result.pool = pool;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      if (problem.buffers[b].pool != pool)
        continue;
      ++result.buffers;
      result.peak =
          std::max(result.peak, placement[b] + problem.buffers[b].size);
    }
    // Of the tiles as drawn: live together, not separated (the IR keeps no
    // separations after dsaplan-materialize).
    result.lowerBound = solver::lowerBound(problem, pool);
    result.status = result.peak <= result.lowerBound
                        ? solver::PoolStatus::Optimal
                        : solver::PoolStatus::Feasible;
    results.push_back(result);
  }
}

std::optional<size_t> PictureBuilder::poolOf(MemorySpace space) const {
  for (size_t pool = 0; pool < problem.pools.size(); ++pool)
    if (problem.pools[pool].name == stringifyMemorySpace(space))
      return pool;
  return std::nullopt;
}

std::string PictureBuilder::nameAt(size_t pool, int64_t point,
                                   int64_t address) const {
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const solver::Buffer &buffer = problem.buffers[b];
    if (buffer.pool != pool || address < placement[b] ||
        address >= placement[b] + buffer.size)
      continue;
    for (const solver::Interval &interval : buffer.live)
      if (interval.lower <= point && point < interval.upper)
        return buffer.name;
  }
  return kUnknownTile;
}

void PictureBuilder::addArrows(SetFlagOp set, Operation *wait, Operation *from,
                               Operation *to, bool nextIteration, bool anyBytes,
                               SmallVectorImpl<size_t> &drawn) {
  // An op created after the numbering has no point of its own (it would
  // take its parent's); the inserter creates no accesses, so this is a
  // guard, not a case.
  if (!points.contains(from) || !points.contains(to))
    return;
  for (const MemoryAccess &a : placedAccesses(from))
    for (const MemoryAccess &b : placedAccesses(to)) {
      std::optional<size_t> pool = poolOf(a.region.space);
      if (!a.conflictsWith(b) || !pool || llvm::is_contained(drawn, *pool))
        continue;
      // Across the shared bytes at one of seven heights, taken in turn, so
      // that the arrows on one tile stay apart.
      int64_t begin = std::max(a.begin, b.begin);
      int64_t height = static_cast<int64_t>(extras[*pool].syncs.size() % 7) + 1;
      int64_t address = begin + (std::min(a.end, b.end) - begin) * height / 8;
      std::string pipes = "<" + stringifyPipe(set.getSrc()).str() + " -> " +
                          stringifyPipe(set.getDst()).str() + ">, " +
                          std::to_string(set.getEvent());
      solver::SyncArrow arrow;
      // At the write points: a tile that an op starts is live from there.
      arrow.fromPoint = points.writePoint(from);
      arrow.toPoint = points.writePoint(to);
      arrow.fromAddress = arrow.toAddress = address;
      arrow.fromName = nameAt(*pool, arrow.fromPoint, address);
      arrow.toName = nameAt(*pool, arrow.toPoint, address);
      if (!anyBytes &&
          (arrow.fromName == kUnknownTile || arrow.toName == kUnknownTile))
        continue;
      arrow.pipe = stringifyPipe(set.getSrc()).str();
      arrow.nextIteration = nextIteration;
      arrow.label = "set_flag " + pipes + " at " + locationText(set.getLoc()) +
                    ", wait_flag at " + locationText(wait->getLoc()) +
                    (nextIteration ? " (next iteration)" : "") + "\n" +
                    arrow.fromName + ": " + opText(from) + "\nbefore " +
                    arrow.toName + ": " + opText(to);
      extras[*pool].syncs.push_back(std::move(arrow));
      drawn.push_back(*pool);
    }
}

/// The wait the set's flag reaches first, the accesses of the setting pipe
/// before the set and of the waiting pipe after the wait, and in each space
/// the nearest two of them that share bytes: what the pair orders there.
void PictureBuilder::addFlagPair(SetFlagOp set) {
  bool waitNextIteration = false;
  Operation *wait = order.findAfter(set, [&](Operation *op, bool next) {
    auto candidate = dyn_cast<WaitFlagOp>(op);
    waitNextIteration = next;
    return candidate && candidate.getSrc() == set.getSrc() &&
           candidate.getDst() == set.getDst() &&
           candidate.getEvent() == set.getEvent();
  });
  SmallVector<std::pair<Operation *, bool>> later;
  if (wait)
    order.findAfter(wait, [&](Operation *op, bool next) {
      if (isAccessOn(op, set.getDst()))
        later.push_back({op, waitNextIteration || next});
      return later.size() >= kMaxCandidates;
    });
  SmallVector<Operation *> earlier;
  order.findBefore(set, [&](Operation *op) {
    if (isAccessOn(op, set.getSrc()))
      earlier.push_back(op);
    return earlier.size() >= kMaxCandidates;
  });
  for (solver::MemoryMapExtras &poolExtras : extras)
    ++poolExtras.functionSyncs;
  SmallVector<size_t> drawn;
  for (bool anyBytes : {false, true})
    for (auto [to, nextIteration] : later)
      for (Operation *from : earlier)
        addArrows(set, wait, from, to, nextIteration, anyBytes, drawn);
}

/// A mark at the access the barrier holds back, on the pictures of the
/// spaces that access touches.
void PictureBuilder::addBarrier(PipeBarrierOp barrier) {
  Operation *next = order.findAfter(barrier, [&](Operation *op, bool) {
    return isAccessOn(op, barrier.getPipe());
  });
  if (!next || !points.contains(next))
    return;
  int64_t point = points.readPoint(next);
  std::string pipe = stringifyPipe(barrier.getPipe()).str();
  std::string label = "pipe_barrier <" + pipe + "> at " +
                      locationText(barrier.getLoc()) + "\nbefore " +
                      opText(next);
  SmallVector<size_t> pools;
  for (const MemoryAccess &access : placedAccesses(next))
    if (std::optional<size_t> pool = poolOf(access.region.space))
      if (!llvm::is_contained(pools, *pool))
        pools.push_back(*pool);
  for (size_t pool : pools)
    extras[pool].barriers.push_back({point, pipe, label});
}

/// A mark, pipe "all", at the next access of any pipe, on every picture:
/// a barrier_all drains every pipe, whatever bytes they touch.
void PictureBuilder::addBarrierAll(BarrierAllOp barrier) {
  Operation *next = order.findAfter(
      barrier, [&](Operation *op, bool) { return isAccessCandidate(op); });
  if (!next || !points.contains(next))
    return;
  int64_t point = points.readPoint(next);
  std::string label = "barrier_all at " + locationText(barrier.getLoc()) +
                      "\nbefore " + opText(next);
  for (solver::MemoryMapExtras &poolExtras : extras)
    poolExtras.barriers.push_back({point, "all", label});
}

LogicalResult PictureBuilder::write(StringRef dir) const {
  for (const solver::PoolResult &result : results) {
    const std::string &space = problem.pools[result.pool].name;
    if (failed(writeFunctionFile(
            func, dir, "." + space + ".svg",
            solver::writeMemoryMapSvg(problem, placement, result,
                                      problem.document.instance + " - " + space,
                                      extras[result.pool]))))
      return failure();
  }
  return success();
}

} // namespace

SyncPictures::SyncPictures(func::FuncOp func, const TargetDescription &target)
    : func(func), target(target), lifetimes(func) {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isTileOp(op))
      return;
    MemoryAccess bytes = getTileBytes(op);
    if (bytes.tile == op && !bytes.region.unplacedAlloc)
      tiles.push_back(op);
  });
}

LogicalResult SyncPictures::write(StringRef dir) const {
  if (tiles.empty())
    return success();
  ExecutionOrder order(func);
  PictureBuilder picture(func, target, lifetimes, order);
  for (Operation *tile : tiles)
    picture.addTile(tile, lifetimes);
  picture.finishPools();
  func.walk([&](Operation *op) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      picture.addFlagPair(set);
    else if (auto barrier = dyn_cast<PipeBarrierOp>(op))
      picture.addBarrier(barrier);
    else if (auto barrier = dyn_cast<BarrierAllOp>(op))
      picture.addBarrierAll(barrier);
  });
  return picture.write(dir);
}
