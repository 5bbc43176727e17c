//===- IOTest.cpp - Units for schema-v1 JSON and MiniMalloc CSV -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Good documents are read field by field; every bad one must fail with the
// JSON path (or CSV line) of the culprit. Documents are edited with
// nlohmann_json here, so each bad input differs from a good one in one place.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"

#include "TestProblems.h"

#include "gtest/gtest.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;
using json = nlohmann::json;

namespace {

/// Two pools, four buffers, every kind of constraint the solver honours.
json goodDocument() {
  return json::parse(R"({
    "schema_version": 1,
    "profile": "pypto_research_v1",
    "instance": "unit::good",
    "metadata": {"producer": "unit test"},
    "problem": {
      "pools": [
        {"id": 1, "name": "Vec", "capacity": 188416,
         "reserved_ranges": [{"begin": 180224, "end": 188416}]},
        {"id": "L1", "name": "Mat", "capacity": 524288, "reserved_ranges": []}
      ],
      "buffers": [
        {"id": 0, "name": "x", "size": 1024, "alignment": 32,
         "live_intervals": [{"lower": 0, "upper": 4}, {"lower": 8, "upper": 10}],
         "allowed_pools": [1]},
        {"id": 1, "name": "y", "size": 2048, "alignment": 64,
         "live_intervals": [{"lower": 2, "upper": 6}], "allowed_pools": [1]},
        {"id": "z", "name": "z", "size": 512, "alignment": 32,
         "live_intervals": [{"lower": 6, "upper": 9}], "allowed_pools": [1]},
        {"id": 3, "name": "w", "size": 4096, "alignment": 32,
         "live_intervals": [{"lower": 0, "upper": 1}], "allowed_pools": ["L1"]}
      ],
      "constraints": {
        "colocations": [{"first": 1, "second": "z"}],
        "separations": [{"first": 0, "second": 1, "reasons": ["pipeline_stage"]}],
        "pinned_allocations": [{"buffer": 3, "pool": "L1", "offset": 8192,
                                "exclusive_for_all_time": false}],
        "temporal_exclusions": []
      },
      "objective": {"aggregation": "lexicographic",
                    "terms": ["total_peak", "max_peak"]}
    }
  })");
}

ReadResult read(const json &document, Problem &problem) {
  return readSchemaV1Problem(document.dump(), problem);
}

/// Reading `document` fails, and the error names `path`.
void expectErrorAt(const json &document, const std::string &path) {
  Problem problem;
  ReadResult result = read(document, problem);
  EXPECT_FALSE(result.ok) << "expected an error at " << path;
  EXPECT_NE(result.error.find(path), std::string::npos)
      << "error '" << result.error << "' does not name " << path;
}

bool anyMentions(const std::vector<std::string> &lines,
                 const std::string &word) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string &l) {
    return l.find(word) != std::string::npos;
  });
}

TEST(SchemaV1Problem, ReadsEveryField) {
  Problem problem;
  ReadResult result = read(goodDocument(), problem);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.unsupported.empty());
  ASSERT_EQ(problem.pools.size(), 2u);
  EXPECT_EQ(problem.pools[0].id, "1");
  EXPECT_EQ(problem.pools[0].name, "Vec");
  EXPECT_EQ(problem.pools[0].capacity, 188416);
  ASSERT_EQ(problem.pools[0].reserved.size(), 1u);
  EXPECT_EQ(problem.pools[0].reserved[0].begin, 180224);
  EXPECT_EQ(problem.pools[0].reserved[0].end, 188416);
  EXPECT_EQ(problem.pools[1].id, "L1");

  ASSERT_EQ(problem.buffers.size(), 4u);
  const Buffer &x = problem.buffers[0];
  EXPECT_EQ(x.id, "0");
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.size, 1024);
  EXPECT_EQ(x.alignment, 32);
  EXPECT_EQ(x.pool, 0u);
  ASSERT_EQ(x.live.size(), 2u);
  EXPECT_EQ(x.live[1].lower, 8);
  EXPECT_EQ(x.live[1].upper, 10);
  EXPECT_EQ(problem.buffers[1].alignment, 64);
  EXPECT_EQ(problem.buffers[2].id, "z");
  EXPECT_EQ(problem.buffers[3].pool, 1u);
  EXPECT_FALSE(x.pinnedOffset.has_value());
  ASSERT_TRUE(problem.buffers[3].pinnedOffset.has_value());
  EXPECT_EQ(*problem.buffers[3].pinnedOffset, 8192);

  ASSERT_EQ(problem.colocations.size(), 1u);
  EXPECT_EQ(problem.colocations[0].first, 1u);
  EXPECT_EQ(problem.colocations[0].second, 2u);
  ASSERT_EQ(problem.separations.size(), 1u);
  EXPECT_EQ(problem.separations[0].first, 0u);
  EXPECT_EQ(problem.separations[0].second, 1u);
  EXPECT_EQ(problem.separations[0].reason, "pipeline_stage");
  EXPECT_TRUE(checkProblem(problem).empty());
}

