//===- Pictures.cpp - Memory maps with the syncs drawn in -----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Reads a function whose tiles are placed and synced, and draws each memory
// space's placement (as dsaplan-assign-offsets reported it) with the syncs
// on top, through the one memory-map writer of lib/Solver/Report.cpp. Reads
// the IR and the report only; decides nothing.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/Pictures.h"

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Support/ReportFiles.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

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

StringRef reportPointName() { return DsaPlanDialect::getReportPointAttrName(); }

/// The placement's program point of `op`, if it was marked.
std::optional<int64_t> reportPoint(Operation *op) {
  if (auto point = op->getAttrOfType<IntegerAttr>(reportPointName()))
    return point.getInt();
  return std::nullopt;
}

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

/// The placement as reported, and what is drawn on each of its pools.
class PictureBuilder {
public:
  PictureBuilder(func::FuncOp func, const ExecutionOrder &order)
      : func(func), order(order) {}

  LogicalResult readReport(StringRef dir);
  /// Fails with an error unless every tile the IR accesses is a buffer of
  /// the report, at its offset and size: a report of another placement
  /// (left in the directory by an earlier run) is not drawn on.
  LogicalResult checkReportMatches(StringRef dir);
  void addFlagPair(SetFlagOp set);
  void addBarrier(PipeBarrierOp barrier);
  void addBarrierAll(BarrierAllOp barrier);
  LogicalResult write(StringRef dir) const;

private:
  /// The pool of `space`, if the placement has one.
  std::optional<size_t> poolOf(MemorySpace space) const;
  /// The name of the buffer of `pool` live at `point` that holds `address`,
  /// or kUnknownTile.
  std::string nameAt(size_t pool, int64_t point, int64_t address) const;
  /// Draws the flag pair `set`..`wait` as an arrow from `from` to `to` on
  /// each space where they share bytes, one of them writing, and which is
  /// not in `drawn` yet (then added to it); unless `anyBytes`, only where
  /// both ends are on a tile of the placement (not an access whose bytes
  /// are not known exactly, such as through a value that one of several
  /// tiles flows into).
  void addArrows(SetFlagOp set, Operation *wait, Operation *from, Operation *to,
                 bool nextIteration, bool anyBytes,
                 SmallVectorImpl<size_t> &drawn);

  func::FuncOp func;
  const ExecutionOrder &order;
  solver::Problem problem;
  solver::Placement placement;
  std::vector<solver::PoolResult> results;
  std::vector<solver::MemoryMapExtras> extras; // per pool
};

/// `dir/<function>.json`, the placement report of `func`.
SmallString<128> reportPath(func::FuncOp func, StringRef dir) {
  SmallString<128> path(dir);
  llvm::sys::path::append(path, func.getSymName() + ".json");
  return path;
}

LogicalResult PictureBuilder::readReport(StringRef dir) {
  SmallString<128> path = reportPath(func, dir);
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return func.emitError()
           << "cannot read the placement report '" << path
           << "' to draw the syncs on: " << file.getError().message();
  std::string error = solver::readReportJson((*file)->getBuffer().str(),
                                             problem, placement, results);
  if (!error.empty())
    return func.emitError()
           << "cannot read the placement report '" << path << "': " << error;
  // The reserved bytes are the target's, as the placement saw them.
  TargetDescription target = TargetDescription::getForOp(func);
  for (solver::Pool &pool : problem.pools)
    if (std::optional<MemorySpace> space = symbolizeMemorySpace(pool.name))
      for (ByteRange range : target.getSpace(*space).reserved)
        pool.reserved.push_back({range.begin, range.end});
  extras.resize(problem.pools.size());
  return success();
}

LogicalResult PictureBuilder::checkReportMatches(StringRef dir) {
  SmallVector<Operation *> tiles;
  func.walk([&](Operation *op) {
    if (!isAccessCandidate(op))
      return;
    for (const MemoryAccess &access : placedAccesses(op))
      if (access.tile && !llvm::is_contained(tiles, access.tile))
        tiles.push_back(access.tile);
  });
  for (Operation *tile : tiles) {
    MemoryAccess bytes = getTileBytes(tile);
    std::optional<size_t> pool = poolOf(bytes.region.space);
    bool found = false;
    for (size_t b = 0; pool && b < problem.buffers.size() && !found; ++b)
      found = problem.buffers[b].pool == *pool && placement[b] == bytes.begin &&
              problem.buffers[b].size == bytes.end - bytes.begin;
    if (!found)
      return tile->emitError()
             << "the placement report '" << reportPath(func, dir)
             << "' is not of this IR: its tile at [" << bytes.begin << ", "
             << bytes.end << ") of " << stringifyMemorySpace(bytes.region.space)
             << " is none of the report's buffers";
  }
  return success();
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
  std::optional<int64_t> fromPoint = reportPoint(from);
  std::optional<int64_t> toPoint = reportPoint(to);
  if (!fromPoint || !toPoint)
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
      arrow.fromPoint = *fromPoint + 1;
      arrow.toPoint = *toPoint + 1;
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
  std::optional<int64_t> point = next ? reportPoint(next) : std::nullopt;
  if (!point)
    return;
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
    extras[pool].barriers.push_back({*point, pipe, label});
}

/// A mark, pipe "all", at the next access of any pipe, on every picture:
/// a barrier_all drains every pipe, whatever bytes they touch.
void PictureBuilder::addBarrierAll(BarrierAllOp barrier) {
  Operation *next = order.findAfter(
      barrier, [&](Operation *op, bool) { return isAccessCandidate(op); });
  std::optional<int64_t> point = next ? reportPoint(next) : std::nullopt;
  if (!point)
    return;
  std::string label = "barrier_all at " + locationText(barrier.getLoc()) +
                      "\nbefore " + opText(next);
  for (solver::MemoryMapExtras &poolExtras : extras)
    poolExtras.barriers.push_back({*point, "all", label});
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

void mlir::dsaplan::markPlacementPoints(func::FuncOp func) {
  ProgramPoints points(func);
  Builder builder(func.getContext());
  func.walk([&](Operation *op) {
    if (isAccessCandidate(op))
      op->setAttr(reportPointName(),
                  builder.getI64IntegerAttr(points.readPoint(op)));
  });
}

LogicalResult mlir::dsaplan::writeSyncPictures(func::FuncOp func,
                                               StringRef reportDir) {
  bool marked = false;
  func.walk([&](Operation *op) { marked |= reportPoint(op).has_value(); });
  // A function without tiles has no placement report: nothing to draw.
  if (!marked && !llvm::sys::fs::exists(reportPath(func, reportDir)))
    return success();
  if (!marked) {
    mlir::emitWarning(func.getLoc())
        << "the memory maps of @" << func.getSymName()
        << " are left without syncs: no op carries the placement's program "
           "points (dsaplan-assign-offsets mark-points, which --dsa-plan "
           "sets with report-dir)";
    return success();
  }
  ExecutionOrder order(func);
  PictureBuilder picture(func, order);
  if (failed(picture.readReport(reportDir)) ||
      failed(picture.checkReportMatches(reportDir)))
    return failure();
  func.walk([&](Operation *op) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      picture.addFlagPair(set);
    else if (auto barrier = dyn_cast<PipeBarrierOp>(op))
      picture.addBarrier(barrier);
    else if (auto barrier = dyn_cast<BarrierAllOp>(op))
      picture.addBarrierAll(barrier);
  });
  if (failed(picture.write(reportDir)))
    return failure();
  func.walk([&](Operation *op) { op->removeAttr(reportPointName()); });
  return success();
}
