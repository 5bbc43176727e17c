"""dsaplan from Python: the solver and the --dsa-plan pipeline, in process.

    import dsaplan
    result = dsaplan.solve("k.json", algorithm="exact")   # like dsa-solve
    placed = dsaplan.plan(kernel_text, summary=True)      # like dsa-opt --dsa-plan

Refusals are exceptions: `Error` (bad input or option: the diagnostics with
their locations), and `DoesNotFit` when a pool or space cannot be placed,
either `Infeasible` (proved; with the certificate) or `GaveUp` (the search
budget ran out; nothing proved). docs/python.md is the guide.
"""

import difflib
import json
import os
import shutil
import tempfile

from . import _dsaplan

__version__ = _dsaplan.__version__
__all__ = ["solve", "plan", "Error", "DoesNotFit", "Infeasible", "GaveUp"]


class Error(Exception):
    """A refused input or option.

    message      the first error, as the tools print it ("file:line:col:
                 error: ..." for a kernel)
    diagnostics  every diagnostic, each a dict: severity, message, file,
                 line, column (0 when unknown), failure, notes (the same
                 dicts)
    location     (file, line, column) of the first error, or None
    """

    def __init__(self, message, diagnostics=(), location=None):
        super().__init__(message)
        self.message = message
        self.diagnostics = list(diagnostics)
        self.location = location


class DoesNotFit(Error):
    """Some pool (solve) or space (plan) cannot be placed.

    pools        the pools not placed, each a dict as in solve()'s "pools"
                 (status, proof, certificate, lower_bound, capacity, ...)
    result       solve(): the whole result; plan(): the reports written
    """

    def __init__(self, message, pools, result, diagnostics=(), location=None):
        super().__init__(message, diagnostics, location)
        self.pools = pools
        self.result = result


class Infeasible(DoesNotFit):
    """Proved: no valid placement exists. `certificate` lists the buffers
    (ids) of the first infeasible pool that pairwise may not share bytes
    and together need more than its capacity (empty when the proof is an
    exhaustive search or contradicting constraints; see `pools`)."""

    @property
    def certificate(self):
        for pool in self.pools:
            if pool.get("status") == "infeasible":
                # A pool's "certificate" proves its lower bound; it proves
                # infeasibility only when the proof says so.
                if pool.get("proof") != "certificate":
                    return []
                return list(pool.get("certificate", []))
        return []


class GaveUp(DoesNotFit):
    """No placement within capacity was found and none is proved impossible:
    raise node_budget or try another algorithm."""


def _option_items(options):
    """(name, value) pairs as the tools spell them: node_budget=5 ->
    ("node-budget", "5"), True -> "true"."""
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        yield key.replace("_", "-"), key, value


