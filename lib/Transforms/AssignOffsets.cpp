//===- AssignOffsets.cpp - Place dsaplan.allocs with the solver -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Analysis/ModuleCalls.h"
#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"
#include "DsaPlan/Support/ReportFiles.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/PlacementProblem.h"
#include "DsaPlan/Transforms/PlanOutcome.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
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
                   const PlacementProblem &pp, const solver::PoolResult &pool,
                   int64_t frameBase) {
  const solver::Pool &desc = pp.problem.pools[pool.pool];
  int64_t usable = target.getSpace(pp.spaces[pool.pool]).usableBytes();
  InFlightDiagnostic diag = func.emitError()
                            << "space " << desc.name << " of @"
                            << func.getSymName() << " does not fit: ";
  if (frameBase > 0) {
    // The usable bytes below are the target's; the frame takes its share.
    diag << "its frame starts at " << frameBase
         << " B, above the tiles its callers keep live across its calls; ";
    usable -= frameBase;
  }
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

/// Per space, the bytes below which a function's tiles may not go: the
/// frame its callers keep live across its calls.
using FrameBases = llvm::SmallDenseMap<unsigned, int64_t, 8>;

/// The byte range one placed tile holds.
struct PlacedTile {
  MemorySpace space;
  int64_t end;
};

/// Where `callee`'s tiles may start, per space: above every tile a caller
/// keeps live across one of its calls, and above that caller's own frame
/// (what the caller's callers keep live is live across the callee too).
///
///   @kernel: %a [0, 4096) live across `call @helper`, %b [4096, 8192) dead
///            there            -> @helper's ub frame starts at 4096
FrameBases frameBasesOf(func::FuncOp callee, const ModuleCalls &calls,
                        const llvm::DenseMap<Operation *, PlacedTile> &placed,
                        const llvm::DenseMap<Operation *, FrameBases> &bases) {
  FrameBases result;
  auto raise = [&](unsigned space, int64_t base) {
    int64_t &current = result[space];
    current = std::max(current, base);
  };
  for (const CallSite &site : calls.getCallSites(callee)) {
    auto callerBases = bases.find(site.caller);
    if (callerBases != bases.end())
      for (auto [space, base] : callerBases->second)
        raise(space, base);
    func::FuncOp caller = site.caller;
    ProgramPoints points(caller);
    int64_t callBegin = points.begin(site.call), callEnd = points.end(site.call);
    caller.walk([&](AllocOp alloc) {
      auto tile = placed.find(alloc);
      LiveAttr live = alloc.getLiveAttr();
      if (tile == placed.end() || !live)
        return;
      for (size_t i = 0, e = live.getNumIntervals(); i < e; ++i)
        if (live.getLower(i) < callEnd && callBegin < live.getUpper(i))
          return raise(static_cast<unsigned>(tile->second.space),
                       tile->second.end);
    });
  }
  return result;
}

struct DsaPlanAssignOffsetsPass
    : public mlir::dsaplan::impl::DsaPlanAssignOffsetsBase<DsaPlanAssignOffsetsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult placeFunction(func::FuncOp func, const TargetDescription &target,
                              solver::Algorithm algo, const FrameBases &frame);
  FailureOr<FunctionPlacement> importPlacement(func::FuncOp func,
                                               const PlacementProblem &pp);
  FailureOr<FunctionPlacement> solvePlacement(func::FuncOp func,
                                              const TargetDescription &target,
                                              const PlacementProblem &pp,
                                              solver::Algorithm algo,
                                              const FrameBases &frame);
  void report(func::FuncOp func, const TargetDescription &target,
              const PlacementProblem &pp,
              const FunctionPlacement &placement);
  LogicalResult writeReports(func::FuncOp func, const PlacementProblem &pp,
                             const FunctionPlacement &placement);
  void recordStatistics(MemorySpace space, const solver::PoolResult &pool);

  /// The target's cycle estimates with `costs` applied: what the reuse
  /// penalties of objective=waits are counted in.
  CostModel costModel = CostModel::defaults();
  /// The tiles placed so far, for the frames of their functions' callees.
  llvm::DenseMap<Operation *, PlacedTile> placed;
};

void DsaPlanAssignOffsetsPass::runOnOperation() {
  ModuleOp module = getOperation();
  TargetDescription target = TargetDescription::getForOp(module);
  std::string error;
  if (!costModel.applyOverrides(costs, error)) {
    module.emitError() << "dsaplan-assign-offsets: " << error;
    return signalPassFailure();
  }
  // One UB (L1, ...) per core for the whole module: callers are placed
  // first, and each callee above what they keep live across its calls.
  FailureOr<ModuleCalls> calls = ModuleCalls::build(module);
  if (failed(calls))
    return signalPassFailure();
  llvm::DenseMap<Operation *, FrameBases> bases;
  bool failedAny = false;
  for (func::FuncOp func : calls->getCallersFirst()) {
    FrameBases frame = frameBasesOf(func, *calls, placed, bases);
    failedAny |= failed(placeFunction(func, target, algorithm, frame));
    bases[func] = std::move(frame);
  }
  if (failedAny)
    return signalPassFailure();
  // The pass only sets `offset` on dsaplan.allocs, and verifies each one it
  // sets (placeFunction); no analysis reads offsets. The pass manager does
  // not verify the module after a pass that preserves all analyses: that
  // run was 9% of the pipeline's instructions on the 10k-allocation bench
  // kernel.
  markAllAnalysesPreserved();
}

