#!/usr/bin/env python3
"""Kernel quality: how close the synchronised kernels run to their dataflow ideal.

Each kernel (the bundled examples and the pipelined kernels of
bench/quality/kernels) goes through `dsa-opt --dsa-plan`, then
`--dsaplan-simulate` runs it under `--runs` seeds and reports its worst run
(report-dir: <function>.timing.json). Columns:

  flag pairs, barriers   set_flag and pipe_barrier ops in the placed kernel
                         (pre-sets and drains included)
  makespan / serial      simulated makespan over the sum of the ops' durations
                         (1.00: no overlap at all)
  ideal / serial         the dataflow ideal (each op waits only for the earlier
                         ops whose bytes it conflicts with) over serial
  makespan / ideal       what the syncs cost (1.00: nothing)
  races, overruns, hangs the simulator's findings over all runs (should be 0)

GM is checked too (`check-gm=true`): a race on a GM argument is a finding.

  bench/quality/run.py [--dsa-opt build/bin/dsa-opt] [--runs 8] [--costs ...]
                       [--only rmsnorm,rope,...]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def kernels(only):
    examples = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    ours = sorted(glob.glob(os.path.join(HERE, "kernels", "*.mlir")))
    paths = examples + ours
    if only:
        names = set(only.split(","))
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in names]
    return paths


def ratio(a, b):
    return f"{a / b:.2f}" if b else "-"


def measure(dsa_opt, path, tmp, runs, costs):
    name = os.path.splitext(os.path.basename(path))[0]
    placed = os.path.join(tmp, name + ".placed.mlir")
    proc = subprocess.run([dsa_opt, path, "--dsa-plan", "-o", placed],
                          capture_output=True, text=True)
    if proc.returncode:
        return {"kernel": name, "error": proc.stderr.strip().splitlines()[0]}
    text = open(placed).read()
    reports = os.path.join(tmp, name)
    option = f"runs={runs} check-gm=true report-dir={reports}" + (f" costs={costs}" if costs else "")
    sim = subprocess.run([dsa_opt, placed, f"--dsaplan-simulate={option}",
                          "-o", os.devnull], capture_output=True, text=True)
    rows = []
    for timing_path in sorted(glob.glob(os.path.join(reports, "*.timing.json"))):
        timing = json.load(open(timing_path))
        rows.append({
            "kernel": name if timing["function"] == name else f"{name} @{timing['function']}",
            "pairs": len(re.findall(r"dsaplan\.set_flag", text)),
            "barriers": len(re.findall(r"dsaplan\.pipe_barrier", text)),
            "makespan": timing["makespan"],
            "serial": timing["serial"],
            "ideal": timing["ideal"],
            "races": len(re.findall(r"error: simulated race", sim.stderr)),
            "overruns": len(re.findall(r"error: simulated overrun", sim.stderr)),
            "hangs": len(re.findall(r"error: simulated hang", sim.stderr)),
        })
    if not rows:
        return {"kernel": name, "error": sim.stderr.strip().splitlines()[0]}
    worst = worst_seed_ratios(dsa_opt, placed, tmp, name, runs, costs)
    for row, timing_path in zip(rows, sorted(glob.glob(os.path.join(reports, "*.timing.json")))):
        row["worst seed"] = worst.get(json.load(open(timing_path))["function"])
    return rows


def worst_seed_ratios(dsa_opt, placed, tmp, name, runs, costs):
    """The highest makespan / ideal of any one seed, per function.

    The runs=N report gives the longest run and that run's own ideal; a
    shorter run with a smaller ideal can have the higher ratio, so each seed
    is simulated alone as well."""
    worst = {}
    for seed in range(1, runs + 1):
        reports = os.path.join(tmp, f"{name}.seed{seed}")
        option = f"seed={seed} runs=1 check-gm=true report-dir={reports}" + (f" costs={costs}" if costs else "")
        subprocess.run([dsa_opt, placed, f"--dsaplan-simulate={option}", "-o", os.devnull],
                       capture_output=True, text=True)
        for timing_path in glob.glob(os.path.join(reports, "*.timing.json")):
            timing = json.load(open(timing_path))
            if timing["ideal"]:
                ratio_of_seed = timing["makespan"] / timing["ideal"]
                worst[timing["function"]] = max(worst.get(timing["function"], 0), ratio_of_seed)
    return worst


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--costs", default="",
                        help="dsaplan-simulate costs= overrides, e.g. jitter=0")
    parser.add_argument("--only", default="",
                        help="comma-separated kernel names (file names without .mlir)")
    args = parser.parse_args()
    header = ("kernel", "flag pairs", "barriers", "makespan", "makespan / serial",
              "ideal / serial", "makespan / ideal", "worst seed: makespan / ideal", "races",
              "overruns", "hangs")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for path in kernels(args.only):
            result = measure(args.dsa_opt, path, tmp, args.runs, args.costs)
            if isinstance(result, dict):
                print(f"| {result['kernel']} | failed: {result['error']} |")
                continue
            for r in result:
                print(f"| {r['kernel']} | {r['pairs']} | {r['barriers']} | {r['makespan']} | "
                      f"{ratio(r['makespan'], r['serial'])} | {ratio(r['ideal'], r['serial'])} | "
                      f"{ratio(r['makespan'], r['ideal'])} | "
                      f"{'-' if r['worst seed'] is None else format(r['worst seed'], '.2f')} | "
                      f"{r['races']} | {r['overruns']} | "
                      f"{r['hangs']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
