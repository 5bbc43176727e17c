#!/usr/bin/env python3
"""Checks the reports of dsaplan-assign-offsets against each other and the IR.

  check_report.py REPORT_DIR FUNCTION PLACED_IR

- every <function>.<space>.svg parses as XML and has one rect.buffer per live
  interval of each buffer of that space in <function>.json, named as in the
  JSON, at the coordinates the SVG's own scale gives for the buffer's offset,
  size and interval (grown to the minimum size, and marked min-size, where
  that is too small to see);
- the axes have round ticks: program points at multiples of 1, 2 or 5 times
  a power of ten, addresses at multiples of a power of two; the legend and
  the capacity, peak and lower-bound lines are there;
- the JSON report validates against docs/schemas/placement.json;
- every buffer of the JSON report has the offset and live range that the
  placed IR (dsaplan.alloc with live and offset, keep-allocs form) gives it.

Prints one line per space and exits non-zero on the first mismatch.
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from check_schemas import validate

SVG = "{http://www.w3.org/2000/svg}"


def fail(message):
    sys.exit("check_report: " + message)


def close(a, b):
    return abs(a - b) <= 0.01


def round_decimal(step):
    while step % 10 == 0:
        step //= 10
    return step in (1, 2, 5)


def check_ticks(path, root):
    """Ticks at round values: x at multiples of a 1-2-5 step, y (bytes) at
    multiples of a power of two; labelled in B or KiB."""
    for axis, is_round in (("x-tick", round_decimal), ("y-tick", lambda s: s & (s - 1) == 0)):
        values = [int(e.get("data-value")) for e in root.iter()
                  if axis in e.get("class", "").split()]
        if len(values) < 2:
            fail(f"{path}: fewer than two {axis}s")
        steps = {b - a for a, b in zip(values, values[1:])}
        if len(steps) != 1 or not is_round(steps.pop()) or values[0] % (values[1] - values[0]):
            fail(f"{path}: {axis}s at {values} are not round")
    labels = [e.text for e in root.iter(SVG + "text") if e.get("class") == "tick-label"]
    if not any(t.endswith(" KiB") or t.endswith(" B") for t in labels):
        fail(f"{path}: no address tick says its unit")


def check_svg(path, pool):
    root = ET.parse(path).getroot()
    x0, xs = float(root.get("data-x0")), float(root.get("data-x-scale"))
    y0, ys = float(root.get("data-y0")), float(root.get("data-y-scale"))
    first = int(root.get("data-first-point"))
    minimum = float(root.get("data-min-size"))
    check_ticks(path, root)
    for cls in ("legend", "capacity", "peak", "lower-bound"):
        if not [e for e in root.iter() if cls in e.get("class", "").split()]:
            fail(f"{path}: no element of class {cls}")
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
        if r.get("data-name") != b["name"]:
            fail(f"{path}: rectangle {key} is named {r.get('data-name')}, the JSON says {b['name']}")
        width, height = (key[2] - key[1]) * xs, b["size"] * ys
        small = width < minimum or height < minimum
        if ("min-size" in r.get("class").split()) != small:
            fail(f"{path}: rectangle {key} min-size marking is wrong ({width} x {height} px)")
        width, height = max(width, minimum), max(height, minimum)
        want = (x0 + (key[1] - first) * xs, y0 - b["offset"] * ys - height, width, height)
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
    validate(report, "placement", function + ".json")
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
