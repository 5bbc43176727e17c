#!/usr/bin/env python3
"""Flag pairs, barriers and reuse cost with objective=peak and objective=waits.

Runs `dsa-opt X --dsa-plan="objective=O summary=true"` on each bundled
example (and any .mlir given) and prints, side by side: the set_flag ops in
the output, the flag pairs and barriers the sync summary counts, the peak of
each space and the reuse cost the summary remark gives.

  bench/reuse/flags.py [--dsa-opt build/bin/dsa-opt] [FILE.mlir ...]
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SYNC = re.compile(r"remark: @\S+: (\d+) flag pairs .*?, (\d+) barriers")
SPACE = re.compile(r"remark: @\S+ (\w+): \d+ buffers, peak (\d+) B")
COST = re.compile(r", reuse cost (\d+) ")


def run(dsa_opt, path, objective):
    proc = subprocess.run([dsa_opt, path, f"--dsa-plan=objective={objective} summary=true"],
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"dsa-opt failed on {path} ({objective}):\n{proc.stderr}")
    set_flags = proc.stdout.count("dsaplan.set_flag")
    pairs = barriers = 0
    for m in SYNC.finditer(proc.stderr):
        pairs += int(m.group(1))
        barriers += int(m.group(2))
    peaks, cost = [], 0
    for line in proc.stderr.splitlines():
        m = SPACE.search(line)
        if m:
            peaks.append(f"{m.group(1)} {m.group(2)}")
            c = COST.search(line)
            cost += int(c.group(1)) if c else 0
    return set_flags, pairs, barriers, ", ".join(peaks), cost


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or [os.path.join(ROOT, "examples", f"{name}.mlir")
                           for name in ("softmax", "matmul", "gather")]
    print("| kernel | objective | set_flag ops | flag pairs | barriers | reuse cost (waits model) | peaks (B) |")
    print("|---|---|---:|---:|---:|---:|---|")
    worse = False
    for path in files:
        rows = {o: run(args.dsa_opt, path, o) for o in ("peak", "waits")}
        # The cost of the peak placement under the waits model is not in the
        # peak run's remark (it has no penalties): shown as '-'.
        for objective, (flags, pairs, barriers, peaks, cost) in rows.items():
            shown = cost if objective == "waits" else "-"
            print(f"| {os.path.basename(path)} | {objective} | {flags} | {pairs} | {barriers} | "
                  f"{shown} | {peaks} |")
        worse |= rows["waits"][1] > rows["peak"][1]
    print()
    print("waits inserts more flag pairs than peak somewhere" if worse
          else "waits never inserts more flag pairs than peak")


if __name__ == "__main__":
    main()
