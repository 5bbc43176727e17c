//===- Control.h - Stopping and progress of one pool's searches -*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Solver. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// The anytime side of SolveOptions: the searches of a pool count their nodes
// here, learn here whether they must stop (SolveOptions::stop, set by a
// signal handler or a timer of the caller) and report, through it, the best
// they have found (SolveOptions::progress). A search that is told to stop
// ends as if its node budget were spent, so everything it says stays as
// honest as after a spent budget. A null control (the default of every
// search entry point) never stops and reports nothing.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SOLVER_CONTROL_H
#define DSAPLAN_LIB_SOLVER_CONTROL_H

#include "DsaPlan/Solver/Solve.h"

#include <algorithm>
#include <atomic>

namespace dsaplan::solver::detail {

class SearchControl {
public:
  SearchControl(const SolveOptions &options, size_t pool)
      : stopFlag(options.stop), progress(options.progress) {
    report.pool = pool;
  }

  /// Counts one search node; returns true when the search must stop now.
  /// One relaxed atomic load per node: cheap next to a node's work.
  bool countNode() {
    if (++report.nodes % SolveOptions::kProgressNodes == 0)
      tell();
    return stopRequested();
  }

  /// Whether the caller asked every search to stop; remembered, so that
  /// the pool can say it was cut short.
  bool stopRequested() {
    if (stopFlag && stopFlag->load(std::memory_order_relaxed))
      wasStopped = true;
    return wasStopped;
  }
  bool stopped() const { return wasStopped; }

  /// A new phase of the pool's search, with what is known at its start.
  void startPhase(SolveProgress::Phase phase, int64_t incumbent,
                  int64_t bound) {
    report.phase = phase;
    report.incumbent = incumbent;
    report.bound = bound;
    floor = 0;
    tell();
  }
  /// The peak of the components already placed: a component's placement
  /// offered later makes a pool peak of at least that.
  void setFloor(int64_t value) { floor = value; }
  void setBound(int64_t bound) { report.bound = bound; }
  /// A search found a placement of the pool (or, for the peak, of the
  /// current component) whose objective is `value`.
  void offer(int64_t value) {
    int64_t total = std::max(value, floor);
    if (report.incumbent < 0 || total < report.incumbent)
      report.incumbent = total;
  }

private:
  void tell() const {
    if (progress)
      progress(report);
  }

  const std::atomic<bool> *stopFlag;
  const std::function<void(const SolveProgress &)> &progress;
  SolveProgress report;
  int64_t floor = 0;
  bool wasStopped = false;
};

} // namespace dsaplan::solver::detail

#endif // DSAPLAN_LIB_SOLVER_CONTROL_H
