//===- Report.h - Memory-map pictures and JSON reports ----------*- C++ -*-===//
//
// Part of dsaplan. Standard C++ only (the JSON is written by hand, in a
// fixed key order, so that reports are byte-for-byte deterministic).
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
/// access to (point, address) of the later one.
struct SyncArrow {
  int64_t fromPoint = 0;
  int64_t fromAddress = 0;
  int64_t toPoint = 0;
  int64_t toAddress = 0;
  std::string label; // "set/wait <v -> mte2>, 0"
};

/// For each buffer of `pool`, whether it reuses only part of the bytes of a
/// buffer whose lifetime ended before it started (the reuse that
/// identity-based sync insertion misses). Indexed like Problem::buffers.
std::vector<bool> findPartialReuses(const Problem &problem,
                                    const Placement &placement, size_t pool);

/// The memory map of one pool as a self-contained SVG document. Every buffer
/// interval is a <rect class="buffer"> carrying data-buffer, data-offset,
/// data-size, data-lower and data-upper, with a <title> shown on hover; the
/// root carries the scale (data-x0, data-x-scale, data-y0, data-y-scale,
/// data-first-point) so a checker can recompute every coordinate.
std::string writeMemoryMapSvg(const Problem &problem,
                              const Placement &placement,
                              const PoolResult &result,
                              const std::string &title,
                              const std::vector<SyncArrow> &syncs = {});

/// A JSON report of every pool: buffers with offsets and live ranges, peak,
/// lower bound, status and nodes.
std::string writeReportJson(const Problem &problem, const Placement &placement,
                            const std::vector<PoolResult> &results,
                            const std::string &instance);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_REPORT_H
