#!/usr/bin/env python3
"""Times `dsa-opt --dsa-plan` on synthetic kernels of N allocations.

Prints one row per N: wall time (best of R runs), peak RSS of dsa-opt, and
the ratio time(N) / time(smallest N). Goal (issue 25): 10,000 allocations
in under 1 s and 512 MiB, 1,000 in under 0.15 s, best of 3. `--no-sync`
measures the placement stages alone (the sync passes joined the pipeline
later); `--summary` the pipeline with its summary remarks (a simulated run
and the counts behind them).

  bench/pipeline/run.py [--dsa-opt build/bin/dsa-opt] [--sizes 1000 10000] [--repeat 3]
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
gen = __import__("gen-kernel")


def run_once(dsa_opt, path, extra):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run([dsa_opt, path, "--dsa-plan" + extra, "-o", os.devnull],
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"dsa-opt failed on {path}:\n{proc.stderr[:2000]}")
    # ru_maxrss of children is the max over all children so far; each run is
    # at least as large as the previous sizes, so it is this run's peak.
    return elapsed, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(HERE, "../../build/bin/dsa-opt"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--algorithm", default="auto")
    parser.add_argument("--no-sync", action="store_true",
                        help="placement only: insert-sync=false verify-sync=false")
    parser.add_argument("--summary", action="store_true",
                        help="with summary=1: the remarks, their counts and a simulated run")
    args = parser.parse_args()
    extra = f"=algorithm={args.algorithm}"
    if args.summary:
        extra += " summary=1"
    if args.no_sync:
        extra += " insert-sync=false verify-sync=false"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sorted(args.sizes):
            path = os.path.join(tmp, f"k{n}.mlir")
            with open(path, "w") as f:
                f.write(gen.generate(n, seed=1))
            best, rss = min(run_once(args.dsa_opt, path, extra) for _ in range(args.repeat))
            rows.append((n, best, rss))
    base = rows[0][1]
    print(f"{'allocs':>8} {'time (s)':>10} {'peak RSS (MiB)':>15} {'time / time(' + str(rows[0][0]) + ')':>18}")
    for n, t, rss in rows:
        print(f"{n:>8} {t:>10.3f} {rss / 1024:>15.1f} {t / base:>18.2f}")


if __name__ == "__main__":
    main()
