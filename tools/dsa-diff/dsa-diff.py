#!/usr/bin/env python3
"""dsa-diff: differential execution of a kernel before and after placement.

The fourth independent check of dsaplan (docs/differential.md). The kernel
before `dsa-opt --dsa-plan` and after it run on the CPU, in program order, on
the same seeded pseudo-random inputs; every memref argument must hold the
same bits afterwards. Placement turns tiles into fixed-offset views of one
buffer per memory space, and that stays so on the CPU: two tiles live at the
same time but placed at overlapping bytes overwrite each other, and the
outputs differ.

For each input file:
  1. before = dsa-opt --dsaplan-strip-for-cpu FILE
     after  = dsa-opt --dsa-plan=OPTIONS --dsaplan-strip-for-cpu FILE
              (or, with --after PLACED, dsa-opt --dsaplan-strip-for-cpu PLACED)
  2. A harness `@main` is appended to both: for every seed and every public
     function with a body, every memref argument (static shape, identity
     layout) is allocated and filled with small integers in [-8, 8] (as
     floats for float types) from a hash of (seed, argument, element
     index); the i-th i1 argument gets bit i of the seed, index and integer
     arguments get seed + 1, float arguments seed + 1.0; the kernel is
     called; each memref argument is printed bit for bit (its elements
     bitcast to integers, printMemrefI32/printMemrefI64 of the runner utils).
  3. Both modules are lowered with mlir-opt to the LLVM dialect (written as
     bytecode) and run with mlir-runner, one process per module (all kernels
     and seeds of a file in one run).
     With --digest, each run prints a 64-bit digest of every memref argument
     instead (for large arguments, whose printing would cost more than the
     run), and the runs whose digests differ run again, alone and in full.
  4. The dumps are compared: one line per kernel, a summary
     `N kernels, M runs, K differences`; exit 1 on a difference (naming the
     function, the argument, the seed and the first differing element), 2 on
     an error (a tool failed, nothing to run).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# Filled in by CMake when the script is copied to the build tree; left as is
# in the source tree, where the tools are looked up on PATH.
CONFIGURED_LLVM_TOOLS_DIR = "@LLVM_TOOLS_BINARY_DIR@"
CONFIGURED_LLVM_LIBRARY_DIR = "@LLVM_LIBRARY_DIR@"

LOWERING = [
    "--convert-linalg-to-loops",
    "--convert-vector-to-scf",
    "--expand-strided-metadata",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--convert-vector-to-llvm",
    "--convert-math-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-ub-to-llvm",
    "--convert-index-to-llvm",
    "--finalize-memref-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
]
RUNNER_LIBS = ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
PREFIX = "__dsadiff"


class DiffError(Exception):
    """A failure of the check itself (a tool, the input), not a difference."""


# --------------------------------------------------------------------------
# Finding the tools
# --------------------------------------------------------------------------

def configured(value):
    return value if value and not value.startswith("@") else ""


def find_tool(explicit, names):
    """The path of the first of `names` found: the explicit path, next to
    this script, in the configured LLVM tools dir, on PATH."""
    if explicit:
        return explicit
    dirs = [os.path.dirname(os.path.abspath(__file__)),
            configured(CONFIGURED_LLVM_TOOLS_DIR)]
    for name in names:
        for d in dirs:
            if d and os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
        found = shutil.which(name)
        if found:
            return found
    raise DiffError("cannot find %s (pass it explicitly)" % " or ".join(names))


def find_runner_libs(explicit_dir, runner):
    """The runner utility libraries, from --runner-lib-dir, the configured
    LLVM library dir, or beside mlir-runner's bin dir (../lib)."""
    candidates = [explicit_dir] if explicit_dir else [
        configured(CONFIGURED_LLVM_LIBRARY_DIR),
        os.path.join(os.path.dirname(os.path.realpath(runner)), "..", "lib")]
    for d in candidates:
        if d and all(os.path.exists(os.path.join(d, lib)) for lib in RUNNER_LIBS):
            return [os.path.normpath(os.path.join(d, lib)) for lib in RUNNER_LIBS]
    raise DiffError("cannot find %s in %s (pass --runner-lib-dir)"
                    % (" and ".join(RUNNER_LIBS), ", ".join(filter(None, candidates))))


