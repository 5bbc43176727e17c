#!/usr/bin/env python3
"""Counts the syncs dsaplan-insert-sync inserts, against two baselines.

For each bundled example (placed by --dsa-plan without sync) and for seeded
random kernels (the generator of the property test):
  - range-aware (mode=all): flag pairs and barriers inserted;
  - naive: one flag pair per ordered pair of conflicting ops;
  - identity-only: the pairs an inserter that compares tiles would insert,
    and the races dsaplan-verify-sync still finds in its output (the
    partial-overlap reuses it misses).

  bench/sync/run.py [--dsa-opt build/bin/dsa-opt] [--random 20]
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "test", "Transforms", "Inputs"))
import random_sync_kernels  # noqa: E402

SUMMARY = re.compile(r"remark: @\S+: (\d+) flag pairs .*?, (\d+) barriers for (\d+) conflicting pairs")


def insert(dsa_opt, path, mode):
    proc = subprocess.run([dsa_opt, path, f"-dsaplan-insert-sync=mode={mode} summary=true"],
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"insert-sync failed on {path}:\n{proc.stderr}")
    pairs = barriers = conflicts = 0
    for m in SUMMARY.finditer(proc.stderr):
        pairs += int(m.group(1))
        barriers += int(m.group(2))
        conflicts += int(m.group(3))
    return proc.stdout, pairs, barriers, conflicts


def races(dsa_opt, text):
    proc = subprocess.run([dsa_opt, "-", "-dsaplan-verify-sync", "-o", os.devnull],
                          input=text, capture_output=True, text=True)
    return len(re.findall(r"error: unordered", proc.stderr))


def measure(dsa_opt, path):
    out, pairs, barriers, conflicts = insert(dsa_opt, path, "all")
    assert races(dsa_opt, out) == 0, f"range-aware output of {path} has races"
    ident, ipairs, ibarriers, _ = insert(dsa_opt, path, "identity-only")
    return pairs, barriers, conflicts, ipairs, ibarriers, races(dsa_opt, ident)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("--random", type=int, default=20)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ["matmul", "softmax", "gather"]:
            placed = os.path.join(tmp, name + ".mlir")
            subprocess.run([args.dsa_opt, os.path.join(ROOT, "examples", name + ".mlir"),
                            "--dsa-plan=insert-sync=false verify-sync=false", "-o", placed],
                           check=True)
            rows.append((name,) + measure(args.dsa_opt, placed))
        rng = random.Random(1)
        total = [0] * 6
        for i in range(args.random):
            path = os.path.join(tmp, f"random{i}.mlir")
            with open(path, "w") as f:
                f.write(random_sync_kernels.kernel(rng, f"k{i}"))
            total = [a + b for a, b in zip(total, measure(args.dsa_opt, path))]
        rows.append((f"{args.random} random kernels",) + tuple(total))
    header = ("kernel", "pairs", "barriers", "naive pairs", "identity pairs",
              "identity barriers", "races missed by identity")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, pairs, barriers, conflicts, ipairs, ibarriers, missed in rows:
        print(f"| {name} | {pairs} | {barriers} | {conflicts} | {ipairs} | {ibarriers} | {missed} |")


if __name__ == "__main__":
    main()
