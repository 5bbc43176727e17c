//===- MachineRules.cpp - What the verifier takes from the target ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The checks that come from the machine rather than from the flags: a
// pipe may only touch the spaces the target lets it reach; an in-place op
// may not overlap its source and destination partially; and flags order
// the pipes of one core only, so an access's cores are its pipe's narrowed
// by the spaces it touches (MachineRules.h).
//
//   memref.copy %gm, %l0a {pipe = mte2}
//   // error: ... writes l0a, which ascend910b pipe mte2 cannot write
//
//===----------------------------------------------------------------------===//

#include "MachineRules.h"

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

MachineRules::MachineRules(func::FuncOp func, const TargetDescription &target)
    : func(func), target(target) {
  MLIRContext *context = func->getContext();
  settledName = StringAttr::get(context, DsaPlanDialect::getSettledAttrName());
  coreName = StringAttr::get(context, DsaPlanDialect::getCoreAttrName());
  inPlaceName = StringAttr::get(context, DsaPlanDialect::getInPlaceAttrName());
}

/// Every memory the op touches must be one the target lets its pipe reach.
bool MachineRules::checkReach(Operation *op, Pipe pipe,
                              ArrayRef<Touch> touches) const {
  for (const Touch &touch : touches) {
    std::optional<MemorySpace> space = spaceOfTouch(touch);
    // GM reach is not enforced yet (kernels in the tests write GM from V).
    if (!space || target.canAccess(pipe, space, touch.write))
      continue;
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
unsigned MachineRules::coresOf(Pipe pipe, ArrayRef<Touch> touches) const {
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
bool MachineRules::checkOverlap(Operation *op, Pipe pipe) const {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !op->hasAttr(inPlaceName))
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &read : instances) {
    if (!isa<MemoryEffects::Read>(read.getEffect()) || !read.getValue())
      continue;
    std::optional<Bytes> a = exactTileBytes(read.getValue(), target);
    for (const MemoryEffects::EffectInstance &write : instances) {
      if (!a || !isa<MemoryEffects::Write>(write.getEffect()) ||
          !write.getValue())
        continue;
      std::optional<Bytes> b = exactTileBytes(write.getValue(), target);
      if (!b || !a->sameMemory(*b) || a->end <= b->begin ||
          b->end <= a->begin ||
          (a->begin == b->begin &&
           read.getValue().getType() == write.getValue().getType()))
        continue;
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

/// The cores an access may run on: a settled call's pseudo-accesses stand
/// for a callee on the caller's core, whichever that is.
unsigned MachineRules::accessCores(Operation *op, Pipe pipe,
                                   ArrayRef<Touch> touches) const {
  if (isSettled(op))
    return kBothCores;
  unsigned cores = coresOf(pipe, touches);
  if (CoreAttr core = coreOf(op))
    cores &= maskOfCore(core.getValue());
  return cores;
}

/// The cores the function's own accesses run on (each op's pipe narrowed by
/// the spaces it touches); both when it has none.
unsigned MachineRules::coresOfFunction() {
  if (functionCores)
    return *functionCores;
  unsigned cores = kNoCore;
  func.walk([&](Operation *op) {
    if (isSettled(op))
      return;
    if (std::optional<Pipe> pipe = getOpPipe(op))
      if (isMemoryOp(op))
        cores |= coresOf(*pipe, touchesOf(op, target, LoopIterations()));
  });
  functionCores = cores ? cores : kBothCores;
  return *functionCores;
}
