//===- PlanOutcome.h - How a run of the pipeline ended ----------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A script that drives dsaplan wants to know whether a kernel does not fit
// (retile it) or is wrong (fix it), without reading English. The pass that
// finds a space too small tags its error diagnostic; drivers count the
// errors they see and map them to an exit status (dsa-opt) or an exception
// (the Python module), in dsa-solve's convention:
//
//   0  placed                     2  any other error (parse, option, ...)
//   1  does not fit, proved       3  does not fit, search gave up
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PLANOUTCOME_H
#define DSAPLAN_TRANSFORMS_PLANOUTCOME_H

#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace dsaplan {

/// Exit statuses of dsa-opt (docs/README.md, "Exit status").
enum PlanExitStatus : int {
  kPlanPlaced = 0,
  kPlanDoesNotFit = 1,
  kPlanError = 2,
  kPlanGaveUp = 3,
};

/// Why a space was not placed, as its error diagnostic is tagged.
enum class PlacementFailure {
  None,       // the diagnostic is no placement failure
  Infeasible, // proved: a certificate, an exhaustive search or contradicting
              // constraints
  GaveUp,     // no placement found within the node budget, none proved
};

/// Tags `diag` (an error saying that a space does not fit) with `failure`,
/// as metadata: the text stays what people read.
void tagPlacementFailure(Diagnostic &diag, PlacementFailure failure);

/// The tag of `diag`; None when untagged.
PlacementFailure getPlacementFailure(Diagnostic &diag);

/// The errors of a run, by kind.
struct PlanErrors {
  unsigned errors = 0;
  unsigned infeasible = 0;
  unsigned gaveUp = 0;

  /// Counts `diag` if it is an error.
  void count(Diagnostic &diag);

  /// The exit status of a run that `failed` or not: does-not-fit (1, or 3
  /// when no space is proved infeasible) only when every error was a
  /// placement failure; else 2.
  int exitStatus(bool failed) const;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_TRANSFORMS_PLANOUTCOME_H
