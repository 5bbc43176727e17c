#!/usr/bin/env python3
"""Sync counts against the peers' own tests.

Each case of bench/peers/cases is one lit case of a peer (AscendNPU-IR's
inject-sync.mlir, PTOAS's test/basic) written again in dsaplan's IR: the
same tiles at the same offsets, the same pipes, GM arguments llvm.noalias
(the peers take different GM arguments as disjoint). Its header names the
peer's function (`// Peer:`), the syncs the peer's CHECK lines expect
(`// peer-syncs:`: set_flags and pipe_barriers, the kernel-closing
PIPE_ALL barrier not counted) and how that count is read
(`// peer-count: listed` when the CHECK lines list every sync of the
function, `at-least` when they check only some).

For each case the driver runs dsaplan-insert-sync (`--dsa-plan` when the
case allocates its tiles), proves the result with dsaplan-verify-sync and
simulates it (8 seeds, GM checked), and prints:

  peer syncs   the peer's count
  ours         set_flag + pipe_barrier + barrier_all ops inserted
  makespan     simulated cycles, the worst of 8 seeds
  ideal        the dataflow ideal of that run
  findings     verifier errors and simulator findings (races, overruns,
               hangs): 0 when the syncs are right
  ours (pipes)  where the peer checks one pipe pair only
               (`// peer-pipes: m -> mte1`), our set_flags of that pair
  more?        "MORE" where ours exceed a listed peer count

  bench/peers/run.py [--dsa-opt build/bin/dsa-opt] [--only NAME,...]
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def header(text, key):
    found = re.search(r"^// " + key + r": *(.+)$", text, re.M)
    return found.group(1).strip() if found else ""


def run_case(dsa_opt, path, tmp):
    text = open(path).read()
    name = os.path.splitext(os.path.basename(path))[0]
    placed = os.path.join(tmp, name + ".mlir")
    pipeline = "--dsa-plan" if "memref.alloc" in text else "-dsaplan-insert-sync"
    proc = subprocess.run([dsa_opt, path, pipeline, "-o", placed],
                          capture_output=True, text=True)
    if proc.returncode:
        return {"case": name, "error": proc.stderr.strip().splitlines()[0]}
    out = open(placed).read()
    ours = len(re.findall(r"dsaplan\.(set_flag|pipe_barrier|barrier_all)\b", out))
    pipes = header(text, "peer-pipes")
    ours_pipes = (len(re.findall(r"dsaplan\.set_flag <" + re.escape(pipes) + ">", out))
                  if pipes else "")
    verify = subprocess.run([dsa_opt, placed, "-dsaplan-verify-sync", "-o", os.devnull],
                            capture_output=True, text=True)
    sim = subprocess.run([dsa_opt, placed,
                          "--dsaplan-simulate=summary=true runs=8 check-gm=true",
                          "-o", os.devnull], capture_output=True, text=True)
    makespan = re.search(r"makespan (\d+) cycles", sim.stderr)
    ideal = re.search(r"dataflow ideal (\d+)", sim.stderr)
    findings = len(re.findall(r"error:", verify.stderr + sim.stderr))
    return {
        "case": name,
        "peer": header(text, "Peer"),
        "peer_syncs": int(header(text, "peer-syncs") or 0),
        "count": header(text, "peer-count"),
        "ours": ours,
        "ours_pipes": f"{ours_pipes} <{pipes}>" if pipes else "",
        "makespan": makespan.group(1) if makespan else "-",
        "ideal": ideal.group(1) if ideal else "-",
        "findings": findings,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-opt", default=os.path.join(ROOT, "build", "bin", "dsa-opt"))
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    paths = sorted(glob.glob(os.path.join(HERE, "cases", "*.mlir")))
    if args.only:
        names = set(args.only.split(","))
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in names]
    print("| case | peer test | peer syncs | ours | ours (pipes) | makespan | ideal | findings | more? |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    more = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            row = run_case(args.dsa_opt, path, tmp)
            if "error" in row:
                print(f"| {row['case']} | error: {row['error']} | | | | | | | |")
                more += 1
                continue
            compared = row["ours"] if not row["ours_pipes"] else int(row["ours_pipes"].split()[0])
            over = compared > row["peer_syncs"]
            flag = ("MORE" if row["count"] == "listed" else "more (peer at least)") if over else ""
            more += over and row["count"] == "listed"
            peer = row["peer"].split(" @")[-1]
            print(f"| {row['case']} | {peer} | {'' if row['count'] == 'listed' else '>= '}{row['peer_syncs']} "
                  f"| {row['ours']} | {row['ours_pipes']} | {row['makespan']} | {row['ideal']} | {row['findings']} | {flag} |")
    print(f"{len(paths)} cases, {more} with more syncs than a listed peer count")


if __name__ == "__main__":
    sys.exit(main())
