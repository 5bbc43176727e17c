#!/usr/bin/env python3
"""Property test of dsaplan-insert-sync against dsaplan-verify-sync.

Generates seeded random kernels: tiles at random 32-byte aligned offsets of
one UB arena (so that tiles overlap fully, partly or not at all), static
(contiguous or strided) and dynamic subviews of them, views of views
(static, and static in a dynamic one), a tile at a dynamic arena offset, 2-d
views (memref.expand_shape), calls of a body-less declaration, random ops on
random pipes reading and writing them, inside random scf.for, scf.while,
scf.if, scf.index_switch and scf.execute_region nests. For every kernel:
  - insert-sync then verify-sync must pass (a failure fails the run);
  - each inserted sync is left out in turn (insert-sync plans the kernel
    once with test-tag-syncs; the ops of one mark are erased); when
    verify-sync still passes, that sync was
    redundant. Redundant syncs are counted and reported; --require-minimal
    makes them fail the run.
  - insert-sync run again on its own output (input that already carries
    syncs: they must be credited and their ids never reused) must leave it
    as it is; the line counts the kernels where it did not;
  - insert-sync run on the output with the first or second sync left out
    (input that carries syncs but misses one) must give a kernel that
    verify-sync accepts;
  - with --simulate, the inserted kernel is also run by dsaplan-simulate
    (four seeds; a failure is counted and fails the run), and each kernel
    with one sync left out is too: the line then says how many of the left-
    out syncs the simulator caught as well (an execution finds a missing
    sync only on the paths and iterations it happens to run, so this is a
    rate, not a requirement). GM races are checked too (check-gm): MTE3
    stores and MTE2 loads of one GM buffer, of arguments that may alias
    (%gm and %gm16), of rows of a noalias argument (%rows, static or
    dynamic row) and of another noalias argument (%gmr).

  random_sync_kernels.py --dsa-opt PATH [--count N] [--seed S] [--simulate]
"""

import argparse
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SPACE = "#dsaplan.space<ub>"
TILE = f"memref<64xf32, {SPACE}>"
ARENA = f"memref<196608xi8, {SPACE}>"


