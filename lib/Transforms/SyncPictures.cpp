//===- SyncPictures.cpp - Pictures of the placed tiles and their syncs ----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Reads a function whose tiles are placed and synced, and draws each memory
// space as the solver's memory map (lib/Solver/Report.cpp) with the syncs on
// top. Reads the IR only; decides nothing.
//
//===----------------------------------------------------------------------===//

#include "SyncPictures.h"

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/MemoryAccess.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "ReportFiles.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

using namespace mlir;
using namespace mlir::dsaplan;

namespace solver = ::dsaplan::solver;

namespace {

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
  std::vector<solver::MemoryMapExtras> extras; // per pool
  DenseMap<Operation *, size_t> bufferOf;
  std::map<std::pair<int, Operation *>, size_t> poolOf;
};

} // namespace

LogicalResult mlir::dsaplan::writeSyncPictures(func::FuncOp func,
                                               StringRef reportDir) {
  // Tiles by their `name`, else by their SSA name as the IR prints it.
  AsmState asmState(func);
  auto tileName = [&](Operation *tile) {
    if (auto name = tile->getAttrOfType<StringAttr>("name"))
      return name.str();
    std::string text;
    llvm::raw_string_ostream os(text);
    if (tile->getNumResults() == 0)
      return locationText(tile->getLoc());
    tile->getResult(0).printAsOperand(os, asmState);
    return text;
  };
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
      picture.extras.emplace_back();
      picture.extras.back().accessSpans = true;
    }
    solver::Buffer buffer;
    buffer.id = std::to_string(picture.problem.buffers.size());
    buffer.name = tileName(tile);
    buffer.location = locationText(tile->getLoc());
    buffer.size = bytes.end - bytes.begin;
    buffer.pool = poolIt->second;
    buffer.live = {{extent[tile].first, extent[tile].second}};
    picture.bufferOf[tile] = picture.problem.buffers.size();
    picture.problem.buffers.push_back(buffer);
    picture.placement.push_back(bytes.begin);
  }
  // A mark per barrier, on every space's picture.
  func.walk([&](PipeBarrierOp barrier) {
    for (solver::MemoryMapExtras &extras : picture.extras)
      extras.barriers.push_back({points.readPoint(barrier),
                                 stringifyPipe(barrier.getPipe()).str()});
  });
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
          picture.extras[pool->second].syncs.push_back(
              {points.readPoint(before) + 1, std::max(a.begin, b.begin),
               points.readPoint(after), std::max(a.begin, b.begin),
               std::string("set/wait <") + stringifyPipe(set.getSrc()).str() +
                   " -> " + stringifyPipe(set.getDst()).str() + ">, " +
                   std::to_string(set.getEvent()),
               stringifyPipe(set.getSrc()).str()});
          return;
        }
  });
  for (size_t pool = 0; pool < picture.problem.pools.size(); ++pool) {
    solver::PoolResult result;
    result.pool = pool;
    result.peak = solver::peakOf(picture.problem, picture.placement, pool);
    // The spans are accesses, not live ranges: their lower bound would
    // contradict the placement's, so the picture shows none.
    result.lowerBound = result.peak;
    for (const solver::Buffer &b : picture.problem.buffers)
      result.buffers += b.pool == pool;
    const std::string &space = picture.problem.pools[pool].name;
    if (failed(writeFunctionFile(
            func, reportDir, "." + space + ".sync.svg",
            solver::writeMemoryMapSvg(
                picture.problem, picture.placement, result,
                func.getSymName().str() + " - " + space + " with syncs",
                picture.extras[pool]))))
      return failure();
  }
  return success();
}

