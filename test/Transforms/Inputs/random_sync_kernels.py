#!/usr/bin/env python3
"""Property test of dsaplan-insert-sync against dsaplan-verify-sync.

Generates seeded random kernels: tiles at random 32-byte aligned offsets of
one UB arena (so that tiles overlap fully, partly or not at all), static
(contiguous or strided) and dynamic subviews of them, random ops
on random pipes reading and writing them, inside random scf.for, scf.while, scf.if and
scf.index_switch nests. For every kernel:
  - insert-sync then verify-sync must pass (a failure fails the run);
  - each inserted sync is left out in turn (test-skip-sync=N); when
    verify-sync still passes, that sync was redundant. Redundant syncs are
    counted and reported; --require-minimal makes them fail the run.
  - insert-sync run again on its own output (input that already carries
    syncs: they must be credited and their ids never reused) must leave it
    as it is; the line counts the kernels where it did not;
  - with --simulate, the inserted kernel is also run by dsaplan-simulate
    (four seeds; a failure is counted and fails the run), and each kernel
    with one sync left out is too: the line then says how many of the left-
    out syncs the simulator caught as well (an execution finds a missing
    sync only on the paths and iterations it happens to run, so this is a
    rate, not a requirement). GM races are not checked: the kernels read and
    write one GM argument on different pipes by design, and insert-sync
    orders only the on-chip spaces.

  random_sync_kernels.py --dsa-opt PATH [--count N] [--seed S] [--simulate]
"""

import argparse
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

SPACE = "#dsaplan.space<ub>"
TILE = f"memref<64xf32, {SPACE}>"
ARENA = f"memref<196608xi8, {SPACE}>"


