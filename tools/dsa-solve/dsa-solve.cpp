//===- dsa-solve.cpp - The IR-free solver on schema-v1 JSON and CSV -------===//
//
// Part of dsaplan. Links the solver library only.
//
//===----------------------------------------------------------------------===//
//
// Reads a problem (schema-v1 JSON, or MiniMalloc CSV), places every pool,
// validates the placement independently, prints one status line per pool
// and writes the solution. `dsa-solve --help` lists the options and the exit
// statuses (kUsage below is the single source of that text).
//
//===----------------------------------------------------------------------===//

#include "Anytime.h"
#include "CommandLine.h"

#include "DsaPlan/Solver/Driver.h"
#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

#ifndef DSAPLAN_VERSION
#define DSAPLAN_VERSION "unknown"
#endif

using namespace dsaplan::solver;

namespace {

/// Exit statuses, documented in --help and docs/solver.md.
constexpr int kPlaced = 0, kInfeasible = 1, kBadInput = 2, kGaveUp = 3,
              kInternalError = 4;

struct Arguments {
  std::string input, output, statsJson, svg, check;
  /// The solving options and capacities (shared with the Python module).
  DriverOptions driver;
};

const std::vector<dsaplan::cli::OptionSpec> &optionSpecs() {
  static const std::vector<dsaplan::cli::OptionSpec> specs = {
      {"capacity", 0, true, "[POOL=]BYTES",
       "capacity of POOL (its id or name; repeatable); a bare number sets "
       "the only pool's"},
      {"algorithm", 0, true, "NAME", "placement algorithm (default auto)"},
      {"node-budget", 0, true, "N",
       "search nodes per pool for every algorithm that searches"},
      {"cost-node-budget", 0, true, "N",
       "branch-and-bound nodes per pool for the reuse cost (default "
       "250000)"},
      {"minimize-capacity", 0, false, "",
       "spend the whole budget on the smallest peak"},
      {"time-limit", 0, true, "SECONDS",
       "stop searching after SECONDS (wall clock) and keep the best found; "
       "off by default (budgets are nodes, so results are deterministic)"},
      {"progress", 0, true, "WHEN",
       "per-pool progress on stderr: auto (when stderr is a terminal; the "
       "default), always or never"},
      {"progress-interval", 0, true, "SECONDS",
       "the first progress line after SECONDS, then at most one per SECONDS "
       "(default 1)"},
      {"output", 'o', true, "FILE", "write the solution (- for stdout)"},
      {"stats-json", 0, true, "FILE", "write per-pool statistics as JSON"},
      {"svg", 0, true, "FILE",
       "write a memory map per pool (FILE, or FILE with .POOL before .svg "
       "when there are several pools)"},
      {"check", 0, true, "SOLUTION", "validate SOLUTION instead of solving"},
      {"help", 'h', false, "", "print this help and exit"},
      {"version", 0, false, "", "print the version and exit"},
  };
  return specs;
}

void printHelp() {
  std::printf(
      "usage: dsa-solve [options] INPUT\n\n"
      "Places the buffers of INPUT (schema-v1 JSON, or MiniMalloc CSV\n"
      "id,lower,upper,size[,alignment]; - reads standard input) at fixed\n"
      "offsets, validates the placement and prints one line per pool.\n"
      "A CSV problem's capacity comes from --capacity or its file name\n"
      "(NAME.CAPACITY.csv). A buffer that allows several pools is put in\n"
      "one of them (fit first, then reuse cost, then the sum of peaks); a\n"
      "'pool choice:' line then says how many assignments were tried, and\n"
      "the solution names each buffer's pool.\n\noptions:\n%s\n"
      "algorithms: %s\n\n"
      "pool status (last word of each pool line), of the pool's objective:\n"
      "  optimal      placed within capacity, and the objective proved minimal:\n"
      "               the peak equals a proven lower bound, or, for a problem\n"
      "               whose objective is the reuse cost, the reuse cost does\n"
      "               (the peak then only has to fit: the line under the pool\n"
      "               gives each objective its own status, e.g. 'reuse cost 0\n"
      "               (optimal, bound 0, ...); peak 163904 B (not minimised,\n"
      "               least 98304 B)')\n"
      "  feasible     placed within capacity, the objective not proved minimal\n"
      "  infeasible   proved: no valid placement exists (the next line gives\n"
      "               the certificate, or says the search was exhaustive)\n"
      "  gave-up      no placement within capacity found and none proved\n"
      "               impossible (budget spent, or the algorithm does not\n"
      "               search): try --node-budget or another --algorithm\n\n"
      "exit status:\n"
      "  0  every pool placed (with --check: the solution is valid)\n"
      "  1  some pool is proved infeasible (with --check: the solution is "
      "invalid)\n"
      "  2  bad usage, unreadable or malformed input, or a write failure\n"
      "  3  no pool infeasible, but some pool gave up\n"
      "  4  internal error: the independent validator rejected the solver's\n"
      "     placement or reuse cost (a bug; please report it)\n"
      "  130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM: the searches ended\n"
      "     early, each pool keeps its best placement and a status that says\n"
      "     only what was proved, and the solution is written when every pool\n"
      "     is placed (a second signal ends the process at once)\n\n"
      "--time-limit stops the searches the same way but exits 0, 1 or 3 as\n"
      "after a spent node budget; a line 'stopped: ...' says that it did.\n",
      dsaplan::cli::describeOptions(optionSpecs()).c_str(), algorithmNames());
}

bool endsWith(const std::string &text, const char *suffix) {
  size_t n = std::strlen(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

/// Reads `path` ("-": standard input) into `text`; on failure prints why.
bool readFile(const std::string &path, std::string &text) {
  std::ostringstream contents;
  if (path == "-") {
    contents << std::cin.rdbuf();
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "dsa-solve: %s: cannot read the file: %s\n",
                   path.c_str(), std::strerror(errno));
      return false;
    }
    contents << file.rdbuf();
  }
  text = contents.str();
  return true;
}

/// Writes `text` to `path` ("-": standard output), creating its directory;
/// on failure prints why.
bool writeFile(const std::string &path, const std::string &text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) == 0 && !std::ferror(stdout))
      return true;
  } else {
    // Like report-dir, an output path's missing directories are created.
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
      std::filesystem::create_directories(parent, ec);
    if (ec) {
      std::fprintf(stderr, "dsa-solve: %s: cannot create the directory '%s': %s\n",
                   path.c_str(), parent.c_str(), ec.message().c_str());
      return false;
    }
    std::ofstream file(path, std::ios::binary);
    file << text;
    file.close();
    if (file)
      return true;
  }
  std::fprintf(stderr, "dsa-solve: %s: cannot write the file: %s\n",
               path.c_str(), errno ? std::strerror(errno) : "write failed");
  return false;
}

