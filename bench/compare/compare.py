#!/usr/bin/env python3
"""Before/after comparison of two dsa-opt binaries, byte for byte.

A refactor of the passes must not change what they print. This runs an old
and a new dsa-opt on the same inputs and compares stdout, stderr (the
remarks and diagnostics) and every report file they write:

  - the examples (examples/*.mlir) through --dsa-plan with report-dir and
    summaries on;
  - generated kernels of test/Transforms/Inputs/random_placement_kernels.py
    through --dsa-plan (placement, sync insertion, verification);
  - generated kernels of test/Transforms/Inputs/random_sync_kernels.py
    (already placed, several syncs in the input) through insert-sync with
    its summary, then verify-sync and simulate.

  compare.py --old OLD/dsa-opt --new build/bin/dsa-opt [--placement N]
             [--sync N] [--seed S] [--ignore-walked]

--ignore-walked compares the inserter's summary with the number of ops its
checks walked blanked ("(N ops walked"): for a change that makes the
checks walk less (or more) to reach the same syncs.

Prints one line per group and the first difference of each; exits 1 when
anything differs.
"""

import argparse
import filecmp
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "test", "Transforms", "Inputs"))
import random_placement_kernels as placement  # noqa: E402
import random_sync_kernels as synckernels  # noqa: E402

SPLIT = "// -----"


def run(dsa_opt, text, args, report_dir=None):
    """stdout, stderr and the report files ({name: bytes}) of one run."""
    extra = []
    if report_dir:
        os.makedirs(report_dir, exist_ok=True)
    proc = subprocess.run([dsa_opt, "-"] + args + extra, input=text,
                          capture_output=True, text=True, cwd=report_dir or None)
    files = {}
    if report_dir:
        for name in sorted(os.listdir(report_dir)):
            with open(os.path.join(report_dir, name), "rb") as f:
                files[name] = f.read()
    return proc.returncode, proc.stdout, proc.stderr, files


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return f"line {i + 1}:\n  old: {x[:200]}\n  new: {y[:200]}"
    return f"lengths {len(a)} and {len(b)}"


WALKED = re.compile(r"\(\d+ ops walked")
IGNORE_WALKED = False


def blank_walked(text):
    return WALKED.sub("(N ops walked", text) if IGNORE_WALKED else text


def compare(label, old, new, text, args, work):
    """Runs both binaries; returns None or the first difference."""
    outs = []
    for tag, binary in (("old", old), ("new", new)):
        report = os.path.join(work, tag)
        if os.path.isdir(report):
            for name in os.listdir(report):
                os.remove(os.path.join(report, name))
        with_reports = [a.replace("REPORT", report) for a in args]
        outs.append(run(binary, text, with_reports, report if any("REPORT" in a for a in args) else None))
    (rc0, out0, err0, files0), (rc1, out1, err1, files1) = outs
    err0, err1 = blank_walked(err0), blank_walked(err1)
    if rc0 != rc1:
        return f"{label}: exit {rc0} vs {rc1}\n{err0[-400:]}\n{err1[-400:]}"
    if out0 != out1:
        return f"{label}: stdout differs, {first_difference(out0, out1)}"
    if err0 != err1:
        return f"{label}: stderr differs, {first_difference(err0, err1)}"
    if files0.keys() != files1.keys():
        return f"{label}: report files differ: {sorted(files0)} vs {sorted(files1)}"
    for name in files0:
        if files0[name] != files1[name]:
            return f"{label}: {name} differs, " + first_difference(
                files0[name].decode(errors="replace"), files1[name].decode(errors="replace"))
    return None


def main():
    parser = argparse.ArgumentParser()
    # Absolute: dsa-opt runs from a report directory.
    parser.add_argument("--old", required=True, type=os.path.abspath)
    parser.add_argument("--new", required=True, type=os.path.abspath)
    parser.add_argument("--placement", type=int, default=500,
                        help="generated kernels through --dsa-plan")
    parser.add_argument("--sync", type=int, default=500,
                        help="generated placed kernels through insert-sync")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--ignore-walked", action="store_true",
                        help="blank the ops the inserter's checks walked")
    args = parser.parse_args()
    global IGNORE_WALKED
    IGNORE_WALKED = args.ignore_walked
    work = tempfile.mkdtemp(prefix="dsaplan-compare-")
    failures = 0

    plan = ["--dsa-plan=report-dir=REPORT summary=1",
            "--mlir-print-debuginfo"]
    examples = sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".mlir"))
    diffs = []
    for name in examples:
        with open(os.path.join(ROOT, "examples", name)) as f:
            text = f.read()
        diff = compare(name, args.old, args.new, text, plan, work)
        if diff:
            diffs.append(diff)
    print(f"examples: {len(examples)}, {len(diffs)} differ")
    for d in diffs[:3]:
        print(d)
    failures += len(diffs)

    diffs = []
    for first in range(0, args.placement, args.batch):
        count = min(args.batch, args.placement - first)
        text = placement.HEADER + "".join(
            placement.kernel_text(args.seed, i) for i in range(first, first + count)) + "}\n"
        diff = compare(f"placement kernels {first}..{first + count - 1}", args.old, args.new,
                       text, ["--dsa-plan=report-dir=REPORT summary=1"], work)
        if diff:
            diffs.append(diff)
    print(f"placement kernels: {args.placement} in batches of {args.batch}, {len(diffs)} batches differ")
    for d in diffs[:3]:
        print(d)
    failures += len(diffs)

    diffs = []
    rng_seed = args.seed
    for first in range(0, args.sync, args.batch):
        count = min(args.batch, args.sync - first)
        texts = [synckernels.kernel(random.Random(f"{rng_seed}:{i}"), f"k{i}")
                 for i in range(first, first + count)]
        text = f"\n{SPLIT}\n".join(texts)
        for passes in (["--dsaplan-insert-sync=summary=1"],
                       ["--dsaplan-insert-sync=test-tag-syncs=1", "--dsaplan-verify-sync"],
                       ["--dsaplan-insert-sync", "--dsaplan-simulate=runs=2 summary=1"]):
            diff = compare(f"sync kernels {first}..{first + count - 1} {' '.join(passes)}",
                           args.old, args.new, text,
                           ["--split-input-file", f"--output-split-marker={SPLIT}"] + passes, work)
            if diff:
                diffs.append(diff)
    print(f"sync kernels: {args.sync} in batches of {args.batch}, 3 pipelines, {len(diffs)} runs differ")
    for d in diffs[:3]:
        print(d)
    failures += len(diffs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
