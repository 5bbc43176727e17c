//===- SolverBench.cpp - dsa-solve-bench: the solver on the shared corpus -===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Runs every algorithm over the schema-v1 problems of shared/corpus/pypto and
// the MiniMalloc CSVs of shared/corpus/minimalloc (capacity from the file
// name) and prints, per algorithm and corpus: instances placed (every pool
// within capacity and the placement validates), the geometric mean of
// peak / lower bound over the pools with a positive bound, and the median
// and largest solve time. Then the MiniMalloc instances one by one for the
// default heuristic and `auto`, `--minimize-capacity` on them, and a scaling
// run of the default heuristic on seeded random instances, each size in a
// child process so that its peak RSS is its own.
//
// Times are wall-clock and only reported; the solver itself never looks at
// a clock.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace dsaplan::solver;
namespace fs = std::filesystem;

namespace {

struct Instance {
  std::string name;
  Problem problem;
};

struct Options {
  fs::path corpus = DSAPLAN_CORPUS_DIR;
  std::vector<Algorithm> algorithms = {
      Algorithm::Bump,       Algorithm::FirstFit, Algorithm::BestFit,
      Algorithm::MultiStart, Algorithm::Exact,    Algorithm::Auto};
  uint64_t nodeBudget = SolveOptions().nodeBudget;
  bool corpusTables = true;
  bool miniMallocDetail = true;
  bool scaling = true;
  size_t maxScaling = 100000;
};

//===----------------------------------------------------------------------===//
// Reading the corpus
//===----------------------------------------------------------------------===//

std::string contentsOf(const fs::path &path) {
  std::ifstream stream(path);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

std::vector<fs::path> filesUnder(const fs::path &dir,
                                 const std::string &extension) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir))
    return files;
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == extension &&
        entry.path().parent_path().filename() != "architectures")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<Instance> readPypto(const fs::path &dir) {
  std::vector<Instance> instances;
  for (const fs::path &file : filesUnder(dir, ".json")) {
    Instance instance{fs::relative(file, dir).string(), {}};
    ReadResult read = readSchemaV1Problem(contentsOf(file), instance.problem);
    if (!read.ok) {
      std::fprintf(stderr, "skipping %s: %s\n", file.c_str(),
                   read.error.c_str());
      continue;
    }
    instances.push_back(std::move(instance));
  }
  return instances;
}

/// `A.1048576.csv` -> 1048576; 0 when the name carries no number.
int64_t capacityFromName(const fs::path &file) {
  std::string stem = file.stem().string();
  size_t dot = stem.find_last_of('.');
  if (dot == std::string::npos)
    return 0;
  std::string digits = stem.substr(dot + 1);
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), ::isdigit))
    return 0;
  return std::stoll(digits);
}

std::vector<Instance> readMiniMalloc(const fs::path &dir) {
  std::vector<Instance> instances;
  for (const fs::path &file : filesUnder(dir, ".csv")) {
    Instance instance{file.filename().string(), {}};
    Placement given;
    ReadResult read = readMiniMallocCsv(
        contentsOf(file), capacityFromName(file), instance.problem, given);
    if (!read.ok) {
      std::fprintf(stderr, "skipping %s: %s\n", file.c_str(),
                   read.error.c_str());
      continue;
    }
    instances.push_back(std::move(instance));
  }
  return instances;
}

//===----------------------------------------------------------------------===//
// Running and summarising
//===----------------------------------------------------------------------===//

struct Run {
  Solution solution;
  double seconds = 0;
  /// CPU time of the solve (this process): on a shared machine the wall
  /// clock also counts the time other processes hold the cores.
  double cpuSeconds = 0;
  bool placed = false; // every pool within capacity, placement validates
};

Run runOnce(const Problem &problem, const SolveOptions &options) {
  Run run;
  std::clock_t cpuStart = std::clock();
  auto start = std::chrono::steady_clock::now();
  run.solution = solve(problem, options);
  run.seconds = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  run.cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  run.placed = validate(problem, run.solution.offsets).empty() &&
               std::all_of(run.solution.pools.begin(),
                           run.solution.pools.end(),
                           [](const PoolResult &result) {
                             return isPlaced(result.status);
                           });
  return run;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid]
                           : (values[mid - 1] + values[mid]) / 2;
}

std::string formatSeconds(double seconds) {
  char text[32];
  if (seconds < 1e-3)
    std::snprintf(text, sizeof(text), "%.1f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof(text), "%.2f ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof(text), "%.2f s", seconds);
  return text;
}

