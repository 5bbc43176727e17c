//===- AssignOffsets.cpp - Place dsaplan.allocs with the solver -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/PlacementProblem.h"
#include "DsaPlan/Transforms/PlanOutcome.h"
#include "ReportFiles.h"
#include "SyncPictures.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace dsaplan {
#define GEN_PASS_DEF_DSAPLANASSIGNOFFSETS
#include "DsaPlan/Transforms/Passes.h.inc"
} // namespace dsaplan
} // namespace mlir

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// What was decided for one function: offsets and a result per pool.
struct FunctionPlacement {
  solver::Placement offsets;
  std::vector<solver::PoolResult> pools;
};

std::string instanceName(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  std::string name = module && module.getSymName()
                         ? module.getSymName()->str() + "::"
                         : std::string();
  return name + func.getSymName().str();
}

/// The file to import for `func`: `path` itself, or `path/<func>.json` when
/// `path` is a directory (the layout export-problem writes).
std::string solutionPathFor(func::FuncOp func, StringRef path) {
  if (!llvm::sys::fs::is_directory(path))
    return path.str();
  SmallString<128> file(path);
  llvm::sys::path::append(file, func.getSymName() + ".json");
  return file.str().str();
}

void emitLiveAtPeakNotes(InFlightDiagnostic &diag, const PlacementProblem &pp,
                         const solver::PoolResult &pool) {
  for (size_t buffer : pool.liveAtPeak) {
    AllocOp alloc(pp.allocs[buffer]);
    diag.attachNote(alloc.getLoc())
        << "'" << alloc.getDisplayName() << "' ("
        << pp.problem.buffers[buffer].size << " B) is live at the peak";
  }
}

void emitCertificateNotes(InFlightDiagnostic &diag, const PlacementProblem &pp,
                          const solver::PoolResult &pool) {
  for (size_t buffer : pool.certificate) {
    AllocOp alloc(pp.allocs[buffer]);
    diag.attachNote(alloc.getLoc())
        << "'" << alloc.getDisplayName() << "' ("
        << pp.problem.buffers[buffer].size
        << " B) may not share bytes with the others of the certificate";
  }
}

/// Why `pool` was not placed: a proof of infeasibility (with the
/// certificate's buffers as notes), or a search that gave up (with the
/// buffers live at the busiest point).
void emitNotPlaced(func::FuncOp func, const TargetDescription &target,
                   const PlacementProblem &pp,
                   const solver::PoolResult &pool) {
  const solver::Pool &desc = pp.problem.pools[pool.pool];
  int64_t usable = target.getSpace(pp.spaces[pool.pool]).usableBytes();
  InFlightDiagnostic diag = func.emitError()
                            << "space " << desc.name << " of @"
                            << func.getSymName() << " does not fit: ";
  // Drivers tell "does not fit" from other errors by this tag (dsa-opt's
  // exit status, the Python module's exception).
  tagPlacementFailure(*diag.getUnderlyingDiagnostic(),
                      pool.proof == solver::InfeasibilityProof::None
                          ? PlacementFailure::GaveUp
                          : PlacementFailure::Infeasible);
  switch (pool.proof) {
  case solver::InfeasibilityProof::Certificate:
    diag << "infeasible (certificate: " << pool.certificate.size()
         << " buffers that may not share bytes need " << pool.lowerBound
         << " B, usable " << usable << " B of " << desc.capacity << " B)";
    return emitCertificateNotes(diag, pp, pool);
  case solver::InfeasibilityProof::Search:
    diag << "infeasible (exhaustive search: no placement within " << usable
         << " B usable of " << desc.capacity << " B, " << pool.nodes
         << " nodes)";
    return;
  case solver::InfeasibilityProof::Constraints:
    diag << "infeasible (contradicting constraints: " << pool.contradiction
         << ")";
    return;
  case solver::InfeasibilityProof::None:
    break;
  }
  diag << "gave up after " << pool.nodes << " nodes: best peak " << pool.peak
       << " B, usable " << usable << " B of " << desc.capacity
       << " B (over by " << pool.overflow << " B); the lower bound "
       << pool.lowerBound
       << " B fits, so it is not proved infeasible (raise node-budget or "
          "try another algorithm)";
  emitLiveAtPeakNotes(diag, pp, pool);
}

struct DsaPlanAssignOffsetsPass
    : public mlir::dsaplan::impl::DsaPlanAssignOffsetsBase<DsaPlanAssignOffsetsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult placeFunction(func::FuncOp func, const TargetDescription &target,
                              solver::Algorithm algo);
  FailureOr<FunctionPlacement> importPlacement(func::FuncOp func,
                                               const PlacementProblem &pp);
  FailureOr<FunctionPlacement> solvePlacement(func::FuncOp func,
                                              const TargetDescription &target,
                                              const PlacementProblem &pp,
                                              solver::Algorithm algo);
  void report(func::FuncOp func, const TargetDescription &target,
              const PlacementProblem &pp,
              const FunctionPlacement &placement);
  LogicalResult writeReports(func::FuncOp func, const PlacementProblem &pp,
                             const FunctionPlacement &placement);
  void recordStatistics(MemorySpace space, const solver::PoolResult &pool);

  /// The target's cycle estimates with `costs` applied: what the reuse
  /// penalties of objective=waits are counted in.
  CostModel costModel = CostModel::defaults();
};

