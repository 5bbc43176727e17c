//===- CommandLine.h - A small GNU-style argument parser --------*- C++ -*-===//
//
// Part of dsaplan. Standard C++ only: dsa-solve builds without LLVM.
//
//===----------------------------------------------------------------------===//
//
// The conventions users expect from a command-line tool, and no more:
//   --name value, --name=value   an option with a value
//   --name                       a flag (a value given with = is an error)
//   -h                           a declared one-letter alias
//   --                           everything after it is positional
//   -                            positional (standard input or output)
// Options may repeat; the caller decides what a repetition means. Errors
// name the offending argument.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TOOLS_DSASOLVE_COMMANDLINE_H
#define DSAPLAN_TOOLS_DSASOLVE_COMMANDLINE_H

#include <string>
#include <vector>

namespace dsaplan::cli {

struct OptionSpec {
  std::string name;     // without the dashes: "node-budget"
  char alias = 0;       // one-letter alias ('h' for -h), 0 for none
  bool takesValue = false;
  std::string valueName; // for the help text: "N", "FILE"
  std::string help;
};

/// One occurrence of an option on the command line, in order.
struct ParsedOption {
  std::string name;
  std::string value; // empty for flags
};

struct ParsedCommandLine {
  std::vector<ParsedOption> options;
  std::vector<std::string> positionals;
  /// Set when the command line is malformed; the rest is then partial.
  std::string error;
};

/// Parses argv[1..argc) against `specs`.
ParsedCommandLine parseCommandLine(int argc, const char *const *argv,
                                   const std::vector<OptionSpec> &specs);

/// The options of `specs`, one per line, aligned, for --help.
std::string describeOptions(const std::vector<OptionSpec> &specs);

} // namespace dsaplan::cli

#endif // DSAPLAN_TOOLS_DSASOLVE_COMMANDLINE_H
