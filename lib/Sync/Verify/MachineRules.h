//===- MachineRules.h - What the verifier takes from the target -*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Verify.
//
//===----------------------------------------------------------------------===//
//
// The verifier's checks that come from the machine rather than from the
// flags, on one function: which spaces a pipe may touch, the in-place
// overlap rule, and the cores an access runs on. They know nothing of the
// walk (SyncChecker.h asks them about each access):
//
//   memref.copy %gm, %l0a {pipe = mte2}
//   // checkReach: error: ... writes l0a, which ascend910b pipe mte2
//   //             cannot write
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_VERIFY_MACHINERULES_H
#define DSAPLAN_LIB_SYNC_VERIFY_MACHINERULES_H

#include "Bytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir {
namespace dsaplan {
namespace verify {

class MachineRules {
public:
  MachineRules(func::FuncOp func, const TargetDescription &target);

  /// Whether `op` is marked `dsaplan.settled`. Both marks are dialect
  /// attributes, never an op's inherent one (whose names hold no dot): the
  /// discardable ones answer, without asking the op's inherent names first
  /// (asked of every op).
  bool isSettled(Operation *op) const {
    return op->getDiscardableAttr(settledName) != nullptr;
  }
  /// `op`'s `dsaplan.core`, if it says.
  CoreAttr coreOf(Operation *op) const {
    return dyn_cast_or_null<CoreAttr>(op->getDiscardableAttr(coreName));
  }

  /// Whether every memory `touches` names is one the target lets `pipe`
  /// reach; emits an error at `op` naming the first that is not.
  bool checkReach(Operation *op, Pipe pipe, ArrayRef<Touch> touches) const;
  /// Whether an op marked `dsaplan.in_place` starts its source and
  /// destination together or keeps them apart; emits an error at `op` for
  /// a partial overlap.
  bool checkOverlap(Operation *op, Pipe pipe) const;
  /// The cores an op may run on: its pipe's, narrowed to the core of every
  /// on-chip space it touches.
  unsigned coresOf(Pipe pipe, ArrayRef<Touch> touches) const;
  /// coresOf narrowed by the op's `dsaplan.core`; both cores for the
  /// pseudo-accesses of a settled call.
  unsigned accessCores(Operation *op, Pipe pipe, ArrayRef<Touch> touches) const;
  /// The cores the function's own accesses run on; both when it has none.
  unsigned coresOfFunction();

private:
  func::FuncOp func;
  const TargetDescription &target;
  std::optional<unsigned> functionCores;
  /// The attribute names, uniqued once: an op's attributes are looked up
  /// by pointer then, not by comparing strings (every op is asked).
  StringAttr settledName, coreName, inPlaceName;
};

} // namespace verify
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_VERIFY_MACHINERULES_H
