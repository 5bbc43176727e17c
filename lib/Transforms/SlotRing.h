//===- SlotRing.h - Rotating slots of a loop tile ---------------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Transforms: dsaplan-multi-buffer and
// dsaplan-rotate-carried both rotate a tile's slots through a loop.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_TRANSFORMS_SLOTRING_H
#define DSAPLAN_LIB_TRANSFORMS_SLOTRING_H

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

namespace mlir {
namespace dsaplan {

/// Replaces `alloc` (in the body of `loop`, an scf.for or scf.while) by
/// `depth` allocations before the loop, named "<name>.<slot>" and rotated
/// through new iter_args: iteration i uses slot i mod depth. Drops the
/// tile's `dsaplan.buffers` request. Returns the slots (empty for depth 1,
/// which leaves the tile as it is).
SmallVector<Value> rotateSlots(AllocOp alloc, Operation *loop, int64_t depth);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_TRANSFORMS_SLOTRING_H
