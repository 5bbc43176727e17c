//===- Report.h - Memory-map pictures and JSON reports ----------*- C++ -*-===//
//
// Part of dsaplan. Standard C++ only (the JSON is written with nlohmann_json,
// privately, in a fixed key order, so that reports are byte-for-byte
// deterministic).
//
//===----------------------------------------------------------------------===//
//
// What people look at when they debug a placement: one self-contained SVG per
// pool (x is the program point, y the address, one rectangle per live
// interval of each buffer), and a JSON report with the same facts.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_REPORT_H
#define DSAPLAN_SOLVER_REPORT_H

#include "DsaPlan/Solver/Problem.h"
#include "DsaPlan/Solver/Solve.h"

#include <string>
#include <vector>

namespace dsaplan::solver {

/// A flag pair to draw: an arrow from (point, address) of the access the
/// flag is set after to (point, address) of the access its wait guards.
/// Points are the placement's program points, so that the arrow lands on
/// the tiles the placement drew.
struct SyncArrow {
  int64_t fromPoint = 0;
  int64_t fromAddress = 0;
  int64_t toPoint = 0;
  int64_t toAddress = 0;
  /// The tiles of the two accesses, as the memory map names them.
  std::string fromName, toName;
  /// The tooltip: "set/wait <v -> mte2>, 0: ..." with the ops and where
  /// they come from.
  std::string label;
  std::string pipe; // the setting pipe, for the colour and the legend
  /// The wait is in the next iteration of a loop (a back edge): the arrow
  /// points backwards in program order and is drawn dashed.
  bool nextIteration = false;
};

/// A pipe_barrier to draw: a vertical mark at the program point of the
/// access it holds back.
struct BarrierMark {
  int64_t point = 0;
  std::string pipe; // "all" for a barrier_all
  std::string label; // the tooltip
};

/// What a memory map shows besides the buffers: the syncs, once inserted.
struct MemoryMapExtras {
  std::vector<SyncArrow> syncs;
  std::vector<BarrierMark> barriers;
  /// The set_flag ops of the whole function (a loop pair's set before its
  /// loop included), for the caption: the sets without an arrow here order
  /// other spaces' bytes, GM, or nothing yet (a loop's pre-set).
  size_t functionSyncs = 0;
};

/// For each buffer of `pool`, whether it reuses only part of the bytes of a
/// buffer whose lifetime ended before it started (the reuse that
/// identity-based sync insertion misses). Indexed like Problem::buffers.
std::vector<bool> findPartialReuses(const Problem &problem,
                                    const Placement &placement, size_t pool);

/// The memory map of one pool as a self-contained SVG document: program
/// points across, addresses up, with round ticks (bytes or KiB), a legend,
/// and capacity, peak and lower bound as lines. Every buffer interval is a
/// <rect class="buffer"> carrying data-buffer, data-name, data-offset,
/// data-size, data-lower and data-upper, with a <title> shown on hover
/// (name, bytes, live range, location); one too small to see is drawn at a
/// minimum size, marked by class "min-size". The root carries the scale
/// (data-x0, data-x-scale, data-y0, data-y-scale, data-first-point) so a
/// checker can recompute every coordinate. `extras` adds the syncs: an
/// arrow (<g class="sync">) per flag pair, a mark (<g class="barrier">) per
/// pipe_barrier, and their pipes in the legend.
std::string writeMemoryMapSvg(const Problem &problem,
                              const Placement &placement,
                              const PoolResult &result,
                              const std::string &title,
                              const MemoryMapExtras &extras = {});

/// Each objective of a placed pool with its own status, for messages. Under
/// Objective::ReuseCost, PoolResult::status speaks of the reuse cost, and the
/// peak only had to fit: "reuse cost 0 (optimal, bound 0); peak 163904 B
/// (not minimised, least 98304 B)", `costDetail` (if any) after the bound.
/// Under Objective::Peak: "peak 2048 B (optimal, least 2048 B)".
/// `reuseCost` is the cost as counted (the validator's recount).
std::string objectiveSummary(const PoolResult &result, Objective objective,
                             int64_t reuseCost,
                             const std::string &costDetail = "");

/// The `schema_version` of the placement report; docs/schemas/placement.json
/// is its schema. Raised when a field changes meaning or goes away, not
/// when one is added.
constexpr int kReportSchemaVersion = 1;

/// A JSON report of every pool: buffers with offsets and live ranges, peak,
/// lower bound, status and nodes. `status` is the status of the pool's
/// objective; under Objective::ReuseCost also `reuse_cost_status` (the same)
/// and `peak_status` ("not minimised": the peak only had to fit).
std::string writeReportJson(const Problem &problem, const Placement &placement,
                            const std::vector<PoolResult> &results,
                            const std::string &instance);

/// The inverse of writeReportJson, for drawing a placement again later (with
/// its syncs): the instance, the pools (id, name, capacity), the buffers (id, name,
/// location, size, alignment, live ranges), their offsets, and per pool the
/// peak, lower bound, status, proof, certificate, nodes and buffer count
/// (not the reuse costs: the penalties are not in the report). Returns an
/// empty string on success, else what is wrong with `text`.
std::string readReportJson(const std::string &text, Problem &problem,
                           Placement &placement,
                           std::vector<PoolResult> &results);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_REPORT_H