TEST(SchemaV1Problem, ReadsEveryCorpusStyleNullCapacityAsUnbounded) {
  json document = goodDocument();
  document["problem"]["pools"][1]["capacity"] = nullptr;
  Problem problem;
  ReadResult result = read(document, problem);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_GE(problem.pools[1].capacity, int64_t(1) << 40);
}

TEST(SchemaV1Problem, ReadsPenaltiesExclusionsAndTheReuseCostObjective) {
  json document = goodDocument();
  json &problem = document["problem"];
  problem["constraints"]["temporal_exclusions"] =
      json::parse(R"([{"first": 0, "second": 1}])");
  problem["constraints"]["pinned_allocations"][0]["exclusive_for_all_time"] = true;
  problem["cost_model"] =
      json::parse(R"({"reuse_penalties": [{"first": 0, "second": "z",
                     "cost": 3, "reason": "cross_pipe"}]})");
  problem["objective"]["terms"] =
      json::parse(R"(["capacity_overflow", "reuse_cost"])");
  problem["buffers"][1]["alignment"] = 48;
  Problem read_;
  ReadResult result = read(document, read_);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.unsupported.empty());
  EXPECT_EQ(read_.objective, Objective::ReuseCost);
  ASSERT_EQ(read_.temporalExclusions.size(), 1u);
  EXPECT_EQ(read_.temporalExclusions[0].second, 1u);
  ASSERT_EQ(read_.reusePenalties.size(), 1u);
  EXPECT_EQ(read_.reusePenalties[0].second, 2u);
  EXPECT_EQ(read_.reusePenalties[0].cost, 3);
  EXPECT_EQ(read_.reusePenalties[0].reason, "cross_pipe");
  EXPECT_TRUE(read_.buffers[3].exclusivePin);
  EXPECT_EQ(read_.buffers[1].alignment, 48);
  EXPECT_EQ(read_.document.profile, "pypto_research_v1");
  EXPECT_EQ(read_.document.instance, "unit::good");
  EXPECT_EQ(read_.document.referenceFingerprint.size(), 16u);
  // Written and read again, nothing is lost.
  Problem again;
  ASSERT_TRUE(readSchemaV1Problem(writeSchemaV1Problem(read_, "again"), again).ok);
  EXPECT_EQ(again.objective, Objective::ReuseCost);
  EXPECT_EQ(again.temporalExclusions.size(), 1u);
  EXPECT_EQ(again.reusePenalties.size(), 1u);
  EXPECT_TRUE(again.buffers[3].exclusivePin);
  EXPECT_EQ(problemFingerprint(again), problemFingerprint(read_));
}

TEST(SchemaV1Problem, RefusesMissingRequiredFieldsByName) {
  auto without = [](std::initializer_list<const char *> path) {
    json document = goodDocument();
    json *at = &document;
    std::vector<const char *> keys(path);
    for (size_t i = 0; i + 1 < keys.size(); ++i)
      at = std::isdigit(static_cast<unsigned char>(keys[i][0]))
               ? &(*at)[std::stoul(keys[i])]
               : &(*at)[keys[i]];
    at->erase(keys.back());
    return document;
  };
  expectErrorAt(without({"profile"}), "profile");
  expectErrorAt(without({"instance"}), "instance");
  expectErrorAt(without({"problem", "objective"}), "problem.objective");
  expectErrorAt(without({"problem", "constraints"}), "problem.constraints");
  expectErrorAt(without({"problem", "constraints", "temporal_exclusions"}),
                "problem.constraints.temporal_exclusions");
  expectErrorAt(without({"problem", "pools", "0", "reserved_ranges"}),
                "problem.pools[0].reserved_ranges");
  expectErrorAt(without({"problem", "buffers", "1", "name"}),
                "problem.buffers[1].name");
  expectErrorAt(without({"problem", "buffers", "1", "alignment"}),
                "problem.buffers[1].alignment");
  expectErrorAt(without({"problem", "constraints", "pinned_allocations", "0",
                         "exclusive_for_all_time"}),
                "problem.constraints.pinned_allocations[0].exclusive_for_all_time");
  json document = goodDocument();
  document["problem"]["cost_model"] =
      json::parse(R"({"reuse_penalties": [{"first": 0, "second": 1, "cost": 1}]})");
  expectErrorAt(document, "problem.cost_model.reuse_penalties[0].reason");
}

