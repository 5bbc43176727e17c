"""dsaplan.solve: the solver library in process, with dsa-solve's options,
results and refusals."""

import json
import os
import unittest

import dsaplan

SOLVER_INPUTS = os.path.join(os.path.dirname(__file__), "..", "..", "Solver",
                             "Inputs")


def solver_input(name):
    return os.path.join(SOLVER_INPUTS, name)


def two_tiles(capacity, lifetimes=((0, 4), (2, 6))):
    """A one-pool schema-v1 problem: 1 KiB tiles live over `lifetimes`."""
    return {
        "schema_version": 1, "profile": "pypto_research_v1",
        "instance": "py::two_tiles", "metadata": {},
        "problem": {
            "pools": [{"id": 0, "name": "Vec", "capacity": capacity,
                       "reserved_ranges": []}],
            "buffers": [{"id": i, "name": f"t{i}", "size": 1024,
                         "alignment": 32,
                         "live_intervals": [{"lower": lo, "upper": hi}],
                         "allowed_pools": [0]}
                        for i, (lo, hi) in enumerate(lifetimes)],
            "constraints": {"colocations": [], "separations": [],
                            "pinned_allocations": [],
                            "temporal_exclusions": []},
            "objective": {"aggregation": "lexicographic",
                          "terms": ["total_peak", "max_peak"]},
        },
    }


class SolveTest(unittest.TestCase):
    def test_dict_gives_reference_solution_and_pool_results(self):
        result = dsaplan.solve(two_tiles(4096))
        solution = result["solution"]
        self.assertEqual(solution["schema_version"], 1)
        self.assertEqual(solution["instance"], "py::two_tiles")
        offsets = sorted(p["offset"] for p in solution["placements"])
        self.assertEqual(offsets, [0, 1024])  # live together: apart
        (pool,) = result["pools"]
        self.assertEqual((pool["pool"], pool["peak"], pool["lower_bound"],
                          pool["status"]), ("0", 2048, 2048, "optimal"))
        self.assertEqual(sorted(pool["certificate"]), ["0", "1"])

    def test_json_text_and_path_agree(self):
        path = solver_input("small.json")
        with open(path) as f:
            text = f.read()
        self.assertEqual(dsaplan.solve(text), dsaplan.solve(path))
        by_dict = dsaplan.solve(json.loads(text))
        self.assertEqual(by_dict["solution"]["placements"],
                         dsaplan.solve(path)["solution"]["placements"])

    def test_csv_capacity_from_name_or_option(self):
        named = dsaplan.solve(solver_input("small.64.csv"))
        self.assertTrue(named["solution"].startswith("id,"))
        self.assertIn("offset", named["solution"].splitlines()[0])
        self.assertEqual(named["pools"][0]["capacity"], 64)
        crowded = dsaplan.solve(solver_input("crowded.csv"), capacity=120)
        self.assertEqual(crowded["pools"][0]["capacity"], 120)

    def test_options_are_dsa_solve_options(self):
        result = dsaplan.solve(solver_input("crowded.csv"), capacity=120,
                               algorithm="first-fit", node_budget=10)
        self.assertEqual(result["pools"][0]["nodes"], 0)  # first fit: no search
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.solve(two_tiles(4096), algorithm="fastest")
        self.assertIn("unknown algorithm 'fastest'", str(caught.exception))
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.solve(two_tiles(4096), node_budget=0)
        self.assertIn("node_budget needs a positive integer, not '0'",
                      str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            dsaplan.solve(two_tiles(4096), node_budgt=5)
        self.assertIn("solve() got an unexpected keyword argument 'node_budgt' "
                      "(did you mean 'node_budget'?); its options: algorithm, "
                      "capacity, cost_node_budget", str(caught.exception))
        # dsa-solve's anytime options are refused, not ignored.
        for option in ("time_limit", "progress", "progress_interval"):
            with self.assertRaises(TypeError) as caught:
                dsaplan.solve(two_tiles(4096), **{option: 1})
            self.assertIn(f"solve() does not take '{option}': time_limit, "
                          "progress and progress_interval are dsa-solve's",
                          str(caught.exception))

    def test_capacity_per_pool(self):
        result = dsaplan.solve(solver_input("small.json"),
                               capacity={"Vec": 8192, "mat": 16384})
        self.assertEqual([p["capacity"] for p in result["pools"]],
                         [8192, 16384])
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.solve(solver_input("small.json"), capacity=4096)
        self.assertIn("capacity 4096 is ambiguous with 2 pools",
                      str(caught.exception))

    def test_bad_input_names_where(self):
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.solve(solver_input("negative-size.json"))
        self.assertIn("negative-size.json: problem.buffers[", str(caught.exception))
        self.assertEqual(caught.exception.location[0],
                         solver_input("negative-size.json"))
        self.assertNotIsInstance(caught.exception, dsaplan.DoesNotFit)
        with self.assertRaises(dsaplan.Error) as caught:
            dsaplan.solve(solver_input("no-such-file.json"))
        self.assertIn("cannot read the file", str(caught.exception))

    def test_infeasible_raises_with_certificate(self):
        with self.assertRaises(dsaplan.Infeasible) as caught:
            dsaplan.solve(two_tiles(1536))
        error = caught.exception
        self.assertIsInstance(error, dsaplan.DoesNotFit)
        self.assertEqual(sorted(error.certificate), ["0", "1"])
        (pool,) = error.pools
        self.assertEqual((pool["status"], pool["proof"], pool["lower_bound"]),
                         ("infeasible", "certificate", 2048))
        self.assertNotIn("solution", error.result)

    def test_gave_up_is_not_infeasible(self):
        # First fit proves nothing: it gives up where it does not fit.
        with self.assertRaises(dsaplan.GaveUp) as caught:
            dsaplan.solve(solver_input("first-fit-misses.15.csv"),
                          algorithm="first-fit")
        self.assertNotIsInstance(caught.exception, dsaplan.Infeasible)
        self.assertEqual(caught.exception.pools[0]["status"], "gave-up")
        # The exact search places it.
        placed = dsaplan.solve(solver_input("first-fit-misses.15.csv"))
        self.assertIn(placed["pools"][0]["status"], ("optimal", "feasible"))

    def test_reuse_cost_objective(self):
        result = dsaplan.solve(solver_input("reuse-cost.json"))
        for pool in result["pools"]:
            self.assertIn("reuse_cost", pool)
            self.assertLessEqual(pool["reuse_cost_bound"], pool["reuse_cost"])


if __name__ == "__main__":
    unittest.main()
