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

#include <atomic>
#include <functional>
#include <optional>
#include <string>
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

/// How far the solver has got with one pool, for a progress display
/// (SolveOptions::progress).
struct SolveProgress {
  /// What the search works on: the peak (a fit, or the smallest peak), or,
  /// once the pool fits, its reuse cost (Objective::ReuseCost).
  enum class Phase { Peak, ReuseCost };
  size_t pool = 0;
  Phase phase = Phase::Peak;
  /// The best peak (Phase::Peak) or reuse cost found so far; -1: none yet.
  int64_t incumbent = -1;
  /// A proven lower bound on the same.
  int64_t bound = 0;
  /// Search nodes spent on this pool so far (both phases).
  uint64_t nodes = 0;
};

struct SolveOptions {
  Algorithm algorithm = Algorithm::Auto;
  /// Search nodes per pool for every algorithm that searches: the exact
  /// search (Exact, Auto) and the target probes of MultiStart and Auto.
  /// When it runs out before a placement within capacity is found, the pool
  /// is GaveUp, never Infeasible.
  uint64_t nodeBudget = 2'000'000;
  /// Search the smallest peak within the whole budget. Without it, Auto
  /// stops at the first placement within capacity when the heuristics
  /// overflow it, and otherwise spends at most 520,000 nodes: asking whether
  /// the lower bound can be met, then polishing the peak.
  bool minimizeCapacity = false;
  /// Branch-and-bound nodes per pool for the reuse cost (pools of problems
  /// whose objective is Objective::ReuseCost), after the greedy.
  uint64_t reuseCostNodeBudget = 250'000;
  /// Pool assignments tried when buffers allow several pools: all of them
  /// when there are at most this many, else a descent from the first
  /// allowed pools that evaluates at most this many.
  uint64_t assignmentBudget = 256;
  /// Anytime control, opt-in (null: off). Once `*stop` is true, every search
  /// ends at its next node as if its budget were spent: each pool keeps the
  /// best placement found so far (the heuristics still run, so every pool
  /// has one), and its status says only what was proved before (a pool that
  /// fits is Feasible unless already proved Optimal; one that does not is
  /// GaveUp, never Infeasible without a proof). The results then depend on
  /// when the flag was set; while it stays false they are deterministic. A
  /// signal handler may set it (the flag is lock-free).
  const std::atomic<bool> *stop = nullptr;
  /// Called on the solving thread at the start of each phase of a pool's
  /// search and every kProgressNodes nodes of it (throttling by time is the
  /// caller's business: the solver reads no clock).
  std::function<void(const SolveProgress &)> progress;
  static constexpr uint64_t kProgressNodes = 1 << 14;
};

/// What is known about a pool after solving: one of four honest answers.
/// Under Objective::ReuseCost, Optimal and Feasible speak of the reuse cost
/// of a pool that fits (proved minimal or not), not of its peak.
enum class PoolStatus {
  Optimal,    // within capacity, and peak == a proven lower bound
  Feasible,   // within capacity; the gap to the lower bound is open
  Infeasible, // proved: no valid placement exists (see PoolResult::proof)
  GaveUp,     // no placement within capacity found, and no proof that none
              // exists: the node budget ran out, or the algorithm does not
              // search
};
const char *poolStatusName(PoolStatus status);

/// Why an Infeasible pool has no valid placement.
enum class InfeasibilityProof {
  None,        // the pool is not Infeasible
  Certificate, // PoolResult::certificate: buffers that pairwise may not share
               // bytes (live together or separated) and, with the reserved
               // ranges and pins, need lowerBound > capacity bytes
  Search,      // the exact search exhausted every placement within capacity
  Constraints, // the constraints contradict each other (see `contradiction`)
};
const char *infeasibilityProofName(InfeasibilityProof proof);

struct PoolResult {
  size_t pool = 0;
  size_t buffers = 0;
  int64_t peak = 0;
  /// Proven lower bound on the peak of any valid placement.
  int64_t lowerBound = 0;
  /// The proof of `lowerBound`: buffers (indices into Problem::buffers) that
  /// pairwise may not share bytes; sorted. For a pool whose bound exceeds
  /// the capacity, the certificate of infeasibility.
  std::vector<size_t> certificate;
  /// Search nodes spent: the exact search's and multi-start's probes'.
  uint64_t nodes = 0;
  PoolStatus status = PoolStatus::Feasible;
  InfeasibilityProof proof = InfeasibilityProof::None;
  /// For InfeasibilityProof::Constraints: which constraints contradict.
  std::string contradiction;
  /// For Infeasible and GaveUp pools: peak - capacity of the best (over
  /// capacity) placement found, and the buffers live at the point where the
  /// live bytes are largest (what a diagnostic should name).
  int64_t overflow = 0;
  std::vector<size_t> liveAtPeak;
  /// Under Objective::ReuseCost, for pools that fit: the reuse cost of the
  /// placement, a proven lower bound on the cost of any placement that fits,
  /// the penalised pairs that share bytes, and the nodes of the cost search.
  int64_t reuseCost = 0;
  int64_t reuseCostBound = 0;
  size_t sharedPenaltyPairs = 0;
  uint64_t reuseCostNodes = 0;
  /// Whether SolveOptions::stop cut a search of this pool short.
  bool stopped = false;
};

/// Whether a pool has a placement within capacity (Optimal or Feasible).
inline bool isPlaced(PoolStatus status) {
  return status == PoolStatus::Optimal || status == PoolStatus::Feasible;
}

struct Solution {
  /// Offsets indexed like Problem::buffers. Pools that are not placed still
  /// carry the best (over-capacity) placement found, for reports.
  Placement offsets;
  std::vector<PoolResult> pools;
  /// The pool of each buffer (indexed like Problem::buffers): its only one,
  /// or the one chosen among its allowed pools. The pool results speak of
  /// the buffers in each pool under this choice.
  std::vector<size_t> poolOf;
  /// Buffers (colocated groups count once) that allow several pools, the
  /// assignments tried for them, and whether those were all there are.
  size_t poolChoices = 0;
  uint64_t assignmentsTried = 0;
  bool allAssignmentsTried = true;
  /// Whether SolveOptions::stop cut some search short.
  bool stopped = false;
};

/// Places every pool of `problem`, choosing a pool for every buffer that
/// allows several: first so that every pool fits, then (Objective::ReuseCost)
/// for the lowest total reuse cost, then for the lowest sum of peaks. A pool
/// stays Infeasible under a choice only when no other choice could help
/// (its proof involves no buffer that may move, or every assignment was
/// tried and each left some pool proved infeasible); else it is GaveUp.
/// The problem must be well-formed (see
/// checkProblem in Validate.h); behaviour on malformed problems is to return
/// GaveUp pools, never to crash.
Solution solve(const Problem &problem, const SolveOptions &options = {});

/// Lower bound of `pool`: the height of the heaviest set of buffers that
/// pairwise may not share bytes (live together or separated; colocated
/// buffers count once), around the reserved ranges and pins.
int64_t lowerBound(const Problem &problem, size_t pool);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_SOLVE_H
