//===- dsa-solve.cpp - The IR-free solver on schema-v1 JSON and CSV -------===//
//
// Part of dsaplan. Links the solver library only.
//
//===----------------------------------------------------------------------===//
//
//   dsa-solve INPUT [--capacity N] [--algorithm NAME] [--node-budget N]
//             [--minimize-capacity] [--output FILE] [--stats-json FILE]
//             [--svg FILE] [--check SOLUTION]
//
// Exit status: 0 every pool placed within capacity (or, with --check, the
// solution is valid); 1 some pool cannot be placed (or the solution is
// invalid); 2 bad input or usage.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

using namespace dsaplan::solver;

namespace {

constexpr int kPlaced = 0, kNotPlaced = 1, kBadInput = 2;

struct Arguments {
  std::string input, output, statsJson, svg, check;
  int64_t capacity = 0;
  SolveOptions options;
};

bool endsWith(const std::string &text, const char *suffix) {
  size_t n = std::strlen(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

bool readFile(const std::string &path, std::string &text) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return false;
  std::ostringstream contents;
  contents << file.rdbuf();
  text = contents.str();
  return true;
}

bool writeFile(const std::string &path, const std::string &text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  return static_cast<bool>(file);
}

int usage(const char *message) {
  std::fprintf(stderr,
               "dsa-solve: %s\nusage: dsa-solve INPUT [--capacity N] "
               "[--algorithm %s] [--node-budget N] [--minimize-capacity] "
               "[--output FILE] [--stats-json FILE] [--svg FILE] "
               "[--check SOLUTION]\n",
               message, algorithmNames());
  return kBadInput;
}

bool parseInteger(const char *text, int64_t &value) {
  char *end = nullptr;
  long long parsed = std::strtoll(text, &end, 10);
  if (!*text || *end)
    return false;
  value = parsed;
  return true;
}

/// Returns 0 on success, else the exit status.
int parseArguments(int argc, char **argv, Arguments &args) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> const char * {
      return i + 1 < argc ? argv[++i] : nullptr;
    };
    if (flag == "--minimize-capacity") {
      args.options.minimizeCapacity = true;
    } else if (flag == "--capacity" || flag == "--node-budget") {
      const char *text = value();
      int64_t number = 0;
      if (!text || !parseInteger(text, number) || number <= 0)
        return usage((flag + " needs a positive integer").c_str());
      if (flag == "--capacity")
        args.capacity = number;
      else
        args.options.nodeBudget = static_cast<uint64_t>(number);
    } else if (flag == "--algorithm") {
      const char *text = value();
      std::optional<Algorithm> algorithm =
          text ? parseAlgorithm(text) : std::nullopt;
      if (!algorithm)
        return usage("unknown --algorithm");
      args.options.algorithm = *algorithm;
    } else if (flag == "--output" || flag == "--stats-json" ||
               flag == "--svg" || flag == "--check") {
      const char *text = value();
      if (!text)
        return usage((flag + " needs a file").c_str());
      (flag == "--output" ? args.output
       : flag == "--stats-json" ? args.statsJson
       : flag == "--svg"        ? args.svg
                                : args.check) = text;
    } else if (!flag.empty() && flag[0] == '-') {
      return usage(("unknown option " + flag).c_str());
    } else if (args.input.empty()) {
      args.input = flag;
    } else {
      return usage("more than one input");
    }
  }
  return args.input.empty() ? usage("no input") : 0;
}

/// The capacity in a MiniMalloc file name, e.g. A.1048576.csv.
int64_t capacityFromName(const std::string &path) {
  std::smatch match;
  static const std::regex pattern(R"(\.([0-9]+)\.csv$)");
  return std::regex_search(path, match, pattern) ? std::stoll(match[1]) : 0;
}

