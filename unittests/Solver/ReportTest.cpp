//===- ReportTest.cpp - Units for the JSON report and its reader ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// dsaplan-insert-sync draws the placement again from its JSON report, so
// readReportJson must give back what writeReportJson wrote: the same report
// and the same memory map, byte for byte.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Report.h"

#include "TestProblems.h"

#include "gtest/gtest.h"

using namespace dsaplan::solver;
using namespace dsaplan::solver::test;

namespace {

/// Two pools; a buffer with two live intervals, one with a location.
Problem twoPools() {
  ProblemBuilder builder(4096);
  builder.addPool(8192);
  builder.add(1024, {{0, 4}, {8, 10}});
  builder.add(512, {{2, 6}});
  builder.add(2048, {{0, 3}}, 1, 1);
  builder.problem.buffers[0].name = "a_ub";
  builder.problem.buffers[0].location = "k.mlir:3:5";
  return builder.problem;
}

TEST(ReportJson, ReadsBackWhatItWrote) {
  Problem problem = twoPools();
  Solution solution = solveWith(problem, Algorithm::Exact);
  std::string json =
      writeReportJson(problem, solution.offsets, solution.pools, "m::k");

  Problem read;
  Placement placement;
  std::vector<PoolResult> results;
  ASSERT_EQ(readReportJson(json, read, placement, results), "");
  EXPECT_EQ(read.document.instance, "m::k");
  EXPECT_EQ(placement, solution.offsets);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(writeReportJson(read, placement, results, "m::k"), json);
  for (const PoolResult &result : solution.pools)
    EXPECT_EQ(writeMemoryMapSvg(read, placement, results[result.pool], "t"),
              writeMemoryMapSvg(problem, solution.offsets, result, "t"));
}

TEST(ReportJson, SaysWhatIsWrong) {
  Problem read;
  Placement placement;
  std::vector<PoolResult> results;
  EXPECT_NE(readReportJson("{\"schema_version\": 1, \"instance\": \"k\"}",
                           read, placement, results)
                .find("pools"),
            std::string::npos);
  EXPECT_NE(readReportJson("{\"schema_version\": 2, \"instance\": \"k\"}",
                           read, placement, results)
                .find("schema_version: only version 1"),
            std::string::npos);
  EXPECT_NE(readReportJson("{\"instance\": \"k\"}", read, placement, results)
                .find("schema_version"),
            std::string::npos);
  std::string error = readReportJson(
      R"({"schema_version": 1, "instance": "k", "pools": [{"id": "0", "name": "ub",
          "capacity": 8, "peak": 0, "lower_bound": 0, "status": "great",
          "nodes": 0, "buffers": []}]})",
      read, placement, results);
  EXPECT_NE(error.find("unknown status 'great'"), std::string::npos) << error;
  EXPECT_NE(readReportJson("not json", read, placement, results), "");
}

} // namespace
