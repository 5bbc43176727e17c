#!/usr/bin/env python3
"""dsa-solve (and optionally a second build, MiniMalloc) on random tight instances.

MiniMalloc's challenging instances are few; tuning the search on them alone
would fit it to eleven files. This script generates seeded random instances
of the same kind (a few hundred buffers whose placement exactly fills a
2^20-byte capacity somewhere, sizes multiples of 1 KiB), runs the tools at
that capacity and prints one Markdown row per instance plus a summary:
instances placed, the geometric mean of the times and, with a second tool,
of the ratios.

Generation ("skyline"): time is cut into `--points` slots; a skyline over the
slots starts at 0. Repeatedly, at the lowest stretch of the skyline, a
buffer of random width (1 to `--max-width` slots, within the stretch) and
random size (`--min-size` to `--max-size` KiB, cut to what is left below the
capacity) is put on it, until every slot reaches the capacity; a top within
`--snap` KiB of a neighbouring slot's height is moved to it, so that
stretches merge (without that they only ever narrow, and most buffers end up
one slot wide). The buffers
tile the strip exactly, so each instance has a placement with peak equal to
the capacity, and the busiest point makes it the lower bound too: the
question is whether a search finds such a placement. `--drop F` leaves out a
fraction F of the buffers (looser instances, like MiniMalloc's D and J).

  bench/solver/random_challenging.py [--dsa-solve build/bin/dsa-solve]
      [--baseline OTHER/dsa-solve] [--minimalloc PATH] [--count 20]
      [--seed 1] [--points 200] [--max-width 16] [--min-size 32]
      [--max-size 120] [--snap 48] [--drop 0] [--timeout 20] [--keep DIR]

Times are the wall clock of each whole process on a shared machine; a tool
that exceeds `--timeout` seconds counts as not placed.
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CAPACITY = 1 << 20
UNIT = 1024
POOL = re.compile(r"^pool \S+ .* peak +(\d+) +lower-bound +(\d+) .* nodes +(\d+) .* "
                  r"(optimal|feasible|infeasible|gave-up)$")


def skyline_instance(rng, points, max_width, min_size, max_size, drop, snap):
    """Buffers (lower, upper, size) tiling [0, points) x [0, CAPACITY)."""
    height = [0] * points
    units = CAPACITY // UNIT
    buffers = []
    while True:
        low = min(height)
        if low >= units:
            break
        # The leftmost lowest stretch.
        start = height.index(low)
        end = start
        while end < points and height[end] == low:
            end += 1
        # The whole stretch when it is narrow enough: it keeps widths up.
        width = end - start
        if width > max_width:
            width = rng.randint((max_width + 1) // 2, max_width)
        first = start + rng.randint(0, end - start - width)
        size = min(rng.randint(min_size, max_size), units - low)
        # Snap the top to a neighbour's height nearby, which merges the two
        # into one wider stretch (otherwise stretches only ever narrow).
        for t in (first - 1, first + width):
            if 0 <= t < points and abs(height[t] - (low + size)) <= snap \
                    and height[t] - low >= min(min_size, units - low):
                size = height[t] - low
                break
        for t in range(first, first + width):
            height[t] = low + size
        buffers.append((first, first + width, size * UNIT))
    rng.shuffle(buffers)
    keep = len(buffers) - int(drop * len(buffers))
    return buffers[:keep]


def write_csv(path, buffers):
    with open(path, "w") as out:
        out.write("id,lower,upper,size\n")
        for i, (lower, upper, size) in enumerate(buffers):
            out.write(f"{i},{lower},{upper},{size}\n")


def run(command, timeout):
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, None
    return time.perf_counter() - start, proc


def run_dsa_solve(binary, path, scratch, timeout):
    """(seconds, placed, 'status nodes' text)."""
    seconds, proc = run([binary, path, "-o", os.path.join(scratch, "out.csv")], timeout)
    if proc is None:
        return seconds, False, "timeout"
    match = next((POOL.match(l) for l in proc.stdout.splitlines() if POOL.match(l)), None)
    if not match or proc.returncode not in (0, 1, 3):
        sys.exit(f"{binary} failed (exit {proc.returncode}) on {path}:\n{proc.stderr}")
    peak, _, nodes, status = match.groups()
    return seconds, int(peak) <= CAPACITY, f"{status} {nodes}"


def run_minimalloc(binary, path, scratch, timeout):
    seconds, proc = run([binary, f"--capacity={CAPACITY}", f"--input={path}",
                         f"--output={os.path.join(scratch, 'mm.csv')}", "--validate"], timeout)
    if proc is None:
        return seconds, False, "timeout"
    placed = proc.returncode == 0 and "Validation PASS" in proc.stderr
    return seconds, placed, "placed" if placed else f"exit {proc.returncode}"


def geomean(values):
    values = [max(v, 1e-4) for v in values]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build", "bin", "dsa-solve"))
    parser.add_argument("--baseline", help="a second dsa-solve binary, e.g. before a change")
    parser.add_argument("--minimalloc", help="MiniMalloc's binary")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--points", type=int, default=200)
    parser.add_argument("--max-width", type=int, default=16)
    parser.add_argument("--min-size", type=int, default=32, help="KiB")
    parser.add_argument("--max-size", type=int, default=120, help="KiB")
    parser.add_argument("--snap", type=int, default=48, help="KiB")
    parser.add_argument("--drop", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--keep", help="write the instances to this folder")
    args = parser.parse_args()

    tools = [("dsa-solve", lambda p, s: run_dsa_solve(args.dsa_solve, p, s, args.timeout))]
    if args.baseline:
        tools.append(("baseline", lambda p, s: run_dsa_solve(args.baseline, p, s, args.timeout)))
    if args.minimalloc:
        tools.append(("MiniMalloc", lambda p, s: run_minimalloc(args.minimalloc, p, s,
                                                                args.timeout)))
    print(f"skyline instances: seeds {args.seed}..{args.seed + args.count - 1}, "
          f"{args.points} points, widths 1-{args.max_width}, sizes "
          f"{args.min_size}-{args.max_size} KiB, snap {args.snap} KiB, drop {args.drop}, capacity {CAPACITY}\n")
    header = "| seed | buffers | " + " | ".join(f"{n} | time (s)" for n, _ in tools) + " |"
    print(header)
    print("|---:|---:|" + "---|---:|" * len(tools))
    times = {n: [] for n, _ in tools}
    placed = {n: 0 for n, _ in tools}
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or scratch
        os.makedirs(folder, exist_ok=True)
        for seed in range(args.seed, args.seed + args.count):
            rng = random.Random(seed)
            buffers = skyline_instance(rng, args.points, args.max_width, args.min_size,
                                       args.max_size, args.drop, args.snap)
            path = os.path.join(folder, f"skyline{seed}.{CAPACITY}.csv")
            write_csv(path, buffers)
            cells = []
            for name, tool in tools:
                seconds, ok, text = tool(path, scratch)
                times[name].append(seconds)
                placed[name] += ok
                cells.append(f"{text} | {seconds:.3f}")
            print(f"| {seed} | {len(buffers)} | " + " | ".join(cells) + " |", flush=True)
    print()
    for name, _ in tools:
        print(f"{name}: placed {placed[name]} of {args.count}, geometric mean time "
              f"{geomean(times[name]):.3f} s, largest {max(times[name]):.3f} s")
    first = tools[0][0]
    for name, _ in tools[1:]:
        ratios = [a / max(b, 1e-4) for a, b in zip(times[first], times[name])]
        print(f"{first} / {name}: geometric mean of the time ratios {geomean(ratios):.4f}, "
              f"largest {max(ratios):.4f}")


if __name__ == "__main__":
    main()
