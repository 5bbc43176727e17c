#!/usr/bin/env python3
"""How much the cube and the vector core overlapped in a simulated run.

  core_overlap.py TRACE.json

TRACE.json is a <function>.trace.json of dsaplan-simulate for a kernel of
both cores: op slices whose pipe is "aiv.*" ran on the vector core, the
others on the cube core. Prints

  cube busy C, vector busy V, both busy B, makespan M, M / (C + V) R

where C and V are the cycles in which at least one pipe of that core ran an
op, and B the cycles in which both did. Fails unless both cores ran, B > 0
and M < C + V (the cores did not take turns).
"""

import json
import sys


def union(intervals):
    merged = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def length(intervals):
    return sum(b - a for a, b in intervals)


def intersect(xs, ys):
    out, i, j = [], 0, 0
    while i < len(xs) and j < len(ys):
        a, b = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
        if a < b:
            out.append([a, b])
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return out


def main():
    with open(sys.argv[1]) as f:
        trace = json.load(f)
    cores = {"cube": [], "vector": []}
    for event in trace["traceEvents"]:
        if event.get("cat") != "op":
            continue
        core = "vector" if event["args"]["pipe"].startswith("aiv.") else "cube"
        cores[core].append((event["ts"], event["ts"] + event["dur"]))
    cube, vector = union(cores["cube"]), union(cores["vector"])
    c, v = length(cube), length(vector)
    both = length(intersect(cube, vector))
    makespan = trace["otherData"]["makespan"]
    print("cube busy %d, vector busy %d, both busy %d, makespan %d, "
          "M / (C + V) %.2f" % (c, v, both, makespan, makespan / max(1, c + v)))
    if not c or not v:
        sys.exit("core_overlap: a core ran no op")
    if not both or makespan >= c + v:
        sys.exit("core_overlap: the cores took turns")


if __name__ == "__main__":
    main()
