"""dsaplan.plan: the --dsa-plan pipeline in process, its reports as dicts,
and its refusals as exceptions with locations."""

import os
import sys
import tempfile
import unittest

import dsaplan

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "..", "examples")
sys.path.insert(0, os.path.join(HERE, "..", "..", "Transforms", "Inputs"))
from check_schemas import validate  # noqa: E402  (docs/schemas, jsonschema)


def validate_all(reports):
    """Every report plan() returns validates against its shipped schema."""
    for function, kinds in reports.items():
        for kind, report in kinds.items():
            validate(report, kind, f"{function} {kind}")


def exp_kernel(ub_capacity=None):
    """docs/README.md's kernel: two 1 KiB tiles in UB, live together while
    linalg.exp reads one and writes the other."""
    target = ('#dsaplan.target<"ascend910b">' if ub_capacity is None else
              '#dsaplan.target<"ascend910b", {ub = {capacity = %d}}>'
              % ub_capacity)
    return """module attributes {dsaplan.target = %s} {
  func.func @k(%%gm: memref<256xf32>, %%out: memref<256xf32>) {
    %%a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    %%b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %%gm, %%a {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%%a : memref<256xf32, #dsaplan.space<ub>>) outs(%%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %%b, %%out {dsaplan.pipe = #dsaplan.pipe<mte3>}
        : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}
""" % target


def separated_cycle():
    """Five 32 B tiles in a UB of 64 B, separated in a cycle of five: the
    lower bound (two tiles) fits, but an odd cycle needs three slots. First
    fit proves nothing; the exact search proves it by exhausting it."""
    tile = "memref<8xf32, #dsaplan.space<ub>>"
    allocs = "\n".join(f'    %s{i} = memref.alloc() {{name = "s{i}"}} : {tile}'
                        for i in range(5))
    separations = "\n".join(
        f"    dsaplan.separate %s{i}, %s{(i + 1) % 5} : {tile}, {tile}"
        for i in range(5))
    return ('module attributes {dsaplan.target = #dsaplan.target<"ascend910b",'
            ' {ub = {capacity = 64}}>} {\n  func.func @cycle() {\n'
            f"{allocs}\n{separations}\n    return\n  }}\n}}\n")


