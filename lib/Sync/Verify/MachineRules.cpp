//===- MachineRules.cpp - What the verifier takes from the target ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The checks that come from the machine rather than from the flags: a
// pipe may only touch the spaces the target lets it reach; an in-place op
// may not overlap its source and destination partially; flags order the
// pipes of one core only, so an access's cores are its pipe's narrowed by
// the spaces it touches; and a settled call stands for a callee on its
// caller's core, touching whatever that core's pipes may reach.
//
//   memref.copy %gm, %l0a {pipe = mte2}
//   // error: ... writes l0a, which ascend910b pipe mte2 cannot write
//
//===----------------------------------------------------------------------===//

#include "SyncChecker.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

namespace {

/// The space a touch is of; none for global memory.
std::optional<MemorySpace> spaceOfTouch(const Touch &touch) {
  if (touch.bytes.space >= 0)
    return static_cast<MemorySpace>(touch.bytes.space);
  if (touch.bytes.space == kUnplacedSpace)
    return cast<AllocOp>(touch.bytes.alloc).getSpace();
  return std::nullopt;
}

} // namespace

/// Every memory the op touches must be one the target lets its pipe reach.
bool SyncChecker::checkReach(Operation *op, Pipe pipe,
                             ArrayRef<Touch> touches) {
  for (const Touch &touch : touches) {
    std::optional<MemorySpace> space = spaceOfTouch(touch);
    // GM reach is not enforced yet (kernels in the tests write GM from V).
    if (!space || target.canAccess(pipe, space, touch.write))
      continue;
    failedAny = true;
    op->emitError() << "'" << op->getName() << "' on pipe "
                    << stringifyPipe(pipe) << " "
                    << (touch.write ? "writes " : "reads ")
                    << (space ? stringifyMemorySpace(*space) : "gm")
                    << ", which " << target.getName() << " pipe "
                    << stringifyPipe(pipe) << " cannot "
                    << (touch.write ? "write" : "read") << " (it "
                    << (touch.write ? "writes " : "reads ")
                    << target.describeReach(pipe, touch.write) << ")";
    return false;
  }
  return true;
}

/// The cores an op may run on: its pipe's, narrowed to the core of every
/// on-chip space it touches.
unsigned SyncChecker::coresOf(Pipe pipe, ArrayRef<Touch> touches) const {
  unsigned cores = target.getPipe(pipe).cores;
  for (const Touch &touch : touches)
    if (std::optional<MemorySpace> space = spaceOfTouch(touch))
      cores &= target.getCore(*space);
  return cores;
}

/// A vector instruction's source and destination share a start address with
/// the same layout, or are disjoint (Ascend C's address-overlap rule): an
/// op that reads one placed tile and writes another over part of it
/// overwrites inputs before it reads them (an in-place op placed shifted).
///
///   linalg.exp {dsaplan.in_place} ins(%a : [172032, 184320))
///                                 outs(%b : [167936, 180224))
///   // error: a partial overlap
///
/// Checked on the ops marked `dsaplan.in_place`, the only ones whose inputs
/// the placement lets die where their outputs are born; the inputs and
/// outputs of other ops are live together, which the placement validator
/// keeps apart.
bool SyncChecker::checkOverlap(Operation *op, Pipe pipe) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !op->hasAttr(DsaPlanDialect::getInPlaceAttrName()))
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &read : instances) {
    if (!isa<MemoryEffects::Read>(read.getEffect()) || !read.getValue())
      continue;
    std::optional<Bytes> a = exactTileBytes(read.getValue());
    for (const MemoryEffects::EffectInstance &write : instances) {
      if (!a || !isa<MemoryEffects::Write>(write.getEffect()) ||
          !write.getValue())
        continue;
      std::optional<Bytes> b = exactTileBytes(write.getValue());
      if (!b || !a->sameMemory(*b) || a->end <= b->begin ||
          b->end <= a->begin ||
          (a->begin == b->begin &&
           read.getValue().getType() == write.getValue().getType()))
        continue;
      failedAny = true;
      op->emitError() << "'" << op->getName() << "' on pipe "
                      << stringifyPipe(pipe) << " reads bytes [" << a->begin
                      << ", " << a->end << ") of " << memoryName(*a)
                      << " and writes [" << b->begin << ", " << b->end
                      << "): a source and a destination must start at the "
                         "same address with the same layout, or be disjoint";
      return false;
    }
  }
  return true;
}

/// A call that dsaplan-settle-calls drained: its callee is synchronised on
/// its own, so it may run any pipe over any byte and use any flag. Nothing
/// of the caller may be in flight then: no flag raised and not consumed, and
/// every earlier access ordered before each pipe's (a barrier_all before
/// it), every later one after (a barrier_all after it).
void SyncChecker::settledCall(CallOpInterface call, PathState &state) {
  for (const auto &[key, flag] : state.flags) {
    failedAny = true;
    InFlightDiagnostic diag = call->emitError();
    diag << "settled call with event " << std::get<2>(key) << " of <"
         << unitText(std::get<0>(key)) << " -> "
         << unitText(std::get<1>(key))
         << "> in flight: the callee's own flags may consume it";
    diag.attachNote(flag.setOp->getLoc()) << "the set_flag";
    return;
  }
  unsigned cores = coresOfFunction();
  // Every pipe's accesses are checked before any is filed: they are one
  // callee's, which orders them itself.
  std::array<SmallVector<Touch>, kNumPipes> touches;
  std::array<int64_t, kNumPipes> seqs;
  for (size_t p = 0; p < kNumPipes; ++p) {
    Pipe pipe = static_cast<Pipe>(p);
    // The callee runs on its caller's core: only that core's pipes.
    if ((target.getPipe(pipe).cores & cores) == 0)
      continue;
    touches[p] = settledCallTouches(call, pipe, target);
    seqs[p] = checkAccess(call, pipe, touches[p], state);
  }
  for (size_t p = 0; p < kNumPipes; ++p)
    if (target.getPipe(static_cast<Pipe>(p)).cores & cores)
      recordAccess(call, static_cast<Pipe>(p), seqs[p], touches[p], state);
}

/// The cores an access may run on: a settled call's pseudo-accesses stand
/// for a callee on the caller's core, whichever that is.
unsigned SyncChecker::accessCores(Operation *op, Pipe pipe,
                                  ArrayRef<Touch> touches) const {
  if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
    return kBothCores;
  unsigned cores = coresOf(pipe, touches);
  if (auto core = op->getAttrOfType<CoreAttr>(DsaPlanDialect::getCoreAttrName()))
    cores &= maskOfCore(core.getValue());
  return cores;
}

/// The cores the function's own accesses run on (each op's pipe narrowed by
/// the spaces it touches); both when it has none.
unsigned SyncChecker::coresOfFunction() {
  if (functionCores)
    return *functionCores;
  unsigned cores = kNoCore;
  func.walk([&](Operation *op) {
    if (op->hasAttr(DsaPlanDialect::getSettledAttrName()))
      return;
    if (std::optional<Pipe> pipe = getOpPipe(op))
      if (isMemoryOp(op))
        cores |= coresOf(*pipe, touchesOf(op));
  });
  functionCores = cores ? cores : kBothCores;
  return *functionCores;
}
