#!/usr/bin/env python3
"""Checks the memory maps of a --dsa-plan run that inserted syncs.

  check_pictures.py REPORT_DIR FUNCTION

- one picture per space: the SVGs of FUNCTION in REPORT_DIR are exactly
  <function>.<space>.svg for the spaces of <function>.json (no
  *.sync.svg);
- each shows the tiles of the placement in the JSON report, drawn by
  insert-sync from its own input (its program points, not the report's):
  every rectangle has the offset and size of the report's buffer of its
  name, and every buffer of the report is drawn; the peak line is at the
  report's peak; each rectangle is where the picture's own scale puts it
  (check_report.py's check), and is outlined as a partial reuse exactly when
  it overlaps part of a tile drawn as expired before it starts (recomputed
  here from the rectangles);
- each arrow (g.sync) has a set mark and a line ending in an arrow head,
  names two buffers of that space in the JSON (data-from-name,
  data-to-name), starts on a rectangle of the first and ends on one of the
  second, and is a set_flag of <function>.syncs.json of its pipe; no more
  arrows than set_flags. An end may be "(no tile)" (an access whose bytes
  are not known exactly, drawn only when no exact pair is found): it is
  counted and printed, and the test's FileCheck line says how many;
- each barrier mark is a pipe_barrier (pipe "all": a barrier_all) of the
  syncs report; the legend names every pipe drawn.

Prints one line per space and exits non-zero on the first mismatch.
"""

import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_report import SVG, check_svg  # noqa: E402
from check_schemas import validate  # noqa: E402


UNKNOWN = "(no tile)"


def fail(message):
    sys.exit("check_pictures: " + message)


def classes(element):
    return (element.get("class") or "").split()


def inside(rect, x, y, slack=1.0):
    left, top = float(rect.get("x")), float(rect.get("y"))
    right, bottom = left + float(rect.get("width")), top + float(rect.get("height"))
    return left - slack <= x <= right + slack and top - slack <= y <= bottom + slack


def check_level(path, root, cls, value):
    lines = [e for e in root.iter(SVG + "line") if cls in classes(e) and e.get("data-value")]
    if [int(e.get("data-value")) for e in lines] != [value]:
        fail(f"{path}: {cls} lines at {[e.get('data-value') for e in lines]}, the report says {value}")


def drawn_pool(path, root, pool):
    """The tiles the picture draws, as a pool of the report, after checking
    them against the report's buffers of the same names."""
    placed = {b["name"]: b for b in pool["buffers"]}
    tiles = {}
    for r in root.iter(SVG + "rect"):
        if "buffer" not in classes(r):
            continue
        name, offset, size = r.get("data-name"), int(r.get("data-offset")), int(r.get("data-size"))
        if name not in placed or (placed[name]["offset"], placed[name]["size"]) != (offset, size):
            fail(f"{path}: tile {name} at {offset} ({size} B) is no buffer of the placement report")
        tile = tiles.setdefault(r.get("data-buffer"), {"id": r.get("data-buffer"), "name": name,
                                                      "offset": offset, "size": size, "live": []})
        tile["live"].append([int(r.get("data-lower")), int(r.get("data-upper"))])
    missing = set(placed) - {t["name"] for t in tiles.values()}
    if missing:
        fail(f"{path}: buffers {sorted(missing)} of the placement report are not drawn")
    for later in tiles.values():
        later["partial_reuse"] = any(
            earlier is not later and max(i[1] for i in earlier["live"]) <= min(i[0] for i in later["live"])
            and 0 < min(earlier["offset"] + earlier["size"], later["offset"] + later["size"])
            - max(earlier["offset"], later["offset"]) < earlier["size"]
            for earlier in tiles.values())
    return {"buffers": list(tiles.values())}