/// Keeps the bytes below `frame` of each space out of `pp`'s pools.
void reserveFrame(PlacementProblem &pp, const FrameBases &frame) {
  for (auto [pool, space] : llvm::enumerate(pp.spaces)) {
    int64_t base = frame.lookup(static_cast<unsigned>(space));
    if (base > 0)
      pp.problem.pools[pool].reserved.push_back({0, base});
  }
}

LogicalResult DsaPlanAssignOffsetsPass::placeFunction(
    func::FuncOp func, const TargetDescription &target,
    solver::Algorithm algo, const FrameBases &frame) {
  FailureOr<PlacementProblem> built = buildPlacementProblem(func, target);
  if (failed(built))
    return failure();
  PlacementProblem &pp = *built;
  if (pp.allocs.empty())
    return success();
  reserveFrame(pp, frame);
  // Exported problems and solutions name the function the same way.
  pp.problem.document.instance = reportInstanceName(func);
  if (objective == PlacementObjective::Waits)
    addReusePenalties(func, pp, target, costModel);

  if (!exportProblem.empty() &&
      failed(writeFunctionFile(
          func, exportProblem, ".json",
          solver::writeSchemaV1Problem(pp.problem, reportInstanceName(func)))))
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
      importSolution.empty() ? solvePlacement(func, target, pp, algo, frame)
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
  for (auto [index, alloc] : llvm::enumerate(pp.allocs)) {
    int64_t offset = placement->offsets[index];
    placed[alloc] = {AllocOp(alloc).getSpace(),
                     offset + pp.problem.buffers[index].size};
    if (mode != AssignMode::Plan)
      continue;
    AllocOp(alloc).setOffset(static_cast<uint64_t>(offset));
    // What the pass manager's verifier would have checked (alignment,
    // capacity), op by op: runOnOperation tells it not to.
    if (failed(verify(alloc, /*verifyRecursively=*/false)))
      return failure();
  }
  return success();
}

FailureOr<FunctionPlacement>
DsaPlanAssignOffsetsPass::solvePlacement(func::FuncOp func,
                                         const TargetDescription &target,
                                         const PlacementProblem &pp,
                                         solver::Algorithm algo,
                                         const FrameBases &frame) {
  solver::SolveOptions options;
  options.algorithm = algo;
  options.nodeBudget = nodeBudget;
  solver::Solution solution = solver::solve(pp.problem, options);
  bool allPlaced = true;
  for (const solver::PoolResult &pool : solution.pools) {
    if (solver::isPlaced(pool.status))
      continue;
    allPlaced = false;
    emitNotPlaced(func, target, pp, pool,
                  frame.lookup(static_cast<unsigned>(pp.spaces[pool.pool])));
  }
  if (!allPlaced) {
    // The JSON report says which pools are infeasible and which gave up.
    if (!reportDir.empty())
      (void)writeFunctionFile(
          func, reportDir, ".json",
          solver::writeReportJson(pp.problem, solution.offsets,
                                  solution.pools, reportInstanceName(func)));
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
    // Under the reuse-cost objective the status is the cost's: the peak
    // only had to fit, and the remarks say so.
    bool reuseCost = pp.problem.objective == solver::Objective::ReuseCost &&
                     solver::isPlaced(pool.status);
    if (bump) {
      int64_t bumpPeak = bump->pools[pool.pool].peak;
      std::string status = solver::poolStatusName(pool.status);
      // Location-based, so that the remark does not print the function.
      mlir::emitRemark(func.getLoc())
                        << "@" << func.getSymName() << " " << name << ": "
                        << pool.buffers << " buffers, peak " << pool.peak
                        << " B vs "
                        << bumpPeak << " B without reuse, lower bound "
                        << pool.lowerBound << " B ("
                        << (reuseCost ? "peak not minimised, reuse cost " +
                                            status
                                      : status)
                        << ")";
    } else if (summary && reuseCost) {
      // Recounted by the validator, not taken from the solver.
      solver::ReuseCostCount count =
          solver::reuseCostOf(pp.problem, placement.offsets, pool.pool);
      mlir::emitRemark(func.getLoc())
          << "@" << func.getSymName() << " " << name << ": " << pool.buffers
          << " buffers, "
          << solver::objectiveSummary(
                 pool, pp.problem.objective, count.cost,
                 std::to_string(count.sharedPairs) +
                     " penalised pairs share bytes")
          << ", capacity " << desc.usableBytes() << " B usable";
    } else if (summary) {
      mlir::emitRemark(func.getLoc())
          << "@" << func.getSymName() << " " << name << ": " << pool.buffers
          << " buffers, peak " << pool.peak << " B, lower bound "
          << pool.lowerBound << " B, capacity " << desc.usableBytes()
          << " B usable, " << solver::poolStatusName(pool.status);
    }
  }
}

LogicalResult DsaPlanAssignOffsetsPass::writeReports(
    func::FuncOp func, const PlacementProblem &pp,
    const FunctionPlacement &placement) {
  std::string instance = reportInstanceName(func);
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
