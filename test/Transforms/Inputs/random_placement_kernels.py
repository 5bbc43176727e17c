#!/usr/bin/env python3
"""Property test of the whole placement pipeline by differential execution.

Generates seeded random kernels BEFORE placement and checks each with
dsa-diff: the kernel before and after --dsa-plan, run on the CPU on the same
random inputs, must give bit-identical outputs.

A kernel has UB tiles of 16 to 128 f32 (memref.alloc in #dsaplan.space<ub>)
allocated at the top of the function, in loop bodies and in scf.if branches,
so that lifetimes have holes and tiles share bytes; aliases of them (static
subviews, subviews at a loop-dependent offset, rows of an expand_shape, the
result of an scf.if that yields one of two tiles, ping-pong iter_args of an
scf.for that swap two tiles every iteration); and ops on their pipes:
memref.copy from the GM inputs (mte2) and to the GM outputs (mte3),
linalg.fill / copy / add / sub / mul (v, some in place), inside scf.for
(2 or 3 iterations), scf.while (2 iterations, ops in both regions) and
scf.if on the two i1 arguments. A tile is read only where every path before
has written it, so the kernel never reads memory it did not write and any
difference is the placement's. Every block stores what it computed to GM.

With --shapes, the kernels also hold the shapes of issue 18 (carried tiles,
cf branches, scf.forall / scf.parallel, casts out of the space, transposes,
vector transfers); with --in-place, --calls and --multibuf the memory
contracts of issue 24 (in-place chains and casts on large tiles, calls of
helpers with tiles of their own, multi-buffered tiles in branches of loop
bodies). See docs/differential.md. An option off draws no random number,
so the kernels without it stay byte-identical.

The kernels go --batch to a module, one dsa-diff run per module (two
mlir-runner processes). A difference fails the run and prints the kernel;
so does a kernel the pipeline rejects (one split-input-file dsa-opt run
finds the kernels at fault in a module that --dsa-plan fails on).

  random_placement_kernels.py [--count N] [--first I] [--seed S] [--batch B]
      [--shapes] [--in-place] [--calls] [--multibuf]
      [--save DIR] -- DSA-DIFF-COMMAND...
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

SPACE = "#dsaplan.space<ub>"
GM = "memref<256xf32>"
# With --in-place: the elements of the large tiles (16 to 48 KiB as f32, so
# that a chain of them exceeds UB's 188416 usable bytes and placement must
# reuse bytes, while the three a chain keeps live at once still fit), and the
# large GM arguments they are loaded from and stored to (the outputs twice
# as long: the chain's last tile and a tile it kept live go to different
# halves).
BIG_SIZES = [4096, 8192, 12288]
BIG = 12288
BIG_ARGS = [("%bx", f"memref<{BIG}xf32>"), ("%hx", f"memref<{BIG}xf16>"),
            ("%bo", f"memref<{2 * BIG}xf32>"), ("%ho", f"memref<{2 * BIG}xf16>")]
# With --calls: how deep helpers call helpers (a kernel calls helpers of
# depth 1, which may call helpers of depth 2), and the pipe a call is given.
MAX_CALL_DEPTH = 2
HEADER = 'module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {\n'


class Value:
    """A tile or an alias of one. `root` names the tile it is part of (for
    aliases through control flow, a name of its own); `offset` is None for
    a whole tile, else the subview's static offset or "?"."""

    def __init__(self, name, size, root, offset=None):
        self.name, self.size, self.root, self.offset = name, size, root, offset

    @property
    def whole(self):
        return self.offset is None

    @property
    def type(self):
        if self.whole:
            return f"memref<{self.size}xf32, {SPACE}>"
        return f"memref<{self.size}xf32, strided<[1], offset: {self.offset}>, {SPACE}>"


class Block:
    """What the generator knows inside one block: the values in scope, the
    roots written on every path so far, the innermost scf.for induction
    variable and its trip count."""

    def __init__(self, indent, depth, scope, init, loop=None, slots=None):
        self.pad = "  " * indent
        self.indent, self.depth = indent, depth
        self.scope, self.init, self.loop = list(scope), set(init), loop
        # "for": the body of an scf.for; "if-in-for": a branch of an scf.if
        # in one. Where --multibuf gives tiles dsaplan.buffers = 2.
        self.slots = slots

    def nested(self, scope=None, loop=None, slots=None):
        return Block(self.indent + 1, self.depth + 1,
                     self.scope if scope is None else scope, self.init,
                     loop or self.loop, slots)

    def ready(self):
        return [v for v in self.scope if v.root in self.init]

    def writable(self):
        """Values a write may go to: whole tiles, and parts of written ones
        (a partial write does not make a tile written)."""
        return [v for v in self.scope if v.whole or v.root in self.init]


class Options:
    """The shapes a kernel may hold beyond the default ones: --shapes (issue
    18), and the memory contracts of issue 24: --in-place, --calls,
    --multibuf. Each option draws random numbers only when it is on, so a
    seed's kernels without it stay byte-identical."""

    def __init__(self, shapes=False, in_place=False, calls=False, multibuf=False):
        self.shapes, self.in_place, self.calls, self.multibuf = shapes, in_place, calls, multibuf

    @property
    def contracts(self):
        return self.in_place or self.calls or self.multibuf


