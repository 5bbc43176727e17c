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

/// A synchronisation to draw: an arrow from (point, address) of the earlier
/// access (where the flag is set) to (point, address) of the later one
/// (where it is waited for).
struct SyncArrow {
  int64_t fromPoint = 0;
  int64_t fromAddress = 0;
  int64_t toPoint = 0;
  int64_t toAddress = 0;
  std::string label; // "set/wait <v -> mte2>, 0"
  std::string pipe;  // the setting pipe, for the colour and the legend
};

/// A pipe_barrier to draw: a vertical mark at its program point.
struct BarrierMark {
  int64_t point = 0;
  std::string pipe;
};

/// What a memory map shows besides the buffers.
struct MemoryMapExtras {
  std::vector<SyncArrow> syncs;
  std::vector<BarrierMark> barriers;
  /// The buffers span first to last access (of synchronised IR), not live
  /// ranges: the lower bound and the status of those spans say nothing about
  /// the placement, so they are left out.
  bool accessSpans = false;
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
/// checker can recompute every coordinate.
std::string writeMemoryMapSvg(const Problem &problem,
                              const Placement &placement,
                              const PoolResult &result,
                              const std::string &title,
                              const MemoryMapExtras &extras = {});

/// A JSON report of every pool: buffers with offsets and live ranges, peak,
/// lower bound, status and nodes.
std::string writeReportJson(const Problem &problem, const Placement &placement,
                            const std::vector<PoolResult> &results,
                            const std::string &instance);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_REPORT_H
