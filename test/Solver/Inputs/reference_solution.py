"""schema-v1 solutions as the reference tooling (dsa-solver) reads them.

Written from the schema (schemas/dsa-solution-v1.schema.json) and the
corpus README, sharing nothing with dsaplan:
  fingerprint PROBLEM           the reference fingerprint of the document:
                                FNV-1a-64 of its canonical serialisation
                                (sorted keys, two-space indent, newline)
  check PROBLEM SOLUTION        the required fields, the fingerprint, every
                                buffer placed once; prints the reuse cost
  write PROBLEM ID=OFFSET...    a solution in the reference format
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
        print(f"reference: accepted, reuse cost {reuse_cost(document['problem'], offsets)}")
    elif command == "write":
        pools = {b["id"]: b["allowed_pools"][0] for b in document["problem"]["buffers"]}
        placements = []
        for item in sys.argv[3:]:
            buffer, offset = (int(x) for x in item.split("="))
            placements.append({"buffer": buffer, "pool": pools[buffer], "offset": offset})
        print(json.dumps({"schema_version": 1, "profile": document["profile"],
                          "instance": document["instance"],
                          "problem_fingerprint": fingerprint(document),
                          "metadata": {"producer": "reference_solution.py"},
                          "placements": placements}, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