def kernel(rng, name):
    lines = [f"func.func private @helper({TILE})",
             f"func.func @{name}(%gm: memref<64xf32>, %gm16: memref<16xf32>, %gm8: memref<8xf32>, "
             f"%gm8x8: memref<8x8xf32>, %gmr: memref<64xf32> {{llvm.noalias}}, "
             f"%rows: memref<4x64xf32> {{llvm.noalias}}, %n: index, %c: i1) {{",
             f"  %ub = dsaplan.arena <ub> : {ARENA}",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %zero = arith.constant 0.0 : f32"]
    # GM buffers of a tile's shape: an argument that may alias %gm16, a
    # noalias one, and rows of a noalias matrix (static rows are disjoint;
    # a dynamic row may be any of them).
    gm64 = [("%gm", "memref<64xf32>"), ("%gmr", "memref<64xf32>")]
    for r, row in enumerate(sorted(set(rng.choice(["0", "1", "2", "%n"]) for _ in range(2)))):
        offset = "?" if row == "%n" else str(64 * int(row))
        row_type = f"memref<64xf32, strided<[1], offset: {offset}>>"
        lines.append(f"  %row{r} = memref.subview %rows[{row}, 0] [1, 64] [1, 1] : "
                     f"memref<4x64xf32> to {row_type}")
        gm64.append((f"%row{r}", row_type))
    # (value, its type, the global memref of its shape, that memref's type)
    memrefs = []
    for t in range(rng.randint(2, 5)):
        offset = 32 * rng.randint(0, 24)  # tiles are 256 B: many overlaps
        lines.append(f"  %o{t} = arith.constant {offset} : index")
        lines.append(f"  %t{t} = memref.view %ub[%o{t}][] : {ARENA} to {TILE}")
        memrefs.append((f"%t{t}", TILE, "gm64", None))
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
        if step == 1 and rng.random() < 0.4:
            # A view of the view: 8 elements at a static offset of it (the
            # bytes follow the chain; a dynamic link makes it the whole
            # tile).
            inner = rng.randint(0, 8)
            base = "?" if layout.endswith("?>") else str(int(index) + inner)
            chained = f"memref<8xf32, strided<[1], offset: {base}>, {SPACE}>"
            lines.append(f"  %s{k}c = memref.subview %s{k}[{inner}] [8] [1] : {sub} to {chained}")
            memrefs.append((f"%s{k}c", chained, "%gm8", "memref<8xf32>"))
    # Sometimes a tile at a dynamic offset of the arena (anywhere, as far as
    # sync can tell), and a 2-d view of a tile (memref.expand_shape).
    if rng.random() < 0.2:
        lines.append(f"  %td = memref.view %ub[%n][] : {ARENA} to {TILE}")
        memrefs.append(("%td", TILE, "gm64", None))
    if rng.random() < 0.3:
        tile = rng.choice(tiles)[0]
        shaped = f"memref<8x8xf32, {SPACE}>"
        lines.append(f"  %e = memref.expand_shape {tile} [[0, 1]] output_shape [8, 8] : {TILE} into {shaped}")
        memrefs.append(("%e", shaped, "%gm8x8", "memref<8x8xf32>"))

    def op(indent):
        kind = rng.randint(0, 3)
        a, a_type, gm, gm_type = rng.choice(memrefs)
        if gm == "gm64":
            gm, gm_type = rng.choice(gm64)
        pad = "  " * indent
        if rng.random() < 0.05:
            # A call to a body-less declaration: an access of unknown effect
            # to the whole tile, on the pipe the call is given.
            t = rng.choice(tiles)[0]
            pipe = rng.choice(["v", "s"])  # pipes that read and write UB
            return [f"{pad}func.call @helper({t}) {{dsaplan.pipe = #dsaplan.pipe<{pipe}>}} : ({TILE}) -> ()"]
        if kind == 0:
            return [f"{pad}memref.copy {gm}, {a} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} : {gm_type} to {a_type}"]
        if kind == 1:
            return [f"{pad}memref.copy {a}, {gm} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} : {a_type} to {gm_type}"]
        if kind == 2:
            return [f"{pad}linalg.fill {{dsaplan.pipe = #dsaplan.pipe<{rng.choice(['v', 's'])}>}} ins(%zero : f32) outs({a} : {a_type})"]
        # Same shape: the type up to its layout.
        same_shape = [m for m in memrefs if m[1].split(",")[0] == a_type.split(",")[0]]
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
            elif depth < 2 and choice < 0.56:
                out.append(f"{pad}scf.execute_region {{")
                out += body(indent + 1, depth + 1)
                out.append(f"{pad}  scf.yield")
                out.append(f"{pad}}}")
            else:
                out += op(indent)
        return out

    lines += body(1, 0)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


# The kernels go to dsa-opt in batches, one function per split-input-file
# chunk: a process per kernel and sync would spend the run starting dsa-opt.
# A batch is at most RUN_CHUNKS chunks: with --split-input-file, dsa-opt
# reports locations as lines of the whole input, and finding them costs
# each chunk time in the size of the input before it, so a long input is
# quadratic (verify-sync on the 885 leave-one-out variants of seed 1: 3.6 s
# user in one run, 2.0 s in runs of 50). The runs go two at a time (one per
# core).
SPLIT = "// -----"
FUNC = re.compile(r"func\.func @(k[0-9]+(?:_without_[0-9]+)?)\(")
RUN_CHUNKS = 50
POOL = ThreadPoolExecutor(max_workers=2)


def opt_run(dsa_opt, texts, passes):
    """One dsa-opt process over `texts`: (its stdout, its stderr)."""
    result = subprocess.run([dsa_opt, "-", "--split-input-file",
                             f"--output-split-marker={SPLIT}"] + list(passes),
                            input=f"\n{SPLIT}\n".join(texts), capture_output=True, text=True)
    return result.stdout, result.stderr


def opt(dsa_opt, kernels, *passes):
    """Runs dsa-opt with `passes` on each of `kernels` ({name: text}), in
    runs of at most RUN_CHUNKS kernels (at least two); returns {name: output} for the
    kernels it succeeded on (a chunk that fails prints nothing) and the
    runs' stderr."""
    texts = list(kernels.values())
    count = max(min(2, len(texts)), -(-len(texts) // RUN_CHUNKS))  # both cores
    size = -(-len(texts) // count) if texts else 1
    runs = [POOL.submit(opt_run, dsa_opt, texts[i:i + size], passes)
            for i in range(0, len(texts), size)]
    outputs, errors = {}, []
    for run in runs:
        stdout, stderr = run.result()
        errors.append(stderr)
        for chunk in stdout.split(SPLIT):
            match = FUNC.search(chunk)
            if match:
                outputs[match.group(1)] = chunk.strip() + "\n"
    return outputs, "".join(errors)


def insert_and_verify(dsa_opt, kernels, insert):
    """insert-sync (with the option string `insert`) then verify-sync on each
    kernel: ({name: inserted}, {names verify-sync accepted}, stderr)."""
    inserted, err = opt(dsa_opt, kernels, insert)
    verified, verr = opt(dsa_opt, inserted, "-dsaplan-verify-sync")
    return inserted, set(verified), err + verr


SIMULATE = "-dsaplan-simulate=runs=4"


def simulated_clean(dsa_opt, kernels):
    """The names of the kernels dsaplan-simulate finds nothing wrong with."""
    return set(opt(dsa_opt, kernels, SIMULATE)[0])


def alone(dsa_opt, text, *passes):
    """stderr of one kernel run alone, to show why it failed."""
    return opt(dsa_opt, {"k": text}, *passes)[1]


redundant = []
simulator_failures = []
resync_changes = []
incomplete = []


# test-tag-syncs marks the ops of the N-th inserted sync (a flag pair with
# its loop pre-set and drain, or a barrier, in creation order after
# pruning) with `{test.sync = N : i64}` at the end of their line: each sync
# op is one line with no results, so erasing the lines of one mark from the
# planned kernel leaves that sync out, without planning the kernel again
# per sync. (The leave-one-out variants were checked byte-identical to the
# test-skip-sync=N option this replaced, on seeds 1, 3, 7 and 415.)
MARK = re.compile(r" \{test\.sync = ([0-9]+) : i64\}$", re.M)
TAGGED = "-dsaplan-insert-sync=test-tag-syncs"


def without_marks(text):
    """The planned kernel as insert-sync prints it without test-tag-syncs."""
    plain = MARK.sub("", text)
    if "test.sync" in plain:
        raise SystemExit(f"a test.sync mark this script cannot read:\n{text}")
    return plain


def leave_each_out(name, tagged):
    """{(name, N): the kernel with sync N left out} for every mark N, each
    renamed @<name>_without_<N> so that they can share a dsa-opt run."""
    lines = tagged.splitlines(keepends=True)
    marks = sorted({int(n) for n in MARK.findall(tagged)})
    if marks != list(range(len(marks))):
        raise SystemExit(f"kernel {name}: syncs numbered {marks}, not 0 to {len(marks) - 1}")
    variants = {}
    for n in marks:
        kept = "".join(line for line in lines
                       if not (m := MARK.search(line)) or int(m.group(1)) != n)
        variants[(name, n)] = without_marks(kept).replace(
            f"func.func @{name}(", f"func.func @{name}_without_{n}(", 1)
    return variants


def check(dsa_opt, kernels, with_simulator=False, leave_out=True):
    """Checks a batch of kernels ({name: text}); returns (failures, syncs
    inserted, left-out syncs the simulator caught too). Each step is one
    dsa-opt process over the whole batch (or over all its variants)."""
    tagged, _ = opt(dsa_opt, kernels, TAGGED)
    inserted = {name: without_marks(out) for name, out in tagged.items()}
    verified = set(opt(dsa_opt, inserted, "-dsaplan-verify-sync")[0])
    failures = []
    for name, text in kernels.items():
        if name in verified:
            continue
        why = (alone(dsa_opt, inserted[name], "-dsaplan-verify-sync") if name in inserted
               else alone(dsa_opt, text, "-dsaplan-insert-sync"))
        failures.append(f"kernel {name}: insert-sync then verify-sync failed:\n{why}\n{text}")
    base = {name: out for name, out in inserted.items() if name in verified}
    again, _ = opt(dsa_opt, base, "-dsaplan-insert-sync")
    for name, out in base.items():
        if again.get(name) != out:
            resync_changes.append(f"kernel {name}: insert-sync changed its own output:\n"
                                  f"{alone(dsa_opt, out, '-dsaplan-insert-sync')}\n{out}")
    if with_simulator:
        clean = simulated_clean(dsa_opt, base)
        for name, out in base.items():
            if name not in clean:
                simulator_failures.append(f"kernel {name}: dsaplan-simulate failed on the "
                                          f"inserted kernel:\n{alone(dsa_opt, out, SIMULATE)}\n{out}")
    if not leave_out:
        # Without the runs that leave one out, count the inserted waits and
        # barriers (barrier_all, the repair's last resort, included) instead.
        waits = sum(out.count("dsaplan.wait_flag") + out.count("dsaplan.pipe_barrier") +
                    out.count("dsaplan.barrier_all")
                    for out in base.values())
        return failures, waits, 0
    # Every kernel with each of its syncs left out in turn, all verified in
    # one run: a variant verify-sync accepts is a redundant sync.
    variants = {}
    for name in sorted(base, key=lambda name: int(name[1:])):
        variants.update(leave_each_out(name, tagged[name]))
    names = {f"{name}_without_{n}": (name, n) for name, n in variants}
    by_name = {f"{name}_without_{n}": text for (name, n), text in variants.items()}
    verified = {names[v] for v in opt(dsa_opt, by_name, "-dsaplan-verify-sync")[0]}
    for name, n in variants:
        if (name, n) in verified:
            redundant.append(f"kernel {name}: sync #{n} is redundant: "
                             f"verify-sync passes without it\n{base[name]}")
    # Input that carries syncs but misses one (the first or the second):
    # insert-sync must complete it (credit the syncs there, never reuse their
    # ids where they are in flight).
    missing = {v: text for v, text in by_name.items()
               if names[v][1] < 2 and names[v] not in verified}
    _, completed, _ = insert_and_verify(dsa_opt, missing, "-dsaplan-insert-sync")
    for v in sorted(set(missing) - completed, key=lambda v: names[v]):
        # Leaving out a sync can leave the input's own flags unsafe (a set
        # that may overrun its previous set: the handshake that ordered it is
        # gone); insert-sync never changes the input's syncs, so such input
        # is out of scope.
        if "may be set again" in alone(dsa_opt, missing[v], "-dsaplan-verify-sync"):
            continue
        name, n = names[v]
        incomplete.append(f"kernel {name}: insert-sync did not complete the kernel "
                          f"missing sync #{n}:\n"
                          f"{alone(dsa_opt, missing[v], '-dsaplan-insert-sync')}\n"
                          f"{missing[v]}")
    caught = 0
    if with_simulator:
        unverified = {v: text for v, text in by_name.items() if names[v] not in verified}
        caught = len(unverified) - len(simulated_clean(dsa_opt, unverified))
    return failures, len(variants), caught


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", required=True)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--require-minimal", action="store_true")
    parser.add_argument("--simulate", action="store_true",
                        help="also run dsaplan-simulate on every kernel")
    parser.add_argument("--no-leave-out", action="store_true",
                        help="skip the runs that leave out one sync at a time "
                             "(for sweeps over many kernels: insert, verify, "
                             "simulate and re-insert only)")
    parser.add_argument("--allow-resync-changes", type=int, default=0,
                        help="kernels a second insert-sync may change (known gaps; the line still counts them)")
    parser.add_argument("--allow-simulator-failures", action="store_true",
                        help="count simulator failures without failing the run")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kernels = {f"k{i}": kernel(rng, f"k{i}") for i in range(args.count)}
    failures, total, caught = check(args.dsa_opt, kernels, args.simulate, not args.no_leave_out)
    for failure in (failures + simulator_failures + resync_changes + incomplete)[:3]:
        print(failure, file=sys.stderr)
    if args.no_leave_out:
        line = (f"{args.count} kernels, {total} waits and barriers inserted, "
                f"{len(failures)} verify failures")
    else:
        line = (f"{args.count} kernels, {total} syncs inserted, {len(failures)} verify failures, "
                f"{len(redundant)} redundant syncs")
    if args.simulate and args.no_leave_out:
        line += f", {len(simulator_failures)} simulator failures"
    elif args.simulate:
        # Left-out syncs that verify-sync caught (all of them but the
        # redundant ones), and how many of those the simulator caught too.
        line += (f", {len(simulator_failures)} simulator failures, "
                 f"{caught}/{total - len(redundant)} left-out syncs caught by the simulator")
    line += (f", {len(resync_changes)} changed by a second insert-sync, "
             f"{len(incomplete)} not completed by insert-sync with a sync missing")
    print(line)
    if len(resync_changes) > args.allow_resync_changes or incomplete:
        return 1
    if args.require_minimal and redundant:
        print(redundant[0], file=sys.stderr)
        return 1
    if simulator_failures and not args.allow_simulator_failures:
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
