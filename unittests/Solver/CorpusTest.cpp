//===- CorpusTest.cpp - Solve and validate every shared corpus instance ---===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Every schema-v1 problem under shared/corpus/pypto and every MiniMalloc CSV
// under shared/corpus/minimalloc is read, solved by `auto`, `multi-start` and
// `first-fit`, and validated. A pool is called infeasible only with a proof
// (a certificate is checked independently); `auto` never gives up on them;
// a pool not placed may break nothing but the capacity. `auto` is never
// worse than `first-fit`, on PyPTO's pools it reaches the lower bound
// wherever `exact` does, and on PyPTO and PyPTO-Lib kernels it answers
// every pool optimal or infeasible (the issue-16 goal).
//
// The corpus lives outside the repository (DSAPLAN_CORPUS_DIR); when it is
// missing the tests fail, they do not skip.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"

#include "TestProblems.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = DSAPLAN_CORPUS_DIR;

/// Files under `dir` (recursively) ending in `extension`, sorted so that
/// the test reads them in the same order everywhere. Architecture
/// descriptions are not problems.
std::vector<fs::path> filesUnder(const fs::path &dir,
                                 const std::string &extension) {
  std::vector<fs::path> files;
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == extension &&
        entry.path().parent_path().filename() != "architectures")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string contentsOf(const fs::path &path) {
  std::ifstream stream(path);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

/// The capacity in a MiniMalloc file name: `A.1048576.csv` -> 1048576.
int64_t capacityFromName(const fs::path &path) {
  std::string stem = path.stem().string();
  std::string digits = stem.substr(stem.find_last_of('.') + 1);
  return std::stoll(digits);
}

/// Solves `problem` with each algorithm and checks the rules in the file
/// comment; `name` prefixes failures. Returns `auto`'s solution.
Solution solveAndCheck(const std::string &name, const Problem &problem) {
  std::vector<std::string> malformed = checkProblem(problem);
  if (!malformed.empty()) {
    ADD_FAILURE() << name << ": " << malformed.front();
    return {};
  }
  std::vector<int64_t> firstFitPeaks;
  Solution autoSolution;
  for (Algorithm algorithm :
       {Algorithm::FirstFit, Algorithm::MultiStart, Algorithm::Auto}) {
    Solution solution = solveWith(problem, algorithm);
    if (algorithm == Algorithm::Auto)
      autoSolution = solution;
    std::vector<Violation> violations = validate(problem, solution.offsets);
    for (const PoolResult &result : solution.pools) {
      const Pool &pool = problem.pools[result.pool];
      std::string where = name + " pool " + pool.id + " " +
                          algorithmName(algorithm);
      EXPECT_GE(result.peak, result.lowerBound) << where;
      if (algorithm == Algorithm::FirstFit) {
        firstFitPeaks.push_back(result.peak);
      } else if (algorithm == Algorithm::Auto) {
        EXPECT_LE(result.peak, firstFitPeaks[result.pool]) << where;
      }
      if (isPlaced(result.status))
        continue;
      // Heuristics may miss a tight capacity (first fit is 20-30% above the
      // optimum on MiniMalloc's instances) and give up; `auto` searches
      // until it fits, and says "infeasible" only with a proof.
      if (algorithm == Algorithm::Auto) {
        EXPECT_EQ(result.status, PoolStatus::Infeasible) << where;
      }
      if (result.status == PoolStatus::Infeasible) {
        EXPECT_NE(result.proof, InfeasibilityProof::None) << where;
        if (result.proof == InfeasibilityProof::Certificate) {
          EXPECT_GT(result.lowerBound, pool.capacity) << where;
          EXPECT_EQ(checkCertificate(problem, result), "") << where;
        }
      }
      EXPECT_EQ(result.overflow, result.peak - pool.capacity) << where;
      EXPECT_FALSE(result.liveAtPeak.empty()) << where;
    }
    for (const Violation &violation : violations) {
      const PoolResult &result =
          solution.pools[problem.buffers[violation.buffers.front()].pool];
      bool excused = !isPlaced(result.status) &&
                     violation.kind == Violation::Kind::OutOfCapacity;
      EXPECT_TRUE(excused) << name << " " << algorithmName(algorithm) << ": "
                           << violation.message;
    }
  }
  return autoSolution;
}

/// `auto` gives up on the lower bound sooner than `exact` (issue 3: it must
/// still reach it wherever `exact` proves it can be reached).
void expectAutoReachesBoundWhereExactDoes(const std::string &name,
                                          const Problem &problem,
                                          const Solution &autoSolution) {
  Solution exact = solveWith(problem, Algorithm::Exact);
  // A problem solveAndCheck refused has no auto solution to compare.
  ASSERT_EQ(autoSolution.pools.size(), exact.pools.size()) << name;
  for (const PoolResult &result : exact.pools) {
    if (result.peak != result.lowerBound)
      continue;
    const PoolResult &byAuto = autoSolution.pools[result.pool];
    EXPECT_EQ(byAuto.peak, byAuto.lowerBound)
        << name << " pool " << problem.pools[result.pool].id
        << ": exact reaches the lower bound, auto stops at " << byAuto.peak;
  }
}

TEST(Corpus, DirectoryExists) {
  ASSERT_TRUE(fs::is_directory(kCorpus))
      << "the shared corpus is missing: " << kCorpus
      << " (DSAPLAN_CORPUS_DIR); the corpus tests cannot run without it";
}

TEST(Corpus, EveryPyptoProblemSolvesAndValidates) {
  ASSERT_TRUE(fs::is_directory(kCorpus / "pypto"))
      << "missing " << kCorpus / "pypto";
  std::vector<fs::path> files = filesUnder(kCorpus / "pypto", ".json");
  ASSERT_FALSE(files.empty()) << "no schema-v1 problems under " << kCorpus;
  for (const fs::path &file : files) {
    Problem problem;
    ReadResult read = readSchemaV1Problem(contentsOf(file), problem);
    ASSERT_TRUE(read.ok) << file << ": " << read.error;
    Solution byAuto = solveAndCheck(file.string(), problem);
    expectAutoReachesBoundWhereExactDoes(file.string(), problem, byAuto);
    // MiniMalloc's instances lifted to schema-v1 are not kernels: D's
    // optimum is open.
    if (file.parent_path().filename() == "minimalloc-dsa-rp")
      continue;
    // With reuse penalties the status speaks of the reuse cost, proved
    // minimal or not (bench/reuse measures how often): the pool must fit
    // or be proved not to, never be given up on.
    bool costObjective = problem.objective == Objective::ReuseCost;
    for (const PoolResult &result : byAuto.pools) {
      EXPECT_TRUE(result.status == PoolStatus::Optimal ||
                  result.status == PoolStatus::Infeasible ||
                  (costObjective && result.status == PoolStatus::Feasible))
          << file << " pool " << problem.pools[result.pool].id << ": "
          << poolStatusName(result.status) << ", peak " << result.peak
          << ", lower bound " << result.lowerBound;
    }
  }
}

TEST(Corpus, EveryMiniMallocProblemSolvesAndValidates) {
  ASSERT_TRUE(fs::is_directory(kCorpus / "minimalloc"))
      << "missing " << kCorpus / "minimalloc";
  std::vector<fs::path> files = filesUnder(kCorpus / "minimalloc", ".csv");
  ASSERT_FALSE(files.empty()) << "no MiniMalloc CSV under " << kCorpus;
  for (const fs::path &file : files) {
    Problem problem;
    Placement given;
    ReadResult read = readMiniMallocCsv(contentsOf(file),
                                        capacityFromName(file), problem, given);
    ASSERT_TRUE(read.ok) << file << ": " << read.error;
    solveAndCheck(file.string(), problem);
  }
}

} // namespace
