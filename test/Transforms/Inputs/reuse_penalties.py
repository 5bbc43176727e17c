"""Prints the reuse penalties of a schema-v1 problem, one per line:
`<first name> <second name> <cost> <reason>`, in the file's order."""

import json
import sys

problem = json.load(open(sys.argv[1]))["problem"]
names = [buffer["name"] for buffer in problem["buffers"]]
penalties = problem.get("cost_model", {}).get("reuse_penalties", [])
print(f"{len(penalties)} penalties")
for penalty in penalties:
    print(names[penalty["first"]], names[penalty["second"]], penalty["cost"],
          penalty["reason"])
