//===- ValidateTest.cpp - Units for the independent validator -------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// One test per violation kind (with the placement that just avoids it, so
// the check cannot pass by reporting everything), one for reporting every
// violation at once, and one per malformed-problem diagnostic.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

using Kind = Violation::Kind;

/// The kinds of `violations`, in order.
std::vector<Kind> kindsOf(const std::vector<Violation> &violations) {
  std::vector<Kind> kinds;
  for (const Violation &violation : violations)
    kinds.push_back(violation.kind);
  return kinds;
}

/// The only violation of `placement`, which must be of `kind`.
Violation onlyViolation(const Problem &problem, const Placement &placement,
                        Kind kind) {
  std::vector<Violation> violations = validate(problem, placement);
  EXPECT_EQ(kindsOf(violations), std::vector<Kind>{kind})
      << describe(violations);
  return violations.empty() ? Violation{kind, {}, ""} : violations.front();
}

bool mentions(const std::string &text, const std::string &word) {
  return text.find(word) != std::string::npos;
}

TEST(Validate, AcceptsAValidPlacement) {
  ProblemBuilder builder(64, 8);
  builder.add(16, {{0, 4}});
  builder.add(16, {{2, 6}});
  builder.add(16, {{4, 8}});
  // b2 reuses b0's bytes; b1 sits right above b0 (touching is fine).
  EXPECT_TRUE(validate(builder.problem, {0, 16, 0}).empty());
}

TEST(Validate, Unplaced) {
  ProblemBuilder builder(64);
  builder.add(16, {{0, 4}});
  builder.add(16, {{0, 4}});
  Violation violation =
      onlyViolation(builder.problem, {0, kUnplaced}, Kind::Unplaced);
  EXPECT_EQ(violation.buffers, std::vector<size_t>{1});
  EXPECT_TRUE(mentions(violation.message, "b1")) << violation.message;
  // A placement shorter than the buffer list leaves the rest unplaced.
  onlyViolation(builder.problem, {0}, Kind::Unplaced);
}

TEST(Validate, MisalignedAgainstBufferAndPoolAlignment) {
  ProblemBuilder builder(1024, 32);
  builder.add(16, {{0, 4}}, 128);
  EXPECT_TRUE(validate(builder.problem, {256}).empty());
  Violation violation = onlyViolation(builder.problem, {64}, Kind::Misaligned);
  EXPECT_TRUE(mentions(violation.message, "128")) << violation.message;
  // The pool's alignment applies to buffers that ask for less.
  ProblemBuilder pooled(1024, 32);
  pooled.add(16, {{0, 4}}, 4);
  EXPECT_TRUE(validate(pooled.problem, {32}).empty());
  onlyViolation(pooled.problem, {8}, Kind::Misaligned);
}

TEST(Validate, OutOfCapacity) {
  ProblemBuilder builder(64);
  builder.add(16, {{0, 4}});
  EXPECT_TRUE(validate(builder.problem, {48}).empty());
  Violation violation =
      onlyViolation(builder.problem, {49}, Kind::OutOfCapacity);
  EXPECT_TRUE(mentions(violation.message, "64")) << violation.message;
}

TEST(Validate, OffsetsBeyondTheByteLimitAreOutOfCapacityNotOverflows) {
  // Offsets near INT64_MAX: offset + size would overflow (a sanitizer trips
  // on it); each is out of capacity, and no pair is compared with it.
  ProblemBuilder builder(64);
  builder.add(16, {{0, 4}});
  builder.add(16, {{0, 4}});
  builder.problem.reusePenalties.push_back({0, 1, 1, "cross_pipe"});
  Placement far = {INT64_MAX - 8, INT64_MAX - 8};
  std::vector<Violation> violations = validate(builder.problem, far);
  EXPECT_EQ(kindsOf(violations),
            (std::vector<Kind>{Kind::OutOfCapacity, Kind::OutOfCapacity}))
      << describe(violations);
  EXPECT_EQ(reuseCostOf(builder.problem, far, 0).cost, 0);
}

