#!/usr/bin/env python3
"""The reuse-cost objective (DSA-RP) on the shared PyPTO soft instances, or
on MiniMalloc's challenging instances lifted to DSA-RP (--corpus
../shared/corpus/dsa-rp/minimalloc: a column with each one's best-known
cost from the corpus README).

Runs dsa-solve (default options) on every schema-v1 problem of a folder and
prints one row per instance: whether every pool fits, the reuse cost the
validator recomputes (summed over pools), the proven bound, whether the
cost is proven minimal, the cost-search nodes and the wall time of the run.
The last lines sum them up against the corpus README's best-known figures.

  bench/reuse/run.py [--dsa-solve build/bin/dsa-solve]
                     [--corpus ../shared/corpus/dsa-rp/pypto] [--quiet]
                     [-- EXTRA dsa-solve OPTIONS]
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
POOL = re.compile(r"^pool (\S+) .* (optimal|feasible|infeasible)$")
COST = re.compile(r"^  reuse cost (\d+) \((optimal|feasible), bound (\d+), gap \d+, "
                  r"(\d+) penalised pairs share bytes, (\d+) cost nodes\); ")


# dsa-solver's minimalloc-dsa-rp-v1 best known costs and first fit (the
# corpus README, dsa-rp/README.md).
MINIMALLOC_BEST = {"A": 285, "B": 329, "C": 365, "D": 248, "E": 403, "F": 129}
MINIMALLOC_FIRST_FIT = {"A": 326, "B": 370, "C": 418, "D": 271, "E": 461, "F": 616}


def solve(dsa_solve, path, extra):
    start = time.perf_counter()
    proc = subprocess.run([dsa_solve, path, *extra], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1) or "internal error" in proc.stderr:
        sys.exit(f"dsa-solve failed on {path}:\n{proc.stderr}")
    fits = proc.returncode == 0
    cost = bound = pairs = nodes = 0
    proven = True
    for line in proc.stdout.splitlines():
        m = COST.match(line)
        if m:
            cost += int(m.group(1))
            proven &= m.group(2) == "optimal"
            bound += int(m.group(3))
            pairs += int(m.group(4))
            nodes += int(m.group(5))
    return fits, cost, bound, pairs, nodes, proven and fits, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build", "bin", "dsa-solve"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus",
                                                         "dsa-rp", "pypto"))
    parser.add_argument("--quiet", action="store_true", help="totals only")
    parser.add_argument("extra", nargs="*", help="more dsa-solve options (after --)")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.corpus, "*.json")))
    if not files:
        sys.exit(f"no *.json in {args.corpus}")
    rows = [(os.path.basename(f), *solve(args.dsa_solve, f, args.extra)) for f in files]
    stems = [os.path.splitext(r[0])[0] for r in rows]
    if all(stem in MINIMALLOC_BEST for stem in stems):
        minimalloc_table(rows, stems)
        return
    if not args.quiet:
        print(f"| {'instance':<60} | fits | cost | bound | pairs | nodes | proven | ms |")
        print(f"|{'-' * 62}|-----:|-----:|------:|------:|------:|:------:|---:|")
        for name, fits, cost, bound, pairs, nodes, proven, seconds in rows:
            short = name.replace("system-tests__", "").replace("-cross-pipe-soft", "")[:60]
            print(f"| {short:<60} | {'yes' if fits else 'no':>4} | {cost if fits else '-':>4} | "
                  f"{bound if fits else '-':>5} | {pairs if fits else '-':>5} | {nodes:>5} | "
                  f"{'yes' if proven else 'no':^6} | {seconds * 1000:.0f} |")
    fitting = [r for r in rows if r[1]]
    print()
    print(f"instances {len(rows)}, fit {len(fitting)}, "
          f"total reuse cost {sum(r[2] for r in fitting)} (bound {sum(r[3] for r in fitting)}), "
          f"at cost 0 {sum(1 for r in fitting if r[2] == 0)}, proven {sum(1 for r in rows if r[6])}, "
          f"max time {max(r[7] for r in rows) * 1000:.0f} ms, total time {sum(r[7] for r in rows):.2f} s")
    print("best known (corpus README): fit 53, total reuse cost 90, at cost 0 40, proven 51")


def minimalloc_table(rows, stems):
    """One row per MiniMalloc instance: cost, certified bound, best known."""
    print("| instance | cost | certified bound | proven | best known | first fit | nodes | ms |")
    print("|---|---:|---:|:---:|---:|---:|---:|---:|")
    for stem, (name, fits, cost, bound, pairs, nodes, proven, seconds) in zip(stems, rows):
        print(f"| {stem} | {cost if fits else '-'} | {bound if fits else '-'} | "
              f"{'yes' if proven else 'no'} | {MINIMALLOC_BEST[stem]} | "
              f"{MINIMALLOC_FIRST_FIT[stem]} | {nodes} | {seconds * 1000:.0f} |")
    print()
    print(f"total cost {sum(r[2] for r in rows)}, certified bound {sum(r[3] for r in rows)}, "
          f"proven {sum(1 for r in rows if r[6])} of {len(rows)}; best known "
          f"{sum(MINIMALLOC_BEST[s] for s in stems)}, first fit "
          f"{sum(MINIMALLOC_FIRST_FIT[s] for s in stems)}")


if __name__ == "__main__":
    main()