int loadProblem(const Arguments &args, Problem &problem, Placement &given,
                bool &csv) {
  std::string text;
  if (!readFile(args.input, text)) {
    std::fprintf(stderr, "dsa-solve: %s: cannot read the file\n",
                 args.input.c_str());
    return kBadInput;
  }
  csv = endsWith(args.input, ".csv");
  ReadResult read;
  if (csv) {
    int64_t capacity = args.capacity ? args.capacity : capacityFromName(args.input);
    if (!capacity) {
      std::fprintf(stderr, "dsa-solve: %s: no --capacity and none in the file name\n",
                   args.input.c_str());
      return kBadInput;
    }
    read = readMiniMallocCsv(text, capacity, problem, given);
  } else {
    read = readSchemaV1Problem(text, problem);
    if (read.ok && args.capacity)
      for (Pool &pool : problem.pools)
        pool.capacity = args.capacity;
  }
  if (!read.ok) {
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.input.c_str(),
                 read.error.c_str());
    return kBadInput;
  }
  for (const std::string &note : read.unsupported)
    std::fprintf(stderr, "dsa-solve: %s: warning: unsupported: %s\n",
                 args.input.c_str(), note.c_str());
  std::vector<std::string> problems = checkProblem(problem);
  for (const std::string &message : problems)
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.input.c_str(),
                 message.c_str());
  return problems.empty() ? 0 : kBadInput;
}

/// The solution is in the problem's format: schema-v1 JSON for a JSON
/// problem, MiniMalloc CSV with offsets for a CSV one.
int checkSolution(const Arguments &args, const Problem &problem, bool csv) {
  std::string text;
  Placement placement;
  if (!readFile(args.check, text)) {
    std::fprintf(stderr, "dsa-solve: %s: cannot read the file\n", args.check.c_str());
    return kBadInput;
  }
  ReadResult read = csv ? readMiniMallocSolution(text, problem, placement)
                        : readSchemaV1Solution(text, problem, placement);
  if (!read.ok) {
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.check.c_str(), read.error.c_str());
    return kBadInput;
  }
  std::vector<Violation> violations = validate(problem, placement);
  for (const Violation &violation : violations)
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.check.c_str(),
                 violation.message.c_str());
  for (size_t pool = 0; pool < problem.pools.size(); ++pool) {
    std::printf("pool %s: peak %lld, lower bound %lld", problem.pools[pool].id.c_str(),
                static_cast<long long>(peakOf(problem, placement, pool)),
                static_cast<long long>(lowerBound(problem, pool)));
    if (problem.objective == Objective::ReuseCost) {
      ReuseCostCount count = reuseCostOf(problem, placement, pool);
      std::printf(", reuse cost %lld, shared penalised pairs %zu",
                  static_cast<long long>(count.cost), count.sharedPairs);
    }
    std::printf("\n");
  }
  std::printf("%s: %zu violations\n", args.check.c_str(), violations.size());
  return violations.empty() ? kPlaced : kNotPlaced;
}

std::string buffersText(const Problem &problem, const std::vector<size_t> &buffers) {
  std::string text;
  for (size_t i = 0; i < buffers.size() && i < 16; ++i)
    text += (i ? ", " : "") + problem.buffers[buffers[i]].id + " (" +
            std::to_string(problem.buffers[buffers[i]].size) + " B)";
  if (buffers.size() > 16)
    text += ", ... " + std::to_string(buffers.size() - 16) + " more";
  return text;
}

void printPool(const Problem &problem, const PoolResult &r, double seconds) {
  double gap = r.lowerBound ? 100.0 * (r.peak - r.lowerBound) / r.lowerBound : 0;
  std::printf("pool %-8s buffers %6zu  peak %10lld  lower-bound %10lld  gap %6.2f%%  "
              "nodes %9llu  time %9.3f ms  %s\n",
              problem.pools[r.pool].id.c_str(), r.buffers,
              static_cast<long long>(r.peak), static_cast<long long>(r.lowerBound),
              gap, static_cast<unsigned long long>(r.nodes), seconds * 1000,
              poolStatusName(r.status));
  if (r.status == PoolStatus::Infeasible)
    std::printf("  over capacity %lld by %lld bytes; live at the busiest point: %s\n",
                static_cast<long long>(problem.pools[r.pool].capacity),
                static_cast<long long>(r.overflow),
                buffersText(problem, r.liveAtPeak).c_str());
}

