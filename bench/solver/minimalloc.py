#!/usr/bin/env python3
"""dsa-solve and MiniMalloc side by side on MiniMalloc's challenging instances.

For every NAME.CAPACITY.csv of the folder, runs `dsa-solve` (default options)
and, when its path is given, MiniMalloc's own binary (`--capacity=CAPACITY
--validate`), alternating the two tools within each repetition so that both
see the same load on a shared machine. Prints one Markdown row per instance:
dsa-solve's status, peak and median wall time; MiniMalloc's result (placed
with its height, or its error) and median wall time; and the ratio of the two
medians (dsa-solve / MiniMalloc: below 0.5 means within half of MiniMalloc's
time). The last line gives the geometric mean of the ratios.

Both times are the wall clock of the whole process (reading the CSV,
solving, validating, writing the solution), measured by this script the same
way for both tools. See bench/README.md for building MiniMalloc.

  bench/solver/minimalloc.py [--dsa-solve build/bin/dsa-solve]
                             [--minimalloc PATH] [--corpus DIR]...
                             [--repetitions 3] [--only A,B]

--corpus may repeat: A-F are in the shared corpus, G-K in MiniMalloc's own
repository (benchmarks/challenging/), e.g. `--corpus ../shared/corpus/
minimalloc/challenging --corpus ../minimalloc/benchmarks/challenging`
prints A-K in one table (an instance in two folders once, the first).
"""

import argparse
import glob
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "minimalloc", "challenging")
POOL = re.compile(r"^pool \S+ .* peak +(\d+) +lower-bound +(\d+) .* "
                  r"(optimal|feasible|infeasible|gave-up)$")
HEIGHT = re.compile(r"Validation PASS, height (\d+)")


def timed(command):
    """Runs `command` and returns (seconds of wall clock, completed process)."""
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def run_dsa_solve(binary, path, scratch):
    """One dsa-solve run: (seconds, 'status peak/bound' text)."""
    seconds, proc = timed([binary, path, "-o", os.path.join(scratch, "dsa.csv")])
    if proc.returncode not in (0, 1, 3):
        sys.exit(f"dsa-solve failed (exit {proc.returncode}) on {path}:\n{proc.stderr}")
    match = next((POOL.match(line) for line in proc.stdout.splitlines() if POOL.match(line)),
                 None)
    if not match:
        sys.exit(f"dsa-solve printed no pool line for {path}:\n{proc.stdout}")
    peak, bound, status = match.groups()
    return seconds, f"{status} {peak}"


def run_minimalloc(binary, path, capacity, scratch):
    """One MiniMalloc run: (seconds, 'placed HEIGHT' or its error)."""
    seconds, proc = timed([binary, f"--capacity={capacity}", f"--input={path}",
                           f"--output={os.path.join(scratch, 'minimalloc.csv')}", "--validate"])
    height = HEIGHT.search(proc.stderr)
    if proc.returncode == 0 and height:
        return seconds, f"placed {height.group(1)}"
    last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return seconds, f"failed (exit {proc.returncode}: {last[:40]})"


def capacity_of(path):
    parts = os.path.basename(path).split(".")
    if len(parts) < 3 or not parts[-2].isdigit():
        sys.exit(f"{path}: expected NAME.CAPACITY.csv")
    return int(parts[-2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build", "bin", "dsa-solve"))
    parser.add_argument("--minimalloc", help="MiniMalloc's binary (absent: its columns say so)")
    parser.add_argument("--corpus", action="append",
                        help=f"a folder of NAME.CAPACITY.csv (repeatable; default {DEFAULT_CORPUS})")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--only", help="comma-separated instance names (e.g. A,D)")
    args = parser.parse_args()

    corpora = args.corpus or [DEFAULT_CORPUS]
    by_name = {}
    for corpus in corpora:
        for path in sorted(glob.glob(os.path.join(corpus, "*.csv"))):
            by_name.setdefault(os.path.basename(path), path)
    paths = [by_name[name] for name in sorted(by_name)]
    if args.only:
        wanted = set(args.only.split(","))
        paths = [p for p in paths if os.path.basename(p).split(".")[0] in wanted]
    if not paths:
        sys.exit(f"no NAME.CAPACITY.csv under {', '.join(corpora)}")
    if args.minimalloc and not os.access(args.minimalloc, os.X_OK):
        sys.exit(f"{args.minimalloc}: not an executable")

    print(f"repetitions: {args.repetitions} (median wall clock of each tool, "
          "alternating within each repetition)\n")
    print("| instance | capacity | dsa-solve | time (s) | MiniMalloc | time (s) | ratio |")
    print("|---|---:|---|---:|---|---:|---:|")
    ratios = []
    with tempfile.TemporaryDirectory() as scratch:
        for path in paths:
            capacity = capacity_of(path)
            ours, theirs = [], []
            our_result = their_result = "not run (no --minimalloc)"
            for _ in range(args.repetitions):
                seconds, our_result = run_dsa_solve(args.dsa_solve, path, scratch)
                ours.append(seconds)
                if args.minimalloc:
                    seconds, their_result = run_minimalloc(args.minimalloc, path, capacity,
                                                           scratch)
                    theirs.append(seconds)
            our_time = statistics.median(ours)
            their_time = f"{statistics.median(theirs):.3f}" if theirs else "-"
            ratio = "-"
            if theirs:
                ratios.append(our_time / statistics.median(theirs))
                ratio = f"{ratios[-1]:.4f}"
            name = os.path.basename(path).split(".")[0]
            print(f"| {name} | {capacity} | {our_result} | {our_time:.3f} | {their_result} "
                  f"| {their_time} | {ratio} |", flush=True)
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeometric mean of the ratios: {geomean:.4f}; largest: {max(ratios):.4f}")


if __name__ == "__main__":
    main()
