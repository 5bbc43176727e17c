#!/usr/bin/env python3
"""Validates dsaplan's JSON reports against the schemas in docs/schemas.

  check_schemas.py PATH...

PATH is a report or a directory (searched recursively). A report's kind is
read from its name as report-dir writes it (<function>.syncs.json,
<function>.timing.json), else from its content (the placement report,
<function>.json, has "pools"; dsa-solve's --stats-json "seconds"); other JSON (the Chrome trace, schema-v1
problems and solutions) is counted and skipped.
Prints one summary line; exits non-zero naming the first report that does
not validate, or when no report is found at all (a check of nothing).

check_report.py and check_trace.py import validate() for the reports they
read.
"""

import json
import os
import sys

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "..", "docs", "schemas")
KINDS = ("placement", "syncs", "timing", "solve-stats")
_validators = {}


def kind_of(report, path=""):
    """The report kind of a parsed JSON document read from `path`, or None:
    by report-dir's names (<function>.syncs.json, .timing.json; .trace.json
    is a Chrome trace), else by content (a placement report has "pools" and
    no "problem", unlike a schema-v1 problem or solution)."""
    for suffix, kind in ((".syncs.json", "syncs"), (".timing.json", "timing"),
                         (".trace.json", None)):
        if path.endswith(suffix):
            return kind
    if not isinstance(report, dict):
        return None
    if "syncs" in report:
        return "syncs"
    if "algorithm" in report and "seconds" in report:
        return "solve-stats"
    if "makespan" in report:
        return "timing"
    if "pools" in report and "problem" not in report:
        return "placement"
    return None


def validate(report, kind=None, where="report"):
    """Raises SystemExit naming `where` and the first error unless `report`
    (a parsed document) validates against the schema of its kind."""
    kind = kind or kind_of(report, where)
    if kind not in _validators:
        with open(os.path.join(SCHEMAS, kind + ".json")) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        _validators[kind] = jsonschema.Draft202012Validator(schema)
    errors = sorted(_validators[kind].iter_errors(report), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        path = "/".join(str(p) for p in e.path) or "(root)"
        sys.exit(f"check_schemas: {where}: not a valid {kind} report at "
                 f"{path}: {e.message}")
    return kind


def files(paths):
    for path in paths:
        if os.path.isdir(path):
            for base, _, names in sorted(os.walk(path)):
                for name in sorted(names):
                    if name.endswith(".json"):
                        yield os.path.join(base, name)
        else:
            yield path


def main(paths):
    counts = dict.fromkeys(KINDS, 0)
    other = 0
    for path in files(paths):
        with open(path) as f:
            report = json.load(f)
        kind = kind_of(report, path)
        if kind is None:
            other += 1
            continue
        validate(report, kind, path)
        counts[kind] += 1
    if not sum(counts.values()):
        sys.exit("check_schemas: no report in " + " ".join(paths))
    print(f"{sum(counts.values())} reports valid (" +
          ", ".join(f"{k} {counts[k]}" for k in KINDS) + f"), {other} other")


if __name__ == "__main__":
    main(sys.argv[1:])
