#!/usr/bin/env python3
"""Checks the documentation against the repository and the tools.

  check_docs.py mlir-blocks DSA_OPT FILE_OR_DIR...
      every ```mlir block parses with dsa-opt, unless the line before it is
      `<!-- fragment -->` (a piece of IR cut from a larger function);
  check_docs.py links ROOT FILE_OR_DIR...
      every relative markdown link and every backticked path of the
      repository (examples/..., docs/..., test/..., tools/..., lib/...,
      include/..., scripts/..., bench/...) names a file or directory that
      exists;
  check_docs.py commands [--update] [--python=PYTHON] ROOT TOOLS WORK FILE
      runs every ```sh block of FILE in order, as one bash script with
      errexit and pipefail (each line a command, `\\` continues one), and
      every ```python block as a program of PYTHON, with TOOLS first on
      PATH, in WORK (where ROOT's examples/, docs/, test/ and bench/ are
      linked, and build/ is TOOLS' build tree, so that paths read as from
      the repository root); compares what each block prints (stdout and
      stderr) with the ```text block that follows it, if any; with
      --update, rewrites those blocks with what the blocks print instead
      (then read the diff).

  check_docs.py command-files FILE_OR_DIR...
      names the files that have sh or python blocks, so that a test can
      say which of them it runs.

Prints one summary line; exits non-zero naming the first block that fails.
"""

import os
import re
import subprocess
import sys

# The language of a fence: mlir, sh, python, c++, ...
FENCE = re.compile(r"^```([\w+-]*)\s*$")
PATH = re.compile(r"`((?:examples|docs|test|tools|lib|include|scripts|bench|unittests|cmake)"
                  r"/[A-Za-z0-9_./-]*[A-Za-z0-9_])`")
LINK = re.compile(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)")


def blocks(path):
    """(language, first line number, text, line before the fence) per
    fenced block."""
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        before = lines[start - 1].strip() if start else ""
        if not before and start >= 2:
            before = lines[start - 2].strip()
        out.append((m.group(1), start + 1, "\n".join(body) + "\n", before))
        i += 1
    return out


def fail(message):
    sys.exit("check_docs: " + message)


def mlir_blocks(dsa_opt, files):
    parsed = fragments = 0
    for path in files:
        for lang, line, text, before in blocks(path):
            if lang != "mlir":
                continue
            if before == "<!-- fragment -->":
                fragments += 1
                continue
            r = subprocess.run([dsa_opt, "-", "-o", os.devnull], input=text,
                               capture_output=True, text=True)
            if r.returncode:
                fail(f"{path}:{line}: the mlir block does not parse (mark it "
                     f"<!-- fragment --> if it is a piece):\n{r.stderr}")
            parsed += 1
    print(f"{parsed} mlir blocks parse, {fragments} marked as fragments")


def links(root, files):
    checked = 0
    for path in files:
        text = open(path).read()
        for target in LINK.findall(text):
            checked += 1
            if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                fail(f"{path}: the link to {target} points at nothing")
        for target in PATH.findall(text):
            checked += 1
            if "*" in target or "<" in target:
                continue
            if not os.path.exists(os.path.join(root, target)):
                fail(f"{path}: `{target}` is not in the repository")
    print(f"{checked} links and paths exist")


def logical_lines(text):
    """The commands of an sh block: its lines with `\\` continuations
    joined, without blank lines and comments."""
    out, pending = [], ""
    for line in text.split("\n"):
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line = pending + line
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line)
    return out


def run_block(lang, text, work, env, python):
    """Runs an sh block (one bash script, stopping at the first failing
    command) or a python block (one program, with `python`); returns
    (commands, exit status, what it printed)."""
    if lang == "python":
        # The package as the README's build leaves it: build/python.
        env = dict(env, PYTHONPATH=os.path.join(work, "build", "python"))
        r = subprocess.run([python, "-"], input=text, cwd=work, env=env,
                           capture_output=True, text=True)
        return 1, r.returncode, r.stdout + r.stderr
    lines = logical_lines(text)
    # Each command's output in order, stdout and stderr together, as a
    # reader sees them in a terminal.
    script = "set -e -o pipefail\n" + "\n".join(
        f"{{ {line}\n}} 2>&1" for line in lines)
    r = subprocess.run(["bash", "-c", script], cwd=work, env=env,
                       capture_output=True, text=True)
    return len(lines), r.returncode, r.stdout + r.stderr


def commands(root, tools, work, path, update=False, python="python3"):
    """Runs the sh and python blocks of `path` in `work`, where the
    repository's examples/, docs/, test/ and bench/ are linked, and build/
    is the build tree of `tools`, so that the commands read as from the
    repository root after the README's build."""
    updates = []
    build = os.path.dirname(os.path.abspath(tools))
    env = dict(os.environ,
               PATH=os.path.abspath(tools) + os.pathsep + os.environ.get("PATH", ""))
    os.makedirs(work, exist_ok=True)
    links = {name: os.path.join(root, name)
             for name in ("examples", "docs", "test", "bench")}
    links["build"] = build
    for name, target in links.items():
        link = os.path.join(work, name)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(target), link)
    ran = compared = 0
    items = blocks(path)
    for k, (lang, line, text, _) in enumerate(items):
        if lang not in ("sh", "python"):
            continue
        count, status, printed = run_block(lang, text, work, env, python)
        ran += count
        if status:
            fail(f"{path}:{line}: the {lang} block failed (exit {status}):\n"
                 f"{printed}")
        if k + 1 < len(items) and items[k + 1][0] == "text":
            expected = items[k + 1][2]
            if update:
                updates.append((items[k + 1][1], expected, printed))
            elif printed.rstrip() != expected.rstrip():
                fail(f"{path}:{items[k + 1][1]}: the output shown is not what the "
                     f"commands print; they print:\n{printed}")
            compared += 1
    if update:
        lines = open(path).read().split("\n")
        for line, old, new in reversed(updates):
            count = len(old.rstrip("\n").split("\n")) if old.strip() else 0
            lines[line:line + count] = new.rstrip("\n").split("\n") if new.strip() else []
        open(path, "w").write("\n".join(lines))
    print(f"{ran} commands ran, {compared} outputs as shown")


def markdown_files(paths):
    """The files given, and the .md files under the directories given."""
    out = []
    for path in paths:
        if os.path.isdir(path):
            for base, _, names in sorted(os.walk(path)):
                out += [os.path.join(base, n) for n in sorted(names) if n.endswith(".md")]
        else:
            out.append(path)
    return out


def command_files(files):
    """The files with commands to run (sh or python blocks), one a line."""
    for path in files:
        if any(lang in ("sh", "python") for lang, _, _, _ in blocks(path)):
            print(os.path.basename(path))


def main(argv):
    if argv[1] == "mlir-blocks":
        mlir_blocks(argv[2], markdown_files(argv[3:]))
    elif argv[1] == "links":
        links(argv[2], markdown_files(argv[3:]))
    elif argv[1] == "command-files":
        command_files(markdown_files(argv[2:]))
    elif argv[1] == "commands":
        args = argv[2:]
        update = args[0] == "--update"
        args = args[1:] if update else args
        python = "python3"
        if args[0].startswith("--python="):
            python = args[0][len("--python="):]
            args = args[1:]
        commands(args[0], args[1], args[2], args[3], update, python)
    else:
        fail("unknown check " + argv[1])


if __name__ == "__main__":
    main(sys.argv)