TEST(SchemaV1Problem, ReportsWhatItDoesNotHonour) {
  json document = goodDocument();
  json &problem = document["problem"];
  problem["pools"][0]["bank_geometry"] =
      json::parse(R"({"bank_size": 2048, "num_banks": 16})");
  problem["objective"]["terms"].push_back("reuse_cost");
  Problem read_;
  ReadResult result = read(document, read_);
  ASSERT_TRUE(result.ok) << result.error;
  // A reuse cost after the peak terms only breaks ties: not optimised.
  for (const char *word : {"bank_geometry", "reuse_cost"})
    EXPECT_TRUE(anyMentions(result.unsupported, word))
        << word << " is not reported as unsupported";
}

TEST(SchemaV1Problem, KeepsEveryAllowedPool) {
  json document = goodDocument();
  document["problem"]["buffers"][0]["allowed_pools"] = json::parse(R"(["L1", 1])");
  Problem problem;
  ReadResult result = read(document, problem);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.unsupported.empty());
  // In the input's order; the solver starts from the first.
  EXPECT_EQ(problem.buffers[0].allowedPools, (std::vector<size_t>{1, 0}));
  EXPECT_EQ(problem.buffers[0].pool, 1u);
  // One allowed pool is just the buffer's pool.
  EXPECT_TRUE(problem.buffers[1].allowedPools.empty());
  // The written document lists them all again.
  Problem back;
  ASSERT_TRUE(readSchemaV1Problem(writeSchemaV1Problem(problem, "again"), back).ok);
  EXPECT_EQ(back.buffers[0].allowedPools, problem.buffers[0].allowedPools);

  document["problem"]["buffers"][0]["allowed_pools"] = json::parse(R"([1, "L1", 1])");
  expectErrorAt(document, "problem.buffers[0].allowed_pools[2]");
  document["problem"]["buffers"][0]["allowed_pools"] = json::parse(R"([1, "UB"])");
  expectErrorAt(document, "problem.buffers[0].allowed_pools[1]");
}

TEST(SchemaV1Problem, ErrorsNameTheJsonPath) {
  {
    Problem problem;
    ReadResult result = readSchemaV1Problem("{\"schema_version\": 1,", problem);
    EXPECT_FALSE(result.ok);
    EXPECT_FALSE(result.error.empty());
  }
  json document = goodDocument();

  json bad = document;
  bad["problem"]["buffers"][1]["size"] = 0;
  expectErrorAt(bad, "problem.buffers[1].size");
  bad = document;
  bad["problem"]["buffers"][2]["size"] = -5;
  expectErrorAt(bad, "problem.buffers[2].size");
  bad = document;
  bad["problem"]["buffers"][0]["alignment"] = 0;
  expectErrorAt(bad, "problem.buffers[0].alignment");
  bad = document;
  bad["problem"]["buffers"][0]["alignment"] = -32;
  expectErrorAt(bad, "problem.buffers[0].alignment");
  bad = document;
  bad["problem"]["buffers"][0]["live_intervals"][1]["upper"] = 8;
  expectErrorAt(bad, "problem.buffers[0].live_intervals[1]");
  bad = document;
  bad["problem"]["buffers"][3]["size"] = "big";
  expectErrorAt(bad, "problem.buffers[3].size");
  bad = document;
  bad["problem"]["buffers"][1].erase("live_intervals");
  expectErrorAt(bad, "problem.buffers[1]");
  bad = document;
  bad["problem"]["buffers"][1]["allowed_pools"] = json::parse("[7]");
  expectErrorAt(bad, "problem.buffers[1].allowed_pools");
  bad = document;
  bad["problem"]["constraints"]["separations"][0]["second"] = 42;
  expectErrorAt(bad, "problem.constraints.separations[0]");
  bad = document;
  bad["problem"]["constraints"]["colocations"][0]["first"] = "nobody";
  expectErrorAt(bad, "problem.constraints.colocations[0]");
  bad = document;
  bad["problem"]["constraints"]["pinned_allocations"][0]["buffer"] = 99;
  expectErrorAt(bad, "problem.constraints.pinned_allocations[0]");
  bad = document;
  bad["schema_version"] = 2;
  expectErrorAt(bad, "schema_version");
}

