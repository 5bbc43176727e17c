//===- Driver.cpp - What every front end of the solver shares -------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Driver.h"

#include "DsaPlan/Solver/IO.h"
#include "DsaPlan/Solver/Validate.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <regex>

using namespace dsaplan::solver;

namespace {

bool parseInteger(const std::string &text, int64_t &value) {
  char *end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno == ERANGE)
    return false;
  value = parsed;
  return true;
}

/// A finite, non-negative decimal number of seconds, at most 1e9.
bool parseSeconds(const std::string &text, double &value) {
  char *end = nullptr;
  errno = 0;
  double parsed = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno == ERANGE || !(parsed >= 0) ||
      parsed > 1e9)
    return false;
  value = parsed;
  return true;
}

/// Takes one capacity value: BYTES or POOL=BYTES.
bool takeCapacity(const std::string &text, DriverOptions &options) {
  size_t equals = text.rfind('=');
  int64_t bytes = 0;
  if (!parseInteger(equals == std::string::npos ? text
                                                : text.substr(equals + 1),
                    bytes) ||
      bytes <= 0 || equals == 0)
    return false;
  if (equals == std::string::npos)
    options.capacity = bytes;
  else
    options.poolCapacities.push_back({text.substr(0, equals), bytes});
  return true;
}

bool sameIgnoringCase(const std::string &a, const std::string &b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// The pool `key` names: its id or its name, case-insensitively.
std::optional<size_t> findPool(const Problem &problem, const std::string &key) {
  for (size_t p = 0; p < problem.pools.size(); ++p)
    if (sameIgnoringCase(problem.pools[p].id, key) ||
        sameIgnoringCase(problem.pools[p].name, key))
      return p;
  return std::nullopt;
}

std::string poolList(const Problem &problem) {
  std::string text;
  for (const Pool &pool : problem.pools)
    text += (text.empty() ? "" : ", ") + pool.id +
            (pool.name.empty() || pool.name == pool.id ? ""
                                                       : " (" + pool.name + ")");
  return text;
}

/// Applies the capacity overrides of `options`; returns why not, or "".
std::string overrideCapacities(const DriverOptions &options,
                               const std::string &spelled, Problem &problem) {
  if (options.capacity && !problem.pools.empty()) {
    if (problem.pools.size() > 1)
      return spelled + " " + std::to_string(options.capacity) +
             " is ambiguous with " + std::to_string(problem.pools.size()) +
             " pools; name one: " + spelled + " POOL=BYTES (pools: " +
             poolList(problem) + ")";
    problem.pools.front().capacity = options.capacity;
  }
  for (const auto &[key, bytes] : options.poolCapacities) {
    std::optional<size_t> pool = findPool(problem, key);
    if (!pool)
      return spelled + " " + key + "=" + std::to_string(bytes) +
             ": no such pool (pools: " + poolList(problem) + ")";
    problem.pools[*pool].capacity = bytes;
  }
  return "";
}

} // namespace

const std::vector<std::string> &dsaplan::solver::driverOptionNames() {
  static const std::vector<std::string> names = {
      "capacity", "algorithm", "node-budget", "cost-node-budget",
      "minimize-capacity"};
  return names;
}

const std::vector<std::string> &dsaplan::solver::anytimeOptionNames() {
  static const std::vector<std::string> names = {"time-limit", "progress",
                                                 "progress-interval"};
  return names;
}

std::string dsaplan::solver::applyDriverOption(const std::string &name,
                                               const std::string &value,
                                               const std::string &spelled,
                                               DriverOptions &options) {
  int64_t number = 0;
  if (name == "minimize-capacity") {
    if (value != "" && value != "true" && value != "false")
      return spelled + " is true or false, not '" + value + "'";
    options.solve.minimizeCapacity = value != "false";
  } else if (name == "capacity") {
    options.capacitySpelling = spelled;
    if (!takeCapacity(value, options))
      return spelled + " needs a positive integer or POOL=BYTES, not '" +
             value + "'";
  } else if (name == "node-budget") {
    if (!parseInteger(value, number) || number <= 0)
      return spelled + " needs a positive integer, not '" + value + "'";
    options.solve.nodeBudget = static_cast<uint64_t>(number);
  } else if (name == "cost-node-budget") {
    if (!parseInteger(value, number) || number < 0)
      return spelled + " needs a non-negative integer, not '" + value + "'";
    options.solve.reuseCostNodeBudget = static_cast<uint64_t>(number);
  } else if (name == "time-limit") {
    if (!parseSeconds(value, options.timeLimit) || options.timeLimit <= 0)
      return spelled + " needs a positive number of seconds (at most 1e9), "
                       "not '" + value + "'";
  } else if (name == "progress") {
    if (value != "auto" && value != "always" && value != "never")
      return spelled + " needs auto, always or never, not '" + value + "'";
    options.progress = value;
  } else if (name == "progress-interval") {
    if (!parseSeconds(value, options.progressInterval))
      return spelled + " needs a non-negative number of seconds (at most "
                       "1e9), not '" + value + "'";
  } else if (name == "algorithm") {
    std::optional<Algorithm> algorithm = parseAlgorithm(value);
    if (!algorithm)
      return "unknown " + spelled + " '" + value + "' (expected one of " +
             algorithmNames() + ")";
    options.solve.algorithm = *algorithm;
  } else {
    return "unknown option " + spelled;
  }
  return "";
}

bool dsaplan::solver::isMiniMallocCsv(const std::string &path,
                                      const std::string &text) {
  if (path != "-" && !path.empty())
    return path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] != '{';
}

int64_t dsaplan::solver::capacityFromName(const std::string &path) {
  std::smatch match;
  static const std::regex pattern(R"(\.([0-9]+)\.csv$)");
  int64_t capacity = 0;
  // Too many digits for 64 bits: no capacity here (checkProblem bounds the
  // rest).
  if (!std::regex_search(path, match, pattern) ||
      !parseInteger(match[1], capacity))
    return 0;
  return capacity;
}

LoadedProblem dsaplan::solver::loadProblem(const std::string &path,
                                           const std::string &text,
                                           const DriverOptions &options) {
  LoadedProblem loaded;
  loaded.csv = isMiniMallocCsv(path, text);
  ReadResult read;
  if (loaded.csv) {
    int64_t capacity =
        options.capacity ? options.capacity : capacityFromName(path);
    if (!capacity && !options.poolCapacities.empty())
      capacity = options.poolCapacities.front().second;
    if (!capacity) {
      loaded.errors.push_back("no " + options.capacitySpelling +
                              " and none in the file name");
      return loaded;
    }
    read = readMiniMallocCsv(text, capacity, loaded.problem, loaded.given);
  } else {
    read = readSchemaV1Problem(text, loaded.problem);
  }
  if (!read.ok) {
    loaded.errors.push_back(read.error);
    return loaded;
  }
  std::string error =
      overrideCapacities(options, options.capacitySpelling, loaded.problem);
  if (!error.empty()) {
    loaded.errors.push_back(error);
    return loaded;
  }
  for (const std::string &note : read.unsupported)
    loaded.warnings.push_back("unsupported: " + note);
  loaded.errors = checkProblem(loaded.problem);
  return loaded;
}
