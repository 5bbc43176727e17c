//===- Cores.cpp - The simulator's cube and vector cores ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A kernel of both cores is one program that each core runs (docs/sync.md,
// "Cross-core synchronisation"): the scalar unit of each core follows the
// control flow and issues the ops that run on its core. The simulator gives
// the cube core's pipes the units 0..6 and the vector core's 7..13, so that
// the cube's MTE2 and the vector core's are two pipes, and their flags two
// sets of flags:
//
//   memref.copy %gm, %l1 {mte2}          // unit mte2 (cube: writes l1)
//   memref.copy %gm, %ub {mte2}          // unit aiv.mte2 (vector: writes ub)
//   dsaplan.set_flag <mte3 -> mte2>, 0   // mte3 runs on the vector core only:
//                                        // units aiv.mte3 -> aiv.mte2
//   dsaplan.pipe_barrier <mte2>          // issued by both cores
//
// An op's core comes from its pipe, its `dsaplan.core` and the spaces of its
// memref operands, computed here from the target (not from lib/Analysis);
// a sync op whose pipes run on both cores is issued by both. A
// cross_core_set fires on its pipe like a set_flag and adds a signal to the
// other core's counter; a cross_core_wait is issued by its core's scalar
// unit and holds every pipe of that core until it has taken a signal.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

unsigned narrowByAttribute(Operation &op, unsigned cores) {
  if (auto core = op.getAttrOfType<CoreAttr>(DsaPlanDialect::getCoreAttrName()))
    cores &= maskOfCore(core.getValue());
  return cores;
}

} // namespace

unsigned TraceBuilder::coresOf(Operation &op, unsigned pipeCores) {
  unsigned cores = narrowByAttribute(op, pipeCores);
  for (Type type : op.getOperandTypes())
    if (auto memref = dyn_cast<MemRefType>(type))
      if (std::optional<MemorySpace> space = getMemorySpace(memref))
        cores &= target.getCore(*space);
  return cores;
}

bool TraceBuilder::holdsBothCores() {
  unsigned seen = kNoCore;
  func.walk([&](Operation *op) {
    if (isa<CrossCoreSetOp, CrossCoreWaitOp>(op)) {
      seen = kBothCores;
      return WalkResult::interrupt();
    }
    if (std::optional<Pipe> pipe = getOpPipe(op)) {
      unsigned cores = coresOf(*op, target.getPipe(*pipe).cores);
      if (cores != kBothCores)
        seen |= cores;
    }
    return seen == kBothCores ? WalkResult::interrupt() : WalkResult::advance();
  });
  return seen == kBothCores;
}

SmallVector<unsigned, 2> TraceBuilder::unitBases(unsigned cores) const {
  if (!mixed)
    return {0};
  return firstUnitsOf(cores);
}

/// set_flag, wait_flag, pipe_barrier and barrier_all: issued by every core
/// that has their pipes (one core, in a kernel of one core).
LogicalResult TraceBuilder::emitSyncOp(Operation &op) {
  auto coresOfPipes = [&](Pipe a, Pipe b) {
    return narrowByAttribute(op,
                             target.getPipe(a).cores & target.getPipe(b).cores);
  };
  unsigned s = static_cast<unsigned>(Pipe::s);
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    for (unsigned base : unitBases(coresOfPipes(set.getSrc(), set.getDst()))) {
      unsigned src = base + static_cast<unsigned>(set.getSrc());
      unsigned dst = base + static_cast<unsigned>(set.getDst());
      emitSync(op, EntryKind::Set, src, {src, dst, set.getEvent()});
    }
  } else if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    for (unsigned base :
         unitBases(coresOfPipes(wait.getSrc(), wait.getDst()))) {
      unsigned src = base + static_cast<unsigned>(wait.getSrc());
      unsigned dst = base + static_cast<unsigned>(wait.getDst());
      emitSync(op, EntryKind::Wait, dst, {src, dst, wait.getEvent()});
    }
  } else if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    Pipe pipe = barrier.getPipe();
    for (unsigned base : unitBases(coresOfPipes(pipe, pipe)))
      emitSync(op, EntryKind::Barrier, base + static_cast<unsigned>(pipe), {});
  } else {
    for (unsigned base : unitBases(narrowByAttribute(op, kBothCores)))
      emitSync(op, EntryKind::BarrierAll, base + s, {});
  }
  return success();
}

/// A cross_core_set on its core's pipe, a cross_core_wait on its core's
/// scalar unit; both name the counter of the waiting core.
LogicalResult TraceBuilder::emitCrossCore(Operation &op) {
  auto set = dyn_cast<CrossCoreSetOp>(op);
  auto wait = dyn_cast<CrossCoreWaitOp>(op);
  int64_t mode = set ? set.getMode() : wait.getMode();
  if (mode != kCubeVectorMode)
    return unsupported(&op, "mode " + Twine(mode) +
                                " synchronises cores of one kind; only mode "
                                "2 (the cube core with the vector cores) is "
                                "simulated");
  unsigned s = static_cast<unsigned>(Pipe::s);
  if (set) {
    unsigned unit =
        firstUnitOf(set.getCore()) + static_cast<unsigned>(set.getPipe());
    emitSync(op, EntryKind::CrossSet, unit,
             {kCrossCoreFlag, firstUnitOf(otherCore(set.getCore())) + s,
              set.getId()});
    return success();
  }
  unsigned unit = firstUnitOf(wait.getCore()) + s;
  emitSync(op, EntryKind::CrossWait, unit,
           {kCrossCoreFlag, unit, wait.getId()});
  return success();
}
