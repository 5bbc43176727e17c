#!/usr/bin/env python3
"""Checks the sync picture of dsaplan-insert-sync against its syncs report.

  check_sync_picture.py REPORT_DIR FUNCTION SPACE

<function>.<space>.sync.svg must parse as XML and draw one arrow (g.sync,
with a set mark and a wait line ending in an arrow head) per set_flag of
<function>.syncs.json that orders accesses of that space, one mark per
pipe_barrier, a legend naming every pipe it draws, and no lower bound or
status (its spans are accesses, not the live ranges the placement used).
Its tiles are named as in the placement picture <function>.<space>.svg
(the allocation's name, which the placed IR keeps in the view's location),
not by the SSA names of the views (`%view_3`).
"""

import json
import os
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(message):
    sys.exit("check_sync_picture: " + message)


def buffer_names(root):
    """The data-name of every rect of class buffer (among its classes)."""
    return {r.get("data-name") for r in root.iter(SVG + "rect")
            if "buffer" in (r.get("class") or "").split()}


def main():
    report_dir, function, space = sys.argv[1:4]
    syncs = json.load(open(os.path.join(report_dir, function + ".syncs.json")))["syncs"]
    root = ET.parse(os.path.join(report_dir, f"{function}.{space}.sync.svg")).getroot()
    groups = [g for g in root.iter(SVG + "g")]
    arrows = [g for g in groups if g.get("class") == "sync"]
    barriers = [g for g in groups if g.get("class") == "barrier"]
    sets = [s for s in syncs if s["op"] == "set_flag"]
    if len(arrows) > len(sets):
        fail(f"{len(arrows)} arrows for {len(sets)} set_flags")
    for g in arrows:
        wait = g.find(SVG + "line")
        if g.find(SVG + "rect") is None or wait is None or wait.get("marker-end") != "url(#arrow)":
            fail(f"arrow {g.find(SVG + 'title').text} has no set mark or no arrow head")
    expected_barriers = sum(s["op"] == "pipe_barrier" for s in syncs)
    if len(barriers) != expected_barriers:
        fail(f"{len(barriers)} barrier marks for {expected_barriers} pipe_barriers")
    legend = " ".join(t.text or "" for g in groups if g.get("class") == "legend"
                      for t in g.iter(SVG + "text"))
    for pipe in {g.get("data-pipe") for g in arrows + barriers}:
        if f"pipe {pipe}" not in legend:
            fail(f"the legend does not name pipe {pipe}")
    if [e for e in root.iter() if "lower-bound" in (e.get("class") or "").split()]:
        fail("the picture draws a lower bound of access spans")
    caption = [t.text for t in root.iter(SVG + "text") if t.get("class") == "caption"][0]
    if "optimal" in caption or "lower bound" in caption:
        fail(f"the caption claims a bound: {caption}")
    names = buffer_names(root)
    placement = ET.parse(os.path.join(report_dir, f"{function}.{space}.svg")).getroot()
    placed_names = buffer_names(placement)
    if not names or not names <= placed_names:
        fail(f"tiles named {sorted(names - placed_names)}, not as placed: "
             f"{sorted(placed_names)}")
    print(f"{space}: {len(arrows)} arrows for {len(sets)} set_flags, "
          f"{len(barriers)} barriers, {len(names)} tiles named as placed: ok")


if __name__ == "__main__":
    main()