def run(cmd, what, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DiffError("%s failed (exit %d): %s\n%s" % (
            what, proc.returncode, " ".join(cmd), proc.stderr.strip()[-4000:]))
    return proc.stdout


# --------------------------------------------------------------------------
# Reading the kernels' signatures
# --------------------------------------------------------------------------

def split_top_level(text, sep=","):
    """Splits `text` at `sep` outside <>, (), [] and {}."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def matching_paren(text, open_index):
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise DiffError("unbalanced parentheses in a function signature")


FUNC_RE = re.compile(r"^\s*func\.func\s+(?:(public|private|nested)\s+)?@([\w$.-]+)\(", re.M)


def parse_functions(module_text):
    """[(name, [arg types], has_body)] of the top-level functions, public
    ones only; a function with results gets a last "-> results" entry."""
    functions = []
    for m in FUNC_RE.finditer(module_text):
        if m.group(1) in ("private", "nested"):
            continue
        close = matching_paren(module_text, m.end() - 1)
        args = split_top_level(module_text[m.end():close])
        types = [strip_arg_attrs(a.split(":", 1)[1]) if ":" in a else a
                 for a in args]
        rest = module_text[close + 1:module_text.find("\n", close)]
        if rest.lstrip().startswith("->"):
            types.append("-> results")  # classify() names it
        functions.append((m.group(2), types, rest.rstrip().endswith("{")))
    return functions


def strip_arg_attrs(text):
    """`memref<4xf32> {foo}` -> `memref<4xf32>`."""
    parts = split_top_level(text.strip(), " ")
    return parts[0] if parts else text.strip()


MEMREF_RE = re.compile(r"^memref<((?:\d+x)*)([a-z]\w*)>$")
DYNAMIC_RE = re.compile(r"^memref<(?:[\d?]+x)*\w+")
SCALAR_RE = re.compile(r"^(index|i\d+|f16|bf16|f32|f64)$")


class MemRefArg:
    def __init__(self, type_text):
        m = MEMREF_RE.match(type_text)
        self.type = type_text
        self.shape = [int(d) for d in m.group(1).split("x")[:-1]]
        self.elt = m.group(2)

    @property
    def key(self):
        return re.sub(r"\W", "_", self.type)


def classify(types):
    """The arguments as MemRefArg or scalar type strings, or a reason the
    kernel cannot be run."""
    args = []
    for i, t in enumerate(types):
        if t == "-> results":
            return None, "it returns values (only memref arguments are compared)"
        memref = MEMREF_RE.match(t)
        dynamic = DYNAMIC_RE.match(t)
        if memref and SCALAR_RE.match(memref.group(2)):
            args.append(MemRefArg(t))
        elif SCALAR_RE.match(t):
            args.append(t)
        elif dynamic and "?" in dynamic.group(0):
            return None, "argument %d has a dynamic shape (%s)" % (i, t)
        else:
            return None, "argument %d has an unsupported type (%s)" % (i, t)
    return args, None


# --------------------------------------------------------------------------
# The harness
# --------------------------------------------------------------------------

def bit_type(elt):
    """The integer type an element is printed as, and the ops from `elt`."""
    if elt in ("f64", "i64", "index"):
        return "i64"
    return "i32"


def to_bits(elt, value, out_type, lines):
    """Appends ops turning `value` of type `elt` into `out_type` bit for bit;
    returns the result's name."""
    if elt == "index":
        lines.append(f"    %b = arith.index_cast {value} : index to i64")
        return "%b"
    if elt.startswith("f") or elt == "bf16":
        width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[elt]
        lines.append(f"    %r = arith.bitcast {value} : {elt} to i{width}")
        value, elt = "%r", f"i{width}"
    width = int(elt[1:])
    if width == int(out_type[1:]):
        return value
    lines.append(f"    %b = arith.extui {value} : {elt} to {out_type}")
    return "%b"


def from_small_int(elt, value, lines):
    """Appends ops turning the i32 `value` into an element of type `elt`."""
    if elt == "index":
        lines.append(f"    %v = arith.index_cast {value} : i32 to index")
    elif elt.startswith("f") or elt == "bf16":
        lines.append(f"    %v = arith.sitofp {value} : i32 to {elt}")
    elif elt == "i32":
        return value
    elif int(elt[1:]) < 32:
        lines.append(f"    %v = arith.trunci {value} : i32 to {elt}")
    else:
        lines.append(f"    %v = arith.extsi {value} : i32 to {elt}")
    return "%v"


def identity_map(rank):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def generic_header(rank):
    iters = ", ".join(['"parallel"'] * rank)
    return identity_map(rank), f"[{iters}]"


def linear_index(shape, lines):
    """Appends to `lines` (inside a linalg.generic body that defined %lin0 =
    0) the row-major linear index of the current element; returns its name."""
    stride = 1
    strides = []
    for d in reversed(shape):
        strides.insert(0, stride)
        stride *= d
    lin = "%lin0"
    for i, s in enumerate(strides):
        lines += [f"    %i{i} = linalg.index {i} : index",
                  f"    %s{i} = arith.constant {s} : index",
                  f"    %p{i} = arith.muli %i{i}, %s{i} : index",
                  f"    %lin{i + 1} = arith.addi {lin}, %p{i} : index"]
        lin = f"%lin{i + 1}"
    return lin


def fill_function(arg):
    """@fill_<type>(%m, %seed, %arg): small integers from a hash of the seed,
    the argument number and the element's linear index."""
    rank = len(arg.shape)
    amap, iters = generic_header(rank)
    lines = [f"  func.func private @{PREFIX}_fill_{arg.key}(%m: {arg.type}, %seed: i32, %argno: i32) {{",
             f"    linalg.generic {{indexing_maps = [{amap}], iterator_types = {iters}}} outs(%m : {arg.type}) {{",
             f"    ^bb0(%out: {arg.elt}):",
             "    %lin0 = arith.constant 0 : index"]
    lin = linear_index(arg.shape, lines)
    lines += [
        f"    %l = arith.index_cast {lin} : index to i32",
        "    %k1 = arith.constant -1640531535 : i32",
        "    %k2 = arith.constant -2048144789 : i32",
        "    %k3 = arith.constant -1028477387 : i32",
        "    %k4 = arith.constant 739982445 : i32",
        "    %c15 = arith.constant 15 : i32",
        "    %c12 = arith.constant 12 : i32",
        "    %c17 = arith.constant 17 : i32",
        "    %c8 = arith.constant 8 : i32",
        "    %h0 = arith.muli %l, %k1 : i32",
        "    %h1 = arith.muli %seed, %k2 : i32",
        "    %h2 = arith.muli %argno, %k3 : i32",
        "    %h3 = arith.addi %h0, %h1 : i32",
        "    %h4 = arith.addi %h3, %h2 : i32",
        "    %h5 = arith.shrui %h4, %c15 : i32",
        "    %h6 = arith.xori %h4, %h5 : i32",
        "    %h7 = arith.muli %h6, %k4 : i32",
        "    %h8 = arith.shrui %h7, %c12 : i32",
        "    %h9 = arith.xori %h7, %h8 : i32",
        "    %h10 = arith.remui %h9, %c17 : i32",
        "    %h11 = arith.subi %h10, %c8 : i32",
    ]
    value = from_small_int(arg.elt, "%h11", lines)
    lines += [f"    linalg.yield {value} : {arg.elt}", "    }", "    return", "  }"]
    return lines


def print_function(arg):
    """@print_<type>(%m): the elements as integers of their bits."""
    rank = len(arg.shape)
    amap, iters = generic_header(rank)
    out_elt = bit_type(arg.elt)
    bits = "memref<%s%s>" % ("".join(f"{d}x" for d in arg.shape), out_elt)
    lines = [f"  func.func private @{PREFIX}_print_{arg.key}(%m: {arg.type}) {{",
             f"    %bits = memref.alloc() : {bits}",
             f"    linalg.generic {{indexing_maps = [{amap}, {amap}], iterator_types = {iters}}} "
             f"ins(%m : {arg.type}) outs(%bits : {bits}) {{",
             f"    ^bb0(%in: {arg.elt}, %out: {out_elt}):"]
    value = to_bits(arg.elt, "%in", out_elt, lines)
    printer = "printMemrefI64" if out_elt == "i64" else "printMemrefI32"
    lines += [f"    linalg.yield {value} : {out_elt}", "    }",
              f"    %u = memref.cast %bits : {bits} to memref<*x{out_elt}>",
              f"    func.call @{printer}(%u) : (memref<*x{out_elt}>) -> ()",
              f"    memref.dealloc %bits : {bits}",
              "    return", "  }"]
    return lines


def digest_function(arg):
    """@digest_<type>(%m) -> i64: a 64-bit digest of the elements' bits and
    their positions (the sum over the elements of a mix of the linear
    index and the bits, so one changed element always changes it)."""
    rank = len(arg.shape)
    amap = identity_map(rank)
    dims = ", ".join(f"d{i}" for i in range(rank))
    iters = ", ".join(['"reduction"'] * rank)
    lines = [f"  func.func private @{PREFIX}_digest_{arg.key}(%m: {arg.type}) -> i64 {{",
             "    %acc = memref.alloca() : memref<i64>",
             "    %zero = arith.constant 0 : i64",
             "    memref.store %zero, %acc[] : memref<i64>",
             f"    linalg.generic {{indexing_maps = [{amap}, affine_map<({dims}) -> ()>], "
             f"iterator_types = [{iters}]}} ins(%m : {arg.type}) outs(%acc : memref<i64>) {{",
             f"    ^bb0(%in: {arg.elt}, %out: i64):",
             "    %lin0 = arith.constant 0 : index"]
    lin = linear_index(arg.shape, lines)
    value = to_bits(arg.elt, "%in", "i64", lines)
    lines += [
        f"    %l = arith.index_cast {lin} : index to i64",
        # splitmix64's constants: an odd multiplier for the position, the
        # finaliser's two multipliers and shifts for the mix.
        "    %k1 = arith.constant -7046029254386353131 : i64",
        "    %k2 = arith.constant -4658895280553007687 : i64",
        "    %k3 = arith.constant -7723592293110705685 : i64",
        "    %c31 = arith.constant 31 : i64",
        "    %c27 = arith.constant 27 : i64",
        "    %c33 = arith.constant 33 : i64",
        "    %x0 = arith.muli %l, %k1 : i64",
        f"    %x1 = arith.addi %x0, {value} : i64",
        "    %x2 = arith.shrui %x1, %c31 : i64",
        "    %x3 = arith.xori %x1, %x2 : i64",
        "    %x4 = arith.muli %x3, %k2 : i64",
        "    %x5 = arith.shrui %x4, %c27 : i64",
        "    %x6 = arith.xori %x4, %x5 : i64",
        "    %x7 = arith.muli %x6, %k3 : i64",
        "    %x8 = arith.shrui %x7, %c33 : i64",
        "    %x9 = arith.xori %x7, %x8 : i64",
        "    %sum = arith.addi %out, %x9 : i64",
        "    linalg.yield %sum : i64", "    }",
        "    %d = memref.load %acc[] : memref<i64>",
        "    return %d : i64", "  }"]
    return lines


def scalar_value(t, index, i1_count, lines):
    """Appends ops computing scalar argument number `index` from %seed."""
    name = f"%a{index}"
    if t == "i1":
        lines += [f"    %sh{index} = arith.constant {i1_count} : i32",
                  f"    %x{index} = arith.shrui %seed, %sh{index} : i32",
                  f"    {name} = arith.trunci %x{index} : i32 to i1"]
        return name
    lines.append(f"    %one{index} = arith.constant 1 : i32")
    lines.append(f"    %n{index} = arith.addi %seed, %one{index} : i32")
    if t == "index":
        lines.append(f"    {name} = arith.index_cast %n{index} : i32 to index")
    elif t in ("f16", "bf16", "f32", "f64"):
        lines.append(f"    {name} = arith.sitofp %n{index} : i32 to {t}")
    elif t == "i32":
        return f"%n{index}"
    elif int(t[1:]) < 32:
        lines.append(f"    {name} = arith.trunci %n{index} : i32 to {t}")
    else:
        lines.append(f"    {name} = arith.extsi %n{index} : i32 to {t}")
    return name


def run_function(number, name, args, digest):
    """@run_<n>(%seed): allocate, fill, call, print, free. With `digest`,
    the run prints one memref of the memref arguments' digests instead of
    the arguments."""
    lines = [f"  func.func private @{PREFIX}_run_{number}(%seed: i32) {{"]
    operands, i1_count = [], 0
    for i, a in enumerate(args):
        if isinstance(a, MemRefArg):
            lines += [f"    %a{i} = memref.alloc() : {a.type}",
                      f"    %no{i} = arith.constant {i} : i32",
                      f"    func.call @{PREFIX}_fill_{a.key}(%a{i}, %seed, %no{i}) : ({a.type}, i32, i32) -> ()"]
            operands.append(f"%a{i}")
        else:
            operands.append(scalar_value(a, i, i1_count, lines))
            i1_count += a == "i1"
    types = ", ".join(a.type if isinstance(a, MemRefArg) else a for a in args)
    lines.append(f"    func.call @{name}({', '.join(operands)}) : ({types}) -> ()")
    memrefs = [(i, a) for i, a in enumerate(args) if isinstance(a, MemRefArg)]
    if digest:
        dtype = f"memref<{len(memrefs)}xi64>"
        lines.append(f"    %digests = memref.alloc() : {dtype}")
        for slot, (i, a) in enumerate(memrefs):
            lines += [f"    %d{i} = func.call @{PREFIX}_digest_{a.key}(%a{i}) : ({a.type}) -> i64",
                      f"    %slot{i} = arith.constant {slot} : index",
                      f"    memref.store %d{i}, %digests[%slot{i}] : {dtype}"]
        lines += [f"    %du = memref.cast %digests : {dtype} to memref<*xi64>",
                  "    func.call @printMemrefI64(%du) : (memref<*xi64>) -> ()",
                  f"    memref.dealloc %digests : {dtype}"]
    for i, a in memrefs:
        if not digest:
            lines.append(f"    func.call @{PREFIX}_print_{a.key}(%a{i}) : ({a.type}) -> ()")
        lines.append(f"    memref.dealloc %a{i} : {a.type}")
    lines += ["    return", "  }"]
    return lines


def harness(kernels, runs, digest=False):
    """The functions appended to each module: helpers per memref type, one
    run function per kernel, and @main calling them for each (kernel
    number, seed) of `runs`, in that order."""
    lines = ["  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
             "  func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}"]
    helpers = {}
    for _, args in kernels:
        for a in args:
            if isinstance(a, MemRefArg) and a.key not in helpers:
                helpers[a.key] = fill_function(a) + (
                    digest_function(a) if digest else print_function(a))
    for key in sorted(helpers):
        lines += helpers[key]
    for number, (name, args) in enumerate(kernels):
        lines += run_function(number, name, args, digest)
    lines.append("  func.func @main() {")
    for seed in sorted({seed for _, seed in runs}):
        lines.append(f"    %seed{seed} = arith.constant {seed} : i32")
    for number, seed in runs:
        lines.append(f"    func.call @{PREFIX}_run_{number}(%seed{seed}) : (i32) -> ()")
    lines += ["    return", "  }"]
    return "\n".join(lines) + "\n"


def append_to_module(module_text, extra):
    """Inserts `extra` before the closing brace of the top-level module."""
    end = module_text.rstrip().rfind("}")
    if end < 0 or not module_text.lstrip().startswith(("module", "#")):
        raise DiffError("the stripped kernel is not one module")
    return module_text[:end] + extra + module_text[end:]


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------

# Before the lowering of a module whose @main calls only some kernels (the
# runs again in full of --digest): every function @main does not reach goes,
# so the lowering and the runner's compilation cost what those kernels cost.
PRUNE = ["--symbol-privatize=exclude=main", "--symbol-dce"]


def execute(module_text, tools, work, tag, prune=False):
    path = os.path.join(work, f"{tag}.mlir")
    with open(path, "w") as f:
        f.write(module_text)
    # Bytecode, not text: the lowered module is ten times the size of its
    # input, and printing and parsing it as text took a fifth of the time
    # the lowering and the run take together.
    llvm_path = os.path.join(work, f"{tag}.llvm.mlirbc")
    run([tools.mlir_opt, path] + (PRUNE if prune else []) + LOWERING
        + ["--emit-bytecode", "-o", llvm_path],
        f"lowering the {tag} module")
    return run([tools.mlir_runner, llvm_path, "-e", "main", "-entry-point-result=void",
                "-shared-libs=" + ",".join(tools.libs)], f"running the {tag} module")


def parse_dumps(output):
    """The integers of each printed memref, in print order."""
    dumps = []
    for chunk in output.split("Unranked Memref")[1:]:
        data = chunk.split("data =", 1)
        if len(data) != 2:
            raise DiffError("unexpected runner output: %r" % chunk[:200])
        dumps.append([int(v) for v in re.findall(r"-?\d+", data[1])])
    return dumps


def unflatten(index, shape):
    coords = []
    for d in reversed(shape):
        coords.insert(0, index % d)
        index //= d
    return coords


def as_element(bits, elt):
    """A readable value for a diagnostic: the bits as the element type."""
    import struct
    try:
        if elt == "f32":
            return "%g" % struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
        if elt == "f64":
            return "%g" % struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
        if elt == "f16":
            return "%g" % struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    except (struct.error, OverflowError):
        pass
    return str(bits)


def all_runs(kernels, seeds):
    """Every kernel on every seed, seed by seed: the (kernel number, seed)
    pairs @main calls."""
    return [(k, seed) for seed in seeds for k in range(len(kernels))]


def compare(kernels, runs, before, after):
    """Per kernel: the first difference (a message) or None, from the full
    dumps of `runs`."""
    manifest = [(k, s, i, a) for k, s in runs
                for i, a in enumerate(kernels[k][1]) if isinstance(a, MemRefArg)]
    for tag, dumps in (("before", before), ("after", after)):
        if len(dumps) != len(manifest):
            raise DiffError("the %s run printed %d memrefs, expected %d"
                            % (tag, len(dumps), len(manifest)))
    first = {}
    for (k, seed, i, arg), b, a in zip(manifest, before, after):
        if k in first or b == a:
            continue
        if len(b) != len(a):
            first[k] = "seed %d: argument %d: %d elements before, %d after" % (seed, i, len(b), len(a))
            continue
        at = next(j for j in range(len(b)) if b[j] != a[j])
        count = sum(1 for x, y in zip(b, a) if x != y)
        first[k] = ("seed %d: argument %d (%s) differs at [%s]: before %s, after %s "
                    "(%d of %d elements differ)" % (
                        seed, i, arg.type, ", ".join(map(str, unflatten(at, arg.shape))),
                        as_element(b[at], arg.elt), as_element(a[at], arg.elt), count, len(b)))
    return first


def differing_runs(kernels, runs, before, after):
    """From the digest dumps of `runs` (one memref of digests per run):
    {kernel number: the first of its runs whose digests differ}."""
    for tag, dumps in (("before", before), ("after", after)):
        if len(dumps) != len(runs):
            raise DiffError("the %s run printed %d digests, expected %d"
                            % (tag, len(dumps), len(runs)))
    first = {}
    for (k, seed), b, a in zip(runs, before, after):
        if b != a and k not in first:
            first[k] = (k, seed)
    return first


class Tools:
    def __init__(self, opts):
        self.dsa_opt = find_tool(opts.dsa_opt, ["dsa-opt"])
        self.mlir_opt = find_tool(opts.mlir_opt, ["mlir-opt", "mlir-opt-22"])
        self.mlir_runner = find_tool(opts.mlir_runner, ["mlir-runner", "mlir-runner-22"])
        self.libs = find_runner_libs(opts.runner_lib_dir, self.mlir_runner)


def run_both(before, after, extra, tools, work, prune=False):
    """The dumps of the before and after modules with the harness `extra`,
    lowered and run side by side (the two are independent)."""
    os.makedirs(work, exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = [pool.submit(execute, append_to_module(text, extra), tools, work, tag, prune)
                for text, tag in ((before, "before"), (after, "after"))]
        return [parse_dumps(r.result()) for r in runs]


def check_file(path, opts, tools, work):
    """Runs one input file; returns (kernels, runs, differences, skipped)."""
    before = run([tools.dsa_opt, path, "--dsaplan-strip-for-cpu"], "stripping the input")
    if opts.after:
        after = run([tools.dsa_opt, opts.after, "--dsaplan-strip-for-cpu"],
                    "stripping the --after module")
    else:
        plan = "--dsa-plan" + ("=" + opts.plan_options if opts.plan_options else "")
        after = run([tools.dsa_opt, path, plan, "--dsaplan-strip-for-cpu"], "placing the input")
    kernels, skipped = [], 0
    after_names = {name for name, _, _ in parse_functions(after)}
    for name, types, has_body in parse_functions(before):
        if not has_body:
            continue
        args, reason = classify(types)
        if args is None or name not in after_names or name == "main":
            reason = reason or ("not in the placed module" if name != "main"
                                else "@main is the harness's name")
            print("SKIP %s: %s" % (name, reason))
            skipped += 1
        elif any(isinstance(a, MemRefArg) for a in args):
            kernels.append((name, args))
    if not kernels:
        return 0, 0, 0, skipped
    runs = all_runs(kernels, opts.seed_list)
    out_before, out_after = run_both(before, after, harness(kernels, runs, opts.digest),
                                     tools, work)
    if not opts.digest:
        first = compare(kernels, runs, out_before, out_after)
    else:
        # Digests first; the runs whose digests differ run again in full,
        # alone, which names the first differing element as without
        # --digest. A kernel never reads a byte it did not write, so a run
        # alone computes what it computed among the others.
        suspects = differing_runs(kernels, runs, out_before, out_after)
        first = {}
        if suspects:
            again = [suspects[k] for k in sorted(suspects)]
            full_before, full_after = run_both(before, after, harness(kernels, again),
                                               tools, os.path.join(work, "again"), prune=True)
            first = compare(kernels, again, full_before, full_after)
            for k, seed in again:
                first.setdefault(k, "seed %d: the digests differ, but the run alone gives "
                                    "identical arguments (a read of bytes the kernel did "
                                    "not write?)" % seed)
    for k, (name, args) in enumerate(kernels):
        if k in first:
            print("FAIL %s: %s" % (name, first[k]))
        elif not opts.quiet:
            print("ok   %s: %d seeds, %d memref arguments identical"
                  % (name, len(opts.seed_list), sum(isinstance(a, MemRefArg) for a in args)))
    return len(kernels), len(kernels) * len(opts.seed_list), len(first), skipped


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="dsa-diff", description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("inputs", nargs="+", metavar="KERNEL.mlir",
                        help="kernels before placement (frontend IR)")
    parser.add_argument("--dsa-opt", help="dsa-opt to use (default: beside this script, then PATH)")
    parser.add_argument("--mlir-opt", help="stock mlir-opt used for the CPU lowering")
    parser.add_argument("--mlir-runner", help="mlir-runner used to execute")
    parser.add_argument("--runner-lib-dir",
                        help="directory with libmlir_runner_utils.so and libmlir_c_runner_utils.so")
    parser.add_argument("--plan-options", default="",
                        help="options of --dsa-plan, e.g. 'algorithm=first-fit'")
    parser.add_argument("--after", metavar="PLACED.mlir",
                        help="compare against this placed module instead of running --dsa-plan "
                             "(one input only)")
    parser.add_argument("--seeds", type=int, default=4,
                        help="run every kernel with seeds 0..N-1 (default 4)")
    parser.add_argument("--digest", action="store_true",
                        help="compare a 64-bit digest of each memref argument instead of "
                             "printing every element (for kernels with large arguments); a "
                             "run whose digests differ runs again in full, so a difference "
                             "is reported as without it")
    parser.add_argument("--work-dir", help="keep the generated modules here")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only differences, skips and the summary")
    opts = parser.parse_args(argv)
    if opts.after and len(opts.inputs) != 1:
        parser.error("--after takes exactly one input")
    if opts.seeds < 1:
        parser.error("--seeds must be at least 1")
    opts.seed_list = list(range(opts.seeds))
    return opts


def main(argv):
    opts = parse_args(argv)
    totals = [0, 0, 0, 0]
    try:
        tools = Tools(opts)
        for path in opts.inputs:
            work = opts.work_dir or tempfile.mkdtemp(prefix="dsa-diff-")
            if opts.work_dir and len(opts.inputs) > 1:
                work = os.path.join(opts.work_dir, os.path.basename(path))
            os.makedirs(work, exist_ok=True)
            try:
                counts = check_file(path, opts, tools, work)
            finally:
                if not opts.work_dir:
                    shutil.rmtree(work, ignore_errors=True)
            totals = [t + c for t, c in zip(totals, counts)]
    except DiffError as err:
        sys.stdout.flush()
        print("dsa-diff: error: %s" % err, file=sys.stderr)
        return 2
    kernels, runs, diffs, skipped = totals
    print("%d kernels, %d runs, %d differences%s" % (
        kernels, runs, diffs, ", %d skipped" % skipped if skipped else ""))
    if diffs:
        return 1
    if kernels == 0:
        sys.stdout.flush()
        print("dsa-diff: error: no kernel to run", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
