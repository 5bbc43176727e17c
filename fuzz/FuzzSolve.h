//===- FuzzSolve.h - What every reader fuzz target does with a problem ---===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// A problem the reader accepted must be safe all the way down: solved with
// small budgets, validated, and its solution written and read back to the
// same offsets. Anything else (an overflow, a crash, a solution the reader
// refuses or the validator rejects) aborts, which libFuzzer reports.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_FUZZ_FUZZSOLVE_H
#define DSAPLAN_FUZZ_FUZZSOLVE_H

#include "DsaPlan/Solver/Driver.h"
#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <cstdio>
#include <cstdlib>

namespace dsaplan::fuzz {

/// Problems larger than this are only read: solving them is not what the
/// targets are after, and it would slow every run.
constexpr size_t kMaxSolvedBuffers = 48;

[[noreturn]] inline void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// Solves `loaded` (when it is small and has no errors), validates the
/// placement and round-trips the solution through its writer and reader.
inline void solveAndRoundTrip(const solver::LoadedProblem &loaded) {
  using namespace solver;
  if (!loaded.errors.empty() ||
      loaded.problem.buffers.size() > kMaxSolvedBuffers)
    return;
  SolveOptions options;
  options.nodeBudget = 2000;
  options.reuseCostNodeBudget = 2000;
  options.assignmentBudget = 8;
  Solution solution = solve(loaded.problem, options);
  bool placed = true;
  for (const PoolResult &pool : solution.pools)
    placed = placed && isPlaced(pool.status);
  if (!placed)
    return;
  Problem chosen = withPools(loaded.problem, solution.poolOf);
  if (!validate(chosen, solution.offsets).empty())
    fail("the validator rejects the solver's placement", "");
  Placement back;
  ReadResult read;
  if (loaded.csv) {
    read = readMiniMallocSolution(writeMiniMallocCsv(chosen, solution.offsets),
                                  chosen, back);
  } else {
    read = readSchemaV1Solution(writeSchemaV1Solution(chosen, solution.offsets),
                                chosen, back);
  }
  if (!read.ok)
    fail("the reader refuses the solution written", read.error);
  if (back != solution.offsets)
    fail("the solution read back differs", "");
}

} // namespace dsaplan::fuzz

#endif // DSAPLAN_FUZZ_FUZZSOLVE_H
