"""schema-v1 solutions as the reference tooling (dsa-solver) reads them.

Written from the schema (schemas/dsa-solution-v1.schema.json) and the
corpus README, sharing nothing with dsaplan:
  fingerprint PROBLEM           the reference fingerprint of the document:
                                FNV-1a-64 of its canonical serialisation
                                (sorted keys, two-space indent, newline)
  check PROBLEM SOLUTION        the required fields, the fingerprint, every
                                buffer placed once in one of its allowed
                                pools, and the placement rules (alignment,
                                capacity, reserved ranges, live buffers and
                                separated ones apart, colocations, pins);
                                prints the reuse cost
  write PROBLEM ID=OFFSET[@POOL]...
                                a solution in the reference format (the
                                buffer's first allowed pool unless named)
"""

import json
import sys

REQUIRED = ["schema_version", "profile", "instance", "problem_fingerprint", "metadata",
            "placements"]


def fingerprint(document):
    document = dict(document)
    document.setdefault("metadata", {})
    text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    value = 0xcbf29ce484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def reuse_cost(problem, offsets):
    buffers = {b["id"]: b for b in problem["buffers"]}
    groups = {b: b for b in buffers}
    for c in problem["constraints"]["colocations"]:
        old, new = groups[c["second"]], groups[c["first"]]
        groups = {b: (new if g == old else g) for b, g in groups.items()}
    extent = {b: max(buffers[o]["size"] for o in buffers if groups[o] == groups[b])
              for b in buffers}
    excluded = {frozenset((e["first"], e["second"]))
                for e in problem["constraints"]["temporal_exclusions"]}

    def live_together(a, b):
        return frozenset((a, b)) not in excluded and any(
            x["lower"] < y["upper"] and y["lower"] < x["upper"]
            for x in buffers[a]["live_intervals"] for y in buffers[b]["live_intervals"])

    cost = 0
    for p in problem.get("cost_model", {}).get("reuse_penalties", []):
        a, b = p["first"], p["second"]
        if (offsets[a][0] == offsets[b][0] and groups[a] != groups[b] and not live_together(a, b)
                and offsets[a][1] < offsets[b][1] + extent[b]
                and offsets[b][1] < offsets[a][1] + extent[a]):
            cost += p["cost"]
    return cost


def placement_errors(problem, placed):
    """Why `placed` ({buffer: (pool, offset)}) breaks the schema's rules."""
    errors = []
    buffers = {b["id"]: b for b in problem["buffers"]}
    pools = {p["id"]: p for p in problem["pools"]}
    constraints = problem["constraints"]
    colocated = {frozenset((c["first"], c["second"])) for c in constraints["colocations"]}
    excluded = {frozenset((e["first"], e["second"])) for e in constraints["temporal_exclusions"]}
    separated = {frozenset((s["first"], s["second"])) for s in constraints["separations"]}
    exclusive = {p["buffer"] for p in constraints["pinned_allocations"]
                 if p.get("exclusive_for_all_time")}
    for b, (pool, offset) in placed.items():
        buffer = buffers[b]
        if pool not in buffer["allowed_pools"]:
            errors.append(f"buffer {b} is in pool {pool}, not one of {buffer['allowed_pools']}")
            continue
        if offset % buffer["alignment"]:
            errors.append(f"buffer {b} at {offset} is not aligned to {buffer['alignment']}")
        if offset + buffer["size"] > pools[pool]["capacity"]:
            errors.append(f"buffer {b} ends beyond pool {pool}'s capacity")
        for r in pools[pool]["reserved_ranges"]:
            if offset < r["end"] and r["begin"] < offset + buffer["size"]:
                errors.append(f"buffer {b} is in a reserved range of pool {pool}")
    for pin in constraints["pinned_allocations"]:
        if placed.get(pin["buffer"]) != (pin["pool"], pin["offset"]):
            errors.append(f"buffer {pin['buffer']} is not at its pin")
    for c in constraints["colocations"]:
        if placed[c["first"]] != placed[c["second"]]:
            errors.append(f"colocated buffers {c['first']} and {c['second']} differ")
    ids = sorted(placed, key=str)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            (pa, oa), (pb, ob) = placed[a], placed[b]
            pair = frozenset((a, b))
            if pa != pb or pair in colocated or not (
                    oa < ob + buffers[b]["size"] and ob < oa + buffers[a]["size"]):
                continue
            live = pair not in excluded and any(
                x["lower"] < y["upper"] and y["lower"] < x["upper"]
                for x in buffers[a]["live_intervals"] for y in buffers[b]["live_intervals"])
            if live or pair in separated or a in exclusive or b in exclusive:
                errors.append(f"buffers {a} and {b} share bytes in pool {pa}")
    return errors


def main():
    command, problem_path = sys.argv[1], sys.argv[2]
    document = json.load(open(problem_path))
    if command == "fingerprint":
        print(fingerprint(document))
    elif command == "check":
        solution = json.load(open(sys.argv[3]))
        for field in REQUIRED:
            if field not in solution:
                sys.exit(f"solution: missing required field {field}")
        for field in ["profile", "instance"]:
            if solution[field] != document[field]:
                sys.exit(f"solution: {field} {solution[field]} is not {document[field]}")
        if solution["problem_fingerprint"] != fingerprint(document):
            sys.exit("solution: problem_fingerprint does not match")
        offsets = {}
        for p in solution["placements"]:
            if set(p) != {"buffer", "pool", "offset"} or p["buffer"] in offsets:
                sys.exit(f"solution: bad placement {p}")
            offsets[p["buffer"]] = (p["pool"], p["offset"])
        if len(offsets) != len(document["problem"]["buffers"]):
            sys.exit("solution: not every buffer is placed")
        errors = placement_errors(document["problem"], offsets)
        if errors:
            sys.exit("solution: " + "; ".join(errors))
        print(f"reference: accepted, reuse cost {reuse_cost(document['problem'], offsets)}")
    elif command == "write":
        pools = {b["id"]: b["allowed_pools"][0] for b in document["problem"]["buffers"]}
        placements = []
        for item in sys.argv[3:]:
            buffer, where = item.split("=")
            offset, _, pool = where.partition("@")
            buffer = int(buffer)
            placements.append({"buffer": buffer, "pool": int(pool) if pool else pools[buffer],
                               "offset": int(offset)})
        print(json.dumps({"schema_version": 1, "profile": document["profile"],
                          "instance": document["instance"],
                          "problem_fingerprint": fingerprint(document),
                          "metadata": {"producer": "reference_solution.py"},
                          "placements": placements}, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
