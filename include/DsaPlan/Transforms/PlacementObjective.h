//===- PlacementObjective.h - What assign-offsets optimises -----*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The type of dsaplan-assign-offsets' `objective` option. A header of its
// own: Passes.h needs it, and must not pull the solver's ::dsaplan
// namespace into clients that say `using namespace mlir`.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PLACEMENTOBJECTIVE_H
#define DSAPLAN_TRANSFORMS_PLACEMENTOBJECTIVE_H

namespace mlir {
namespace dsaplan {

/// What dsaplan-assign-offsets optimises once every space fits.
enum class PlacementObjective {
  /// The fewest cross-pipe waits: tiles touched by different pipes keep
  /// apart where capacity leaves room (the reuse-cost objective).
  Waits,
  /// The smallest peak of each space (headroom for later passes).
  Peak,
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PLACEMENTOBJECTIVE_H
