//===- PassOptions.h - Choices of the dsaplan pass options ------*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The options that take one of a fixed set of values are typed by an enum;
// the spellings the option parser accepts (and lists in its error and in
// `--help`) are written once, here, for the passes (Passes.td) and for the
// `--dsa-plan` pipeline (Pipeline.h).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PASSOPTIONS_H
#define DSAPLAN_TRANSFORMS_PASSOPTIONS_H

#include "DsaPlan/Analysis/SyncDependencies.h"
#include "DsaPlan/Solver/Solve.h"

#include "llvm/Support/CommandLine.h"

namespace mlir {
namespace dsaplan {

/// What `dsaplan-assign-offsets` does with the placement it finds.
enum class AssignMode {
  /// Attach the offsets.
  Plan,
  /// Leave the IR as it is; report, as remarks.
  Consult,
};

/// The option parser of dsaplan's enum options: LLVM's generic one, except
/// that a value it refuses is named with the values it accepts.
template <typename T>
class ListingEnumParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(StringRef name, T value, StringRef help)
        : GenericOptionInfo(name, help), V(value) {}
    llvm::cl::OptionValue<T> V;
  };
  SmallVector<OptionInfo, 8> Values;

public:
  using parser_data_type = T;

  ListingEnumParser(llvm::cl::Option &owner) : generic_parser_base(owner) {}

  unsigned getNumOptions() const override { return Values.size(); }
  StringRef getOption(unsigned n) const override { return Values[n].Name; }
  StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &
  getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  /// True on error.
  bool parse(llvm::cl::Option &option, StringRef argName, StringRef arg,
             T &value) {
    StringRef text = Owner.hasArgStr() ? arg : argName;
    std::string names;
    for (const OptionInfo &info : Values) {
      if (info.Name == text) {
        value = info.V.getValue();
        return false;
      }
      names += (names.empty() ? "" : ", ") + info.Name.str();
    }
    return option.error("'" + text + "' is not a valid value (expected one "
                        "of: " + names + ")");
  }

  template <typename V>
  void addLiteralOption(StringRef name, const V &value, StringRef help) {
    Values.emplace_back(name, static_cast<T>(value), help);
    AddLiteralOption(Owner, name);
  }
};

/// The solver algorithms, by the names `dsa-solve` accepts too.
inline llvm::cl::ValuesClass algorithmValues() {
  using ::dsaplan::solver::Algorithm;
  return llvm::cl::values(
      clEnumValN(Algorithm::Bump, "bump", "no reuse (the baseline)"),
      clEnumValN(Algorithm::FirstFit, "first-fit",
                 "decreasing size, lowest fitting address"),
      clEnumValN(Algorithm::BestFit, "best-fit", "smallest fitting gap"),
      clEnumValN(Algorithm::MultiStart, "multi-start",
                 "several orderings plus repair"),
      clEnumValN(Algorithm::Exact, "exact",
                 "branch-and-bound within the node budget"),
      clEnumValN(Algorithm::Auto, "auto",
                 "heuristics, then exact while above the lower bound"));
}

/// The modes of `dsaplan-assign-offsets`.
inline llvm::cl::ValuesClass assignModeValues() {
  return llvm::cl::values(
      clEnumValN(AssignMode::Plan, "plan", "attach offsets"),
      clEnumValN(AssignMode::Consult, "consult",
                 "only report, as remarks: peak against bump and the lower "
                 "bound"));
}

/// The dependencies `dsaplan-insert-sync` orders.
inline llvm::cl::ValuesClass dependencyScopeValues() {
  return llvm::cl::values(
      clEnumValN(DependencyScope::All, "all", "every dependency"),
      clEnumValN(DependencyScope::ReuseOnly, "reuse-only",
                 "only between different tiles that share bytes"),
      clEnumValN(DependencyScope::IdentityOnly, "identity-only",
                 "only within one tile (the identity-based baseline that "
                 "misses partial reuse, for benchmarks)"));
}

} // namespace dsaplan
} // namespace mlir

/// The enums of the options above parse with ListingEnumParser (declared
/// before any option of them is instantiated, so that MLIR's pass options,
/// which derive from llvm::cl::parser<T>, list the values too).
#define DSAPLAN_LISTING_ENUM_PARSER(T)                                         \
  template <>                                                                  \
  class llvm::cl::parser<T> : public mlir::dsaplan::ListingEnumParser<T> {     \
  public:                                                                      \
    using ListingEnumParser::ListingEnumParser;                                \
  };
DSAPLAN_LISTING_ENUM_PARSER(::dsaplan::solver::Algorithm)
DSAPLAN_LISTING_ENUM_PARSER(::mlir::dsaplan::AssignMode)
DSAPLAN_LISTING_ENUM_PARSER(::mlir::dsaplan::DependencyScope)
#undef DSAPLAN_LISTING_ENUM_PARSER

#endif // DSAPLAN_TRANSFORMS_PASSOPTIONS_H
