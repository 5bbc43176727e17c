//===- PlanOutcome.cpp - How a run of the pipeline ended ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Transforms/PlanOutcome.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {
/// The metadata strings of the tags (static: DiagnosticArgument keeps the
/// StringRef, not a copy).
constexpr llvm::StringLiteral kInfeasibleTag = "dsaplan.placement-infeasible";
constexpr llvm::StringLiteral kGaveUpTag = "dsaplan.placement-gave-up";
} // namespace

void mlir::dsaplan::tagPlacementFailure(Diagnostic &diag,
                                        PlacementFailure failure) {
  if (failure == PlacementFailure::None)
    return;
  diag.getMetadata().push_back(DiagnosticArgument(
      failure == PlacementFailure::Infeasible ? kInfeasibleTag : kGaveUpTag));
}

PlacementFailure mlir::dsaplan::getPlacementFailure(Diagnostic &diag) {
  for (const DiagnosticArgument &argument : diag.getMetadata()) {
    if (argument.getKind() != DiagnosticArgument::DiagnosticArgumentKind::String)
      continue;
    if (argument.getAsString() == kInfeasibleTag)
      return PlacementFailure::Infeasible;
    if (argument.getAsString() == kGaveUpTag)
      return PlacementFailure::GaveUp;
  }
  return PlacementFailure::None;
}

void PlanErrors::count(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return;
  ++errors;
  switch (getPlacementFailure(diag)) {
  case PlacementFailure::Infeasible:
    ++infeasible;
    break;
  case PlacementFailure::GaveUp:
    ++gaveUp;
    break;
  case PlacementFailure::None:
    break;
  }
}

int PlanErrors::exitStatus(bool failed) const {
  if (!failed)
    return kPlanPlaced;
  if (errors == 0 || errors != infeasible + gaveUp)
    return kPlanError;
  return infeasible ? kPlanDoesNotFit : kPlanGaveUp;
}
