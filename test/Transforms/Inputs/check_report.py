#!/usr/bin/env python3
"""Checks the reports of dsaplan-assign-offsets against each other and the IR.

  check_report.py REPORT_DIR FUNCTION PLACED_IR

- every <function>.<space>.svg parses as XML and has one rect.buffer per live
  interval of each buffer of that space in <function>.json, at the
  coordinates the SVG's own scale gives for the buffer's offset, size and
  interval;
- every buffer of the JSON report has the offset and live range that the
  placed IR (dsaplan.alloc with live and offset, keep-allocs form) gives it.

Prints one line per space and exits non-zero on the first mismatch.
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(message):
    sys.exit("check_report: " + message)


def close(a, b):
    return abs(a - b) <= 0.01


def check_svg(path, pool):
    root = ET.parse(path).getroot()
    x0, xs = float(root.get("data-x0")), float(root.get("data-x-scale"))
    y0, ys = float(root.get("data-y0")), float(root.get("data-y-scale"))
    first = int(root.get("data-first-point"))
    rects = [r for r in root.iter(SVG + "rect") if "buffer" in r.get("class", "").split()]
    expected = {}
    for b in pool["buffers"]:
        for lower, upper in b["live"]:
            expected[(b["id"], lower, upper)] = b
    if len(rects) != len(expected):
        fail(f"{path}: {len(rects)} buffer rectangles, expected {len(expected)}")
    for r in rects:
        key = (r.get("data-buffer"), int(r.get("data-lower")), int(r.get("data-upper")))
        b = expected.pop(key, None)
        if b is None:
            fail(f"{path}: unexpected rectangle {key}")
        if int(r.get("data-offset")) != b["offset"] or int(r.get("data-size")) != b["size"]:
            fail(f"{path}: rectangle {key} has offset/size {r.get('data-offset')}/{r.get('data-size')}")
        want = (x0 + (key[1] - first) * xs, y0 - (b["offset"] + b["size"]) * ys,
                (key[2] - key[1]) * xs, b["size"] * ys)
        got = tuple(float(r.get(a)) for a in ("x", "y", "width", "height"))
        if not all(close(g, w) for g, w in zip(got, want)):
            fail(f"{path}: rectangle {key} at {got}, expected {want}")
        if ("partial-reuse" in r.get("class").split()) != b["partial_reuse"]:
            fail(f"{path}: rectangle {key} partial-reuse marking differs from the JSON")
    return len(rects)


def parse_ir(path):
    placed = {}
    pattern = re.compile(r'dsaplan\.alloc \{[^}]*live = #dsaplan\.live<([^>]*)>[^}]*'
                         r'name = "([^"]+)"[^}]*offset = (\d+)')
    for line in open(path):
        m = pattern.search(line)
        if m:
            live = [[int(x) for x in iv.split(" to ")] for iv in m.group(1).split(", ")]
            placed[m.group(2)] = (int(m.group(3)), live)
    return placed


def main():
    report_dir, function, ir = sys.argv[1:4]
    report = json.load(open(os.path.join(report_dir, function + ".json")))
    placed = parse_ir(ir)
    for pool in report["pools"]:
        svg = os.path.join(report_dir, f"{function}.{pool['name']}.svg")
        rects = check_svg(svg, pool)
        for b in pool["buffers"]:
            if b["name"] not in placed:
                fail(f"buffer {b['name']} of the report is not a placed alloc of the IR")
            offset, live = placed[b["name"]]
            if offset != b["offset"] or live != b["live"]:
                fail(f"buffer {b['name']}: report says offset {b['offset']} live {b['live']}, "
                     f"IR says offset {offset} live {live}")
        print(f"{pool['name']}: {len(pool['buffers'])} buffers, {rects} rectangles, "
              f"peak {pool['peak']}, lower bound {pool['lower_bound']}: ok")


if __name__ == "__main__":
    main()