TEST(CheckProblem, NumbersBeyondTheBoundsAreNamed) {
  ProblemBuilder builder(kMaxBytes + 1);
  builder.add(kMaxBytes + 1, {{-kMaxPoint - 1, 4}});
  builder.problem.reusePenalties.push_back({0, 0, kMaxCost + 1, "x"});
  std::vector<std::string> errors = checkProblem(builder.problem);
  std::string all;
  for (const std::string &error : errors)
    all += error + "\n";
  EXPECT_TRUE(mentions(all, "pool 0: capacity 1099511627777 is above the "
                            "limit 2^40"))
      << all;
  EXPECT_TRUE(mentions(all, "size 1099511627777 is above the limit 2^40"))
      << all;
  EXPECT_TRUE(mentions(all, "live interval [-1099511627777, 4) reaches beyond"))
      << all;
  EXPECT_TRUE(mentions(all, "reuse penalty 0: cost 4294967297 is above the "
                            "limit 2^32"))
      << all;
  // At the bounds: no complaint about the numbers.
  ProblemBuilder edge(kMaxBytes);
  edge.add(kMaxBytes, {{-kMaxPoint, kMaxPoint}});
  EXPECT_TRUE(checkProblem(edge.problem).empty());
}

TEST(Validate, InReservedRange) {
  ProblemBuilder builder(256);
  builder.reserve(64, 128);
  builder.add(16, {{0, 4}});
  EXPECT_TRUE(validate(builder.problem, {48}).empty());
  EXPECT_TRUE(validate(builder.problem, {128}).empty());
  onlyViolation(builder.problem, {56}, Kind::InReservedRange);
  onlyViolation(builder.problem, {120}, Kind::InReservedRange);
}

TEST(Validate, OverlapOnlyWhenLiveTogether) {
  ProblemBuilder builder(256);
  builder.add(16, {{0, 4}, {10, 12}});
  builder.add(16, {{4, 10}});
  builder.add(16, {{11, 20}});
  // b0 and b1 never live together; b0 and b2 meet at point 11.
  EXPECT_TRUE(validate(builder.problem, {0, 0, 16}).empty());
  Violation violation =
      onlyViolation(builder.problem, {0, 0, 8}, Kind::Overlap);
  std::vector<size_t> pair = violation.buffers;
  std::sort(pair.begin(), pair.end());
  EXPECT_EQ(pair, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(mentions(violation.message, "b0") &&
              mentions(violation.message, "b2"))
      << violation.message;
}

TEST(Validate, PoolsDoNotOverlapEachOther) {
  ProblemBuilder builder(256);
  size_t second = builder.addPool(256);
  builder.add(16, {{0, 4}});
  builder.add(16, {{0, 4}}, 1, second);
  EXPECT_TRUE(validate(builder.problem, {0, 0}).empty());
}

TEST(Validate, SeparationWhateverTheLifetimes) {
  ProblemBuilder builder(256);
  size_t a = builder.add(16, {{0, 4}});
  size_t b = builder.add(16, {{6, 8}});
  EXPECT_TRUE(validate(builder.problem, {0, 0}).empty());
  builder.separate(a, b);
  EXPECT_TRUE(validate(builder.problem, {0, 16}).empty());
  Violation violation =
      onlyViolation(builder.problem, {0, 8}, Kind::Separation);
  EXPECT_EQ(violation.buffers.size(), 2u);
}

TEST(Validate, ColocationNeedsTheSameOffset) {
  ProblemBuilder builder(256);
  size_t a = builder.add(16, {{0, 4}});
  size_t b = builder.add(32, {{4, 8}});
  builder.colocate(a, b);
  EXPECT_TRUE(validate(builder.problem, {32, 32}).empty());
  onlyViolation(builder.problem, {32, 0}, Kind::Colocation);
}

TEST(Validate, Pin) {
  ProblemBuilder builder(256);
  size_t a = builder.add(16, {{0, 4}});
  builder.pin(a, 64);
  EXPECT_TRUE(validate(builder.problem, {64}).empty());
  Violation violation = onlyViolation(builder.problem, {0}, Kind::Pin);
  EXPECT_TRUE(mentions(violation.message, "64")) << violation.message;
}

TEST(Validate, ReportsEveryViolationNotJustTheFirst) {
  ProblemBuilder builder(64, 8);
  builder.reserve(0, 8);
  size_t pinned = builder.add(8, {{0, 4}});
  builder.pin(pinned, 8);
  size_t a = builder.add(8, {{0, 4}});
  builder.add(8, {{0, 4}});
  size_t c = builder.add(8, {{9, 10}});
  size_t d = builder.add(8, {{9, 10}});
  builder.add(8, {{20, 21}});
  builder.colocate(c, d);
  builder.separate(a, c);
  // b0 moved off its pin (Pin); b1 misaligned (Misaligned) and sharing bytes
  // with b0 and b2 (Overlap); c over a's bytes (Separation); d in the
  // reserved range (InReservedRange) and away from c (Colocation); b5 past
  // the end (OutOfCapacity).
  Placement placement = {16, 20, 24, 16, 0, 64};
  std::vector<Violation> violations = validate(builder.problem, placement);
  std::vector<Kind> kinds = kindsOf(violations);
  for (Kind kind : {Kind::Pin, Kind::Overlap, Kind::Misaligned,
                    Kind::InReservedRange, Kind::Colocation, Kind::Separation,
                    Kind::OutOfCapacity})
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), kind), kinds.end())
        << "missing kind " << static_cast<int>(kind) << " in\n"
        << describe(violations);
  EXPECT_EQ(validate(builder.problem, placement).size(), violations.size());
}