int usageError(const std::string &message) {
  std::fprintf(stderr,
               "dsa-solve: %s\nusage: dsa-solve [options] INPUT "
               "(dsa-solve --help for more)\n",
               message.c_str());
  return kBadInput;
}

/// Returns -1 to go on, else the exit status (after --help, --version or an
/// error).
int parseArguments(int argc, char **argv, Arguments &args) {
  dsaplan::cli::ParsedCommandLine parsed =
      dsaplan::cli::parseCommandLine(argc, argv, optionSpecs());
  if (!parsed.error.empty())
    return usageError(parsed.error);
  for (const dsaplan::cli::ParsedOption &option : parsed.options) {
    if (option.name == "help") {
      printHelp();
      return kPlaced;
    }
    if (option.name == "version") {
      std::printf("dsa-solve (dsaplan) %s\n", DSAPLAN_VERSION);
      return kPlaced;
    }
  }
  for (const dsaplan::cli::ParsedOption &option : parsed.options) {
    if (option.name == "output" || option.name == "stats-json" ||
        option.name == "svg" || option.name == "check") {
      (option.name == "output"       ? args.output
       : option.name == "stats-json" ? args.statsJson
       : option.name == "svg"        ? args.svg
                                     : args.check) = option.value;
      continue;
    }
    std::string message = applyDriverOption(option.name, option.value,
                                            "--" + option.name, args.driver);
    if (!message.empty())
      return usageError(message);
  }
  if (parsed.positionals.empty())
    return usageError("no input");
  if (parsed.positionals.size() > 1)
    return usageError("more than one input: '" + parsed.positionals[1] + "'");
  args.input = parsed.positionals.front();
  if (args.input == "-" && args.check == "-")
    return usageError("the input and --check cannot both be standard input");
  return -1;
}