class Kernel:
    def __init__(self, rng, name, shapes=False, options=None, helpers=None, call_depth=0):
        self.rng, self.name, self.shapes = rng, name, shapes
        self.opts = options or Options(shapes=shapes)
        self.counter = 0
        self.lines = []
        self.labels = 0
        # The helpers of the kernel, shared with the helpers themselves:
        # {name: (call depth, text)}, in the order they were made.
        self.helpers = {} if helpers is None else helpers
        self.call_depth = call_depth
        # The shapes of issue 24 this kernel (with its helpers) holds.
        self.used = set()

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, b, text):
        self.lines.append(b.pad + text)

    # -- values -------------------------------------------------------------

    def alloc(self, b, size=None, slots=False):
        size = size or self.rng.choice([16, 32, 64, 128])
        name = self.fresh("t")
        attrs = f'name = "{name[1:]}"'
        if slots or (self.opts.multibuf and b.slots and self.rng.random() < 0.6):
            # Two rotating slots for a tile of an scf.for body, or of an
            # scf.if branch in one (the second is what --multibuf adds).
            attrs += ", dsaplan.buffers = 2 : i64"
            self.used.add("multibuf-branch-alloc" if b.slots == "if-in-for" else "multibuf-body")
        self.emit(b, f"{name} = memref.alloc() {{{attrs}}} : memref<{size}xf32, {SPACE}>")
        b.scope.append(Value(name, size, name))

    def subview(self, b):
        tiles = [v for v in b.scope if v.whole and v.size >= 32]
        if not tiles:
            return
        tile = self.rng.choice(tiles)
        kind = self.rng.random()
        if kind < 0.25 and b.loop:
            return self.dynamic_subview(b, tile)
        if kind < 0.5:
            return self.expanded_row(b, tile)
        size = tile.size // 2
        offset = 8 * self.rng.randint(0, (tile.size - size) // 8)
        sub = Value(self.fresh("s"), size, tile.root, offset)
        self.emit(b, f"{sub.name} = memref.subview {tile.name}[{offset}] [{size}] [1] : "
                     f"{tile.type} to {sub.type}")
        b.scope.append(sub)

    def dynamic_subview(self, b, tile):
        """16 elements at 8 * the loop's induction variable."""
        iv, trips = b.loop
        if 16 + 8 * (trips - 1) > tile.size:
            return
        offset = self.fresh("o")
        sub = Value(self.fresh("s"), 16, tile.root, "?")
        self.emit(b, f"{offset} = arith.muli {iv}, %c8 : index")
        self.emit(b, f"{sub.name} = memref.subview {tile.name}[{offset}] [16] [1] : "
                     f"{tile.type} to {sub.type}")
        b.scope.append(sub)

    def expanded_row(self, b, tile):
        """A row of the tile seen as a 2 x n/2 matrix."""
        half = tile.size // 2
        row = self.rng.randint(0, 1)
        matrix = self.fresh("e")
        matrix_type = f"memref<2x{half}xf32, {SPACE}>"
        sub = Value(self.fresh("s"), half, tile.root, row * half)
        self.emit(b, f"{matrix} = memref.expand_shape {tile.name} [[0, 1]] output_shape [2, {half}] "
                     f": {tile.type} into {matrix_type}")
        self.emit(b, f"{sub.name} = memref.subview {matrix}[{row}, 0] [1, {half}] [1, 1] : "
                     f"{matrix_type} to {sub.type}")
        b.scope.append(sub)

    def gm(self, b, arg, size):
        offset = 8 * self.rng.randint(0, (256 - size) // 8)
        name = self.fresh("g")
        gm_type = f"memref<{size}xf32, strided<[1], offset: {offset}>>"
        self.emit(b, f"{name} = memref.subview {arg}[{offset}] [{size}] [1] : {GM} to {gm_type}")
        return name, gm_type

    # -- ops ----------------------------------------------------------------

    def destination(self, b, size=None):
        """Where a write goes: often a tile allocated right here, else a
        writable value (of `size` elements if given), or None."""
        fits = [v for v in b.writable() if size is None or v.size == size]
        if size is None and (not fits or self.rng.random() < 0.3):
            self.alloc(b)
            return b.scope[-1]
        return self.rng.choice(fits) if fits else None

    def written(self, b, value):
        if value.whole:
            b.init.add(value.root)

    def load(self, b, dst):
        src, src_type = self.gm(b, self.rng.choice(["%x", "%y"]), dst.size)
        self.emit(b, f"memref.copy {src}, {dst.name} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} "
                     f": {src_type} to {dst.type}")
        self.written(b, dst)

    def store(self, b, src):
        dst, dst_type = self.gm(b, self.rng.choice(["%out0", "%out1"]), src.size)
        self.emit(b, f"memref.copy {src.name}, {dst} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} "
                     f": {src.type} to {dst_type}")

    def fill(self, b, dst):
        const = self.fresh("k")
        self.emit(b, f"{const} = arith.constant {self.rng.randint(-4, 4)}.0 : f32")
        self.emit(b, f"linalg.fill {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                     f"ins({const} : f32) outs({dst.name} : {dst.type})")
        self.written(b, dst)

    def vector(self, b, kind, src):
        rng = self.rng
        outs = [v for v in b.writable() if v.size == src.size and v.root != src.root]
        if not outs or (src.whole and rng.random() < 0.3):
            self.alloc(b, src.size)
            outs = [b.scope[-1]]
        if kind == "copy":
            if outs:
                dst = rng.choice(outs)
                self.emit(b, f"linalg.copy {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                             f"ins({src.name} : {src.type}) outs({dst.name} : {dst.type})")
                self.written(b, dst)
            return
        other = rng.choice([v for v in b.ready() if v.size == src.size])
        name = rng.choice(["add", "sub", "mul"])
        ins = f"ins({src.name}, {other.name} : {src.type}, {other.type})"
        if rng.random() < 0.25 and other.root != src.root:
            # In place: each element is read before it is written.
            self.emit(b, f"linalg.{name} {{dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}} "
                         f"{ins} outs({src.name} : {src.type})")
            return
        outs = [v for v in outs if v.root != other.root]
        if outs:
            dst = rng.choice(outs)
            self.emit(b, f"linalg.{name} {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                         f"{ins} outs({dst.name} : {dst.type})")
            self.written(b, dst)

    def space_cast(self, b, tile, load):
        """The tile seen outside the dsaplan space (memory_space_cast), and
        a load into it or a store from it through the cast."""
        cast = self.fresh("m")
        plain = f"memref<{tile.size}xf32>"
        self.emit(b, f"{cast} = memref.memory_space_cast {tile.name} : {tile.type} to {plain}")
        arg = self.rng.choice(["%x", "%y"] if load else ["%out0", "%out1"])
        gm, gm_type = self.gm(b, arg, tile.size)
        if load:
            self.emit(b, f"memref.copy {gm}, {cast} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} "
                         f": {gm_type} to {plain}")
            self.written(b, tile)
        else:
            self.emit(b, f"memref.copy {cast}, {gm} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} "
                         f": {plain} to {gm_type}")

    def transposed_copy(self, b, tile):
        """A written tile seen as 2 x n/2, transposed (a view), copied on V
        into a new n/2 x 2 tile, which is then seen as n elements again."""
        half = tile.size // 2
        matrix, view, dst, flat = (self.fresh(x) for x in ("e", "tr", "t", "f"))
        matrix_type = f"memref<2x{half}xf32, {SPACE}>"
        view_type = f"memref<{half}x2xf32, strided<[1, {half}]>, {SPACE}>"
        dst_type = f"memref<{half}x2xf32, {SPACE}>"
        self.emit(b, f"{matrix} = memref.expand_shape {tile.name} [[0, 1]] output_shape [2, {half}] "
                     f": {tile.type} into {matrix_type}")
        self.emit(b, f"{view} = memref.transpose {matrix} (i, j) -> (j, i) : {matrix_type} to {view_type}")
        self.emit(b, f'{dst} = memref.alloc() {{name = "{dst[1:]}"}} : {dst_type}')
        self.emit(b, f"linalg.copy {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                     f"ins({view} : {view_type}) outs({dst} : {dst_type})")
        self.emit(b, f"{flat} = memref.collapse_shape {dst} [[0, 1]] : {dst_type} into "
                     f"memref<{tile.size}xf32, {SPACE}>")
        b.scope.append(Value(flat, tile.size, dst))
        b.init.add(dst)

    def vector_transfer(self, b, src):
        """vector.transfer_read of a written tile, an arith op on the
        vector, vector.transfer_write into a tile of the same size (V)."""
        dst = self.destination(b, src.size) if self.rng.random() < 0.6 else None
        if dst is None:
            self.alloc(b, src.size)
            dst = b.scope[-1]
        vec, pad, res = self.fresh("vec"), self.fresh("pad"), self.fresh("vec")
        vtype = f"vector<{src.size}xf32>"
        self.emit(b, f"{pad} = arith.constant 0.0 : f32")
        self.emit(b, f"{vec} = vector.transfer_read {src.name}[%c0], {pad} "
                     f"{{dsaplan.pipe = #dsaplan.pipe<v>, in_bounds = [true]}} : {src.type}, {vtype}")
        self.emit(b, f"{res} = arith.addf {vec}, {vec} : {vtype}")
        self.emit(b, f"vector.transfer_write {res}, {dst.name}[%c0] "
                     f"{{dsaplan.pipe = #dsaplan.pipe<v>, in_bounds = [true]}} : {vtype}, {dst.type}")
        self.written(b, dst)

    def shape_op(self, b):
        """One of the view and access shapes of issue 18, on a written
        whole tile; False when there is none."""
        tiles = [v for v in b.ready() if v.whole]
        if not tiles:
            return False
        tile = self.rng.choice(tiles)
        kind = self.rng.choice(["cast-load", "cast-store", "transpose", "vector"])
        if kind == "transpose" and tile.size >= 32:
            self.transposed_copy(b, tile)
        elif kind == "vector":
            self.vector_transfer(b, tile)
        else:
            self.space_cast(b, tile, load=kind == "cast-load")
        return True

    def op(self, b):
        rng = self.rng
        if self.shapes and rng.random() < 0.15 and self.shape_op(b):
            return
        kind = rng.choice(["load", "load", "store", "store", "fill", "copy", "binary",
                           "binary", "binary", "subview"])
        if kind == "subview":
            return self.subview(b)
        ready = b.ready()
        if kind == "load" or not ready:
            return self.load(b, self.destination(b))
        if kind == "fill":
            return self.fill(b, self.destination(b))
        if kind == "store":
            return self.store(b, rng.choice(ready))
        self.vector(b, kind, rng.choice(ready))

    # -- the shapes of issue 24 (--in-place, --calls, --multibuf) ----------

    def big_alloc(self, b, size, elt):
        name = self.fresh("big")
        self.emit(b, f'{name} = memref.alloc() {{name = "{name[1:]}"}} : '
                     f"memref<{size}x{elt}, {SPACE}>")
        return name, f"memref<{size}x{elt}, {SPACE}>"

    def big_gm(self, b, arg, size, elt, offset):
        name = self.fresh("g")
        arg_type = dict(BIG_ARGS)[arg]
        gm_type = f"memref<{size}x{elt}, strided<[1], offset: {offset}>>"
        self.emit(b, f"{name} = memref.subview {arg}[{offset}] [{size}] [1] : {arg_type} to {gm_type}")
        return name, gm_type

    def in_place_chain(self, b):
        """A chain of element-wise V ops marked dsaplan.in_place on large
        tiles (4096 to 12288 elements): each op reads the tile the one
        before wrote, which dies there unless the chain keeps it for later,
        and writes a new tile of the same length; casts (linalg.copy from
        f32 to f16 or back) change the element size. The tiles are the
        chain's own: loaded first, the last and the kept one stored at the
        end, never seen by the other ops, so at most three are live at
        once (144 KiB) while the chain as a whole needs more than UB."""
        rng = self.rng
        size, elt = rng.choice(BIG_SIZES), rng.choice(["f32", "f16"])
        cur, cur_type = self.big_alloc(b, size, elt)
        src, src_type = self.big_gm(b, "%bx" if elt == "f32" else "%hx", size, elt,
                                    8 * rng.randint(0, (BIG - size) // 8))
        self.emit(b, f"memref.copy {src}, {cur} {{dsaplan.pipe = #dsaplan.pipe<mte2>}} "
                     f": {src_type} to {cur_type}")
        kept = None
        self.used.add("in-place-chain")
        for _ in range(rng.randint(2, 5)):
            kind = rng.choice(["unary", "binary", "cast", "cast"])
            new_elt = {"f32": "f16", "f16": "f32"}[elt] if kind == "cast" else elt
            dst, dst_type = self.big_alloc(b, size, new_elt)
            if kind == "cast":
                self.used.add("cast-f32-f16" if elt == "f32" else "cast-f16-f32")
                self.emit(b, f"linalg.copy {{dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}} "
                             f"ins({cur} : {cur_type}) outs({dst} : {dst_type})")
            elif kind == "unary":
                op = rng.choice(["negf", "abs", "floor"])
                self.emit(b, f"linalg.{op} {{dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}} "
                             f"ins({cur} : {cur_type}) outs({dst} : {dst_type})")
            else:
                # With the kept tile when it has the type, else the tile
                # twice (values stay small: add and sub at most double).
                other = kept[0] if kept and kept[1] == cur_type else cur
                op = rng.choice(["add", "sub", "max", "min"])
                self.emit(b, f"linalg.{op} {{dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}} "
                             f"ins({cur}, {other} : {cur_type}, {cur_type}) outs({dst} : {dst_type})")
            if kept is None and rng.random() < 0.3:
                kept = (cur, cur_type, elt)
                self.used.add("in-place-input-kept")
            cur, cur_type, elt = dst, dst_type, new_elt
        for k, (tile, tile_type, tile_elt) in enumerate([(cur, cur_type, elt)] + ([kept] if kept else [])):
            dst, dst_type = self.big_gm(b, "%bo" if tile_elt == "f32" else "%ho", size, tile_elt, k * BIG)
            self.emit(b, f"memref.copy {tile}, {dst} {{dsaplan.pipe = #dsaplan.pipe<mte3>}} "
                         f": {tile_type} to {dst_type}")

    def params(self):
        """The kernel's (and every helper's) arguments."""
        params = [f"%x: {GM}", f"%y: {GM}", f"%out0: {GM}", f"%out1: {GM}"]
        if self.opts.in_place:
            params += [f"{name}: {t}" for name, t in BIG_ARGS]
        return params + ["%p: i1", "%q: i1"]

    def call(self, b):
        """A call of a helper: a private function with UB tiles of its own,
        given every argument of the kernel (it loads from %x and %y, stores
        to %out0 and %out1). Half the time a helper that exists already is
        called again, from another site, where other tiles are live. A
        helper calls only helpers deeper than itself: never recursion."""
        rng = self.rng
        callable_ = [name for name, (depth, _) in self.helpers.items()
                     if depth > self.call_depth]
        if callable_ and rng.random() < 0.5:
            callee = rng.choice(callable_)
            self.used.add("call-again")
        elif self.call_depth < MAX_CALL_DEPTH:
            callee = self.make_helper()
        else:
            return self.op(b)
        if b.loop:
            self.used.add("call-in-loop")
        if self.call_depth:
            self.used.add("nested-call")
        self.used.add("call")
        args = [p.split(":")[0] for p in self.params()]
        types = [p.split(": ", 1)[1] for p in self.params()]
        # The call's accesses (loads of %x and %y, stores to %out0 and
        # %out1) are taken to be on the pipe the call carries.
        self.emit(b, f"func.call @{callee}({', '.join(args)}) {{dsaplan.pipe = #dsaplan.pipe<mte3>}} "
                     f": ({', '.join(types)}) -> ()")

    def make_helper(self):
        """A new helper one level deeper, generated with this kernel's
        random numbers and options."""
        base = self.name.split("_")[1] if self.call_depth else self.name
        name = f"helper_{base}_{len(self.helpers)}"
        self.helpers[name] = (self.call_depth + 1, None)
        helper = Kernel(self.rng, name, self.shapes, self.opts, self.helpers, self.call_depth + 1)
        self.helpers[name] = (self.call_depth + 1, helper.text())
        self.used |= helper.used
        return name

    def multibuf_select(self, b):
        """In an scf.for body: a tile with two slots, loaded, and an scf.if
        yielding it or another tile; the result is read after the branch."""
        self.alloc(b, slots=True)
        tile = b.scope[-1]
        self.load(b, tile)
        others = [v for v in b.ready() if v.whole and v.size == tile.size and v.root != tile.root]
        if not others or self.rng.random() < 0.5:
            self.alloc(b, tile.size, slots=True)
            others = [b.scope[-1]]
            self.load(b, others[0])
        other = self.rng.choice(others)
        res = Value(self.fresh("r"), tile.size, self.fresh("sel"))
        flag = self.rng.choice(["%p", "%q"])
        self.emit(b, f"{res.name} = scf.if {flag} -> ({tile.type}) {{")
        then = b.nested(slots="if-in-for")
        self.block(then)
        self.emit(then, f"scf.yield {tile.name} : {tile.type}")
        self.emit(b, "} else {")
        other_block = b.nested(slots="if-in-for")
        self.block(other_block)
        self.emit(other_block, f"scf.yield {other.name} : {other.type}")
        self.emit(b, "}")
        b.scope.append(res)
        b.init.add(res.root)
        self.used.add("multibuf-branch-yield")
        self.vector(b, "copy", res)
        self.store(b, res)

    def multibuf_loop(self, b):
        """An scf.for whose body starts with multibuf_select."""
        iv, trips = self.fresh("i"), self.rng.choice([2, 3])
        self.emit(b, f"scf.for {iv} = %c0 to %c{trips} step %c1 {{")
        body = b.nested(loop=(iv, trips), slots="for")
        self.multibuf_select(body)
        b.init |= self.block(body)
        self.emit(b, "}")

    # -- structure ----------------------------------------------------------

    def for_loop(self, b):
        iv, trips = self.fresh("i"), self.rng.choice([2, 3])
        self.emit(b, f"scf.for {iv} = %c0 to %c{trips} step %c1 {{")
        b.init |= self.block(b.nested(loop=(iv, trips), slots="for"))
        self.emit(b, "}")

    def ping_pong(self, b):
        """Two written tiles swapped every iteration through iter_args."""
        pairs = [(p, q) for p in b.ready() for q in b.ready()
                 if p.whole and q.whole and p.size == q.size and p.root != q.root]
        if not pairs:
            return self.for_loop(b)
        p, q = self.rng.choice(pairs)
        iv, trips, res = self.fresh("i"), self.rng.choice([2, 3]), self.fresh("r")
        u, w = Value(self.fresh("u"), p.size, self.fresh("pp")), Value(self.fresh("w"), p.size, self.fresh("pp"))
        self.emit(b, f"{res}:2 = scf.for {iv} = %c0 to %c{trips} step %c1 "
                     f"iter_args({u.name} = {p.name}, {w.name} = {q.name}) -> ({p.type}, {p.type}) {{")
        inner = b.nested(scope=[v for v in b.scope if v not in (p, q)] + [u, w], loop=(iv, trips))
        inner.init |= {u.root, w.root}
        b.init |= self.block(inner)
        self.emit(inner, f"scf.yield {w.name}, {u.name} : {p.type}, {p.type}")
        self.emit(b, "}")
        for k in range(2):
            result = Value(f"{res}#{k}", p.size, self.fresh("pp"))
            b.scope.append(result)
            b.init.add(result.root)

    def parallel_loop(self, b):
        """scf.forall or scf.parallel: one core runs the iterations in
        order, and the CPU too."""
        iv, trips = self.fresh("i"), self.rng.choice([2, 3])
        if self.rng.random() < 0.5:
            self.emit(b, f"scf.forall ({iv}) in ({trips}) {{")
        else:
            self.emit(b, f"scf.parallel ({iv}) = (%c0) to (%c{trips}) step (%c1) {{")
        b.init |= self.block(b.nested(loop=(iv, trips)))
        self.emit(b, "}")

    def carried_body(self, b, inner, prev, cur):
        """The body of a loop that keeps the previous tile: %cur allocated
        here, loaded, added to %prev, more ops; yields %cur (sometimes
        through a cast)."""
        self.emit(inner, f'{cur.name} = memref.alloc() {{name = "{cur.name[1:]}"}} : {cur.type}')
        self.load(inner, cur)
        self.emit(inner, f"linalg.add {{dsaplan.pipe = #dsaplan.pipe<v>}} "
                         f"ins({prev.name}, {cur.name} : {prev.type}, {cur.type}) "
                         f"outs({cur.name} : {cur.type})")
        b.init |= self.block(inner)
        if self.rng.random() < 0.3:
            cast = self.fresh("c")
            self.emit(inner, f"{cast} = memref.cast {cur.name} : {cur.type} to {cur.type}")
            return cast
        return cur.name

    def carried_for(self, b):
        """A tile allocated in an scf.for body and read through the
        iter_arg in the next iteration (dsaplan-rotate-carried)."""
        inits = [v for v in b.ready() if v.whole]
        if not inits:
            return self.for_loop(b)
        init = self.rng.choice(inits)
        iv, trips, res = self.fresh("i"), self.rng.choice([2, 3]), self.fresh("r")
        prev = Value(self.fresh("prev"), init.size, self.fresh("cr"))
        cur = Value(self.fresh("cur"), init.size, self.fresh("cur"))
        cur.root = cur.name
        self.emit(b, f"{res} = scf.for {iv} = %c0 to %c{trips} step %c1 "
                     f"iter_args({prev.name} = {init.name}) -> ({init.type}) {{")
        inner = b.nested(scope=b.scope + [prev, cur], loop=(iv, trips))
        inner.init |= {prev.root, cur.root}
        yielded = self.carried_body(b, inner, prev, cur)
        self.emit(inner, f"scf.yield {yielded} : {init.type}")
        self.emit(b, "}")
        result = Value(res, init.size, self.fresh("cr"))
        b.scope.append(result)
        b.init.add(result.root)

    def carried_while(self, b):
        """The same in the do region of an scf.while (two iterations)."""
        inits = [v for v in b.ready() if v.whole]
        if not inits:
            return self.while_loop(b)
        init = self.rng.choice(inits)
        res, n, m, cond, next_n = (self.fresh(x) for x in ("r", "n", "m", "cond", "n"))
        prev_b = self.fresh("pb")
        prev = Value(self.fresh("prev"), init.size, self.fresh("cr"))
        cur = Value(self.fresh("cur"), init.size, "")
        cur.root = cur.name
        self.emit(b, f"{res}:2 = scf.while ({n} = %c0, {prev_b} = {init.name}) : "
                     f"(index, {init.type}) -> (index, {init.type}) {{")
        self.emit(b, f"  {cond} = arith.cmpi slt, {n}, %c2 : index")
        self.emit(b, f"  scf.condition({cond}) {n}, {prev_b} : index, {init.type}")
        self.emit(b, "} do {")
        self.emit(b, f"^bb0({m}: index, {prev.name}: {init.type}):")
        inner = b.nested(scope=b.scope + [prev, cur])
        inner.init |= {prev.root, cur.root}
        yielded = self.carried_body(b, inner, prev, cur)
        self.emit(inner, f"{next_n} = arith.addi {m}, %c1 : index")
        self.emit(inner, f"scf.yield {next_n}, {yielded} : index, {init.type}")
        self.emit(b, "}")
        result = Value(f"{res}#1", init.size, self.fresh("cr"))
        b.scope.append(result)
        b.init.add(result.root)

    def label(self):
        self.labels += 1
        return f"^bb{self.labels}"

    def cf_chain(self, b):
        """The function body goes on in a new block after a cf.br."""
        target = self.label()
        self.emit(b, f"cf.br {target}")
        self.lines.append(f"{b.pad[:-2]}{target}:")

    def cf_diamond(self, b):
        """cf.cond_br to two blocks that join: what scf.if lowers to.
        Values of the branches do not reach the join."""
        then, other, join = self.label(), self.label(), self.label()
        self.emit(b, f"cf.cond_br {self.rng.choice(['%p', '%q'])}, {then}, {other}")
        inits = []
        for target in (then, other):
            self.lines.append(f"{b.pad[:-2]}{target}:")
            arm = Block(b.indent, b.depth + 1, b.scope, b.init, b.loop)
            inits.append(self.block(arm))
            self.emit(b, f"cf.br {join}")
        self.lines.append(f"{b.pad[:-2]}{join}:")
        b.init |= inits[0] & inits[1]

    def shape_structure(self, b, choice):
        """The control-flow shapes of issue 18 (with --shapes)."""
        if choice < 0.3:
            return self.carried_for(b)
        if choice < 0.45:
            return self.carried_while(b)
        if choice < 0.7:
            return self.parallel_loop(b)
        if b.depth == 0 and choice < 0.8:
            return self.cf_chain(b)
        if b.depth == 0:
            return self.cf_diamond(b)
        return self.carried_for(b)

    def while_loop(self, b):
        """Two iterations: the before region runs three times, the do
        region twice."""
        res, n, m, cond, next_n = (self.fresh(x) for x in ("r", "n", "m", "cond", "n"))
        self.emit(b, f"{res} = scf.while ({n} = %c0) : (index) -> index {{")
        before = b.nested()
        b.init |= self.block(before)
        self.emit(before, f"{cond} = arith.cmpi slt, {n}, %c2 : index")
        self.emit(before, f"scf.condition({cond}) {n} : index")
        self.emit(b, "} do {")
        self.emit(b, f"^bb0({m}: index):")
        after = b.nested()
        after.init |= b.init
        b.init |= self.block(after)
        self.emit(after, f"{next_n} = arith.addi {m}, %c1 : index")
        self.emit(after, f"scf.yield {next_n} : index")
        self.emit(b, "}")

    def branches(self, b):
        """scf.if, with or without else; sometimes yielding one of two
        written tiles of the same size."""
        flag = self.rng.choice(["%p", "%q"])
        pairs = [(p, q) for p in b.ready() for q in b.ready()
                 if p.whole and q.whole and p.size == q.size and p.root != q.root]
        select = pairs and self.rng.random() < 0.4
        if select:
            p, q = self.rng.choice(pairs)
            res = Value(self.fresh("r"), p.size, self.fresh("sel"))
            self.emit(b, f"{res.name} = scf.if {flag} -> ({p.type}) {{")
        else:
            self.emit(b, f"scf.if {flag} {{")
        in_for = "if-in-for" if b.slots == "for" else None
        then = b.nested(slots=in_for)
        then_init = self.block(then)
        if select:
            self.emit(then, f"scf.yield {p.name} : {p.type}")
        else_init = set(b.init)
        if select or self.rng.random() < 0.7:
            self.emit(b, "} else {")
            other = b.nested(slots=in_for)
            else_init = self.block(other)
            if select:
                self.emit(other, f"scf.yield {q.name} : {q.type}")
        self.emit(b, "}")
        b.init |= then_init & else_init
        if select:
            b.scope.append(res)
            b.init.add(res.root)

    def block(self, b):
        """The ops of one block; returns the roots of the enclosing scope it
        writes on every path. Tiles allocated here are local to it."""
        outer = list(b.scope)
        rng = self.rng
        for _ in range(rng.randint(0, 1) if b.depth else rng.randint(1, 3)):
            self.alloc(b)
        if self.call_depth:
            count = rng.randint(1, 3) if b.depth else rng.randint(2, 5)  # helpers are short
        elif self.opts.contracts:
            # Shorter kernels, so that a thousand run in about a minute.
            count = rng.randint(1, 4) if b.depth else rng.randint(3, 7)
        else:
            count = rng.randint(2, 6) if b.depth else rng.randint(4, 10)
        for _ in range(count):
            choice = rng.random()
            if self.shapes and b.depth < 2 and rng.random() < 0.15:
                self.shape_structure(b, rng.random())
            elif self.opts.in_place and rng.random() < 0.12:
                self.in_place_chain(b)
            elif self.opts.calls and rng.random() < 0.15:
                self.call(b)
            elif self.opts.multibuf and b.depth < 2 and rng.random() < 0.1:
                self.multibuf_loop(b)
            elif b.depth < 2 and choice < 0.08:
                self.for_loop(b)
            elif b.depth < 2 and choice < 0.13:
                self.ping_pong(b)
            elif b.depth < 2 and choice < 0.17:
                self.while_loop(b)
            elif b.depth < 2 and choice < 0.3:
                self.branches(b)
            else:
                self.op(b)
        # What this block computed leaves through GM, so a clobber of it
        # shows in the outputs.
        for value in b.scope:
            if value not in outer and value.whole and value.root in b.init \
                    and (b.depth == 0 or rng.random() < 0.5):
                self.store(b, value)
        roots = {v.root for v in outer}
        return {t for t in b.init if t in roots}

    def text(self):
        """The function; a kernel's text is followed by its helpers'."""
        if self.opts.contracts:
            visibility = "private " if self.call_depth else ""
            self.lines = [f"  func.func {visibility}@{self.name}({', '.join(self.params())}) {{"]
        else:
            self.lines = [f"  func.func @{self.name}(%x: {GM}, %y: {GM}, %out0: {GM}, "
                          f"%out1: {GM}, %p: i1, %q: i1) {{"]
        self.lines += [f"    %c{k} = arith.constant {k} : index" for k in (0, 1, 2, 3, 8)]
        self.block(Block(2, 0, [], set()))
        self.lines += ["    return", "  }"]
        text = "\n".join(self.lines) + "\n"
        if self.call_depth == 0:
            text += "".join(helper for _, helper in self.helpers.values())
        return text


def make_kernel(seed, index, options):
    """Kernel `index` of `seed` (its text is kernel.text())."""
    return Kernel(random.Random(f"{seed}:{index}"), f"k{index}", options.shapes, options)


def kernel_text(seed, index, shapes=False, options=None):
    options = options or Options(shapes=shapes)
    return make_kernel(seed, index, options).text()


def option_of(cmd, name):
    """The value of `name` (`--name VALUE` or `--name=VALUE`) in `cmd`."""
    for k, arg in enumerate(cmd):
        if arg == name and k + 1 < len(cmd):
            return cmd[k + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


SPLIT = "// -----"


def placed_by_pipeline(cmd, kernels):
    """The indexes of `kernels` ([(index, text)]) that --dsa-plan (with the
    dsa-diff command's --dsa-opt and --plan-options) accepts: one dsa-opt
    run over a module per kernel (with its helpers), split-input-file,
    where a module the pipeline rejects prints nothing."""
    dsa_opt = option_of(cmd, "--dsa-opt")
    if not dsa_opt:
        script = next((a for a in cmd if os.path.basename(a) == "dsa-diff"), None)
        dsa_opt = os.path.join(os.path.dirname(script), "dsa-opt") if script else "dsa-opt"
    options = option_of(cmd, "--plan-options")
    plan = "--dsa-plan" + (f"={options}" if options else "")
    modules = f"\n{SPLIT}\n".join(HEADER + text + "}\n" for _, text in kernels)
    proc = subprocess.run([dsa_opt, "-", "--split-input-file", f"--output-split-marker={SPLIT}",
                           plan, "-o", "-"], input=modules, capture_output=True, text=True)
    return {int(m) for m in re.findall(r"func\.func @k(\d+)\(", proc.stdout)}


def run_batch(cmd, kernels, work, first=True):
    """dsa-diff on one module of `kernels` ([(index, text)]): the counts,
    the differences [(name, message)] and the kernels the pipeline rejects
    [(index, diagnostics)]. When the pipeline rejects the module, one
    dsa-opt run finds the kernels at fault, and dsa-diff runs again on the
    others (their diagnostics come from dsa-diff on each alone, for the
    first three)."""
    path = os.path.join(work, f"k{kernels[0][0]}-{kernels[-1][0]}.mlir")
    with open(path, "w") as f:
        f.write(HEADER + "".join(text for _, text in kernels) + "}\n")
    proc = subprocess.run(cmd + ["-q", path], capture_output=True, text=True)
    summary = re.search(r"(\d+) kernels, (\d+) runs, (\d+) differences", proc.stdout)
    if proc.returncode in (0, 1) and summary:
        fails = re.findall(r"^FAIL (k\d+): (.*)$", proc.stdout, re.M)
        return [int(g) for g in summary.groups()], fails, []
    if "placing the input failed" not in proc.stderr:
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"dsa-diff failed on {path} (exit {proc.returncode})")
    if len(kernels) == 1:
        return [0, 0, 0], [], [(kernels[0][0], proc.stderr)]
    placed = placed_by_pipeline(cmd, kernels) if first else set()
    if not first or len(placed) == len(kernels):
        # The pipeline places each kernel alone but not the module (or a
        # second try): halves, until the kernels at fault are alone.
        half = len(kernels) // 2
        a = run_batch(cmd, kernels[:half], work, False)
        b = run_batch(cmd, kernels[half:], work, False)
        return [x + y for x, y in zip(a[0], b[0])], a[1] + b[1], a[2] + b[2]
    rejected = []
    for i, text in kernels:
        if i in placed:
            continue
        why = ""
        if len(rejected) < 3:
            # dsa-diff on the kernel alone, for its diagnostics.
            alone = run_batch(cmd, [(i, text)], work, False)[2]
            why = alone[0][1] if alone else "placed alone, rejected with the others"
        rejected.append((i, why))
    rest = [(i, t) for i, t in kernels if i in placed]
    if not rest:
        return [0, 0, 0], [], rejected
    counts, fails, more = run_batch(cmd, rest, work, False)
    return counts, fails, rejected + more


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--allow-rejected", type=int, default=0,
                        help="kernels the pipeline may refuse (known gaps; the line still counts them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first kernel (so that one seed's kernels can be "
                             "split over several runs)")
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--save", help="write the batches here (kept)")
    parser.add_argument("--print", type=int, metavar="K", help="print kernel K and stop")
    parser.add_argument("--shapes", action="store_true",
                        help="also emit the shapes of issue 18: tiles carried across scf.for "
                             "and scf.while iterations, cf.br chains and cf.cond_br diamonds, "
                             "scf.forall / scf.parallel, memref.memory_space_cast, "
                             "memref.transpose views, vector.transfer_read/write")
    parser.add_argument("--in-place", action="store_true",
                        help="also emit chains of element-wise V ops marked dsaplan.in_place "
                             "on large f32 and f16 tiles, with casts between the two (more "
                             "tiles than fit in UB: placement must reuse bytes)")
    parser.add_argument("--calls", action="store_true",
                        help="also emit calls of private helper functions with UB tiles of "
                             "their own, from loops and from several sites, helpers calling "
                             "helpers")
    parser.add_argument("--multibuf", action="store_true",
                        help="also give tiles of scf.for bodies and of scf.if branches in them "
                             "dsaplan.buffers = 2, some yielded by an scf.if")
    parser.add_argument("dsa_diff", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    args.options = Options(args.shapes, args.in_place, args.calls, args.multibuf)
    if args.print is not None:
        sys.stdout.write(HEADER + kernel_text(args.seed, args.print, options=args.options) + "}\n")
        return 0
    cmd = [a for a in args.dsa_diff if a != "--"] if args.dsa_diff else []
    if not cmd:
        parser.error("give the dsa-diff command after --")
    work = args.save or tempfile.mkdtemp(prefix="random-placement-")
    os.makedirs(work, exist_ok=True)
    try:
        return check(args, cmd, work)
    finally:
        if not args.save:
            shutil.rmtree(work, ignore_errors=True)


def print_shapes(made, failed, rejected):
    """One line per shape of issue 24: how many kernels hold it, how many of
    those differ and how many the pipeline rejects, and the first of each."""
    shapes = sorted({shape for kernel in made.values() for shape in kernel.used})
    for shape in shapes:
        holding = [i for i, kernel in made.items() if shape in kernel.used]
        differ = [i for i in holding if i in failed]
        refused = [i for i in holding if i in rejected]
        print(f"shape {shape}: {len(holding)} kernels, {len(differ)} differ"
              + (f" (first k{differ[0]})" if differ else "")
              + f", {len(refused)} rejected" + (f" (first k{refused[0]})" if refused else ""))


def check(args, cmd, work):
    start = time.time()
    # Kernel i depends on the seed and i alone: --first 100 --count 100 runs
    # the second half of --count 200's kernels.
    indexes = range(args.first, args.first + args.count)
    made = {i: make_kernel(args.seed, i, args.options) for i in indexes}
    texts = {i: kernel.text() for i, kernel in made.items()}
    kernels = list(texts.items())
    totals, failures, rejected = [0, 0, 0], [], []
    for b in range(0, args.count, args.batch):
        counts, fails, errors = run_batch(cmd, kernels[b:b + args.batch], work)
        totals = [t + c for t, c in zip(totals, counts)]
        failures += fails
        rejected += errors
    for name, message in failures[:3]:
        print(f"FAIL {name} (seed {args.seed}): {message}\n{texts[int(name[1:])]}",
              file=sys.stderr)
    for index, diagnostics in rejected[:3]:
        print(f"REJECTED k{index} (seed {args.seed}): --dsa-plan failed:\n"
              f"{diagnostics[-3000:]}\n{texts[index]}", file=sys.stderr)
    print("%d kernels, %d runs, %d differences" % tuple(totals)
          + (", %d rejected by the pipeline" % len(rejected) if rejected else ""))
    if args.options.contracts:
        print_shapes(made, {int(name[1:]) for name, _ in failures}, {i for i, _ in rejected})
    sys.stdout.flush()
    print("time: %.1f s" % (time.time() - start), file=sys.stderr)
    return 1 if failures or len(rejected) > args.allow_rejected else 0


if __name__ == "__main__":
    sys.exit(main())
