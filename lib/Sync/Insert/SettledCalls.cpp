//===- SettledCalls.cpp - No flag in flight across a settled call ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Insert/SettledCalls.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/RegionWalk.h"
#include "DsaPlan/Sync/Insert/Plan.h"

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

/// Finds the flags in flight at each settled call, on any path to it: the
/// walker's paths merge by union.
///
///   set_flag <mte3 -> v>, 0        {} -> {<mte3 -> v, 0>}
///   scf.if %c {
///     wait_flag <mte3 -> v>, 0     -> {}
///   }                              -> {<mte3 -> v, 0>} (the path without)
///   call @f() {dsaplan.settled}    <mte3 -> v, 0> is in flight here
///
/// A set only adds its flag and a wait only removes it, so what a loop's
/// body does to the flags is the same from any state reached at the body's
/// start after the first iteration: two iterations meet every state a later
/// one could.
class InFlightWalk : public RegionWalkClient<InFlight> {
public:
  static constexpr unsigned kLoopIterations = 2;

  WalkStep step(Operation &op, InFlight &state) {
    if (auto set = dyn_cast<SetFlagOp>(op))
      state.insert({set.getSrc(), set.getDst(), set.getEvent()});
    else if (auto wait = dyn_cast<WaitFlagOp>(op))
      state.erase({wait.getSrc(), wait.getDst(), wait.getEvent()});
    else if (op.hasAttr(DsaPlanDialect::getSettledAttrName()))
      atCalls[&op].insert(state.begin(), state.end());
    else if (op.getNumRegions())
      return WalkStep::Enter;
    return WalkStep::Done;
  }

  std::optional<InFlight> merge(ArrayRef<InFlight> exits, Operation *) {
    InFlight merged;
    for (const InFlight &exit : exits)
      merged.insert(exit.begin(), exit.end());
    return merged;
  }

  /// The flags in flight at each settled call, calls in walk order.
  llvm::MapVector<Operation *, InFlight> atCalls;
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
  RegionWalker<InFlightWalk, InFlight>(walk, InFlightWalk::kLoopIterations)
      .walkBlock(func.getBody().front(), state);
  unsigned parked = 0;
  for (auto &[call, flags] : walk.atCalls)
    for (const Flag &flag : flags) {
      park(call, flag);
      ++parked;
    }
  return parked;
}
