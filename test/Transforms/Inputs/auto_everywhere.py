#!/usr/bin/env python3
"""Every kernel that plans with one slot per tile plans with "auto" too.

    auto_everywhere.py DSA_OPT FILE...

Each FILE is split at `// -----` lines, as `-split-input-file` does. A
piece whose tiles, with their `dsaplan.buffers` requests dropped, plan
under `--dsa-plan="summary=true"` (insert-sync, verify-sync and the
simulator on) is a kernel of this check; pieces that do not (the error
tests) are skipped. The kernel is planned again with
`dsaplan.buffers = "auto"` on every allocation (`memref.alloc`,
`memref.alloca`, `dsaplan.alloc`) and must plan as well: "auto" keeps one
slot wherever it cannot rotate, never refuses. Prints one line per
failure, with dsa-opt's errors, and the counts; exits 1 on any failure,
and when no kernel plans at all.
"""

import re
import subprocess
import sys

ALLOC = re.compile(r"(memref\.alloca?\(\)|dsaplan\.alloc)(\s*\{)?")
REQUEST = re.compile(r'dsaplan\.buffers\s*=\s*("[^"]*"|\d+(\s*:\s*i64)?)')


def drop_requests(text):
    """The piece with every dsaplan.buffers request dropped."""
    text = REQUEST.sub("", text)
    text = re.sub(r"\{\s*,\s*", "{", text)
    text = re.sub(r",\s*,", ",", text)
    text = re.sub(r",\s*\}", "}", text)
    return re.sub(r"\{\s*\}", "", text)


def ask_auto(text):
    """The piece with "auto" on every allocation (requests dropped first)."""
    def add(match):
        if match.group(2):
            return match.group(1) + ' {dsaplan.buffers = "auto", '
        return match.group(1) + ' {dsaplan.buffers = "auto"}'
    return ALLOC.sub(add, text)


def plans(dsa_opt, text, options=""):
    run = subprocess.run([dsa_opt, "-", "--dsa-plan=" + options, "-o",
                          "/dev/null"], input=text, capture_output=True,
                         text=True)
    return run.returncode == 0, run.stderr


def main():
    dsa_opt, files = sys.argv[1], sys.argv[2:]
    kernels = with_auto = 0
    for path in files:
        with open(path) as f:
            pieces = re.split(r"^// -----\s*$", f.read(), flags=re.M)
        for number, piece in enumerate(pieces):
            single = drop_requests(piece)
            if (not ALLOC.search(single) or
                    not plans(dsa_opt, single, "summary=true")[0]):
                continue
            kernels += 1
            ok, errors = plans(dsa_opt, ask_auto(single), "summary=true")
            if ok:
                with_auto += 1
                continue
            print("FAIL %s, piece %d: refused with \"auto\" on every tile"
                  % (path, number))
            print("\n".join(line for line in errors.splitlines()
                            if "error" in line))
    print('%d kernels plan with one slot per tile; %d plan with "auto" on '
          "every tile" % (kernels, with_auto))
    if kernels == 0:
        print("no kernel plans with one slot per tile: is %s dsa-opt?"
              % dsa_opt)
        return 1
    return 0 if kernels == with_auto else 1


if __name__ == "__main__":
    sys.exit(main())