TEST(SchemaV1Problem, BufferLargerThanItsPoolIsRejected) {
  json document = goodDocument();
  document["problem"]["buffers"][0]["size"] = 200000;
  Problem problem;
  ReadResult result = read(document, problem);
  // Either the reader or checkProblem must say so, naming the buffer.
  if (result.ok) {
    std::vector<std::string> errors = checkProblem(problem);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("0"), std::string::npos) << errors[0];
  } else {
    EXPECT_NE(result.error.find("problem.buffers[0]"), std::string::npos)
        << result.error;
  }
}

TEST(SchemaV1Problem, WriteReadRoundTripAndDeterminism) {
  Problem problem;
  ASSERT_TRUE(read(goodDocument(), problem).ok);
  std::string text = writeSchemaV1Problem(problem, "round-trip");
  EXPECT_EQ(text, writeSchemaV1Problem(problem, "round-trip"));
  Problem again;
  ReadResult result = readSchemaV1Problem(text, again);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(writeSchemaV1Problem(again, "round-trip"), text);
  EXPECT_EQ(problemFingerprint(again), problemFingerprint(problem));
  ASSERT_EQ(again.buffers.size(), problem.buffers.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    EXPECT_EQ(again.buffers[b].id, problem.buffers[b].id);
    EXPECT_EQ(again.buffers[b].size, problem.buffers[b].size);
    EXPECT_EQ(again.buffers[b].pool, problem.buffers[b].pool);
    EXPECT_EQ(again.buffers[b].pinnedOffset, problem.buffers[b].pinnedOffset);
  }
  EXPECT_EQ(again.separations.size(), 1u);
  EXPECT_EQ(again.colocations.size(), 1u);
}

TEST(Fingerprint, SixteenHexDigitsThatFollowTheProblem) {
  Problem problem;
  ASSERT_TRUE(read(goodDocument(), problem).ok);
  std::string fingerprint = problemFingerprint(problem);
  ASSERT_EQ(fingerprint.size(), 16u);
  for (char c : fingerprint)
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(c)) ||
                (c >= 'a' && c <= 'f'))
        << fingerprint;
  Problem changed = problem;
  changed.buffers[2].size += 32;
  EXPECT_NE(problemFingerprint(changed), fingerprint);
  changed = problem;
  changed.buffers[0].live[0].upper = 5;
  EXPECT_NE(problemFingerprint(changed), fingerprint);
  changed = problem;
  changed.separations.clear();
  EXPECT_NE(problemFingerprint(changed), fingerprint);
}

TEST(SchemaV1Solution, RoundTrip) {
  Problem problem;
  ASSERT_TRUE(read(goodDocument(), problem).ok);
  Placement placement = {0, 1024, 1024, 8192};
  ASSERT_TRUE(validate(problem, placement).empty())
      << describe(validate(problem, placement));
  std::string text = writeSchemaV1Solution(problem, placement);
  json document = json::parse(text);
  EXPECT_EQ(document["schema_version"], 1);
  // The reference solution format: the document the problem came from.
  EXPECT_EQ(document["profile"], "pypto_research_v1");
  EXPECT_EQ(document["instance"], "unit::good");
  EXPECT_EQ(document["problem_fingerprint"],
            problem.document.referenceFingerprint);
  EXPECT_TRUE(document["metadata"].is_object());
  ASSERT_EQ(document["placements"].size(), 4u);
  EXPECT_EQ(document["placements"][3]["offset"], 8192);

  Placement back;
  ReadResult result = readSchemaV1Solution(text, problem, back);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(back, placement);
}

