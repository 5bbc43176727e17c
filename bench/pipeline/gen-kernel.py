#!/usr/bin/env python3
"""Generates a synthetic Ascend kernel with N tile allocations for dsa-opt.

The kernel is a sequence of stages; each stage is either straight-line code,
an scf.for (sometimes nested), or an scf.if with different temporaries in its
branches. Every tile is loaded by MTE2, computed on by V (reading earlier
tiles of the same stage), and some are stored by MTE3, so lifetimes overlap
the way they do in real vector kernels. Deterministic for a given seed.

  gen-kernel.py N [--seed S] > kernel.mlir
"""

import argparse
import random

UB = "#dsaplan.space<ub>"


class Emitter:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.next_id = 0
        self.indent = 2

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def tile(self, live):
        """Allocates, loads and computes one tile; returns its name."""
        elems = self.rng.choice([8, 64, 256, 512, 1024, 2048])
        name = f"%t{self.next_id}"
        ty = f"memref<{elems}xf32, {UB}>"
        self.next_id += 1
        self.emit(f'{name} = memref.alloc() {{name = "t{self.next_id - 1}"}} : {ty}')
        self.emit(f"memref.copy %gm_{elems}, {name} {{dsaplan.pipe = #dsaplan.pipe<mte2>}}"
                  f" : memref<{elems}xf32> to {ty}")
        same = [t for t in live if t[1] == elems]
        if same:
            src = self.rng.choice(same)[0]
            self.emit(f"linalg.add {{dsaplan.pipe = #dsaplan.pipe<v>}} ins({src}, {name} : {ty}, {ty})"
                      f" outs({name} : {ty})")
        if self.rng.random() < 0.3:
            self.emit(f"memref.copy {name}, %gm_{elems} {{dsaplan.pipe = #dsaplan.pipe<mte3>}}"
                      f" : {ty} to memref<{elems}xf32>")
        live.append((name, elems))
        return name

    def straight(self, count, live):
        for _ in range(count):
            self.tile(live)
            if len(live) > 6:
                live.pop(0)

    def loop(self, count, depth, live):
        self.emit("scf.for %i{0} = %c0 to %c4 step %c1 {{".format(self.next_id))
        self.indent += 1
        inner = list(live)
        if depth > 1 and count > 4:
            self.straight(count // 2, inner)
            self.loop(count - count // 2, depth - 1, inner)
        else:
            self.straight(count, inner)
        self.indent -= 1
        self.emit("}")

    def branch(self, count, live):
        self.emit("scf.if %cond {")
        self.indent += 1
        self.straight(count // 2, list(live))
        self.indent -= 1
        self.emit("} else {")
        self.indent += 1
        self.straight(count - count // 2, list(live))
        self.indent -= 1
        self.emit("}")


def generate(n, seed):
    rng = random.Random(seed)
    e = Emitter(rng)
    sizes = [8, 64, 256, 512, 1024, 2048]
    args = ", ".join(f"%gm_{s}: memref<{s}xf32>" for s in sizes)
    out = ['module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {',
           f"  func.func @synthetic_{n}({args}, %cond: i1) {{",
           "    %c0 = arith.constant 0 : index",
           "    %c1 = arith.constant 1 : index",
           "    %c4 = arith.constant 4 : index"]
    live = []
    while e.next_id < n:
        count = min(rng.randint(4, 24), n - e.next_id)
        kind = rng.random()
        if kind < 0.4:
            e.loop(count, rng.randint(1, 3), live)
        elif kind < 0.7:
            e.branch(count, live)
        else:
            e.straight(count, live)
    out.extend(e.lines)
    out.append("    return")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(generate(args.n, args.seed), end="")


if __name__ == "__main__":
    main()
