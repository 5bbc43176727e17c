#!/usr/bin/env python3
"""What objective=waits buys over objective=peak: syncs, waits, makespan.

Each kernel (the bundled examples, the pipelined kernels of bench/quality
and the variants in bench/reuse/kernels, or the .mlir files given) is
planned with `dsa-opt --dsa-plan="objective=O summary=true simulate=true"`
for O in peak and waits, and printed side by side:

  flag pairs     the pairs dsaplan-insert-sync counts (its summary remark)
  set+wait ops   set_flag and wait_flag ops in the kernel (a pair around a
                 loop has a set before it and a wait after it as well)
  same tile      the pairs it inserts when it orders only accesses to one
                 tile (sync-mode=identity-only): what the kernel needs under
                 any placement
  reuse          the pairs it inserts when it orders only accesses to
                 different tiles that share bytes (sync-mode=reuse-only):
                 what the placement adds. The inserter merges dependencies
                 of one pipe pair, so a reuse dependency may ride on a
                 same-tile pair (flag pairs < same tile + reuse); it then
                 moves that pair's set or wait rather than adding one
  barriers       pipe_barrier ops the summary counts
  waits          penalised pairs of the waits model that share bytes, and
  reuse cost     their summed penalty (estimated cycles of waiting): the
                 placement recounted by `dsa-solve --check` against the
                 problem objective=waits exports (the same buffers with the
                 penalties; for peak, its placement under that model)
  makespan       simulated cycles of the synchronised kernel (one seeded run)
  peaks          peak bytes of each space

`--pairs` also lists every wait_flag of the synchronised kernel with its
class, by the kernels synchronised with one scope only: `same tile` when
the identity-only kernel has the same wait (pipes and location), `reuse`
when only the reuse-only kernel has it, `same tile + reuse` when both do
(the wait orders a reuse on top of a same-tile dependency), `moved` when
neither does (a same-tile wait that a reuse moved elsewhere).

  bench/reuse/flags.py [--dsa-opt build/bin/dsa-opt] [--pairs] [FILE.mlir ...]
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
SYNC = re.compile(r"remark: @\S+: (\d+) flag pairs .*?, (\d+) barriers")
SPACE = re.compile(r"remark: @\S+ (\w+): \d+ buffers, peak (\d+) B")
MAKESPAN = re.compile(r"remark: @\S+: simulated .*? makespan (\d+) cycles")
CHECK = re.compile(r"pool (\w+): .*?reuse cost (\d+), shared penalised pairs (\d+)")


def kernels():
    return (sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))) +
            sorted(glob.glob(os.path.join(ROOT, "bench", "quality", "kernels", "*.mlir"))) +
            sorted(glob.glob(os.path.join(HERE, "kernels", "*.mlir"))))


def dsa_plan(dsa_opt, path, options):
    proc = subprocess.run([dsa_opt, path, f"--dsa-plan={options}", "-o", os.devnull],
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"dsa-opt failed on {path} ({options}):\n{proc.stderr}")
    return proc.stderr


def count_pairs(remarks):
    pairs = barriers = 0
    for m in SYNC.finditer(remarks):
        pairs += int(m.group(1))
        barriers += int(m.group(2))
    return pairs, barriers


def waits_of(dsa_solve, problems, solutions):
    """Reuse cost and shared penalised pairs of each solution in `solutions`
    under the problem of the same name in `problems` (objective=waits)."""
    cost = shared = 0
    for problem in sorted(glob.glob(os.path.join(problems, "*.json"))):
        name = os.path.basename(problem)
        solution = json.load(open(os.path.join(solutions, name)))
        # The same buffers, the problem with penalties: its fingerprint.
        reference = json.load(open(os.path.join(problems + ".solutions", name)))
        solution["problem_fingerprint"] = reference["problem_fingerprint"]
        recount = os.path.join(solutions, name + ".recount.json")
        json.dump(solution, open(recount, "w"))
        proc = subprocess.run([dsa_solve, problem, "--check", recount],
                              capture_output=True, text=True)
        if proc.returncode:
            sys.exit(f"dsa-solve --check failed on {name}:\n{proc.stdout}{proc.stderr}")
        for m in CHECK.finditer(proc.stdout):
            cost += int(m.group(2))
            shared += int(m.group(3))
    return cost, shared


def wait_flags(report_dir):
    waits = []
    for path in sorted(glob.glob(os.path.join(report_dir, "*.syncs.json"))):
        report = json.load(open(path))
        for sync in report["syncs"]:
            if sync["op"] == "wait_flag":
                waits.append((report["function"], sync["src"], sync["dst"], sync["location"]))
    return waits


def flag_ops(report_dir):
    return sum(1 for path in glob.glob(os.path.join(report_dir, "*.syncs.json"))
               for sync in json.load(open(path))["syncs"]
               if sync["op"] in ("set_flag", "wait_flag"))


def measure(dsa_opt, dsa_solve, path, objective, tmp):
    base = os.path.join(tmp, objective)
    remarks = dsa_plan(dsa_opt, path, f"objective={objective} summary=true simulate=true "
                       f"export-solution={base}.solutions report-dir={base}.all")
    pairs, barriers = count_pairs(remarks)
    makespan = sum(int(m.group(1)) for m in MAKESPAN.finditer(remarks))
    peaks = ", ".join(f"{m.group(1)} {m.group(2)}" for m in SPACE.finditer(remarks))
    scoped = {}
    for mode in ("identity-only", "reuse-only"):
        text = dsa_plan(dsa_opt, path, f"objective={objective} summary=true "
                        f"sync-mode={mode} verify-sync=false simulate=false report-dir={base}.{mode}")
        scoped[mode] = count_pairs(text)[0]
    cost, shared = waits_of(dsa_solve, os.path.join(tmp, "problems"), base + ".solutions")
    classes = []
    same_tile = set(wait_flags(base + ".identity-only"))
    reuse = set(wait_flags(base + ".reuse-only"))
    for wait in wait_flags(base + ".all"):
        kind = ("same tile + reuse" if wait in same_tile and wait in reuse else
                "same tile" if wait in same_tile else
                "reuse" if wait in reuse else "moved")
        classes.append((wait, kind))
    return {"pairs": pairs, "ops": flag_ops(base + ".all"), "same tile": scoped["identity-only"],
            "reuse": scoped["reuse-only"], "barriers": barriers, "waits": shared,
            "cost": cost, "makespan": makespan, "peaks": peaks, "classes": classes}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("--dsa-solve", default=None)
    parser.add_argument("--pairs", action="store_true",
                        help="list every wait_flag with its class")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    dsa_solve = args.dsa_solve or os.path.join(os.path.dirname(args.dsa_opt), "dsa-solve")
    files = args.files or kernels()
    print("| kernel | objective | flag pairs | set+wait ops | same tile | reuse | barriers "
          "| waits | reuse cost | makespan | peaks (B) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    worse = []
    fewer = []
    listing = []
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0]
        with tempfile.TemporaryDirectory() as tmp:
            # The waits model's problem, and its own solution for the fingerprint.
            dsa_plan(args.dsa_opt, path, f"objective=waits export-problem={tmp}/problems "
                     f"export-solution={tmp}/problems.solutions insert-sync=false")
            rows = {o: measure(args.dsa_opt, dsa_solve, path, o, tmp)
                    for o in ("peak", "waits")}
        for objective, row in rows.items():
            print(f"| {name} | {objective} | {row['pairs']} | {row['ops']} | {row['same tile']} | "
                  f"{row['reuse']} | {row['barriers']} | {row['waits']} | {row['cost']} | "
                  f"{row['makespan']} | {row['peaks']} |")
            for (function, src, dst, location), kind in row["classes"]:
                listing.append(f"  {name} {objective}: @{function} wait_flag {src} -> {dst} "
                               f"at {os.path.relpath(location) if os.path.isabs(location) else location}: {kind}")
        if rows["waits"]["pairs"] > rows["peak"]["pairs"]:
            worse.append(name)
        if rows["waits"]["reuse"] < rows["peak"]["reuse"]:
            fewer.append(name)
    print()
    print("waits inserts more flag pairs than peak on: " + ", ".join(worse) if worse
          else "waits never inserts more flag pairs than peak")
    print("waits needs fewer reuse flag pairs than peak on: " + (", ".join(fewer) or "none"))
    if args.pairs:
        print()
        print("\n".join(listing))


if __name__ == "__main__":
    main()
