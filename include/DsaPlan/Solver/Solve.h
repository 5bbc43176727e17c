//===- Solve.h - Placement algorithms and their driver ----------*- C++ -*-===//
//
// Part of dsaplan. The solver layer depends on the C++17 standard library only.
//
//===----------------------------------------------------------------------===//
//
// Entry point of the solver: `solve` places every pool of a Problem with the
// selected algorithm. All algorithms are deterministic; the exact search is
// bounded by a node budget, never by wall-clock time.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_SOLVE_H
#define DSAPLAN_SOLVER_SOLVE_H

#include "DsaPlan/Solver/Problem.h"

#include <optional>
#include <string_view>

namespace dsaplan::solver {

enum class Algorithm {
  Bump,      // "bump": no reuse; the baseline reports compare against
  FirstFit,  // "first-fit": decreasing size, lowest fitting address
  BestFit,   // "best-fit": smallest fitting gap
  MultiStart,// "multi-start": several orderings plus repair; default heuristic
  Exact,     // "exact": branch-and-bound within the node budget
  Auto,      // "auto": heuristics, then exact while above the lower bound
};

/// Parses "bump", "first-fit", "best-fit", "multi-start", "exact", "auto".
std::optional<Algorithm> parseAlgorithm(std::string_view name);
const char *algorithmName(Algorithm algorithm);
/// All names accepted by parseAlgorithm, comma-separated, for help texts.
const char *algorithmNames();

struct SolveOptions {
  Algorithm algorithm = Algorithm::Auto;
  /// Branch-and-bound nodes per pool for Exact and Auto.
  uint64_t nodeBudget = 2'000'000;
  /// Search the smallest peak within the whole budget. Without it, Auto
  /// stops at the first placement within capacity when the heuristics
  /// overflow it, and otherwise spends at most 520,000 nodes: asking whether
  /// the lower bound can be met, then polishing the peak.
  bool minimizeCapacity = false;
  /// Branch-and-bound nodes per pool for the reuse cost (pools of problems
  /// whose objective is Objective::ReuseCost), after the greedy.
  uint64_t reuseCostNodeBudget = 100'000;
};

/// Under Objective::ReuseCost, Optimal and Feasible speak of the reuse cost
/// of a pool that fits (proved minimal or not), not of its peak.
enum class PoolStatus {
  Optimal,    // peak == proven lower bound, or exact search proved it
  Feasible,   // within capacity, optimality not proven
  Infeasible, // no placement within capacity was found
};
const char *poolStatusName(PoolStatus status);

struct PoolResult {
  size_t pool = 0;
  size_t buffers = 0;
  int64_t peak = 0;
  /// Proven lower bound on the peak of any valid placement.
  int64_t lowerBound = 0;
  /// Search nodes spent: the exact search's and multi-start's probes'.
  uint64_t nodes = 0;
  PoolStatus status = PoolStatus::Feasible;
  /// For Infeasible pools: peak - capacity, and the buffers live at the point
  /// where the live bytes are largest (what a diagnostic should name).
  int64_t overflow = 0;
  std::vector<size_t> liveAtPeak;
  /// Under Objective::ReuseCost, for pools that fit: the reuse cost of the
  /// placement, a proven lower bound on the cost of any placement that fits,
  /// the penalised pairs that share bytes, and the nodes of the cost search.
  int64_t reuseCost = 0;
  int64_t reuseCostBound = 0;
  size_t sharedPenaltyPairs = 0;
  uint64_t reuseCostNodes = 0;
};

struct Solution {
  /// Offsets indexed like Problem::buffers. Infeasible pools still carry the
  /// best (over-capacity) placement found, for reports.
  Placement offsets;
  std::vector<PoolResult> pools;
};

/// Places every pool of `problem`. The problem must be well-formed (see
/// checkProblem in Validate.h); behaviour on malformed problems is to return
/// Infeasible pools, never to crash.
Solution solve(const Problem &problem, const SolveOptions &options = {});

/// Lower bound of `pool`: the largest sum of aligned sizes live at one point,
/// strengthened by separations and colocations.
int64_t lowerBound(const Problem &problem, size_t pool);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_SOLVE_H
