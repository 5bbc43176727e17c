//===- SolveBindings.cpp - dsaplan.solve: the solver library from Python --===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// `_dsaplan.solve(path, text, options)`: what dsa-solve does between reading
// its input and writing its output, in process, through the same driver
// (DsaPlan/Solver/Driver.h) so that an option means the same in both. It
// returns plain data; dsaplan/__init__.py turns refusals into exceptions.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "DsaPlan/Solver/Driver.h"
#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Validate.h"

#include <array>

namespace py = pybind11;
using namespace dsaplan::solver;

namespace {

py::list bufferIds(const Problem &problem, const std::vector<size_t> &buffers) {
  py::list ids;
  for (size_t buffer : buffers)
    ids.append(problem.buffers[buffer].id);
  return ids;
}

/// One pool's result: objective values, bounds, status and certificate,
/// named as dsa-solve's --stats-json names them.
py::dict poolResult(const Problem &problem, const Solution &solution,
                    const PoolResult &r) {
  const Pool &pool = problem.pools[r.pool];
  py::dict out;
  out["pool"] = pool.id;
  out["name"] = pool.name;
  out["capacity"] = pool.capacity;
  out["buffers"] = r.buffers;
  out["peak"] = r.peak;
  out["lower_bound"] = r.lowerBound;
  out["status"] = poolStatusName(r.status);
  out["proof"] = infeasibilityProofName(r.proof);
  out["certificate"] = bufferIds(problem, r.certificate);
  out["nodes"] = r.nodes;
  if (!isPlaced(r.status)) {
    out["overflow"] = r.overflow;
    out["live_at_peak"] = bufferIds(problem, r.liveAtPeak);
    if (r.proof == InfeasibilityProof::Constraints)
      out["contradiction"] = r.contradiction;
  }
  if (problem.objective == Objective::ReuseCost && isPlaced(r.status)) {
    // Recounted by the validator, as dsa-solve prints it.
    ReuseCostCount count = reuseCostOf(problem, solution.offsets, r.pool);
    out["reuse_cost"] = count.cost;
    out["reuse_cost_bound"] = r.reuseCostBound;
    out["shared_penalised_pairs"] = count.sharedPairs;
    out["reuse_cost_nodes"] = r.reuseCostNodes;
  }
  return out;
}

/// What the validator finds wrong with the placed pools: nothing, unless
/// the solver has a bug (dsa-solve's exit status 4).
py::list internalErrors(const Problem &given, const Problem &problem,
                        const Solution &solution) {
  py::list errors;
  for (const Violation &violation :
       validate(given, solution.offsets, solution.poolOf))
    if (violation.buffers.empty() ||
        violation.kind == Violation::Kind::PoolNotAllowed ||
        isPlaced(solution.pools[problem.buffers[violation.buffers.front()].pool]
                     .status))
      errors.append("invalid placement: " + violation.message);
  for (const PoolResult &r : solution.pools)
    if (problem.objective == Objective::ReuseCost && isPlaced(r.status) &&
        reuseCostOf(problem, solution.offsets, r.pool).cost != r.reuseCost)
      errors.append("pool " + problem.pools[r.pool].id +
                    ": the solver and the validator count different reuse "
                    "costs");
  return errors;
}

py::dict solveText(const std::string &path, const std::string &text,
                   const std::vector<std::array<std::string, 3>> &options) {
  py::dict out;
  DriverOptions driver;
  for (const auto &[name, value, spelled] : options) {
    std::string error = applyDriverOption(name, value, spelled, driver);
    if (!error.empty()) {
      out["option_error"] = error;
      return out;
    }
  }
  LoadedProblem loaded = loadProblem(path, text, driver);
  out["warnings"] = py::cast(loaded.warnings);
  out["errors"] = py::cast(loaded.errors);
  out["csv"] = loaded.csv;
  if (!loaded.errors.empty())
    return out;
  Solution solution;
  {
    py::gil_scoped_release release;
    solution = solve(loaded.problem, driver.solve);
  }
  // Buffers that allow several pools are in the ones the solver chose.
  Problem problem = withPools(loaded.problem, solution.poolOf);
  py::list pools;
  bool placed = true;
  for (const PoolResult &r : solution.pools) {
    pools.append(poolResult(problem, solution, r));
    placed &= isPlaced(r.status);
  }
  out["pools"] = pools;
  out["internal_errors"] = internalErrors(loaded.problem, problem, solution);
  // As dsa-solve writes it: only a solution where every pool is placed.
  if (placed)
    out["solution"] = loaded.csv
                          ? writeMiniMallocCsv(problem, solution.offsets)
                          : writeSchemaV1Solution(problem, solution.offsets);
  if (solution.poolChoices) {
    py::dict choice;
    choice["buffers"] = solution.poolChoices;
    choice["assignments_tried"] = solution.assignmentsTried;
    choice["all_tried"] = solution.allAssignmentsTried;
    out["pool_choice"] = choice;
  }
  return out;
}

} // namespace

void dsaplan::python::defineSolve(py::module_ &module) {
  module.def("solve", &solveText, py::arg("path"), py::arg("text"),
             py::arg("options"),
             "Solves the problem `text` (read from `path`, which may be "
             "empty) with `options`, a list of (name, value, spelling); "
             "returns plain data (see dsaplan.solve).");
  module.def("driver_option_names", &driverOptionNames,
             "The options solve takes, as dsa-solve spells them.");
  module.def("anytime_option_names", &anytimeOptionNames,
             "dsa-solve's options that need a clock or signals, which solve "
             "refuses.");
}
