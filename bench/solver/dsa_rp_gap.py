#!/usr/bin/env python3
"""Why the DSA-RP bound on MiniMalloc's A-F stays far below the cost: three
measurements per instance (shared/corpus/dsa-rp/minimalloc).

  bench/solver/dsa_rp_gap.py [--dsa-solve build/bin/dsa-solve]
      [--corpus DIR] [--windows 65536,131072] [--only A,F]

- cost, bound: `dsa-solve FILE` (defaults), as in dsa_rp_minimalloc.py.
- adjacent: of the penalised pairs that share bytes in that placement, how
  many follow each other directly on some shared byte (no buffer holds that
  byte between the first's end and the second's start). The flow-of-bytes
  bound (lib/Solver/ReuseFlowBound.cpp) charges only such hand-overs, so no
  relaxation of its kind can certify more than this count on a placement
  like dsa-solve's; the other pairs share bytes through buffers between.
- windows W: the timeline cut into windows of W; per window, the buffers
  live in it and the penalised pairs whose later buffer starts in it, solved
  by dsa-solve on their own. Any bound that sums independent time windows
  is at most the sum of the windows' optima, and so at most the sum of the
  costs found here (shown as "window costs"; the windows' certified bounds
  in brackets).

Deterministic (node budgets); only the run time depends on the machine.
"""

import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
COST = re.compile(r"^  reuse cost (\d+) \((optimal|feasible), bound (\d+), ")


def run(tool, path, output=None, options=()):
    """(cost, bound) of `tool path options`, summed over pools; writes the
    solution to `output` when given."""
    argv = [tool, path, *options] + (["-o", output] if output else [])
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{tool} failed on {path} ({proc.returncode}):\n{proc.stderr}")
    cost = bound = 0
    for line in proc.stdout.splitlines():
        m = COST.match(line)
        if m:
            cost += int(m.group(1))
            bound += int(m.group(3))
    return cost, bound


def lifetimes(problem):
    spans = []
    for buffer in problem["buffers"]:
        (interval,) = buffer["live_intervals"]  # one interval each in A-F
        spans.append((interval["lower"], interval["upper"]))
    return spans


def adjacent_pairs(problem, offsets):
    """(shared, adjacent): penalised pairs whose byte ranges intersect, and
    those of them that hand over at least one shared byte directly."""
    spans = lifetimes(problem)
    sizes = [b["size"] for b in problem["buffers"]]
    shared = adjacent = 0
    for penalty in problem["cost_model"]["reuse_penalties"]:
        a, b = penalty["first"], penalty["second"]
        low = max(offsets[a], offsets[b])
        high = min(offsets[a] + sizes[a], offsets[b] + sizes[b])
        if low >= high:
            continue
        shared += 1
        if spans[a][0] > spans[b][0]:
            a, b = b, a
        # The buffers between them in time, clipped to the shared bytes:
        # the hand-over is direct on a byte none of them covers.
        covered = sorted(
            (max(low, offsets[c]), min(high, offsets[c] + sizes[c]))
            for c in range(len(sizes))
            if spans[c][0] >= spans[a][1] and spans[c][1] <= spans[b][0]
            and offsets[c] < high and low < offsets[c] + sizes[c])
        reach = low
        for begin, end in covered:
            if begin > reach:
                break
            reach = max(reach, end)
        adjacent += reach < high
    return shared, adjacent


def windows(tool, document, width, scratch):
    """(summed cost, summed bound) of the time windows of `width`."""
    problem = document["problem"]
    spans = lifetimes(problem)
    horizon = max(upper for _, upper in spans)
    total_cost = total_bound = 0
    for begin in range(0, horizon, width):
        end = begin + width
        members = [i for i, (lo, hi) in enumerate(spans) if lo < end and hi > begin]
        index = {buffer: k for k, buffer in enumerate(members)}
        penalties = []
        for penalty in problem["cost_model"]["reuse_penalties"]:
            a, b = penalty["first"], penalty["second"]
            if a in index and b in index and \
                    begin <= max(spans[a][0], spans[b][0]) < end:
                penalties.append(dict(penalty, first=index[a], second=index[b]))
        if not penalties:
            continue
        window = copy.deepcopy(document)
        window["problem"]["buffers"] = [
            dict(problem["buffers"][i], id=index[i]) for i in members]
        window["problem"]["cost_model"]["reuse_penalties"] = penalties
        path = os.path.join(scratch, "window.json")
        with open(path, "w") as out:
            json.dump(window, out)
        cost, bound = run(tool, path)
        total_cost += cost
        total_bound += bound
    return total_cost, total_bound


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build/bin/dsa-solve"))
    parser.add_argument("--corpus", default=os.path.join(
        ROOT, "..", "shared", "corpus", "dsa-rp", "minimalloc"))
    parser.add_argument("--windows", default="65536,131072",
                        help="window widths, comma-separated")
    parser.add_argument("--only", default="A,B,C,D,E,F")
    args = parser.parse_args()
    widths = [int(w) for w in args.windows.split(",") if w]

    header = "| instance | cost | bound | adjacent |" + "".join(
        f" windows {w}: costs [bounds] |" for w in widths)
    print(header)
    print("|---|---:|---:|---:|" + "---:|" * len(widths))
    totals = [0, 0, 0] + [0] * (2 * len(widths))
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.only.split(","):
            path = os.path.join(args.corpus, f"{name}.json")
            with open(path) as f:
                document = json.load(f)
            solution = os.path.join(scratch, "solution.json")
            cost, bound = run(args.dsa_solve, path, solution)
            with open(solution) as f:
                offsets = {p["buffer"]: p["offset"] for p in json.load(f)["placements"]}
            shared, adjacent = adjacent_pairs(document["problem"], offsets)
            assert shared == cost, (shared, cost)
            row = f"| {name} | {cost} | {bound} | {adjacent} |"
            values = [cost, bound, adjacent]
            for width in widths:
                window_cost, window_bound = windows(
                    args.dsa_solve, document, width, scratch)
                row += f" {window_cost} [{window_bound}] |"
                values += [window_cost, window_bound]
            totals = [t + v for t, v in zip(totals, values)]
            print(row, flush=True)
    row = f"| total | {totals[0]} | {totals[1]} | {totals[2]} |"
    for k in range(len(widths)):
        row += f" {totals[3 + 2 * k]} [{totals[4 + 2 * k]}] |"
    print(row)


if __name__ == "__main__":
    main()
