#!/usr/bin/env python3
"""Property test of the whole placement pipeline by differential execution.

Generates seeded random kernels BEFORE placement: UB tiles of 16 to 128 f32
(memref.alloc in #dsaplan.space<ub>, some at the top of the function, some
local to a loop body or an scf.if branch, so that lifetimes have holes and
tiles share bytes), static subviews of them, and ops on their pipes:
memref.copy from the GM inputs (mte2) and to the GM outputs (mte3),
linalg.fill / linalg.copy / linalg.add / linalg.sub / linalg.mul (v, some
in place), inside scf.for loops (2 or 3 iterations) and scf.if on the two
i1 arguments. A tile is read only where it is written on every path before
(so the kernel never reads memory it did not write, and any difference
between before and after placement is the placement's).

The kernels are put in modules of --batch functions each and every module
goes through dsa-diff (two mlir-runner processes per module: before and
after). A difference fails the run; the failing kernel is printed.

  random_placement_kernels.py [--count N] [--seed S] [--batch B]
      [--save DIR] -- DSA-DIFF-COMMAND...
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

SPACE = "#dsaplan.space<ub>"
GM = "memref<256xf32>"
HEADER = 'module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {\n'


class Value:
    """A tile or a static subview of one."""

    def __init__(self, name, size, root, offset=None):
        self.name, self.size, self.root, self.offset = name, size, root, offset

    @property
    def type(self):
        if self.offset is None:
            return f"memref<{self.size}xf32, {SPACE}>"
        return f"memref<{self.size}xf32, strided<[1], offset: {self.offset}>, {SPACE}>"


class Kernel:
    def __init__(self, rng, name):
        self.rng, self.name = rng, name
        self.counter = 0
        self.lines = []

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    # -- values -------------------------------------------------------------

    def alloc(self, pad, scope):
        size = self.rng.choice([16, 32, 64, 128])
        name = self.fresh("t")
        self.lines.append(f'{pad}{name} = memref.alloc() {{name = "{name[1:]}"}} : '
                          f"memref<{size}xf32, {SPACE}>")
        scope.append(Value(name, size, name))

    def subview(self, pad, scope, init):
        whole = [v for v in scope if v.offset is None and v.size >= 32]
        if not whole:
            return
        tile = self.rng.choice(whole)
        size = tile.size // 2
        offset = 8 * self.rng.randint(0, (tile.size - size) // 8)
        name = self.fresh("s")
        sub = Value(name, size, tile.root, offset)
        self.lines.append(f"{pad}{name} = memref.subview {tile.name}[{offset}] [{size}] [1] : "
                          f"{tile.type} to {sub.type}")
        scope.append(sub)

    def gm(self, pad, arg, size):
        offset = 8 * self.rng.randint(0, (256 - size) // 8)
        name = self.fresh("g")
        gm_type = f"memref<{size}xf32, strided<[1], offset: {offset}>>"
        self.lines.append(f"{pad}{name} = memref.subview {arg}[{offset}] [{size}] [1] : "
                          f"{GM} to {gm_type}")
        return name, gm_type

    # -- ops ----------------------------------------------------------------

    def store(self, pad, src):
        dst, dst_type = self.gm(pad, self.rng.choice(["%out0", "%out1"]), src.size)
        self.lines.append(f"{pad}memref.copy {src.name}, {dst} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} "
                          f": {src.type} to {dst_type}")

    def written(self, value, init):
        """A write of a whole tile initialises it; a write of part of one
        only keeps it initialised."""
        if value.offset is None:
            init.add(value.root)

    def op(self, pad, scope, init):
        rng = self.rng
        ready = [v for v in scope if v.root in init]
        kind = rng.choice(["load", "load", "store", "store", "fill", "copy", "binary",
                           "binary", "binary", "subview"])
        if kind == "subview":
            return self.subview(pad, scope, init)
        if kind == "load" or not ready:
            dst = rng.choice([v for v in scope if v.offset is None or v.root in init])
            src, src_type = self.gm(pad, rng.choice(["%x", "%y"]), dst.size)
            self.lines.append(f"{pad}memref.copy {src}, {dst.name} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} "
                              f": {src_type} to {dst.type}")
            return self.written(dst, init)
        if kind == "store":
            return self.store(pad, rng.choice(ready))
        if kind == "fill":
            dst = rng.choice([v for v in scope if v.offset is None or v.root in init])
            const = self.fresh("c")
            self.lines.append(f"{pad}{const} = arith.constant {rng.randint(-4, 4)}.0 : f32")
            self.lines.append(f"{pad}linalg.fill {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                              f"ins({const} : f32) outs({dst.name} : {dst.type})")
            return self.written(dst, init)
        src = rng.choice(ready)
        same = [v for v in scope if v.size == src.size and v.root != src.root
                and (v.offset is None or v.root in init)]
        if kind == "copy":
            if not same:
                return
            dst = rng.choice(same)
            self.lines.append(f"{pad}linalg.copy {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                              f"ins({src.name} : {src.type}) outs({dst.name} : {dst.type})")
            return self.written(dst, init)
        other = rng.choice([v for v in ready if v.size == src.size])
        name = rng.choice(["add", "sub", "mul"])
        if rng.random() < 0.25 and other.root != src.root:
            # In place: each element is read before it is written.
            self.lines.append(f"{pad}linalg.{name} {{dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}} "
                              f"ins({src.name}, {other.name} : {src.type}, {other.type}) "
                              f"outs({src.name} : {src.type})")
            return
        outs = [v for v in same if v.root != other.root]
        if not outs:
            return
        dst = rng.choice(outs)
        self.lines.append(f"{pad}linalg.{name} {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                          f"ins({src.name}, {other.name} : {src.type}, {other.type}) "
                          f"outs({dst.name} : {dst.type})")
        self.written(dst, init)

    # -- structure ----------------------------------------------------------

    def block(self, indent, depth, outer, init):
        """Ops of one block; returns the tiles it initialises (on every
        path). Tiles allocated here are local to it."""
        pad = "  " * indent
        scope = list(outer)
        for _ in range(self.rng.randint(0, 1) if depth else self.rng.randint(2, 4)):
            self.alloc(pad, scope)
        if not scope:
            self.alloc(pad, scope)
        for _ in range(self.rng.randint(2, 6) if depth else self.rng.randint(4, 10)):
            choice = self.rng.random()
            if depth < 2 and choice < 0.15:
                iv = self.fresh("i")
                self.lines.append(f"{pad}scf.for {iv} = %c0 to %c{self.rng.choice([2, 3])} step %c1 {{")
                init |= self.block(indent + 1, depth + 1, scope, set(init))
                self.lines.append(f"{pad}}}")
            elif depth < 2 and choice < 0.3:
                self.lines.append(f"{pad}scf.if {self.rng.choice(['%p', '%q'])} {{")
                then = self.block(indent + 1, depth + 1, scope, set(init))
                other = set(init)
                if self.rng.random() < 0.7:
                    self.lines.append(f"{pad}}} else {{")
                    other = self.block(indent + 1, depth + 1, scope, set(init))
                self.lines.append(f"{pad}}}")
                init |= then & other
            elif choice < 0.38:
                self.alloc(pad, scope)
            else:
                self.op(pad, scope, init)
        # What this block computed leaves through GM, so a clobber of it
        # shows in the outputs.
        for value in scope:
            if value not in outer and value.offset is None and value.root in init \
                    and (depth == 0 or self.rng.random() < 0.5):
                self.store(pad, value)
        roots = {v.root for v in outer}
        return {t for t in init if t in roots}

    def text(self):
        self.lines = [f"  func.func @{self.name}(%x: {GM}, %y: {GM}, %out0: {GM}, "
                      f"%out1: {GM}, %p: i1, %q: i1) {{",
                      "    %c0 = arith.constant 0 : index",
                      "    %c1 = arith.constant 1 : index",
                      "    %c2 = arith.constant 2 : index",
                      "    %c3 = arith.constant 3 : index"]
        scope, init = [], set()
        self.block(2, 0, scope, init)
        self.lines += ["    return", "  }"]
        return "\n".join(self.lines) + "\n"


def kernel_text(seed, index):
    return Kernel(random.Random(f"{seed}:{index}"), f"k{index}").text()


def run_batch(cmd, texts, work, number):
    path = os.path.join(work, f"batch{number}.mlir")
    with open(path, "w") as f:
        f.write(HEADER + "".join(texts) + "}\n")
    proc = subprocess.run(cmd + ["-q", path], capture_output=True, text=True)
    summary = re.search(r"(\d+) kernels, (\d+) runs, (\d+) differences", proc.stdout)
    if proc.returncode not in (0, 1) or not summary:
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"dsa-diff failed on {path} (exit {proc.returncode})")
    fails = re.findall(r"^FAIL (k\d+): (.*)$", proc.stdout, re.M)
    return [int(g) for g in summary.groups()], fails


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--save", help="write the batches here (kept)")
    parser.add_argument("dsa_diff", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = [a for a in args.dsa_diff if a != "--"] if args.dsa_diff else []
    if not cmd:
        parser.error("give the dsa-diff command after --")
    work = args.save or tempfile.mkdtemp(prefix="random-placement-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    texts = [kernel_text(args.seed, i) for i in range(args.count)]
    totals, failures = [0, 0, 0], []
    for b in range(0, args.count, args.batch):
        counts, fails = run_batch(cmd, texts[b:b + args.batch], work, b // args.batch)
        totals = [t + c for t, c in zip(totals, counts)]
        failures += fails
    for name, message in failures[:3]:
        print(f"FAIL {name} (seed {args.seed}): {message}\n{texts[int(name[1:])]}",
              file=sys.stderr)
    print("%d kernels, %d runs, %d differences" % tuple(totals))
    sys.stdout.flush()
    print("time: %.1f s" % (time.time() - start), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
