//===- SettledCalls.cpp - No flag in flight across a settled call ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/SettledCalls.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Sync/Insert/Plan.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/MapVector.h"

#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// A flag: source pipe, destination pipe, event id.
using Flag = std::tuple<Pipe, Pipe, int64_t>;
/// The flags raised and not yet consumed at a point (on some path to it).
using InFlight = std::set<Flag>;

/// Finds the flags in flight at each settled call. Regions that run one at
/// most start from the same state and merge by union; a region that may run
/// again (a loop body) is walked until what reaches its start is stable.
class InFlightWalk {
public:
  void walkBlock(Block &block, InFlight &state) {
    for (Operation &op : block)
      walkOp(op, state);
  }

  llvm::MapVector<Operation *, InFlight> atCalls;

private:
  void walkOp(Operation &op, InFlight &state) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      state.insert({set.getSrc(), set.getDst(), set.getEvent()});
    else if (auto wait = dyn_cast<WaitFlagOp>(op))
      state.erase({wait.getSrc(), wait.getDst(), wait.getEvent()});
    else if (op.hasAttr(DsaPlanDialect::getSettledAttrName()))
      atCalls[&op].insert(state.begin(), state.end());
    else if (op.getNumRegions())
      walkRegions(op, state);
  }

  void walkRegions(Operation &op, InFlight &state) {
    auto branch = dyn_cast<RegionBranchOpInterface>(op);
    bool repeats = !branch || branch.hasLoop();
    InFlight entry = state, exit;
    // A loop: the body's end flows back to its start; three rounds reach
    // the fixpoint of a union that only grows over a finite set of flags
    // often enough for the kernels here, and more are harmless.
    for (int round = 0; round < (repeats ? 4 : 1); ++round) {
      exit = entry;
      InFlight flow = entry;
      for (Region &region : op.getRegions()) {
        InFlight inRegion = repeats ? flow : entry;
        for (Block &block : region)
          walkBlock(block, inRegion);
        if (repeats)
          flow = inRegion;
        exit.insert(inRegion.begin(), inRegion.end());
      }
      if (!repeats)
        break;
      size_t before = entry.size();
      entry.insert(exit.begin(), exit.end());
      if (entry.size() == before)
        break;
    }
    state = exit;
  }
};

/// Consumes `flag` before `call` (and the barrier_all before it) and raises
/// it again after the barrier_all after it.
void park(Operation *call, const Flag &flag) {
  auto [srcPipe, dstPipe, event] = flag;
  Operation *before = call;
  if (isa_and_nonnull<BarrierAllOp>(call->getPrevNode()))
    before = call->getPrevNode();
  Operation *after = call;
  if (isa_and_nonnull<BarrierAllOp>(call->getNextNode()))
    after = call->getNextNode();
  sync::createParkedFlag(before, after, call->getLoc(), srcPipe, dstPipe,
                         event);
}

} // namespace

unsigned mlir::dsaplan::parkFlagsAtSettledCalls(func::FuncOp func) {
  if (func.isExternal())
    return 0;
  InFlightWalk walk;
  InFlight state;
  walk.walkBlock(func.getBody().front(), state);
  unsigned parked = 0;
  for (auto &[call, flags] : walk.atCalls)
    for (const Flag &flag : flags) {
      park(call, flag);
      ++parked;
    }
  return parked;
}