void DsaPlanAssignOffsetsPass::runOnOperation() {
  ModuleOp module = getOperation();
  TargetDescription target = TargetDescription::getForOp(module);
  std::string error;
  if (!costModel.applyOverrides(costs, error)) {
    module.emitError() << "dsaplan-assign-offsets: " << error;
    return signalPassFailure();
  }
  bool failedAny = false;
  module.walk([&](func::FuncOp func) {
    failedAny |= failed(placeFunction(func, target, algorithm));
  });
  if (failedAny)
    signalPassFailure();
}

LogicalResult DsaPlanAssignOffsetsPass::placeFunction(
    func::FuncOp func, const TargetDescription &target,
    solver::Algorithm algo) {
  FailureOr<PlacementProblem> built = buildPlacementProblem(func, target);
  if (failed(built))
    return failure();
  PlacementProblem &pp = *built;
  if (pp.allocs.empty())
    return success();
  // Exported problems and solutions name the function the same way.
  pp.problem.document.instance = instanceName(func);
  if (objective == PlacementObjective::Waits)
    addReusePenalties(func, pp, costModel);

  if (!exportProblem.empty() &&
      failed(writeFunctionFile(
          func, exportProblem, ".json",
          solver::writeSchemaV1Problem(pp.problem, instanceName(func)))))
    return failure();

  std::vector<std::string> problems = solver::checkProblem(pp.problem);
  if (!problems.empty()) {
    InFlightDiagnostic diag = func.emitError()
                              << "cannot place the buffers of @"
                              << func.getSymName();
    for (const std::string &problem : problems)
      diag.attachNote() << problem;
    return failure();
  }

  FailureOr<FunctionPlacement> placement =
      importSolution.empty() ? solvePlacement(func, target, pp, algo)
                             : importPlacement(func, pp);
  if (failed(placement))
    return failure();

  // The solver's validator is independent of the algorithms: nothing is
  // attached that it has not accepted.
  std::vector<solver::Violation> violations =
      solver::validate(pp.problem, placement->offsets);
  if (!violations.empty()) {
    InFlightDiagnostic diag = func.emitError()
                              << "placement of @" << func.getSymName()
                              << " is invalid (" << violations.size()
                              << " violations)";
    for (const solver::Violation &violation : violations)
      diag.attachNote(violation.buffers.empty()
                          ? func.getLoc()
                          : AllocOp(pp.allocs[violation.buffers.front()])
                                .getLoc())
          << violation.message;
    return failure();
  }

  report(func, target, pp, *placement);
  if (!reportDir.empty() && failed(writeReports(func, pp, *placement)))
    return failure();
  if (!exportSolution.empty() &&
      failed(writeFunctionFile(
          func, exportSolution, ".json",
          solver::writeSchemaV1Solution(pp.problem, placement->offsets))))
    return failure();
  if (mode == AssignMode::Plan)
    for (auto [index, alloc] : llvm::enumerate(pp.allocs))
      AllocOp(alloc).setOffset(
          static_cast<uint64_t>(placement->offsets[index]));
  return success();
}

FailureOr<FunctionPlacement>
DsaPlanAssignOffsetsPass::solvePlacement(func::FuncOp func,
                                         const TargetDescription &target,
                                         const PlacementProblem &pp,
                                         solver::Algorithm algo) {
  solver::SolveOptions options;
  options.algorithm = algo;
  options.nodeBudget = nodeBudget;
  solver::Solution solution = solver::solve(pp.problem, options);
  bool placed = true;
  for (const solver::PoolResult &pool : solution.pools) {
    if (solver::isPlaced(pool.status))
      continue;
    placed = false;
    emitNotPlaced(func, target, pp, pool);
  }
  if (!placed) {
    // The JSON report says which pools are infeasible and which gave up.
    if (!reportDir.empty())
      (void)writeFunctionFile(
          func, reportDir, ".json",
          solver::writeReportJson(pp.problem, solution.offsets,
                                  solution.pools, instanceName(func)));
    return failure();
  }
  return FunctionPlacement{std::move(solution.offsets),
                           std::move(solution.pools)};
}

