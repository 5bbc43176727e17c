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

A second table gives the floor: the fewest flag pairs any placement of the
kernel can give. Every placement has the same-tile dependencies (and GM's),
so no placement needs fewer pairs than the inserter gives when it orders
only those: the `same tile` count is the floor, as long as the inserter
never gives fewer pairs for more dependencies (it merges them greedily, so
that is checked, not assumed: `--random N` places the kernel N times at
random, valid placements and counts their pairs). A placement in which no
two tiles share a byte (algorithm=bump) has nothing but those dependencies:
where it fits, its count shows the floor is reached. The verdict says, per
kernel, whether peak is above the floor and whether waits reaches it.

`--pairs` also lists every wait_flag of the synchronised kernel with its
class, by the kernels synchronised with one scope only: `same tile` when
the identity-only kernel has the same wait (pipes and location), `reuse`
when only the reuse-only kernel has it, `same tile + reuse` when both do
(the wait orders a reuse on top of a same-tile dependency), `moved` when
neither does (a same-tile wait that a reuse moved elsewhere).

  bench/reuse/flags.py [--dsa-opt build/bin/dsa-opt] [--pairs] [--random N]
                      [FILE.mlir ...]
"""

import argparse
import glob
import json
import os
import random
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


def try_dsa_plan(dsa_opt, path, options):
    """The remarks, or None when the pipeline fails (a space does not fit)."""
    proc = subprocess.run([dsa_opt, path, f"--dsa-plan={options}", "-o", os.devnull],
                          capture_output=True, text=True)
    return None if proc.returncode else proc.stderr


def count_pairs(remarks):
    pairs = barriers = 0
    for m in SYNC.finditer(remarks):
        pairs += int(m.group(1))
        barriers += int(m.group(2))
    return pairs, barriers


def waits_problems(dsa_opt, path, objective, base):
    """The problems objective=waits would place for the kernel as `objective`
    shapes it (dsaplan-multi-buffer's slots depend on the objective), with
    their own solutions beside them for the fingerprint: the front of
    --dsa-plan up to assign-offsets, spelt out."""
    problems = base + ".waits-problems"
    front = ("func.func(dsaplan-lift-control-flow,dsaplan-import,dsaplan-rotate-carried,"
             f"dsaplan-multi-buffer{{objective={objective}}},dsaplan-compute-lifetimes)")
    assign = (f"dsaplan-assign-offsets{{objective=waits export-problem={problems} "
              f"export-solution={problems}.solutions}}")
    proc = subprocess.run([dsa_opt, path, f"--pass-pipeline=builtin.module({front},{assign})",
                           "-o", os.devnull], capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"dsa-opt failed on {path} (the waits problems):\n{proc.stderr}")
    return problems


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


def conflicts(problem, a, b):
    """Whether buffers a and b may not share bytes: live together, or kept
    apart by a separation."""
    live = lambda x: problem["buffers"][x]["live_intervals"]
    if any(i["lower"] < j["upper"] and j["lower"] < i["upper"]
           for i in live(a) for j in live(b)):
        return True
    return any({s["first"], s["second"]} == {a, b}
               for s in problem["constraints"]["separations"])


def random_offsets(problem, rng):
    """A random valid placement (buffer id -> offset): buffers in random
    order, each at a random one of the offsets where it fits (0 or the end
    of a placed buffer it may not overlap). None when the problem has
    constraints this placer does not handle, or no order fitted."""
    constraints = problem["constraints"]
    if constraints["colocations"] or constraints["pinned_allocations"] or \
            constraints["temporal_exclusions"]:
        return None
    pools = {pool["id"]: pool for pool in problem["pools"]}
    buffers = {b["id"]: b for b in problem["buffers"]}
    for _ in range(100):
        order = sorted(buffers)
        rng.shuffle(order)
        offsets = {}
        for b in order:
            buf = buffers[b]
            pool = pools[buf["allowed_pools"][0]]
            taken = [(offsets[o], offsets[o] + buffers[o]["size"]) for o in offsets
                     if buffers[o]["allowed_pools"] == buf["allowed_pools"] and
                     conflicts(problem, b, o)]
            taken += [(r["begin"], r["end"]) for r in pool.get("reserved_ranges", [])]
            align = buf["alignment"]
            starts = sorted({0} | {-(-end // align) * align for _, end in taken})
            fits = [s for s in starts if s + buf["size"] <= pool["capacity"] and
                    all(s + buf["size"] <= lo or hi <= s for lo, hi in taken)]
            if not fits:
                break
            offsets[b] = rng.choice(fits)
        else:
            return offsets
    return None


def random_pairs(dsa_opt, path, objective, base, count, seed):
    """Flag pairs of `count` random valid placements of the kernel (the
    problems and a solution template exported under `base`), or None when
    the kernel's problems are out of the random placer's reach."""
    rng = random.Random(seed)
    problems = {}
    for name in sorted(os.listdir(base + ".problems")):
        problems[name] = json.load(open(os.path.join(base + ".problems", name)))
    counts = []
    for run in range(count):
        placed = os.path.join(base + ".random", str(run))
        os.makedirs(placed)
        for name, problem in problems.items():
            offsets = random_offsets(problem["problem"], rng)
            if offsets is None:
                return None
            solution = json.load(open(os.path.join(base + ".solutions", name)))
            for placement in solution["placements"]:
                placement["offset"] = offsets[placement["buffer"]]
            json.dump(solution, open(os.path.join(placed, name), "w"))
        remarks = dsa_plan(dsa_opt, path, f"objective={objective} summary=true "
                           f"simulate=false import-solution={placed}")
        counts.append(count_pairs(remarks)[0])
    return counts


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


def measure(dsa_opt, dsa_solve, path, objective, tmp, random_runs):
    base = os.path.join(tmp, objective)
    remarks = dsa_plan(dsa_opt, path, f"objective={objective} summary=true simulate=true "
                       f"export-problem={base}.problems "
                       f"export-solution={base}.solutions report-dir={base}.all")
    pairs, barriers = count_pairs(remarks)
    makespan = sum(int(m.group(1)) for m in MAKESPAN.finditer(remarks))
    peaks = ", ".join(f"{m.group(1)} {m.group(2)}" for m in SPACE.finditer(remarks))
    scoped = {}
    for mode in ("identity-only", "reuse-only"):
        text = dsa_plan(dsa_opt, path, f"objective={objective} summary=true "
                        f"sync-mode={mode} verify-sync=false simulate=false report-dir={base}.{mode}")
        scoped[mode] = count_pairs(text)[0]
    disjoint = try_dsa_plan(dsa_opt, path, f"objective={objective} algorithm=bump "
                            f"summary=true simulate=false")
    randoms = (random_pairs(dsa_opt, path, objective, base, random_runs, seed=1)
               if random_runs else [])
    cost, shared = waits_of(dsa_solve, waits_problems(dsa_opt, path, objective, base),
                            base + ".solutions")
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
            "cost": cost, "makespan": makespan, "peaks": peaks, "classes": classes,
            "disjoint": count_pairs(disjoint)[0] if disjoint is not None else None,
            "random": randoms}


def check_schemas(directory):
    """Every report under `directory` validates against its schema."""
    sys.path.insert(0, os.path.join(ROOT, "test", "Transforms", "Inputs"))
    from check_schemas import files, kind_of, validate
    for path in files([directory]):
        report = json.load(open(path))
        if kind_of(report, path):
            validate(report, where=path)


def fewest_seen(row):
    """The fewest flag pairs of any placement tried for this row: the
    objective's own, the disjoint one and the random ones."""
    counts = [row["pairs"]] + ([row["disjoint"]] if row["disjoint"] is not None else [])
    return min(counts + (row["random"] or []))


def floor_row(name, objective, row):
    """The floor table's row: the same-tile count, what the disjoint
    placement and the random ones give, and where this objective's pairs
    stand against the same-tile count."""
    floor = row["same tile"]
    disjoint = "does not fit" if row["disjoint"] is None else str(row["disjoint"])
    randoms = row["random"]
    spread = ("out of the random placer's reach" if randoms is None else
              f"{len(randoms)}: {min(randoms)} to {max(randoms)}" if randoms else "not run")
    above = row["pairs"] - floor
    where = "at" if above == 0 else (f"{above} above" if above > 0 else f"{-above} below")
    return (f"| {name} | {objective} | {floor} | {disjoint} | {spread} | "
            f"{fewest_seen(row)} | {row['pairs']} | {where} |")


def verdicts(results):
    """The lines the lit test checks: where waits is worse than peak, where
    it stays above the same-tile count although a disjoint placement fits,
    where peak is above that count and waits not below peak, and where some
    placement gives fewer pairs than that count (it is no floor there)."""
    worse, above_reached, not_below, below_floor, at_floor = [], [], [], [], []
    for name, rows in results:
        peak, waits = rows["peak"], rows["waits"]
        if waits["pairs"] > peak["pairs"]:
            worse.append(name)
        if waits["disjoint"] is not None and waits["pairs"] > waits["same tile"]:
            above_reached.append(name)
        if peak["pairs"] > peak["same tile"] and waits["pairs"] >= peak["pairs"]:
            not_below.append(name)
        if peak["pairs"] == peak["same tile"]:
            at_floor.append(name)
        for objective, row in rows.items():
            if fewest_seen(row) < row["same tile"]:
                below_floor.append(f"{name} {objective} ({fewest_seen(row)} < {row['same tile']})")
    return ["waits inserts more flag pairs than peak on: " + ", ".join(worse) if worse
            else "waits never inserts more flag pairs than peak",
            "waits above the same-tile count where a disjoint placement fits, on: " +
            (", ".join(above_reached) or "none"),
            "peak above the same-tile count and waits not below peak, on: " +
            (", ".join(not_below) or "none"),
            "peak already at the same-tile count on: " + (", ".join(at_floor) or "none"),
            "a placement with fewer pairs than the same-tile count (no floor there), on: " +
            (", ".join(below_floor) or "none")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("--dsa-solve", default=None)
    parser.add_argument("--pairs", action="store_true",
                        help="list every wait_flag with its class")
    parser.add_argument("--random", type=int, default=0, metavar="N",
                        help="also count the flag pairs of N random valid placements "
                             "per kernel and objective (seeded)")
    parser.add_argument("--check-schemas", action="store_true",
                        help="validate every report written against docs/schemas "
                             "(needs jsonschema; the tests ask for it)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    dsa_solve = args.dsa_solve or os.path.join(os.path.dirname(args.dsa_opt), "dsa-solve")
    files = args.files or kernels()
    print("| kernel | objective | flag pairs | set+wait ops | same tile | reuse | barriers "
          "| waits | reuse cost | makespan | peaks (B) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    fewer = []
    listing = []
    results = []
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0]
        with tempfile.TemporaryDirectory() as tmp:
            rows = {o: measure(args.dsa_opt, dsa_solve, path, o, tmp, args.random)
                    for o in ("peak", "waits")}
            if args.check_schemas:
                check_schemas(tmp)
        results.append((name, rows))
        for objective, row in rows.items():
            print(f"| {name} | {objective} | {row['pairs']} | {row['ops']} | {row['same tile']} | "
                  f"{row['reuse']} | {row['barriers']} | {row['waits']} | {row['cost']} | "
                  f"{row['makespan']} | {row['peaks']} |")
            for (function, src, dst, location), kind in row["classes"]:
                listing.append(f"  {name} {objective}: @{function} wait_flag {src} -> {dst} "
                               f"at {os.path.relpath(location) if os.path.isabs(location) else location}: {kind}")
        if rows["waits"]["reuse"] < rows["peak"]["reuse"]:
            fewer.append(name)
    print()
    print("| kernel | objective | same tile | disjoint placement | random placements "
          "| fewest seen | flag pairs | against same tile |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    for name, rows in results:
        for objective, row in rows.items():
            print(floor_row(name, objective, row))
    print()
    print("\n".join(verdicts(results)))
    print("waits needs fewer reuse flag pairs than peak on: " + (", ".join(fewer) or "none"))
    if args.pairs:
        print()
        print("\n".join(listing))


if __name__ == "__main__":
    main()
