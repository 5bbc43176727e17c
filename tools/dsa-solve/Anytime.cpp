//===- Anytime.cpp - Signals, time limit and progress of dsa-solve --------===//
//
// Part of dsaplan. Standard C++ and POSIX only.
//
//===----------------------------------------------------------------------===//

#include "Anytime.h"

#include <csignal>
#include <cstring>
#include <memory>
#include <sys/time.h>

using namespace dsaplan::cli;
using dsaplan::solver::SolveProgress;

namespace {

/// Lock-free, so that setting it from a signal handler is async-signal-safe.
std::atomic<bool> stopRequested{false};
static_assert(std::atomic<bool>::is_always_lock_free,
              "the stop flag is set from signal handlers");
volatile std::sig_atomic_t stoppedBy = 0;

/// Only async-signal-safe work: two stores. The first signal wins.
extern "C" void onStopSignal(int signal) {
  if (!stoppedBy)
    stoppedBy = signal;
  stopRequested.store(true, std::memory_order_relaxed);
}

void installHandler(int signal, bool once) {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the next signal takes the default action (ends the
  // process), for a user who does not want to wait for the output.
  action.sa_flags = once ? SA_RESETHAND : 0;
  sigaction(signal, &action, nullptr);
}

const char *phaseName(SolveProgress::Phase phase) {
  return phase == SolveProgress::Phase::Peak ? "peak" : "reuse cost";
}

} // namespace

const std::atomic<bool> &dsaplan::cli::stopFlag() { return stopRequested; }

int dsaplan::cli::stopSignal() { return stoppedBy; }

void dsaplan::cli::installStopHandlers() {
  installHandler(SIGINT, /*once=*/true);
  installHandler(SIGTERM, /*once=*/true);
}

bool dsaplan::cli::armTimeLimit(double seconds) {
  installHandler(SIGALRM, /*once=*/false);
  struct itimerval timer;
  std::memset(&timer, 0, sizeof timer);
  auto whole = static_cast<long>(seconds);
  timer.it_value.tv_sec = whole;
  timer.it_value.tv_usec = static_cast<long>((seconds - whole) * 1e6);
  // A zero it_value would disarm the timer: the shortest limit is 1 us.
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0)
    timer.it_value.tv_usec = 1;
  return setitimer(ITIMER_REAL, &timer, nullptr) == 0;
}

std::function<void(const SolveProgress &)> dsaplan::cli::progressPrinter(
    FILE *out, double interval, std::chrono::steady_clock::time_point start,
    std::function<std::string(size_t)> poolName) {
  using Clock = std::chrono::steady_clock;
  auto next = std::make_shared<Clock::time_point>(
      start + std::chrono::duration_cast<Clock::duration>(
                  std::chrono::duration<double>(interval)));
  return [=](const SolveProgress &report) {
    Clock::time_point now = Clock::now();
    if (now < *next)
      return;
    *next = now + std::chrono::duration_cast<Clock::duration>(
                      std::chrono::duration<double>(interval));
    double seconds = std::chrono::duration<double>(now - start).count();
    std::string incumbent = report.incumbent < 0
                                ? std::string("none yet")
                                : std::to_string(report.incumbent);
    std::fprintf(out,
                 "dsa-solve: %.1f s: pool %s %s: incumbent %s, bound %lld, "
                 "nodes %llu\n",
                 seconds, poolName(report.pool).c_str(),
                 phaseName(report.phase), incumbent.c_str(),
                 static_cast<long long>(report.bound),
                 static_cast<unsigned long long>(report.nodes));
    std::fflush(out);
  };
}
