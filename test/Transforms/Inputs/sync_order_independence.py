#!/usr/bin/env python3
"""The syncs of a function do not depend on its neighbours or on heap layout.

Generates seeded random kernels (random_sync_kernels.py), runs
dsaplan-insert-sync on a module holding them in order, and on a module
holding them in reverse order with unrelated ops added (constants nobody
uses, at the top of each function, and an extra function of many
allocations in front), and checks that every function comes out the same
(the added ops left out). Prints one line: how many functions, how many
differ.

  sync_order_independence.py --dsa-opt PATH [--count N] [--seed S]
"""

import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from random_sync_kernels import kernel  # noqa: E402

PAD = "987654321"
FUNC = re.compile(r"^  func\.func @(k[0-9]+)\(", re.M)
SSA = re.compile(r"%[A-Za-z0-9_]+")


def padded(text, rng):
    """`text` with unused constants after the arena (the first op)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if "dsaplan.arena" in line) + 1
    pads = [f"  %pad{i} = arith.constant {PAD} : i64" for i in range(rng.randint(1, 6))]
    return "\n".join(lines[:at] + pads + lines[at:])


def noise_function(count):
    tile = "memref<64xf32, #dsaplan.space<ub>>"
    body = [f"  %n{i} = memref.alloc() : {tile}" for i in range(count)]
    return "\n".join([f"func.func @noise() attributes {{pad = {PAD}}} {{"] + body +
                     ["  return", "}"]) + "\n"


def per_function(dsa_opt, module):
    result = subprocess.run([dsa_opt, "-", "-dsaplan-insert-sync"], input=module,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"dsa-opt failed:\n{result.stderr}")
    functions = {}
    printed = result.stdout.rstrip()
    printed = printed[:printed.rindex("}")]  # the module's closing brace
    starts = [(m.start(), m.group(1)) for m in FUNC.finditer(printed)]
    for (start, name), (end, _) in zip(starts, starts[1:] + [(len(printed), None)]):
        text = printed[start:end]
        # SSA names are numbered per function and the added constants take
        # numbers: compare the ops with their names left out.
        functions[name] = "\n".join(SSA.sub("%", line) for line in text.split("\n")
                                    if PAD not in line and "@noise" not in line)
    return functions


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsa-opt", required=True)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    kernels = [kernel(rng, f"k{i}") for i in range(args.count)]
    # Each kernel text declares @helper: keep one declaration per module.
    decl = kernels[0].split("\n")[0]
    bodies = ["\n".join(k.split("\n")[1:]) for k in kernels]
    forward = "\n".join([decl] + bodies)
    backward = "\n".join([decl, noise_function(200)] +
                         [padded(b, rng) for b in reversed(bodies)])
    a, b = per_function(args.dsa_opt, forward), per_function(args.dsa_opt, backward)
    differ = sorted(name for name in a if a[name] != b.get(name))
    for name in differ[:1]:
        print(f"{name} differs:\n--- in order\n{a[name]}\n--- reversed, padded\n{b.get(name)}",
              file=sys.stderr)
    print(f"{len(a)} functions, {len(differ)} differ")
    return 1 if differ or len(a) != args.count else 0


if __name__ == "__main__":
    sys.exit(main())