def _check_names(function, options, names):
    """A TypeError, as Python raises for any function, for a keyword that
    is no option of `names` (the tools' spellings), with the closest one
    and the list."""
    known = sorted(n.replace("-", "_") for n in names)
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(key, known, 1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise TypeError(f"{function}() got an unexpected keyword argument "
                            f"'{key}'{hint}; its options: " + ", ".join(known))


def _read_problem(problem):
    """(path, text) of a problem given as a dict, JSON or CSV text, or a
    path (str or os.PathLike)."""
    if isinstance(problem, dict):
        return "", json.dumps(problem)
    if isinstance(problem, bytes):
        problem = problem.decode()
    if isinstance(problem, str) and (problem.lstrip().startswith("{")
                                     or "\n" in problem):
        return "", problem
    path = os.fspath(problem)
    try:
        with open(path) as f:
            return path, f.read()
    except OSError as e:
        raise Error(f"{path}: cannot read the file: {e.strerror}",
                    location=(path, 0, 0)) from None


def _solve_options(options):
    """dsa-solve's options from keyword arguments; capacity may be a number,
    a {pool: bytes} dict or a list of "POOL=BYTES"."""
    for key in options:
        if key.replace("_", "-") in _dsaplan.anytime_option_names():
            raise TypeError(
                f"solve() does not take '{key}': time_limit, progress and "
                "progress_interval are dsa-solve's (they need a clock and "
                "signals, which the solver library does not use); bound the "
                "search with node_budget and cost_node_budget")
    _check_names("solve", options, _dsaplan.driver_option_names())
    out = []
    for name, key, value in _option_items(options):
        if name == "capacity" and isinstance(value, dict):
            out += [(name, f"{pool}={size}", key) for pool, size in value.items()]
        elif name == "capacity" and isinstance(value, (list, tuple)):
            out += [(name, str(v), key) for v in value]
        else:
            out.append((name, str(value), key))
    return out


def solve(problem, **options):
    """Places every pool of `problem` (a schema-v1 dict, JSON text, MiniMalloc
    CSV text, or the path of either) as dsa-solve does, with its options:
    algorithm, node_budget, cost_node_budget, minimize_capacity and capacity
    (bytes of the only pool, {pool: bytes}, or ["POOL=BYTES", ...]; a CSV
    problem needs one unless its file name says it: NAME.BYTES.csv).

    Returns a dict:
      solution  the placement in the reference format: the schema-v1 solution
                (a dict with "placements": [{"buffer", "pool", "offset"}])
                for a JSON problem, the CSV rows with an "offset" column
                (text) for a MiniMalloc one
      pools     per pool: pool, name, capacity, buffers, peak, lower_bound,
                status (optimal/feasible), proof, certificate (buffer ids
                proving lower_bound), nodes, and under the reuse-cost
                objective reuse_cost, reuse_cost_bound,
                shared_penalised_pairs, reuse_cost_nodes
      warnings  input fields read but not honoured
    Raises TypeError for a keyword that is no option, Error (bad input or
    option value), Infeasible or GaveUp (a pool not
    placed; .pools and .result say which and why)."""
    path, text = _read_problem(problem)
    out = _dsaplan.solve(path, text, _solve_options(options))
    name = path or "<problem>"
    if "option_error" in out:
        raise Error(out["option_error"])
    if out["errors"]:
        raise Error(f"{name}: " + out["errors"][0],
                    [{"severity": "error", "message": m, "file": path,
                      "line": 0, "column": 0, "failure": "", "notes": []}
                     for m in out["errors"]], (path, 0, 0))
    if out["internal_errors"]:
        raise RuntimeError("dsaplan internal error (please report it): "
                           + "; ".join(out["internal_errors"]))
    result = {"pools": out["pools"], "warnings": out["warnings"]}
    if "pool_choice" in out:
        result["pool_choice"] = out["pool_choice"]
    unplaced = [p for p in out["pools"]
                if p["status"] in ("infeasible", "gave-up")]
    if unplaced:
        first = sorted(unplaced, key=lambda p: p["status"] != "infeasible")[0]
        raise _does_not_fit(unplaced, result, (
            f"{name}: pool {first['pool']} does not fit: {first['status']} "
            f"({first['proof']}; lower bound {first['lower_bound']} B, "
            f"capacity {first['capacity']} B)"))
    result["solution"] = (out["solution"] if out["csv"]
                          else json.loads(out["solution"]))
    return result


def _does_not_fit(pools, result, message, diagnostics=(), location=None):
    """Infeasible when some pool is proved infeasible, else GaveUp."""
    proved = any(p["status"] == "infeasible" for p in pools)
    cls = Infeasible if proved else GaveUp
    return cls(message, pools, result, diagnostics, location)


def _option_text(options):
    """--dsa-plan's option text: "algorithm=exact summary=true"."""
    parts = []
    for name, _, value in _option_items(options):
        value = str(value)
        if any(c in value for c in " {}\"'"):
            value = '"' + value.replace('"', '\\"') + '"'
        parts.append(f"{name}={value}")
    return " ".join(parts)


def _read_reports(directory):
    """{function: {"placement", "syncs", "timing": dict}} from a report-dir
    (<function>.json, .syncs.json, .timing.json)."""
    reports = {}
    kinds = ((".syncs.json", "syncs"), (".timing.json", "timing"),
             (".trace.json", None), (".json", "placement"))
    for file in sorted(os.listdir(directory)):
        for suffix, kind in kinds:
            if file.endswith(suffix):
                if kind:
                    with open(os.path.join(directory, file)) as f:
                        reports.setdefault(file[:-len(suffix)], {})[kind] = \
                            json.load(f)
                break
    return reports


def _format(d):
    where = f"{d['file']}:{d['line']}:{d['column']}: " if d["file"] else ""
    return f"{where}{d['severity']}: {d['message']}"


def plan(mlir_text, filename="<kernel>", **options):
    """Runs the --dsa-plan pipeline on `mlir_text` in process, with the
    pipeline's options as keyword arguments (algorithm="exact",
    node_budget=100000, summary=True, sync_mode="reuse-only", ...; see
    `dsa-opt --help`). `filename` names the text in locations.

    Returns a dict:
      mlir         the placed, synchronised kernel
      reports      per function: placement (<function>.json), syncs and
                   timing, as dicts (report_dir=DIR also keeps the files,
                   with the SVG memory maps and the trace, in DIR)
      diagnostics  the remarks and warnings (summary=True's lines), as dicts
    Raises TypeError for a keyword that is no option of --dsa-plan, Error
    (a parse error, a refused option value, a refused kernel),
    Infeasible or GaveUp (a space does not fit; .pools from the placement
    report, .certificate the buffers' ids)."""
    _check_names("plan", options, _dsaplan.plan_option_names())
    keep = options.get("report_dir")
    directory = os.fspath(keep) if keep else tempfile.mkdtemp(prefix="dsaplan-")
    options["report_dir"] = directory
    try:
        out = _dsaplan.plan(mlir_text, filename, _option_text(options))
        if "option_error" in out:
            raise Error(out["option_error"])
        reports = _read_reports(directory) if os.path.isdir(directory) else {}
    finally:
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)
    diagnostics = out["diagnostics"]
    if "mlir" in out:
        return {"mlir": out["mlir"], "reports": reports,
                "diagnostics": diagnostics}
    errors = [d for d in diagnostics if d["severity"] == "error"]
    first = errors[0] if errors else {"file": "", "severity": "error",
                                      "message": "the pipeline failed",
                                      "line": 0, "column": 0}
    message = _format(first)
    location = (first["file"], first["line"], first["column"]) \
        if first["file"] else None
    if out["exit_status"] in (1, 3):
        # Exit status 1 or 3: every error is a space that does not fit, and
        # the placement report of its function says which and why.
        pools = [p for r in reports.values()
                 for p in r.get("placement", {}).get("pools", [])
                 if p["status"] in ("infeasible", "gave-up")]
        raise _does_not_fit(pools, reports, message, diagnostics, location)
    raise Error(message, diagnostics, location)