int loadInput(const Arguments &args, LoadedProblem &loaded) {
  std::string text;
  if (!readFile(args.input, text))
    return kBadInput;
  loaded = loadProblem(args.input, text, args.driver);
  for (const std::string &warning : loaded.warnings)
    std::fprintf(stderr, "dsa-solve: %s: warning: %s\n", args.input.c_str(),
                 warning.c_str());
  for (const std::string &message : loaded.errors)
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.input.c_str(),
                 message.c_str());
  return loaded.errors.empty() ? 0 : kBadInput;
}

/// The solution is in the problem's format: schema-v1 JSON for a JSON
/// problem, MiniMalloc CSV with offsets for a CSV one.
int checkSolution(const Arguments &args, const Problem &given, bool csv) {
  std::string text;
  Placement placement;
  std::vector<size_t> poolOf;
  if (!readFile(args.check, text))
    return kBadInput;
  ReadResult read = csv ? readMiniMallocSolution(text, given, placement)
                        : readSchemaV1Solution(text, given, placement, &poolOf);
  if (!read.ok) {
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.check.c_str(), read.error.c_str());
    return kBadInput;
  }
  if (csv)
    poolOf.assign(given.buffers.size(), 0);
  std::vector<Violation> violations = validate(given, placement, poolOf);
  for (const Violation &violation : violations)
    std::fprintf(stderr, "dsa-solve: %s: %s\n", args.check.c_str(),
                 violation.message.c_str());
  // The pools as the solution chose them (where a buffer allows several).
  Problem problem = withPools(given, poolOf);
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
  return violations.empty() ? kPlaced : kInfeasible;
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

/// The line under a pool that is not placed: why, and what to try.
void printWhyNotPlaced(FILE *out, const Problem &problem, const PoolResult &r) {
  long long capacity = problem.pools[r.pool].capacity;
  switch (r.proof) {
  case InfeasibilityProof::Certificate:
    std::fprintf(out,
                 "  infeasible (certificate: %zu buffers that may not share "
                 "bytes need %lld B > capacity %lld B): %s\n",
                 r.certificate.size(), static_cast<long long>(r.lowerBound),
                 capacity, buffersText(problem, r.certificate).c_str());
    return;
  case InfeasibilityProof::Search:
    std::fprintf(out,
                 "  infeasible (exhaustive search: no placement within "
                 "capacity %lld B, %llu nodes); best peak over by %lld B\n",
                 capacity, static_cast<unsigned long long>(r.nodes),
                 static_cast<long long>(r.overflow));
    return;
  case InfeasibilityProof::Constraints:
    std::fprintf(out, "  infeasible (contradicting constraints: %s)\n",
                 r.contradiction.c_str());
    return;
  case InfeasibilityProof::None:
    break;
  }
  std::fprintf(out,
               "  gave up after %llu nodes: best peak over capacity %lld by "
               "%lld B, lower bound %lld B fits (not proved infeasible; try a "
               "larger --node-budget or --algorithm auto); live at the "
               "busiest point: %s\n",
               static_cast<unsigned long long>(r.nodes), capacity,
               static_cast<long long>(r.overflow),
               static_cast<long long>(r.lowerBound),
               buffersText(problem, r.liveAtPeak).c_str());
}