def kernel(rng, name):
    lines = [f"func.func @{name}(%gm: memref<64xf32>, %gm16: memref<16xf32>, %n: index, %c: i1) {{",
             f"  %ub = dsaplan.arena <ub> : {ARENA}",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %zero = arith.constant 0.0 : f32"]
    # (value, its type, the global memref of its shape, that memref's type)
    memrefs = []
    for t in range(rng.randint(2, 5)):
        offset = 32 * rng.randint(0, 24)  # tiles are 256 B: many overlaps
        lines.append(f"  %o{t} = arith.constant {offset} : index")
        lines.append(f"  %t{t} = memref.view %ub[%o{t}][] : {ARENA} to {TILE}")
        memrefs.append((f"%t{t}", TILE, "%gm", "memref<64xf32>"))
    # Subviews of 16 elements: contiguous, every other element (strided),
    # or at a dynamic offset (the whole tile, as far as sync can tell).
    tiles = list(memrefs)
    for k in range(rng.randint(0, 3)):
        tile = rng.choice(tiles)[0]
        step = rng.choice([1, 2, 0])
        if step:
            offset = rng.randint(0, 64 - 15 * step - 1)
            layout, index = f"strided<[{step}], offset: {offset}>", str(offset)
        else:
            layout, index, step = "strided<[1], offset: ?>", "%n", 1
        sub = f"memref<16xf32, {layout}, {SPACE}>"
        lines.append(f"  %s{k} = memref.subview {tile}[{index}] [16] [{step}] : {TILE} to {sub}")
        memrefs.append((f"%s{k}", sub, "%gm16", "memref<16xf32>"))

    def op(indent):
        kind = rng.randint(0, 3)
        a, a_type, gm, gm_type = rng.choice(memrefs)
        pad = "  " * indent
        if kind == 0:
            return [f"{pad}memref.copy {gm}, {a} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} : {gm_type} to {a_type}"]
        if kind == 1:
            return [f"{pad}memref.copy {a}, {gm} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} : {a_type} to {gm_type}"]
        if kind == 2:
            return [f"{pad}linalg.fill {{dsaplan.pipe = #dsaplan.pipe<{rng.choice(['v', 's'])}>}} ins(%zero : f32) outs({a} : {a_type})"]
        same_shape = [m for m in memrefs if m[2] == gm]
        b, b_type, _, _ = rng.choice(same_shape)
        if a == b:
            b, b_type, _, _ = rng.choice(same_shape)
        return [f"{pad}linalg.exp {{dsaplan.pipe = #dsaplan.pipe<v>}} ins({a} : {a_type}) outs({b} : {b_type})"]

    def body(indent, depth):
        out = []
        for _ in range(rng.randint(1, 4)):
            choice = rng.random()
            pad = "  " * indent
            if depth < 2 and choice < 0.2:
                out.append(f"{pad}scf.for %i{indent}_{len(out)} = %c0 to %n step %c1 {{")
                out += body(indent + 1, depth + 1)
                out.append(f"{pad}}}")
            elif depth < 2 and choice < 0.35:
                out.append(f"{pad}scf.if %c {{")
                out += body(indent + 1, depth + 1)
                if rng.random() < 0.7:
                    out.append(f"{pad}}} else {{")
                    out += body(indent + 1, depth + 1)
                out.append(f"{pad}}}")
            elif depth < 2 and choice < 0.45:
                out.append(f"{pad}scf.while : () -> () {{")
                out += body(indent + 1, depth + 1)
                out.append(f"{pad}  scf.condition(%c)")
                out.append(f"{pad}}} do {{")
                out += body(indent + 1, depth + 1)
                out.append(f"{pad}  scf.yield")
                out.append(f"{pad}}}")
            elif depth < 2 and choice < 0.52:
                # Exactly one case runs; the default may be empty.
                out.append(f"{pad}scf.index_switch %n")
                for case in range(rng.randint(1, 2)):
                    out.append(f"{pad}case {case} {{")
                    out += body(indent + 1, depth + 1)
                    out.append(f"{pad}  scf.yield")
                    out.append(f"{pad}}}")
                out.append(f"{pad}default {{")
                if rng.random() < 0.5:
                    out += body(indent + 1, depth + 1)
                out.append(f"{pad}}}")
            else:
                out += op(indent)
        return out

    lines += body(1, 0)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def run(dsa_opt, path, *passes):
    inserted = subprocess.run([dsa_opt, path] + list(passes), capture_output=True, text=True)
    if inserted.returncode:
        return inserted.returncode, inserted.stdout, inserted.stderr
    verified = subprocess.run([dsa_opt, "-", "-dsaplan-verify-sync", "-o", "/dev/null"],
                              input=inserted.stdout, capture_output=True, text=True)
    return verified.returncode, inserted.stdout, verified.stderr


SIMULATE = "-dsaplan-simulate=runs=4 check-gm=false"


def simulate(dsa_opt, text):
    """Whether dsaplan-simulate finds nothing wrong with `text`, and why not."""
    simulated = subprocess.run([dsa_opt, "-", SIMULATE, "-o", "/dev/null"],
                               input=text, capture_output=True, text=True)
    return simulated.returncode == 0, simulated.stderr


redundant = []
simulator_failures = []
resync_changes = []


def check(dsa_opt, text, index, with_simulator=False):
    """Returns (failure or None, syncs inserted, left-out syncs the
    simulator caught too)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    status, base, err = run(dsa_opt, path, "-dsaplan-insert-sync")
    if status:
        return f"kernel {index}: insert-sync then verify-sync failed:\n{err}\n{text}", 0, 0
    again = subprocess.run([dsa_opt, "-", "-dsaplan-insert-sync"], input=base,
                           capture_output=True, text=True)
    if again.returncode or again.stdout != base:
        resync_changes.append(f"kernel {index}: insert-sync changed its own output "
                              f"(exit {again.returncode}):\n{again.stderr}\n{base}")
    if with_simulator:
        ok, err = simulate(dsa_opt, base)
        if not ok:
            simulator_failures.append(f"kernel {index}: dsaplan-simulate failed on "
                                      f"the inserted kernel:\n{err}\n{base}")
    syncs = caught = 0
    while True:
        status, out, err = run(dsa_opt, path, f"-dsaplan-insert-sync=test-skip-sync={syncs}")
        if out == base:
            break  # past the last sync
        if status == 0:
            redundant.append(f"kernel {index}: sync #{syncs} is redundant: "
                             f"verify-sync passes without it\n{base}")
        elif with_simulator and not simulate(dsa_opt, out)[0]:
            caught += 1
        syncs += 1
    return None, syncs, caught


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--require-minimal", action="store_true")
    parser.add_argument("--simulate", action="store_true",
                        help="also run dsaplan-simulate on every kernel")
    parser.add_argument("--allow-simulator-failures", action="store_true",
                        help="count simulator failures without failing the run")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kernels = [kernel(rng, f"k{i}") for i in range(args.count)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda ik: check(args.dsa_opt, ik[1], ik[0], args.simulate),
                                enumerate(kernels)))
    failures = [r for r, _, _ in results if r]
    total = sum(n for _, n, _ in results)
    caught = sum(c for _, _, c in results)
    for failure in (failures + simulator_failures + resync_changes)[:3]:
        print(failure, file=sys.stderr)
    line = (f"{args.count} kernels, {total} syncs inserted, {len(failures)} verify failures, "
            f"{len(redundant)} redundant syncs")
    if args.simulate:
        # Left-out syncs that verify-sync caught (all of them but the
        # redundant ones), and how many of those the simulator caught too.
        line += (f", {len(simulator_failures)} simulator failures, "
                 f"{caught}/{total - len(redundant)} left-out syncs caught by the simulator")
    line += f", {len(resync_changes)} changed by a second insert-sync"
    print(line)
    if resync_changes:
        return 1
    if args.require_minimal and redundant:
        print(redundant[0], file=sys.stderr)
        return 1
    if simulator_failures and not args.allow_simulator_failures:
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
