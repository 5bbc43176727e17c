#!/usr/bin/env python3
"""Checks a Chrome trace written by dsaplan-simulate against its numbers.

  check_trace.py TRACE.json TIMING.json

TIMING.json is the <function>.timing.json of the same run (report-dir). The
checks, each an assertion with a message:
  - TIMING validates against docs/schemas/timing.json;
  - the trace's otherData and TIMING agree on makespan, serial, ideal, busy;
  - makespan is the latest end of any slice;
  - per pipe, the union of its op slices is its busy time, and the sum of
    all op slices is the serial time;
  - every flow id has one start ("s") and one end ("f"), the end no earlier
    than the start, each at a cycle inside a sync slice of its track;
  - the dataflow ideal, recomputed here from the op slices' bytes in trace
    order (each op waits for its pipe's previous issue and for the earlier
    ops whose bytes it conflicts with, each with the ops of its pipe before
    it), equals the reported one, is at most the makespan and at least the
    longest op.
Prints one line "ok: ..." when all hold.
"""

import collections
import json
import re
import sys

from check_schemas import validate

RUN = re.compile(r"\[(\d+), (\d+)\)")


def fail(message):
    sys.exit("check_trace: " + message)


def union_length(intervals):
    total, end = 0, None
    for a, b in sorted(intervals):
        if end is None or a >= end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def accesses(args):
    """[(memory, write, [(begin, end)])] from ["ub [0, 32) [64, 96)", ...]."""
    out = []
    for key in ("reads", "writes"):
        for text in args.get(key, []):
            memory = text[: text.index(" [")]
            runs = [(int(a), int(b)) for a, b in RUN.findall(text)]
            out.append((memory, key == "writes", runs))
    return out


def ideal(ops, pipe_overlap):
    """The dataflow ideal, the naive way: every earlier op, pairwise.

    An earlier op counts as done when it and every op of its pipe issued
    before it have ended: a barrier or flag after it waits for all of them.
    """
    done = []  # (accesses, when its pipe's ops up to it have ended)
    next_issue = collections.defaultdict(int)
    last_end = collections.defaultdict(int)
    makespan = 0
    for op in ops:
        pipe = op["args"]["pipe"]
        mine = accesses(op["args"])
        start = next_issue[pipe]
        if pipe == "s" or not pipe_overlap:
            start = max(start, last_end[pipe])
        for theirs, end in done:
            if any(m1 == m2 and (w1 or w2) and a1 < b2 and a2 < b1
                   for m1, w1, r1 in mine for m2, w2, r2 in theirs
                   for a1, b1 in r1 for a2, b2 in r2):
                start = max(start, end)
        end = start + op["dur"]
        next_issue[pipe] = start + 1
        last_end[pipe] = max(last_end[pipe], end)
        done.append((mine, last_end[pipe]))
        makespan = max(makespan, end)
    return makespan


def main():
    trace = json.load(open(sys.argv[1]))
    timing = json.load(open(sys.argv[2]))
    validate(timing, "timing", sys.argv[2])
    other = trace["otherData"]
    for key in ("makespan", "serial", "ideal", "busy"):
        if other[key] != timing[key]:
            fail(f"{key}: trace says {other[key]}, timing report {timing[key]}")
    events = trace["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    ops = [e for e in slices if e["cat"] == "op"]
    latest = max(e["ts"] + e["dur"] for e in slices)
    if latest != timing["makespan"]:
        fail(f"makespan {timing['makespan']} but the last slice ends at {latest}")
    by_pipe = collections.defaultdict(list)
    for e in ops:
        by_pipe[e["args"]["pipe"]].append((e["ts"], e["ts"] + e["dur"]))
    busy = {p: union_length(v) for p, v in by_pipe.items() if union_length(v)}
    if busy != timing["busy"]:
        fail(f"busy {timing['busy']} but the op slices cover {busy}")
    serial = sum(e["dur"] for e in ops)
    if serial != timing["serial"]:
        fail(f"serial {timing['serial']} but the op slices sum to {serial}")
    flows = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in ("s", "f"):
            if e["ph"] in flows[e["id"]]:
                fail(f"flow {e['id']} has two '{e['ph']}' events")
            flows[e["id"]][e["ph"]] = e
    sync = collections.defaultdict(list)
    for e in slices:
        if e["cat"] == "sync":
            sync[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
    pairs = 0
    for fid, ends in flows.items():
        if "f" not in ends:
            # a set no wait took: only at the end of a failed run
            fail(f"flow {fid} ({ends['s']['name']}) has no end")
        if "s" not in ends:
            fail(f"flow {fid} ({ends['f']['name']}) has no start")
        s, f = ends["s"], ends["f"]
        if s["name"] != f["name"]:
            fail(f"flow {fid} starts as {s['name']} and ends as {f['name']}")
        if f["ts"] < s["ts"]:
            fail(f"flow {fid}: the wait passes at {f['ts']}, before its set fired at {s['ts']}")
        for e in (s, f):
            if not any(a <= e["ts"] <= b for a, b in sync[e["tid"]]):
                fail(f"flow {fid}: '{e['ph']}' at {e['ts']} is in no sync slice of track {e['tid']}")
        pairs += 1
    recomputed = ideal(ops, other["pipe_overlap"])
    if recomputed != timing["ideal"]:
        fail(f"ideal {timing['ideal']} but recomputed {recomputed}")
    if not max(e["dur"] for e in ops) <= timing["ideal"] <= timing["makespan"]:
        fail(f"ideal {timing['ideal']} outside [longest op, makespan {timing['makespan']}]")
    print(f"ok: {len(ops)} ops, {pairs} flag pairs, makespan {timing['makespan']}, "
          f"serial {serial}, ideal {recomputed}")


if __name__ == "__main__":
    main()