void printCorpusTable(const char *title, const std::vector<Instance> &corpus,
                      const Options &options) {
  std::printf("\n## %s (%zu instances)\n\n", title, corpus.size());
  std::printf("| algorithm | placed | geomean peak/LB | at LB | median time | "
              "max time |\n|---|---:|---:|---:|---:|---:|\n");
  for (Algorithm algorithm : options.algorithms) {
    SolveOptions solveOptions;
    solveOptions.algorithm = algorithm;
    solveOptions.nodeBudget = options.nodeBudget;
    size_t placed = 0, pools = 0, atBound = 0;
    double logRatio = 0;
    std::vector<double> times;
    for (const Instance &instance : corpus) {
      Run run = runOnce(instance.problem, solveOptions);
      placed += run.placed;
      times.push_back(run.seconds);
      for (const PoolResult &result : run.solution.pools) {
        if (result.lowerBound <= 0)
          continue;
        ++pools;
        atBound += result.peak <= result.lowerBound;
        logRatio += std::log(static_cast<double>(result.peak) /
                             static_cast<double>(result.lowerBound));
      }
    }
    std::printf("| %s | %zu/%zu | %.4f | %zu/%zu | %s | %s |\n",
                algorithmName(algorithm), placed, corpus.size(),
                pools ? std::exp(logRatio / pools) : 1.0, atBound, pools,
                formatSeconds(median(times)).c_str(),
                formatSeconds(times.empty() ? 0 : *std::max_element(
                                                      times.begin(),
                                                      times.end()))
                    .c_str());
    std::fflush(stdout);
  }
}

void printMiniMallocDetail(const std::vector<Instance> &corpus,
                           const Options &options) {
  std::printf("\n## MiniMalloc, one by one\n\n");
  std::printf("| instance | algorithm | minimize | peak | lower bound | "
              "status | nodes | time |\n|---|---|---|---:|---:|---|---:|---:|\n");
  struct Setting {
    Algorithm algorithm;
    bool minimize;
  };
  for (const Instance &instance : corpus)
    for (Setting setting : {Setting{Algorithm::FirstFit, false},
                            Setting{Algorithm::MultiStart, false},
                            Setting{Algorithm::Auto, false},
                            Setting{Algorithm::Auto, true}}) {
      SolveOptions solveOptions;
      solveOptions.algorithm = setting.algorithm;
      solveOptions.minimizeCapacity = setting.minimize;
      solveOptions.nodeBudget = options.nodeBudget;
      Run run = runOnce(instance.problem, solveOptions);
      const PoolResult &result = run.solution.pools.front();
      std::printf("| %s | %s | %s | %lld | %lld | %s%s | %llu | %s |\n",
                  instance.name.c_str(), algorithmName(setting.algorithm),
                  setting.minimize ? "yes" : "no",
                  static_cast<long long>(result.peak),
                  static_cast<long long>(result.lowerBound),
                  poolStatusName(result.status),
                  run.placed || !isPlaced(result.status)
                      ? ""
                      : " (INVALID)",
                  static_cast<unsigned long long>(result.nodes),
                  formatSeconds(run.seconds).c_str());
      std::fflush(stdout);
    }
}

//===----------------------------------------------------------------------===//
// Scaling
//===----------------------------------------------------------------------===//

/// A seeded random pool of `count` buffers: lifetimes of 1 to 64 points
/// spread over `count` points (about 32 buffers live at any point), sizes
/// 32 B to 64 KiB in 32 B steps.
Problem randomInstance(size_t count, uint64_t seed) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  auto below = [&](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % bound);
  };
  Problem problem;
  problem.pools.push_back({"0", "random", int64_t(1) << 40, {}, 32});
  problem.buffers.reserve(count);
  for (size_t b = 0; b < count; ++b) {
    Buffer buffer;
    buffer.id = std::to_string(b);
    buffer.size = 32 * (1 + below(2048));
    buffer.alignment = 32;
    int64_t lower = below(static_cast<uint64_t>(count));
    buffer.live.push_back({lower, lower + 1 + below(64)});
    problem.buffers.push_back(std::move(buffer));
  }
  return problem;
}

struct ScalingRow {
  double seconds = 0;
  double cpuSeconds = 0;
  double ratio = 0;
  bool valid = false;
  long maxRssKiB = 0;
};

/// Builds and solves one random instance in a child process, so that the
/// peak RSS reported is that of this size alone.
ScalingRow scalingRun(size_t count, Algorithm algorithm) {
  int channel[2];
  if (pipe(channel) != 0)
    return {};
  pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    Problem problem = randomInstance(count, count);
    SolveOptions options;
    options.algorithm = algorithm;
    Run run = runOnce(problem, options);
    ScalingRow row;
    row.seconds = run.seconds;
    row.cpuSeconds = run.cpuSeconds;
    const PoolResult &result = run.solution.pools.front();
    row.ratio = static_cast<double>(result.peak) /
                static_cast<double>(std::max<int64_t>(1, result.lowerBound));
    row.valid = run.placed;
    ssize_t written = write(channel[1], &row, sizeof(row));
    _exit(written == static_cast<ssize_t>(sizeof(row)) ? 0 : 1);
  }
  close(channel[1]);
  ScalingRow row;
  ssize_t got = read(channel[0], &row, sizeof(row));
  close(channel[0]);
  int status = 0;
  struct rusage usage;
  std::memset(&usage, 0, sizeof(usage));
  wait4(child, &status, 0, &usage);
  if (got != static_cast<ssize_t>(sizeof(row)))
    return {};
  row.maxRssKiB = usage.ru_maxrss;
  return row;
}