TEST(SchemaV1Solution, RejectsMismatchesWithTheProblem) {
  Problem problem;
  ASSERT_TRUE(read(goodDocument(), problem).ok);
  json good = json::parse(writeSchemaV1Solution(problem, {0, 1024, 1024, 8192}));
  auto expectRejected = [&](const json &document, const std::string &why) {
    Placement placement;
    ReadResult result = readSchemaV1Solution(document.dump(), problem, placement);
    EXPECT_FALSE(result.ok) << why;
    EXPECT_FALSE(result.error.empty()) << why;
  };
  json bad = good;
  bad["problem_fingerprint"] = "0123456789abcdef";
  expectRejected(bad, "fingerprint");
  bad = good;
  bad["instance"] = "unit::other";
  expectRejected(bad, "another instance");
  for (const char *field : {"schema_version", "profile", "instance",
                            "problem_fingerprint", "metadata", "placements"}) {
    bad = good;
    bad.erase(field);
    Placement placement;
    ReadResult result = readSchemaV1Solution(bad.dump(), problem, placement);
    EXPECT_FALSE(result.ok) << field;
    EXPECT_NE(result.error.find(field), std::string::npos) << result.error;
  }
  bad = good;
  bad["placements"][0]["buffer"] = "ghost";
  expectRejected(bad, "unknown buffer");
  bad = good;
  bad["placements"][1]["buffer"] = bad["placements"][0]["buffer"];
  expectRejected(bad, "buffer placed twice");
  bad = good;
  bad["placements"][0]["pool"] = "L0C";
  expectRejected(bad, "unknown pool");
  Placement placement;
  EXPECT_FALSE(readSchemaV1Solution("[1, 2", problem, placement).ok);
}

//===----------------------------------------------------------------------===//
// MiniMalloc CSV
//===----------------------------------------------------------------------===//

TEST(MiniMallocCsv, ReadsTheBasicColumns) {
  Problem problem;
  Placement offsets;
  ReadResult result = readMiniMallocCsv(
      "id,lower,upper,size\n0,0,10,4\n1,5,15,8\n", 64, problem, offsets);
  ASSERT_TRUE(result.ok) << result.error;
  ASSERT_EQ(problem.pools.size(), 1u);
  EXPECT_EQ(problem.pools[0].capacity, 64);
  ASSERT_EQ(problem.buffers.size(), 2u);
  EXPECT_EQ(problem.buffers[1].id, "1");
  EXPECT_EQ(problem.buffers[1].size, 8);
  ASSERT_EQ(problem.buffers[1].live.size(), 1u);
  EXPECT_EQ(problem.buffers[1].live[0].lower, 5);
  EXPECT_EQ(problem.buffers[1].live[0].upper, 15);
  EXPECT_EQ(offsets, (Placement{kUnplaced, kUnplaced}));
}

TEST(MiniMallocCsv, ColumnsInAnyOrderWithAlignmentAndOffset) {
  Problem problem;
  Placement offsets;
  ReadResult result = readMiniMallocCsv(
      "size,offset,upper,alignment,id,lower\n16,32,3,16,a,0\n8,0,4,8,b,1\n",
      1024, problem, offsets);
  ASSERT_TRUE(result.ok) << result.error;
  ASSERT_EQ(problem.buffers.size(), 2u);
  EXPECT_EQ(problem.buffers[0].id, "a");
  EXPECT_EQ(problem.buffers[0].size, 16);
  EXPECT_EQ(problem.buffers[0].alignment, 16);
  EXPECT_EQ(problem.buffers[1].live[0].lower, 1);
  EXPECT_EQ(problem.buffers[1].live[0].upper, 4);
  EXPECT_EQ(offsets, (Placement{32, 0}));
}

/// Reading `text` fails and the error names `line`.
void expectCsvErrorAt(const std::string &text, const std::string &line) {
  Problem problem;
  Placement offsets;
  ReadResult result = readMiniMallocCsv(text, 1024, problem, offsets);
  EXPECT_FALSE(result.ok) << text;
  EXPECT_NE(result.error.find(line), std::string::npos)
      << "error '" << result.error << "' does not name " << line;
}

