//===- MutationTest.cpp - Readers and solver on mutated inputs ------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Inputs as a typo or a hostile file would give them: small valid problems
// (schema-v1 JSON with reuse penalties, colocations, pins, separations and
// reserved ranges; MiniMalloc CSV) with numbers replaced by the values at
// the edges of 64 bits and of the bounds of Problem.h, characters dropped
// and lines repeated, deterministically. Each is read; what reads and passes
// checkProblem is solved with small budgets and validated. Nothing may
// throw, crash or (in the sanitizer suite, scripts/test.sh --sanitize)
// overflow, and every placed pool must validate.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"
#include "TestProblems.h"

#include "gtest/gtest.h"

#include <random>
#include <regex>
#include <string>

using namespace dsaplan::solver;

namespace {

const char *const kJsonSeed = R"({
  "schema_version": 1, "profile": "pypto_research_v1", "instance": "mutation",
  "metadata": {},
  "problem": {
    "pools": [
      {"id": 1, "name": "Vec", "capacity": 4096,
       "reserved_ranges": [{"begin": 3584, "end": 4096}]},
      {"id": 2, "name": "Mat", "capacity": 8192, "reserved_ranges": []}
    ],
    "buffers": [
      {"id": 0, "name": "a", "size": 1024, "alignment": 32,
       "live_intervals": [{"lower": 0, "upper": 4}], "allowed_pools": [1]},
      {"id": 1, "name": "b", "size": 1024, "alignment": 32,
       "live_intervals": [{"lower": 2, "upper": 6}], "allowed_pools": [1, 2]},
      {"id": 2, "name": "c", "size": 512, "alignment": 32,
       "live_intervals": [{"lower": 4, "upper": 8}], "allowed_pools": [1]},
      {"id": 3, "name": "d", "size": 2048, "alignment": 64,
       "live_intervals": [{"lower": 0, "upper": 8}], "allowed_pools": [2]},
      {"id": 4, "name": "e", "size": 2048, "alignment": 64,
       "live_intervals": [{"lower": 8, "upper": 9}], "allowed_pools": [2]},
      {"id": 5, "name": "f", "size": 256, "alignment": 32,
       "live_intervals": [{"lower": 5, "upper": 9}], "allowed_pools": [1]}
    ],
    "constraints": {
      "colocations": [{"first": 2, "second": 5}],
      "separations": [{"first": 3, "second": 4, "reasons": ["pipeline_stage"]}],
      "pinned_allocations": [{"buffer": 3, "pool": 2, "offset": 4096,
                              "exclusive_for_all_time": false}],
      "temporal_exclusions": [{"first": 0, "second": 1}]
    },
    "cost_model": {"reuse_penalties": [
      {"first": 0, "second": 2, "cost": 3, "reason": "cross_pipe"},
      {"first": 1, "second": 2, "cost": 1, "reason": "cross_pipe"},
      {"first": 3, "second": 4, "cost": 2, "reason": "cross_pipe"}
    ]},
    "objective": {"aggregation": "lexicographic",
                  "terms": ["capacity_overflow", "reuse_cost"]}
  }
}
)";

const char *const kCsvSeed = "id,lower,upper,size,alignment\n"
                             "a,0,10,40,8\n"
                             "b,2,12,40,8\n"
                             "c,4,14,40,8\n"
                             "d,20,30,8,8\n"
                             "e,9,21,64,16\n";

/// Numbers a mutation puts in place of one: the edges of 64 bits, of the
/// bounds of Problem.h, and small ones.
const char *const kEdges[] = {
    "0",          "-1",          "1",           "3",
    "2147483648", "4294967296",  "4294967297",  "1099511627776",
    "1099511627777", "1152921504606846976", "4611686018427387904",
    "9223372036854775807", "-9223372036854775808", "18446744073709551616",
    "-1099511627777"};

/// `text` with one random mutation.
std::string mutate(const std::string &text, std::mt19937 &random) {
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(random);
  };
  std::string out = text;
  switch (pick(4)) {
  case 0:
  case 1: { // a number replaced by an edge value
    static const std::regex number("-?[0-9]+");
    std::vector<std::pair<size_t, size_t>> spans;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), number);
         it != std::sregex_iterator(); ++it)
      spans.push_back({static_cast<size_t>(it->position()),
                       static_cast<size_t>(it->length())});
    if (spans.empty())
      return out;
    auto [at, length] = spans[pick(spans.size())];
    return out.replace(at, length, kEdges[pick(std::size(kEdges))]);
  }
  case 2: // a character dropped
    return out.empty() ? out : out.erase(pick(out.size()), 1);
  default: { // a line repeated
    size_t begin = pick(out.size());
    begin = out.rfind('\n', begin);
    begin = begin == std::string::npos ? 0 : begin + 1;
    size_t end = out.find('\n', begin);
    end = end == std::string::npos ? out.size() : end + 1;
    return out.insert(end, out.substr(begin, end - begin));
  }
  }
}

/// Solves `problem` with small budgets; every placed pool must validate.
void solveAndValidate(const Problem &problem, const std::string &input) {
  if (!checkProblem(problem).empty())
    return;
  SolveOptions options;
  options.nodeBudget = 2000;
  options.reuseCostNodeBudget = 2000;
  Solution solution = solve(problem, options);
  Problem chosen = withPools(problem, solution.poolOf);
  for (const Violation &violation :
       validate(problem, solution.offsets, solution.poolOf)) {
    bool placed = !violation.buffers.empty() &&
                  isPlaced(solution.pools[chosen.buffers[violation.buffers
                                                             .front()]
                                              .pool]
                               .status);
    EXPECT_FALSE(placed) << violation.message << "\ninput:\n" << input;
  }
}

void runMutations(const std::string &seed, bool csv, uint32_t rounds) {
  std::mt19937 random(csv ? 4242 : 2424);
  for (uint32_t round = 0; round < rounds; ++round) {
    std::string text = seed;
    for (int k = 0; k < 1 + static_cast<int>(round % 3); ++k)
      text = mutate(text, random);
    Problem problem;
    Placement given;
    try {
      ReadResult read = csv ? readMiniMallocCsv(text, 1024, problem, given)
                            : readSchemaV1Problem(text, problem);
      if (!read.ok) {
        EXPECT_FALSE(read.error.empty()) << text;
        continue;
      }
      solveAndValidate(problem, text);
    } catch (const std::exception &error) {
      ADD_FAILURE() << "round " << round << ": " << error.what() << "\n"
                    << text;
    }
  }
}

TEST(Mutation, SchemaV1ReaderAndSolver) { runMutations(kJsonSeed, false, 1500); }

TEST(Mutation, MiniMallocCsvReaderAndSolver) {
  runMutations(kCsvSeed, true, 1500);
}

} // namespace
