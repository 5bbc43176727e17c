#!/usr/bin/env python3
"""DSA-RP on MiniMalloc's challenging A-F (shared/corpus/dsa-rp/minimalloc):
the reuse cost dsa-solve finds, the lower bound it certifies and the pool
status, per instance and in total, beside the corpus README's best-known
cost; with --baseline, the same columns for a second dsa-solve (before and
after). The last line says whether the summed bound reaches half the summed
cost, and how many instances are proved optimal.

  bench/solver/dsa_rp_minimalloc.py --dsa-solve build/bin/dsa-solve
      [--baseline /work/baseline/dsa-solve] [--corpus DIR]
      [-- EXTRA dsa-solve OPTIONS]

One run of each tool per instance, default options (budgets are nodes, so
costs and bounds do not depend on the machine; the times do).
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
COST = re.compile(r"^  reuse cost (\d+) \((optimal|feasible), bound (\d+), ")
# dsa-solver's minimalloc-dsa-rp-v1 best-known costs (corpus README).
BEST = {"A": 285, "B": 329, "C": 365, "D": 248, "E": 403, "F": 129}


def solve(tool, path, extra):
    """(cost, bound, status, seconds) of one run, summed over pools."""
    start = time.perf_counter()
    proc = subprocess.run([tool, path, *extra], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{tool} failed on {path} ({proc.returncode}):\n{proc.stderr}")
    cost = bound = 0
    optimal = True
    found = False
    for line in proc.stdout.splitlines():
        m = COST.match(line)
        if m:
            found = True
            cost += int(m.group(1))
            optimal &= m.group(2) == "optimal"
            bound += int(m.group(3))
    if not found:
        sys.exit(f"{tool}: no reuse-cost line for {path}:\n{proc.stdout}")
    return cost, bound, "optimal" if optimal else "feasible", seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build/bin/dsa-solve"))
    parser.add_argument("--baseline", help="a second dsa-solve to compare with")
    parser.add_argument("--corpus", default=os.path.join(
        ROOT, "..", "shared", "corpus", "dsa-rp", "minimalloc"))
    parser.add_argument("extra", nargs="*", help="options for dsa-solve")
    args = parser.parse_args()

    tools = ([("before", args.baseline)] if args.baseline else []) + \
        [("after" if args.baseline else "dsa-solve", args.dsa_solve)]
    header = "| instance | best known |"
    rule = "|---|---:|"
    for name, _ in tools:
        header += f" {name}: cost | bound | status | time |"
        rule += "---:|---:|---|---:|"
    print(header)
    print(rule)
    totals = {name: [0, 0, 0] for name, _ in tools}
    for name in sorted(BEST):
        path = os.path.join(args.corpus, f"{name}.json")
        if not os.path.exists(path):
            sys.exit(f"missing {path}")
        row = f"| {name} | {BEST[name]} |"
        for tool_name, tool in tools:
            cost, bound, status, seconds = solve(tool, path, args.extra)
            row += f" {cost} | {bound} | {status} | {seconds:.2f} s |"
            total = totals[tool_name]
            total[0] += cost
            total[1] += bound
            total[2] += status == "optimal"
        print(row)
    row = f"| total | {sum(BEST.values())} |"
    for tool_name, _ in tools:
        cost, bound, optimal = totals[tool_name]
        row += f" {cost} | {bound} | {optimal} optimal | |"
    print(row)
    print()
    for tool_name, _ in tools:
        cost, bound, optimal = totals[tool_name]
        share = bound / cost if cost else 1.0
        print(f"{tool_name}: summed bound {bound} = {share:.1%} of the summed "
              f"cost {cost}; {optimal} of {len(BEST)} proved optimal")


if __name__ == "__main__":
    main()