/// One table row per size and algorithm: time and peak RSS, and their
/// growth over the previous decade (the n log n growth for comparison).
void printScaling(const Options &options) {
  std::printf("\n## Scaling on seeded random instances (one pool, ~32 "
              "buffers live per point)\n\n");
  std::printf("| algorithm | buffers | CPU time | CPU growth | n log n growth "
              "| wall time | peak RSS | RSS growth | peak/LB | valid |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (Algorithm algorithm : {Algorithm::FirstFit, Algorithm::BestFit,
                              Algorithm::MultiStart, Algorithm::Auto}) {
    double previousTime = 0, previousNLogN = 0, previousRss = 0;
    for (size_t count = 1000; count <= options.maxScaling; count *= 10) {
      ScalingRow row = scalingRun(count, algorithm);
      double nLogN = count * std::log2(static_cast<double>(count));
      char growth[32] = "", expected[32] = "", rssGrowth[32] = "";
      if (previousTime > 0) {
        std::snprintf(growth, sizeof(growth), "%.1fx",
                      row.cpuSeconds / previousTime);
        std::snprintf(expected, sizeof(expected), "%.1fx",
                      nLogN / previousNLogN);
        std::snprintf(rssGrowth, sizeof(rssGrowth), "%.1fx",
                      row.maxRssKiB / previousRss);
      }
      std::printf(
          "| %s%s | %zu | %s | %s | %s | %s | %.1f MiB | %s | %.4f | %s |\n",
          algorithmName(algorithm),
          algorithm == Algorithm::Auto ? " (default)" : "", count,
          formatSeconds(row.cpuSeconds).c_str(), growth, expected,
          formatSeconds(row.seconds).c_str(),
                  row.maxRssKiB / 1024.0, rssGrowth, row.ratio,
                  row.valid ? "yes" : "NO");
      std::fflush(stdout);
      previousTime = row.cpuSeconds;
      previousNLogN = nLogN;
      previousRss = static_cast<double>(row.maxRssKiB);
    }
  }
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

void printUsage() {
  std::printf(
      "usage: dsa-solve-bench [--corpus DIR] [--algorithms LIST]\n"
      "                       [--node-budget N] [--max-scaling N]\n"
      "                       [--no-corpus] [--no-detail] [--no-scaling]\n"
      "  LIST: comma-separated, from %s\n",
      algorithmNames());
}

bool parseAlgorithms(const std::string &list, std::vector<Algorithm> &out) {
  out.clear();
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, ',')) {
    std::optional<Algorithm> algorithm = parseAlgorithm(name);
    if (!algorithm) {
      std::fprintf(stderr, "unknown algorithm '%s'\n", name.c_str());
      return false;
    }
    out.push_back(*algorithm);
  }
  return !out.empty();
}

bool parseArguments(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--corpus" && hasValue)
      options.corpus = argv[++i];
    else if (arg == "--algorithms" && hasValue) {
      if (!parseAlgorithms(argv[++i], options.algorithms))
        return false;
    } else if (arg == "--node-budget" && hasValue)
      options.nodeBudget = std::stoull(argv[++i]);
    else if (arg == "--max-scaling" && hasValue)
      options.maxScaling = std::stoull(argv[++i]);
    else if (arg == "--no-corpus")
      options.corpusTables = false;
    else if (arg == "--no-detail")
      options.miniMallocDetail = false;
    else if (arg == "--no-scaling")
      options.scaling = false;
    else
      return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseArguments(argc, argv, options)) {
    printUsage();
    return 2;
  }
  if ((options.corpusTables || options.miniMallocDetail) &&
      !fs::is_directory(options.corpus)) {
    std::fprintf(stderr, "corpus directory %s not found (use --corpus)\n",
                 options.corpus.c_str());
    return 2;
  }
  std::printf("# dsa-solve-bench (node budget %llu)\n",
              static_cast<unsigned long long>(options.nodeBudget));
  std::vector<Instance> miniMalloc;
  if (options.corpusTables || options.miniMallocDetail)
    miniMalloc = readMiniMalloc(options.corpus / "minimalloc");
  if (options.corpusTables) {
    printCorpusTable("PyPTO corpus", readPypto(options.corpus / "pypto"),
                     options);
    printCorpusTable("MiniMalloc corpus", miniMalloc, options);
  }
  if (options.miniMallocDetail)
    printMiniMallocDetail(miniMalloc, options);
  if (options.scaling)
    printScaling(options);
  return 0;
}