FailureOr<FunctionPlacement>
DsaPlanAssignOffsetsPass::importPlacement(func::FuncOp func,
                                          const PlacementProblem &pp) {
  std::string path = solutionPathFor(func, importSolution);
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return func.emitError() << "cannot read solution '" << path
                            << "': " << file.getError().message();
  FunctionPlacement placement;
  solver::ReadResult read = solver::readSchemaV1Solution(
      (*file)->getBuffer().str(), pp.problem, placement.offsets);
  if (!read.ok)
    return func.emitError() << "cannot apply solution '" << path << "' to @"
                            << func.getSymName() << ": " << read.error;
  for (size_t pool = 0; pool < pp.problem.pools.size(); ++pool) {
    solver::PoolResult result;
    result.pool = pool;
    result.peak = solver::peakOf(pp.problem, placement.offsets, pool);
    result.lowerBound = solver::lowerBound(pp.problem, pool);
    result.status = result.peak == result.lowerBound
                        ? solver::PoolStatus::Optimal
                        : solver::PoolStatus::Feasible;
    for (const solver::Buffer &buffer : pp.problem.buffers)
      result.buffers += buffer.pool == pool;
    placement.pools.push_back(result);
  }
  return placement;
}

void DsaPlanAssignOffsetsPass::report(func::FuncOp func,
                                      const TargetDescription &target,
                                      const PlacementProblem &pp,
                                      const FunctionPlacement &placement) {
  numBuffers += pp.allocs.size();
  std::optional<solver::Solution> bump;
  if (mode == AssignMode::Consult) {
    solver::SolveOptions options;
    options.algorithm = solver::Algorithm::Bump;
    bump = solver::solve(pp.problem, options);
  }
  for (const solver::PoolResult &pool : placement.pools) {
    MemorySpace space = pp.spaces[pool.pool];
    StringRef name = stringifyMemorySpace(space);
    recordStatistics(space, pool);
    const SpaceDescription &desc = target.getSpace(space);
    if (bump) {
      int64_t bumpPeak = bump->pools[pool.pool].peak;
      // Location-based, so that the remark does not print the function.
      mlir::emitRemark(func.getLoc())
                        << "@" << func.getSymName() << " " << name << ": "
                        << pool.buffers << " buffers, peak " << pool.peak
                        << " B vs "
                        << bumpPeak << " B without reuse, lower bound "
                        << pool.lowerBound << " B ("
                        << solver::poolStatusName(pool.status) << ")";
    } else if (summary) {
      InFlightDiagnostic remark = mlir::emitRemark(func.getLoc())
                        << "@" << func.getSymName() << " " << name << ": "
                        << pool.buffers << " buffers, peak " << pool.peak
                        << " B, lower bound " << pool.lowerBound
                        << " B, capacity " << desc.usableBytes()
                        << " B usable, "
                        << solver::poolStatusName(pool.status);
      if (pp.problem.objective == solver::Objective::ReuseCost) {
        // Recounted by the validator, not taken from the solver.
        solver::ReuseCostCount count =
            solver::reuseCostOf(pp.problem, placement.offsets, pool.pool);
        remark << ", reuse cost " << count.cost << " (bound "
               << pool.reuseCostBound << ", " << count.sharedPairs
               << " penalised pairs share bytes)";
      }
    }
  }
}

LogicalResult DsaPlanAssignOffsetsPass::writeReports(
    func::FuncOp func, const PlacementProblem &pp,
    const FunctionPlacement &placement) {
  std::string instance = instanceName(func);
  if (markPoints)
    markPlacementPoints(func);
  for (const solver::PoolResult &pool : placement.pools) {
    const std::string &space = pp.problem.pools[pool.pool].name;
    if (failed(writeFunctionFile(
            func, reportDir, "." + space + ".svg",
            solver::writeMemoryMapSvg(pp.problem, placement.offsets, pool,
                                      instance + " - " + space))))
      return failure();
  }
  return writeFunctionFile(func, reportDir, ".json",
                           solver::writeReportJson(pp.problem,
                                                   placement.offsets,
                                                   placement.pools, instance));
}

void DsaPlanAssignOffsetsPass::recordStatistics(
    MemorySpace space, const solver::PoolResult &pool) {
  auto record = [&](Statistic &buffers, Statistic &peak, Statistic &bound) {
    buffers += pool.buffers;
    peak.updateMax(pool.peak);
    bound.updateMax(pool.lowerBound);
  };
  switch (space) {
  case MemorySpace::ub:
    return record(ubBuffers, ubPeak, ubLowerBound);
  case MemorySpace::l1:
    return record(l1Buffers, l1Peak, l1LowerBound);
  case MemorySpace::l0a:
    return record(l0aBuffers, l0aPeak, l0aLowerBound);
  case MemorySpace::l0b:
    return record(l0bBuffers, l0bPeak, l0bLowerBound);
  case MemorySpace::l0c:
    return record(l0cBuffers, l0cPeak, l0cLowerBound);
  case MemorySpace::bt:
    return record(btBuffers, btPeak, btLowerBound);
  }
}

} // namespace
