//===- Anytime.h - Signals, time limit and progress of dsa-solve -*- C++ -*-===//
//
// Part of dsaplan. Standard C++ and POSIX only: dsa-solve builds without LLVM.
//
//===----------------------------------------------------------------------===//
//
// What lets a user stop a long solve and keep what it found: SIGINT and
// SIGTERM (and the SIGALRM of --time-limit) set one lock-free flag, which
// the solver's searches poll (SolveOptions::stop); they then end as if
// their budgets were spent, and dsa-solve writes the best solution with the
// statuses that were proved. A second SIGINT or SIGTERM kills at once (the
// handler resets itself). The progress printer reports, on standard error,
// each pool's incumbent, bound and nodes, at most once per interval.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TOOLS_DSASOLVE_ANYTIME_H
#define DSAPLAN_TOOLS_DSASOLVE_ANYTIME_H

#include "DsaPlan/Solver/Solve.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

namespace dsaplan::cli {

/// The flag SolveOptions::stop points at: set by the handlers below.
const std::atomic<bool> &stopFlag();

/// The signal that set the flag (SIGINT, SIGTERM, or SIGALRM for the time
/// limit), 0 while none has.
int stopSignal();

/// Installs the handlers of SIGINT and SIGTERM; each sets the flag once and
/// restores the default action, so that a second signal ends the process.
void installStopHandlers();

/// Arms a one-shot timer that sets the flag (as SIGALRM) after `seconds`.
/// Returns false (errno set) when the timer cannot be armed.
bool armTimeLimit(double seconds);

/// A SolveOptions::progress callback that prints, to `out`, one line per
/// report once `interval` seconds have passed since `start`, and then at
/// most one per `interval` (0: every report). `poolName(i)` names pool i.
std::function<void(const solver::SolveProgress &)>
progressPrinter(FILE *out, double interval,
                std::chrono::steady_clock::time_point start,
                std::function<std::string(size_t)> poolName);

} // namespace dsaplan::cli

#endif // DSAPLAN_TOOLS_DSASOLVE_ANYTIME_H