def check_arrows(path, root, pool, sets):
    rects = [r for r in root.iter(SVG + "rect") if "buffer" in classes(r)]
    names = {b["name"] for b in pool["buffers"]} | {UNKNOWN}
    arrows = [g for g in root.iter(SVG + "g") if "sync" in classes(g)]
    for g in arrows:
        title = g.find(SVG + "title").text
        mark, line = g.find(SVG + "rect"), g.find(SVG + "line")
        if mark is None or line is None or line.get("marker-end") != "url(#arrow)":
            fail(f"{path}: arrow '{title}' has no set mark or no arrow head")
        source, target = g.get("data-from-name"), g.get("data-to-name")
        if source not in names or target not in names:
            fail(f"{path}: arrow '{title}' names {source} -> {target}, not buffers of the report")
        if not title.startswith(f"set_flag <{g.get('data-pipe')} -> "):
            fail(f"{path}: arrow of pipe {g.get('data-pipe')} is '{title}'")
        if title.split(" at ")[0] not in {f"set_flag <{s['src']} -> {s['dst']}>, {s['event']}" for s in sets}:
            fail(f"{path}: arrow '{title}' is no set_flag of the syncs report")
        for name, x, y in ((source, line.get("x1"), line.get("y1")), (target, line.get("x2"), line.get("y2"))):
            if name != UNKNOWN and not any(r.get("data-name") == name and inside(r, float(x), float(y)) for r in rects):
                fail(f"{path}: arrow '{title}' does not touch a rectangle of {name} at ({x}, {y})")
    if len(arrows) > len(sets):
        fail(f"{path}: {len(arrows)} arrows for {len(sets)} set_flags")
    return arrows


def main():
    report_dir, function = sys.argv[1:3]
    report = json.load(open(os.path.join(report_dir, function + ".json")))
    validate(report, "placement", function + ".json")
    syncs_report = json.load(open(os.path.join(report_dir, function + ".syncs.json")))
    validate(syncs_report, "syncs", function + ".syncs.json")
    syncs = syncs_report["syncs"]
    sets = [s for s in syncs if s["op"] == "set_flag"]
    barrier_pipes = {s["pipe"] for s in syncs if s["op"] == "pipe_barrier"}
    if any(s["op"] == "barrier_all" for s in syncs):
        barrier_pipes.add("all")
    expected = {os.path.join(report_dir, f"{function}.{p['name']}.svg") for p in report["pools"]}
    found = set(glob.glob(os.path.join(report_dir, glob.escape(function) + ".*svg")))
    if found != expected:
        fail(f"pictures {sorted(found)}, expected one per space: {sorted(expected)}")
    for pool in report["pools"]:
        path = os.path.join(report_dir, f"{function}.{pool['name']}.svg")
        root = ET.parse(path).getroot()
        drawn = drawn_pool(path, root, pool)
        check_svg(path, drawn)
        for cls, key in (("capacity", "capacity"), ("peak", "peak")):
            if cls != "capacity" or pool["capacity"] <= 2 * pool["peak"]:
                check_level(path, root, cls, pool[key])
        arrows = check_arrows(path, root, pool, sets)
        barriers = [g for g in root.iter(SVG + "g") if "barrier" in classes(g)]
        for g in barriers:
            if g.get("data-pipe") not in barrier_pipes:
                fail(f"{path}: a barrier mark of pipe {g.get('data-pipe')}, which has no pipe_barrier")
        legend = " ".join(t.text or "" for g in root.iter(SVG + "g") if "legend" in classes(g)
                          for t in g.iter(SVG + "text"))
        for pipe in {g.get("data-pipe") for g in arrows + barriers}:
            if (f"pipe {pipe}" if pipe != "all" else "barrier_all") not in legend:
                fail(f"{path}: the legend does not name pipe {pipe}")
        later = sum("next-iteration" in classes(g) for g in arrows)
        loose = sum(UNKNOWN in (g.get("data-from-name"), g.get("data-to-name")) for g in arrows)
        print(f"{pool['name']}: {len(drawn['buffers'])} tiles, {len(arrows)} arrows ({later} to the next iteration, "
              f"{loose} with an end on no tile), {len(barriers)} barriers, peak {pool['peak']}: ok")


if __name__ == "__main__":
    main()