/// Under the reuse-cost objective: the cost as the independent validator
/// recomputes it, the solver's proven bound and the pairs that share bytes.
/// Returns false when the validator and the solver disagree on the cost.
bool printReuseCost(const Problem &problem, const Solution &solution,
                    const PoolResult &r) {
  if (problem.objective != Objective::ReuseCost ||
      r.status == PoolStatus::Infeasible)
    return true;
  ReuseCostCount count = reuseCostOf(problem, solution.offsets, r.pool);
  std::printf("  reuse cost %lld  bound %lld  gap %lld  shared penalised pairs %zu  "
              "cost nodes %llu  %s\n",
              static_cast<long long>(count.cost),
              static_cast<long long>(r.reuseCostBound),
              static_cast<long long>(count.cost - r.reuseCostBound),
              count.sharedPairs,
              static_cast<unsigned long long>(r.reuseCostNodes),
              count.cost <= r.reuseCostBound ? "proven" : "not proven");
  if (count.cost == r.reuseCost)
    return true;
  std::fprintf(stderr,
               "dsa-solve: internal error: pool %s: the solver counts reuse "
               "cost %lld, the validator %lld\n",
               problem.pools[r.pool].id.c_str(),
               static_cast<long long>(r.reuseCost),
               static_cast<long long>(count.cost));
  return false;
}

std::string statsJson(const Problem &problem, const Solution &solution,
                      const Arguments &args, double seconds) {
  std::ostringstream os;
  os << "{\n  \"input\": \"" << args.input << "\",\n  \"algorithm\": \""
     << algorithmName(args.options.algorithm) << "\",\n  \"seconds\": " << seconds
     << ",\n  \"pools\": [";
  for (size_t i = 0; i < solution.pools.size(); ++i) {
    const PoolResult &r = solution.pools[i];
    os << (i ? ",\n" : "\n") << "    {\"pool\": \"" << problem.pools[r.pool].id
       << "\", \"buffers\": " << r.buffers << ", \"peak\": " << r.peak
       << ", \"lower_bound\": " << r.lowerBound << ", \"nodes\": " << r.nodes
       << ", \"status\": \"" << poolStatusName(r.status) << "\"";
    if (problem.objective == Objective::ReuseCost)
      os << ", \"reuse_cost\": " << reuseCostOf(problem, solution.offsets, r.pool).cost
         << ", \"reuse_cost_bound\": " << r.reuseCostBound
         << ", \"shared_penalised_pairs\": " << r.sharedPenaltyPairs
         << ", \"reuse_cost_nodes\": " << r.reuseCostNodes;
    os << "}";
  }
  os << "\n  ]\n}\n";
  return os.str();
}

} // namespace

int main(int argc, char **argv) {
  Arguments args;
  if (int status = parseArguments(argc, argv, args))
    return status;
  Problem problem;
  Placement given;
  bool csv = false;
  if (int status = loadProblem(args, problem, given, csv))
    return status;
  if (!args.check.empty())
    return checkSolution(args, problem, csv);

  auto start = std::chrono::steady_clock::now();
  Solution solution = solve(problem, args.options);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start).count();

  // Nothing is written that the independent validator has not accepted
  // (capacity overflows of infeasible pools aside, which are reported).
  bool placed = true, costsAgree = true;
  for (const PoolResult &r : solution.pools) {
    printPool(problem, r, seconds / std::max<size_t>(1, solution.pools.size()));
    costsAgree &= printReuseCost(problem, solution, r);
    placed &= r.status != PoolStatus::Infeasible;
  }
  if (!costsAgree)
    return kNotPlaced;
  // Pools the solver reports infeasible carry their best attempt, which may
  // break the capacity (or clashing pins); every other pool must be valid.
  std::vector<Violation> violations = validate(problem, solution.offsets);
  for (const Violation &violation : violations)
    if (violation.buffers.empty() ||
        solution.pools[problem.buffers[violation.buffers.front()].pool]
                .status != PoolStatus::Infeasible) {
      std::fprintf(stderr, "dsa-solve: internal error: invalid placement: %s\n",
                   violation.message.c_str());
      return kNotPlaced;
    }
  if (!args.output.empty() && placed &&
      !writeFile(args.output, csv ? writeMiniMallocCsv(problem, solution.offsets)
                                  : writeSchemaV1Solution(problem, solution.offsets))) {
    std::fprintf(stderr, "dsa-solve: %s: cannot write\n", args.output.c_str());
    return kBadInput;
  }
  if (!args.statsJson.empty())
    writeFile(args.statsJson, statsJson(problem, solution, args, seconds));
  if (!args.svg.empty() && !solution.pools.empty())
    writeFile(args.svg, writeMemoryMapSvg(problem, solution.offsets,
                                          solution.pools.front(), args.input));
  return placed ? kPlaced : kNotPlaced;
}