class PlanTest(unittest.TestCase):
    def test_places_and_reports(self):
        result = dsaplan.plan(exp_kernel(), "k.mlir", summary=True)
        self.assertIn("dsaplan.arena", result["mlir"])
        self.assertIn("dsaplan.set_flag", result["mlir"])
        reports = result["reports"]["k"]
        self.assertEqual(sorted(reports), ["placement", "syncs", "timing"])
        for report in reports.values():
            self.assertEqual(report["schema_version"], 1)
        validate_all(result["reports"])
        (ub,) = reports["placement"]["pools"]
        self.assertEqual((ub["name"], ub["peak"], ub["status"]),
                         ("ub", 2048, "optimal"))
        self.assertEqual(sorted(b["offset"] for b in ub["buffers"]), [0, 1024])
        self.assertGreater(reports["timing"]["makespan"], 0)
        self.assertTrue(any(s["op"] == "set_flag"
                            for s in reports["syncs"]["syncs"]))
        remarks = [d for d in result["diagnostics"] if d["severity"] == "remark"]
        self.assertTrue(any("@k ub: 2 buffers, reuse cost 0 (optimal, bound "
                            "0, 0 penalised pairs share bytes); peak 2048 B"
                            in d["message"] for d in remarks))
        self.assertEqual(remarks[0]["file"], "k.mlir")

    def test_options_and_determinism(self):
        first = dsaplan.plan(exp_kernel(), algorithm="exact", node_budget=1000,
                             keep_allocs=True, insert_sync=False)
        self.assertIn("offset = ", first["mlir"])
        self.assertNotIn("dsaplan.set_flag", first["mlir"])
        self.assertNotIn("syncs", first["reports"]["k"])
        again = dsaplan.plan(exp_kernel(), algorithm="exact", node_budget=1000,
                             keep_allocs=True, insert_sync=False)
        self.assertEqual(first, again)

    def test_report_dir_keeps_the_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            directory = os.path.join(tmp, "not", "yet")
            dsaplan.plan(exp_kernel(), report_dir=directory)
            files = sorted(os.listdir(directory))
            self.assertIn("k.json", files)
            self.assertIn("k.ub.svg", files)
            self.assertIn("k.trace.json", files)

    def test_example_kernel(self):
        with open(os.path.join(EXAMPLES, "matmul.mlir")) as f:
            result = dsaplan.plan(f.read(), "matmul.mlir")
        (name,) = result["reports"]
        spaces = [p["name"] for p in result["reports"][name]["placement"]["pools"]]
        self.assertIn("l0c", spaces)
        validate_all(result["reports"])

    def test_parse_error_has_location(self):
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.plan("func.func @k( {", "broken.mlir")
        error = caught.exception
        self.assertNotIsInstance(error, dsaplan.DoesNotFit)
        self.assertEqual(error.location[0], "broken.mlir")
        self.assertEqual(error.location[1], 1)
        self.assertTrue(str(error).startswith("broken.mlir:1:"))
        self.assertEqual(error.diagnostics[0]["severity"], "error")

    def test_misspelled_option_lists_the_options(self):
        with self.assertRaises(TypeError) as caught:
            dsaplan.plan(exp_kernel(), algoritm="exact")
        message = str(caught.exception)
        self.assertIn("plan() got an unexpected keyword argument 'algoritm' "
                      "(did you mean 'algorithm'?); its options: ", message)
        self.assertIn("node_budget", message)
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.plan(exp_kernel(), algorithm="fastest")
        self.assertIn("fastest", str(caught.exception))

    def test_refused_kernel_is_an_error_not_does_not_fit(self):
        kernel = exp_kernel().replace("memref<256xf32, #dsaplan.space<ub>>",
                                      "memref<?xf32, #dsaplan.space<ub>>", 1)
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.plan(kernel, "dynamic.mlir")
        self.assertNotIsInstance(caught.exception, dsaplan.DoesNotFit)

    def test_does_not_fit_raises_infeasible_with_certificate(self):
        with self.assertRaises(dsaplan.Infeasible) as caught:
            dsaplan.plan(exp_kernel(ub_capacity=1536), "small.mlir")
        error = caught.exception
        self.assertIn("space ub of @k does not fit: infeasible (certificate: "
                      "2 buffers", str(error))
        self.assertEqual(error.location[:2], ("small.mlir", 2))
        self.assertEqual(len(error.certificate), 2)
        validate_all(error.result)
        (pool,) = error.pools
        self.assertEqual((pool["name"], pool["lower_bound"], pool["capacity"]),
                         ("ub", 2048, 1536))
        notes = error.diagnostics[-1]["notes"] if error.diagnostics else []
        self.assertTrue(any("may not share bytes" in n["message"] for n in notes))


    def test_gave_up_is_not_infeasible(self):
        with self.assertRaises(dsaplan.GaveUp) as caught:
            dsaplan.plan(separated_cycle(), "cycle.mlir", algorithm="first-fit")
        error = caught.exception
        self.assertNotIsInstance(error, dsaplan.Infeasible)
        self.assertIn("does not fit: gave up after 0 nodes", str(error))
        self.assertEqual([p["status"] for p in error.pools], ["gave-up"])
        with self.assertRaises(dsaplan.Infeasible) as caught:
            dsaplan.plan(separated_cycle(), "cycle.mlir")
        error = caught.exception
        self.assertEqual(error.pools[0]["proof"], "exhaustive-search")
        self.assertEqual(error.certificate, [])  # proved by search, not a set


if __name__ == "__main__":
    unittest.main()
