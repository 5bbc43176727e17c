//===- Validate.h - Independent checks of problems and placements -*- C++ -*-===//
//
// Part of dsaplan. The solver layer depends on the C++17 standard library only.
//
//===----------------------------------------------------------------------===//
//
// The validator shares no placement logic with the algorithms: it checks a
// placement against the definition in Problem.h pair by pair, and reports
// every violation with the buffers involved, not just the first.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_VALIDATE_H
#define DSAPLAN_SOLVER_VALIDATE_H

#include "DsaPlan/Solver/Problem.h"

#include <string>
#include <vector>

namespace dsaplan::solver {

struct Violation {
  enum class Kind {
    Unplaced,
    Misaligned,
    OutOfCapacity,
    InReservedRange,
    Overlap,
    Separation,
    Colocation,
    Pin,
    ExclusivePin,
    PoolNotAllowed,
  };
  Kind kind;
  std::vector<size_t> buffers; // indices into Problem::buffers
  std::string message;         // names buffers by id, gives the numbers
};

/// Every violation of `placement` against `problem` (empty when valid).
std::vector<Violation> validate(const Problem &problem,
                                const Placement &placement);

/// Every violation of a solution that also chooses the pools: `poolOf`
/// (indexed like Problem::buffers) must name an allowed pool of every
/// buffer, and then `placement` must be valid with the buffers in them.
std::vector<Violation> validate(const Problem &problem,
                                const Placement &placement,
                                const std::vector<size_t> &poolOf);

/// The reuse cost of `pool` under `placement`, recomputed pair by pair from
/// the definition in Problem.h (no solver code involved): the summed cost of
/// the charged penalties and how many penalised pairs share bytes.
struct ReuseCostCount {
  int64_t cost = 0;
  size_t sharedPairs = 0;
};
ReuseCostCount reuseCostOf(const Problem &problem, const Placement &placement,
                           size_t pool);

/// Problems in the problem itself (zero/negative size, bad alignment, empty
/// or unsorted intervals, bad pool index, constraint on an unknown buffer, a
/// buffer larger than its pool). Each message names the buffer by id.
std::vector<std::string> checkProblem(const Problem &problem);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_VALIDATE_H