TEST(CheckProblem, AcceptsAWellFormedProblem) {
  ProblemBuilder builder(1024, 32);
  size_t a = builder.add(64, {{0, 2}, {4, 6}}, 64);
  size_t b = builder.add(64, {{2, 4}});
  size_t c = builder.add(32, {{0, 9}});
  builder.separate(a, c).colocate(a, b).pin(a, 0);
  EXPECT_TRUE(checkProblem(builder.problem).empty());
}

/// The single diagnostic of `problem`, which must name `word`.
void expectOneError(const Problem &problem, const std::string &word) {
  std::vector<std::string> errors = checkProblem(problem);
  ASSERT_EQ(errors.size(), 1u) << (errors.empty() ? "" : errors.front());
  EXPECT_TRUE(mentions(errors.front(), word)) << errors.front();
}

TEST(CheckProblem, SizeMustBePositive) {
  for (int64_t size : {0, -8}) {
    ProblemBuilder builder(1024);
    builder.add(16, {{0, 1}});
    builder.add(size, {{0, 1}});
    expectOneError(builder.problem, "b1");
  }
}

TEST(CheckProblem, AlignmentMustBePositive) {
  for (int64_t alignment : {0, -4}) {
    ProblemBuilder builder(1024);
    builder.add(16, {{0, 1}}, alignment);
    expectOneError(builder.problem, "b0");
  }
  // schema-v1 allows any positive alignment, not only powers of two.
  for (int64_t alignment : {3, 48}) {
    ProblemBuilder builder(1024);
    builder.add(16, {{0, 1}}, alignment);
    EXPECT_TRUE(checkProblem(builder.problem).empty()) << alignment;
  }
}

TEST(CheckProblem, IntervalsMustBeNonEmptySortedAndDisjoint) {
  ProblemBuilder empty(1024);
  empty.add(16, {});
  expectOneError(empty.problem, "b0");
  ProblemBuilder reversed(1024);
  reversed.add(16, {{4, 4}});
  expectOneError(reversed.problem, "b0");
  ProblemBuilder unsorted(1024);
  unsorted.add(16, {{4, 6}, {0, 2}});
  expectOneError(unsorted.problem, "b0");
  ProblemBuilder overlapping(1024);
  overlapping.add(16, {{0, 4}, {3, 6}});
  expectOneError(overlapping.problem, "b0");
}

TEST(CheckProblem, BufferMustFitItsPool) {
  ProblemBuilder builder(1024);
  builder.add(1025, {{0, 1}});
  expectOneError(builder.problem, "b0");
}

TEST(CheckProblem, PoolIndexMustExist) {
  ProblemBuilder builder(1024);
  builder.add(16, {{0, 1}}, 1, 3);
  expectOneError(builder.problem, "b0");
}

TEST(CheckProblem, ConstraintsMustNameKnownBuffers) {
  ProblemBuilder separation(1024);
  separation.add(16, {{0, 1}});
  separation.separate(0, 5);
  EXPECT_EQ(checkProblem(separation.problem).size(), 1u);
  ProblemBuilder colocation(1024);
  colocation.add(16, {{0, 1}});
  colocation.colocate(9, 0);
  EXPECT_EQ(checkProblem(colocation.problem).size(), 1u);
}

TEST(CheckProblem, SeparationAcrossPoolsIsHarmless) {
  // Different pools never share addresses; the PyPTO corpus has such pairs.
  ProblemBuilder builder(1024);
  size_t other = builder.addPool(1024);
  size_t a = builder.add(16, {{0, 1}});
  size_t b = builder.add(16, {{0, 1}}, 1, other);
  builder.separate(a, b);
  EXPECT_TRUE(checkProblem(builder.problem).empty());
  EXPECT_TRUE(validate(builder.problem, {0, 0}).empty());
}

TEST(CheckProblem, ReportsEveryProblem) {
  ProblemBuilder builder(1024);
  builder.add(0, {{0, 1}});
  builder.add(16, {{2, 1}}, -3);
  builder.add(2048, {{0, 1}});
  EXPECT_GE(checkProblem(builder.problem).size(), 4u);
}

} // namespace
