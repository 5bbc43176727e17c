//===- Driver.h - What every front end of the solver shares -----*- C++ -*-===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The steps between "a user gave us a problem and some options" and
// `solve`: option values from text, the input format, capacities from the
// command line or a MiniMalloc file name, and the checks of the problem.
// dsa-solve and the Python module (`dsaplan.solve`) both go through here, so
// that an option means the same and a bad one is refused with the same words
// in both.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_DRIVER_H
#define DSAPLAN_SOLVER_DRIVER_H

#include "DsaPlan/Solver/Problem.h"
#include "DsaPlan/Solver/Solve.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dsaplan::solver {

/// The solving options of a front end: SolveOptions and capacities.
struct DriverOptions {
  SolveOptions solve;
  /// A bare capacity (the only pool's), and capacities by pool id or name.
  int64_t capacity = 0;
  std::vector<std::pair<std::string, int64_t>> poolCapacities;
  /// How the capacity option is spelled in messages about capacities.
  std::string capacitySpelling = "--capacity";
  /// Anytime control (anytimeOptionNames), carried out by the front end:
  /// the library reads no clock and takes no signal. The time limit in
  /// seconds (0: none); when progress goes to stderr ("auto": when it is a
  /// terminal, "always", "never"), and the seconds between two lines.
  double timeLimit = 0;
  std::string progress = "auto";
  double progressInterval = 1;
};

/// The names applyDriverOption takes for any front end: capacity,
/// algorithm, node-budget, cost-node-budget, minimize-capacity.
const std::vector<std::string> &driverOptionNames();

/// The names applyDriverOption also takes for a front end that has a clock
/// and signals (dsa-solve): time-limit, progress, progress-interval. The
/// Python module refuses them.
const std::vector<std::string> &anytimeOptionNames();

/// Applies option `name` (one of driverOptionNames or anytimeOptionNames)
/// with `value` ("" for the flag minimize-capacity; "true"/"false" are
/// accepted for it too).
/// Returns "" on success, else why not, naming the option as `spelled`
/// ("--node-budget" on a command line, "node_budget" in Python).
std::string applyDriverOption(const std::string &name,
                              const std::string &value,
                              const std::string &spelled,
                              DriverOptions &options);

/// A problem read from text, ready to solve.
struct LoadedProblem {
  Problem problem;
  /// Offsets given in a MiniMalloc file (kUnplaced where absent).
  Placement given;
  bool csv = false;
  /// Fields read but not honoured by the solver ("unsupported: ...").
  std::vector<std::string> warnings;
  /// Why the problem cannot be solved, one message each; empty when it can.
  std::vector<std::string> errors;
};

/// Whether `text` read from `path` is MiniMalloc CSV: by the name (.csv),
/// or, for standard input ("-") or no name (""), by its first character
/// (JSON starts with '{').
bool isMiniMallocCsv(const std::string &path, const std::string &text);

/// The capacity in a MiniMalloc file name, e.g. A.1048576.csv; 0 if none
/// (or too many digits for 64 bits: checkProblem bounds the rest).
int64_t capacityFromName(const std::string &path);

/// Reads `text` (schema-v1 JSON or MiniMalloc CSV, see isMiniMallocCsv;
/// `path` only names it), applies the capacities of `options` and checks
/// the problem (checkProblem).
LoadedProblem loadProblem(const std::string &path, const std::string &text,
                          const DriverOptions &options);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_DRIVER_H