void printPool(FILE *out, const Problem &problem, const PoolResult &r,
               double seconds) {
  double gap = r.lowerBound ? 100.0 * (r.peak - r.lowerBound) / r.lowerBound : 0;
  std::fprintf(out,
               "pool %-8s buffers %6zu  peak %10lld  lower-bound %10lld  gap "
               "%6.2f%%  nodes %9llu  time %9.3f ms  %s\n",
               problem.pools[r.pool].id.c_str(), r.buffers,
               static_cast<long long>(r.peak),
               static_cast<long long>(r.lowerBound), gap,
               static_cast<unsigned long long>(r.nodes), seconds * 1000,
               poolStatusName(r.status));
  if (!isPlaced(r.status))
    printWhyNotPlaced(out, problem, r);
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// Under the reuse-cost objective: the cost as the independent validator
/// recomputes it, the solver's proven bound and the pairs that share bytes.
/// Returns false when the validator and the solver disagree on the cost.
bool printReuseCost(FILE *out, const Problem &problem,
                    const Solution &solution, const PoolResult &r) {
  if (problem.objective != Objective::ReuseCost || !isPlaced(r.status))
    return true;
  ReuseCostCount count = reuseCostOf(problem, solution.offsets, r.pool);
  std::string detail =
      "gap " + std::to_string(count.cost - r.reuseCostBound) + ", " +
      std::to_string(count.sharedPairs) + " penalised pairs share bytes, " +
      std::to_string(r.reuseCostNodes) + " cost nodes";
  std::fprintf(out, "  %s\n",
               objectiveSummary(r, problem.objective, count.cost, detail)
                   .c_str());
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
  int signal = dsaplan::cli::stopSignal();
  const char *stopped = !solution.stopped   ? "null"
                        : signal == SIGINT  ? "\"SIGINT\""
                        : signal == SIGTERM ? "\"SIGTERM\""
                                            : "\"time-limit\"";
  // docs/schemas/solve-stats.json is the schema of this version.
  os << "{\n  \"schema_version\": 1,\n  \"input\": " << jsonString(args.input)
     << ",\n  \"algorithm\": \""
     << algorithmName(args.driver.solve.algorithm) << "\",\n  \"seconds\": " << seconds
     << ",\n  \"stopped\": " << stopped << ",\n  \"pools\": [";
  for (size_t i = 0; i < solution.pools.size(); ++i) {
    const PoolResult &r = solution.pools[i];
    os << (i ? ",\n" : "\n") << "    {\"pool\": "
       << jsonString(problem.pools[r.pool].id) << ", \"buffers\": " << r.buffers
       << ", \"peak\": " << r.peak << ", \"lower_bound\": " << r.lowerBound
       << ", \"nodes\": " << r.nodes << ", \"status\": \""
       << poolStatusName(r.status) << "\"";
    // Under the reuse-cost objective `status` is the cost's: the peak only
    // had to fit.
    if (problem.objective == Objective::ReuseCost && isPlaced(r.status))
      os << ", \"reuse_cost_status\": \"" << poolStatusName(r.status)
         << "\", \"peak_status\": \"not minimised\"";
    if (r.status == PoolStatus::Infeasible)
      os << ", \"proof\": \"" << infeasibilityProofName(r.proof) << "\"";
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

/// The SVG file of `pool`: `path` itself for a one-pool problem, else
/// `path` with ".<pool id>" before its ".svg".
std::string svgPathFor(const std::string &path, const Problem &problem,
                       size_t pool) {
  if (problem.pools.size() == 1 || path == "-")
    return path;
  std::string stem = endsWith(path, ".svg") ? path.substr(0, path.size() - 4)
                                            : path;
  return stem + "." + problem.pools[pool].id + ".svg";
}

/// Writes the requested reports; returns false after a write failure.
bool writeReports(const Arguments &args, const Problem &problem,
                  const Solution &solution, double seconds) {
  bool ok = true;
  if (!args.statsJson.empty())
    ok &= writeFile(args.statsJson, statsJson(problem, solution, args, seconds));
  if (!args.svg.empty())
    for (const PoolResult &pool : solution.pools)
      ok &= writeFile(svgPathFor(args.svg, problem, pool.pool),
                      writeMemoryMapSvg(problem, solution.offsets, pool,
                                        args.input + " - " +
                                            problem.pools[pool.pool].id));
  return ok;
}

/// Sets up the anytime side of the solve: the stop handlers, the time
/// limit and the progress printer. Returns 0, or the exit status after a
/// failure to arm the timer.
int startAnytime(Arguments &args, const Problem &problem,
                 std::chrono::steady_clock::time_point start) {
  DriverOptions &driver = args.driver;
  dsaplan::cli::installStopHandlers();
  driver.solve.stop = &dsaplan::cli::stopFlag();
  if (driver.timeLimit > 0 && !dsaplan::cli::armTimeLimit(driver.timeLimit)) {
    std::fprintf(stderr, "dsa-solve: cannot arm the --time-limit timer: %s\n",
                 std::strerror(errno));
    return kBadInput;
  }
  if (driver.progress == "always" ||
      (driver.progress == "auto" && isatty(fileno(stderr))))
    driver.solve.progress = dsaplan::cli::progressPrinter(
        stderr, driver.progressInterval, start,
        [&problem](size_t pool) { return problem.pools[pool].id; });
  return 0;
}

/// The line that says the searches were cut short, by what, and what was
/// kept.
void printStopped(FILE *out, const Arguments &args, const Problem &problem,
                  const Solution &solution, int status, double seconds) {
  int signal = dsaplan::cli::stopSignal();
  std::string cause = signal == SIGINT    ? "interrupted (SIGINT)"
                      : signal == SIGTERM ? "terminated (SIGTERM)"
                                          : "time limit reached";
  std::fprintf(out,
               "stopped: %s after %.3f s; the searches ended early, so each "
               "status says only what was proved before\n",
               cause.c_str(), seconds);
  if (args.output.empty())
    return;
  if (status == kPlaced) {
    std::fprintf(out, "stopped: the best placement found is written to %s\n",
                 args.output.c_str());
    return;
  }
  for (const PoolResult &r : solution.pools)
    if (!isPlaced(r.status))
      std::fprintf(out,
                   "stopped: nothing written to %s: pool %s is not placed "
                   "within capacity\n",
                   args.output.c_str(), problem.pools[r.pool].id.c_str());
}

/// 0 when every pool is placed; else 1 when one is proved infeasible, 3
/// when one gave up.
int solveStatus(const Solution &solution) {
  bool infeasible = false, gaveUp = false;
  for (const PoolResult &r : solution.pools) {
    infeasible |= r.status == PoolStatus::Infeasible;
    gaveUp |= r.status == PoolStatus::GaveUp;
  }
  return infeasible ? kInfeasible : gaveUp ? kGaveUp : kPlaced;
}

} // namespace

int main(int argc, char **argv) {
  Arguments args;
  if (int status = parseArguments(argc, argv, args); status >= 0)
    return status;
  LoadedProblem loaded;
  if (int status = loadInput(args, loaded))
    return status;
  const Problem &given = loaded.problem;
  bool csv = loaded.csv;
  if (!args.check.empty())
    return checkSolution(args, given, csv);

  auto start = std::chrono::steady_clock::now();
  if (int status = startAnytime(args, given, start))
    return status;
  Solution solution = solve(given, args.driver.solve);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start).count();
  // Buffers that allow several pools are in the ones the solver chose.
  Problem problem = withPools(given, solution.poolOf);

  // With the solution on standard output, the pool lines go to stderr.
  FILE *out = args.output == "-" ? stderr : stdout;
  if (solution.poolChoices)
    std::fprintf(out,
                 "pool choice: %zu buffers (colocated groups once) allow "
                 "several pools; %llu assignments tried%s\n",
                 solution.poolChoices,
                 static_cast<unsigned long long>(solution.assignmentsTried),
                 solution.allAssignmentsTried ? ", all there are" : "");
  bool costsAgree = true;
  for (const PoolResult &r : solution.pools) {
    printPool(out, problem, r,
              seconds / std::max<size_t>(1, solution.pools.size()));
    costsAgree &= printReuseCost(out, problem, solution, r);
  }
  if (!costsAgree)
    return kInternalError;
  // Nothing is written that the independent validator has not accepted:
  // pools not placed carry their best attempt, which may break the capacity
  // (or contradicting constraints); every placed pool must be valid.
  std::vector<Violation> violations =
      validate(given, solution.offsets, solution.poolOf);
  for (const Violation &violation : violations)
    if (violation.buffers.empty() ||
        violation.kind == Violation::Kind::PoolNotAllowed ||
        isPlaced(solution.pools[problem.buffers[violation.buffers.front()].pool]
                     .status)) {
      std::fprintf(stderr, "dsa-solve: internal error: invalid placement: %s\n",
                   violation.message.c_str());
      return kInternalError;
    }
  int status = solveStatus(solution);
  if (solution.stopped)
    printStopped(out, args, problem, solution, status, seconds);
  if (!args.output.empty() && status == kPlaced &&
      !writeFile(args.output, csv ? writeMiniMallocCsv(problem, solution.offsets)
                                  : writeSchemaV1Solution(problem, solution.offsets)))
    return kBadInput;
  if (!writeReports(args, problem, solution, seconds))
    return kBadInput;
  // Stopped by the user: the shell's convention, 128 + the signal (a signal
  // after the searches ended changed nothing).
  int signal = dsaplan::cli::stopSignal();
  return solution.stopped && (signal == SIGINT || signal == SIGTERM)
             ? 128 + signal
             : status;
}