TEST(MiniMallocCsv, ErrorsNameTheLine) {
  expectCsvErrorAt("id,lower,size\n0,0,4\n", "line 1");
  expectCsvErrorAt("", "line 1");
  expectCsvErrorAt("id,lower,upper,size\n0,0,4,8\n1,0,x,8\n", "line 3");
  expectCsvErrorAt("id,lower,upper,size\n0,0,4,8\n1,0,4,0\n", "line 3");
  expectCsvErrorAt("id,lower,upper,size\n0,0,4,-8\n", "line 2");
  expectCsvErrorAt("id,lower,upper,size\n0,4,4,8\n", "line 2");
  expectCsvErrorAt("id,lower,upper,size\n0,0,4\n", "line 2");
  expectCsvErrorAt("id,lower,upper,size,alignment\n0,0,4,8,3\n", "line 2");
  expectCsvErrorAt("id,lower,upper,size,alignment\n0,0,4,8,0\n", "line 2");
  expectCsvErrorAt("id,lower,upper,size\n0,0,4,8\n1,0,4,8\n2,0,4,2048\n",
                   "line 4");
}

TEST(MiniMallocCsv, WritesTheInputColumnsPlusOffset) {
  Problem problem;
  Placement offsets;
  ASSERT_TRUE(readMiniMallocCsv("id,lower,upper,size\n0,0,10,4\n1,5,15,8\n",
                                64, problem, offsets)
                  .ok);
  std::string text = writeMiniMallocCsv(problem, {0, 4});
  EXPECT_EQ(text.substr(0, text.find('\n')), "id,lower,upper,size,offset");
  EXPECT_EQ(text, writeMiniMallocCsv(problem, {0, 4}));
  Problem again;
  Placement back;
  ASSERT_TRUE(readMiniMallocCsv(text, 64, again, back).ok);
  EXPECT_EQ(back, (Placement{0, 4}));
  EXPECT_EQ(again.buffers.size(), 2u);
}

TEST(MiniMallocCsv, AnOffsetColumnIsNotDuplicated) {
  Problem problem;
  Placement offsets;
  ASSERT_TRUE(readMiniMallocCsv(
                  "id,lower,upper,size,alignment,offset\n0,0,10,4,4,8\n",
                  64, problem, offsets)
                  .ok);
  std::string text = writeMiniMallocCsv(problem, {12});
  std::string header = text.substr(0, text.find('\n'));
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 5) << header;
  EXPECT_NE(header.find("alignment"), std::string::npos) << header;
  Problem again;
  Placement back;
  ASSERT_TRUE(readMiniMallocCsv(text, 64, again, back).ok);
  EXPECT_EQ(back, Placement{12});
  EXPECT_EQ(again.buffers[0].alignment, 4);
}

TEST(MiniMallocSolution, ReadsWhatWriteMiniMallocCsvWrites) {
  Problem problem;
  Placement none;
  ASSERT_TRUE(readMiniMallocCsv("id,lower,upper,size\na,0,10,4\nb,5,15,8\n",
                                64, problem, none)
                  .ok);
  Placement placement;
  ReadResult result = readMiniMallocSolution(
      writeMiniMallocCsv(problem, {8, 16}), problem, placement);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(placement, (Placement{8, 16}));
  // Rows in another order land on the same buffers; a missing row stays
  // unplaced for the validator to report.
  result = readMiniMallocSolution("id,lower,upper,size,offset\nb,5,15,8,0\n",
                                  problem, placement);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(placement, (Placement{kUnplaced, 0}));
}

TEST(MiniMallocSolution, RejectsRowsThatAreNotTheProblems) {
  Problem problem;
  Placement none;
  ASSERT_TRUE(readMiniMallocCsv("id,lower,upper,size\na,0,10,4\n", 64,
                                problem, none)
                  .ok);
  auto error = [&](const std::string &text) {
    Placement placement;
    ReadResult result = readMiniMallocSolution(text, problem, placement);
    EXPECT_FALSE(result.ok) << text;
    return result.error;
  };
  EXPECT_EQ(error("id,lower,upper,size,offset\nz,0,10,4,0\n"),
            "buffer z: not in the problem");
  EXPECT_EQ(error("id,lower,upper,size,offset\na,0,11,4,0\n"),
            "buffer a: lower, upper, size or alignment differ from the problem's");
  EXPECT_EQ(error("id,lower,upper,size\na,0,10,4\n"), "buffer a: no offset");
  EXPECT_EQ(error("id,lower,upper,size,offset\na,0,10,4,0\na,0,10,4,0\n"),
            "line 3: buffer id a appears twice");
}

} // namespace
