//===- SolutionFuzzer.cpp - libFuzzer target: schema-v1 solutions ---------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the schema-v1 solution reader (`dsa-solve
// --check`) against a fixed problem of two pools, a buffer allowed in both
// and a reuse penalty, then validates and costs whatever it accepts: a
// solution file must never crash the checker, whatever it says.
//
//===----------------------------------------------------------------------===//

#include "FuzzSolve.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const char *kProblem = R"({
  "schema_version": 1,
  "profile": "pypto_research_v1",
  "instance": "fuzz",
  "problem": {
    "pools": [
      {"id": 0, "name": "Vec", "capacity": 4096, "reserved_ranges": [{"begin": 3584, "end": 4096}]},
      {"id": 1, "name": "Mat", "capacity": 8192, "reserved_ranges": []}
    ],
    "buffers": [
      {"id": 0, "name": "a", "size": 1024, "alignment": 32, "allowed_pools": [0], "live_intervals": [{"lower": 0, "upper": 4}]},
      {"id": 1, "name": "b", "size": 2048, "alignment": 64, "allowed_pools": [0, 1], "live_intervals": [{"lower": 2, "upper": 6}]},
      {"id": 2, "name": "c", "size": 512, "alignment": 32, "allowed_pools": [0], "live_intervals": [{"lower": 5, "upper": 9}]}
    ],
    "constraints": {"colocations": [], "pinned_allocations": [], "separations": [], "temporal_exclusions": []},
    "cost_model": {"reuse_penalties": [{"first": 0, "second": 2, "cost": 3, "reason": "cross_pipe"}]},
    "objective": {"aggregation": "lexicographic", "terms": ["capacity_overflow", "reuse_cost"]}
  }
})";

const dsaplan::solver::Problem &problem() {
  static const dsaplan::solver::Problem loaded = [] {
    dsaplan::solver::LoadedProblem result = dsaplan::solver::loadProblem(
        "fuzz.json", kProblem, dsaplan::solver::DriverOptions{});
    if (!result.errors.empty())
      dsaplan::fuzz::fail("the fixed problem does not load",
                          result.errors.front());
    return result.problem;
  }();
  return loaded;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace dsaplan::solver;
  std::string text(reinterpret_cast<const char *>(data), size);
  Placement placement;
  std::vector<size_t> poolOf;
  ReadResult read = readSchemaV1Solution(text, problem(), placement, &poolOf);
  if (!read.ok)
    return 0;
  std::vector<Violation> violations = validate(problem(), placement, poolOf);
  if (violations.empty()) {
    Problem chosen = withPools(problem(), poolOf);
    for (size_t pool = 0; pool < chosen.pools.size(); ++pool)
      (void)reuseCostOf(chosen, placement, pool);
  }
  return 0;
}
