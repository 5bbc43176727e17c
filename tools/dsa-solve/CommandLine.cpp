//===- CommandLine.cpp - A small GNU-style argument parser ----------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include <algorithm>

using namespace dsaplan::cli;

namespace {

const OptionSpec *findByName(const std::vector<OptionSpec> &specs,
                             const std::string &name) {
  for (const OptionSpec &spec : specs)
    if (spec.name == name)
      return &spec;
  return nullptr;
}

const OptionSpec *findByAlias(const std::vector<OptionSpec> &specs,
                              char alias) {
  for (const OptionSpec &spec : specs)
    if (spec.alias && spec.alias == alias)
      return &spec;
  return nullptr;
}

/// Records `spec`, taking its value from `inlineValue` or the next argument.
/// Returns false (with `parsed.error` set) when a value is missing or not
/// expected.
bool takeOption(const OptionSpec &spec, const std::string &spelled,
                const std::string *inlineValue, int argc,
                const char *const *argv, int &i, ParsedCommandLine &parsed) {
  if (!spec.takesValue) {
    if (inlineValue) {
      parsed.error = "option " + spelled + " takes no value";
      return false;
    }
    parsed.options.push_back({spec.name, ""});
    return true;
  }
  if (inlineValue) {
    parsed.options.push_back({spec.name, *inlineValue});
    return true;
  }
  if (i + 1 >= argc) {
    parsed.error = "option " + spelled + " needs a value (" + spec.valueName +
                   ")";
    return false;
  }
  parsed.options.push_back({spec.name, argv[++i]});
  return true;
}

} // namespace

ParsedCommandLine
dsaplan::cli::parseCommandLine(int argc, const char *const *argv,
                               const std::vector<OptionSpec> &specs) {
  ParsedCommandLine parsed;
  bool onlyPositionals = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (onlyPositionals || arg == "-" || arg.empty() || arg[0] != '-') {
      parsed.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      onlyPositionals = true;
      continue;
    }
    const OptionSpec *spec = nullptr;
    std::string value;
    bool hasInlineValue = false;
    if (arg.compare(0, 2, "--") == 0) {
      size_t equals = arg.find('=');
      spec = findByName(specs, arg.substr(2, equals - 2));
      if (equals != std::string::npos) {
        value = arg.substr(equals + 1);
        hasInlineValue = true;
        arg = arg.substr(0, equals);
      }
    } else if (arg.size() == 2) {
      spec = findByAlias(specs, arg[1]);
    }
    if (!spec) {
      parsed.error = "unknown option " + arg;
      return parsed;
    }
    if (!takeOption(*spec, arg, hasInlineValue ? &value : nullptr, argc, argv,
                    i, parsed))
      return parsed;
  }
  return parsed;
}

std::string
dsaplan::cli::describeOptions(const std::vector<OptionSpec> &specs) {
  std::vector<std::string> left;
  size_t width = 0;
  for (const OptionSpec &spec : specs) {
    std::string text = spec.alias ? std::string("-") + spec.alias + ", " : "    ";
    text += "--" + spec.name;
    if (spec.takesValue)
      text += " " + spec.valueName;
    width = std::max(width, text.size());
    left.push_back(std::move(text));
  }
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i)
    out += "  " + left[i] + std::string(width - left[i].size() + 2, ' ') +
           specs[i].help + "\n";
  return out;
}
