#!/usr/bin/env python3
"""Bounds on DSA-RP's MiniMalloc A-F from sub-instances solved on their own,
and what caps them (shared/corpus/dsa-rp/minimalloc).

  bench/solver/dsa_rp_subinstances.py [--dsa-solve build/bin/dsa-solve]
      [--corpus DIR] [--only A,F] [--budget 250000] [--star-budget 20000]

Why sub-instances bound the whole: dropping buffers or penalised pairs
removes rules and costs, so the least cost of a sub-instance (some
buffers, some of their pairs, the same capacity) is at most what the
whole instance's best placement pays for those pairs. Sub-instances whose
PAIR sets are disjoint therefore add up (a buffer may sit in several), and
each keeps every buffer's bytes contiguous over its whole history, the
property the flow bound (lib/Solver/ReuseFlowBound.cpp) gives up.

Per instance:
- cost, bound: `dsa-solve FILE` (defaults), as in dsa_rp_minimalloc.py.
- in heavy clique: of the pairs that pay in that placement, how many lie in
  some clique of conflicting-or-penalised buffers heavier than the pool
  (exact maximum-weight clique): the pairs a clique argument could charge.
- cliques: pair-disjoint heavy cliques, heaviest first (a greedy clique
  from every buffer), each solved by dsa-solve with its own pairs only; a
  clique is taken when its certified bound is positive, its pairs then
  leave the graph. Shown: the summed certified bounds [summed costs] of
  the cliques taken, then the certified bound of the whole instance with
  the pairs no clique took (flow and split bounds: `--cost-node-budget 0`),
  which adds to it.
- stars: per item, the whole instance with only the pairs it owns (the
  larger buffer owns a pair, ties to the higher index), solved by
  dsa-solve: summed certified bounds [summed costs]. The costs are an
  upper bound on what any bound made of such per-buffer sub-instances can
  certify, however well each is solved.

Deterministic (node budgets); only the run time depends on the machine.
Several minutes per instance (one dsa-solve run per clique tried and per
owning buffer).
"""

import argparse
import copy
import itertools
import json
import os
import tempfile

from dsa_rp_gap import ROOT, lifetimes, run


def solve(tool, path, budget, output=None):
    """(cost, certified bound) of dsa-solve on `path`, summed over pools."""
    return run(tool, path, output, ["--cost-node-budget", str(budget)])


class Instance:
    """One pool's buffers, lifetimes, sizes and penalised pairs (a < b)."""

    def __init__(self, document):
        self.document = document
        problem = document["problem"]
        (pool,) = problem["pools"]
        self.capacity = pool["capacity"]
        self.spans = lifetimes(problem)
        self.sizes = [b["size"] for b in problem["buffers"]]
        self.pairs = {tuple(sorted((p["first"], p["second"])))
                      for p in problem["cost_model"]["reuse_penalties"]}
        assert all(p["cost"] == 1 for p in problem["cost_model"]["reuse_penalties"])

    def conflict(self, a, b):
        (la, ua), (lb, ub) = self.spans[a], self.spans[b]
        return la < ub and lb < ua

    def related(self, pairs):
        """Adjacency sets: conflicting, or penalised by one of `pairs`."""
        n = len(self.sizes)
        adjacent = [set() for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                if self.conflict(a, b) or (a, b) in pairs:
                    adjacent[a].add(b)
                    adjacent[b].add(a)
        return adjacent

    def write(self, members, pairs, path):
        """The sub-instance of `members` with the penalised `pairs` only."""
        problem = self.document["problem"]
        index = {buffer: k for k, buffer in enumerate(members)}
        sub = copy.deepcopy(self.document)
        sub["problem"]["buffers"] = [
            dict(problem["buffers"][b], id=index[b], name=str(b)) for b in members]
        sub["problem"]["cost_model"]["reuse_penalties"] = [
            {"first": index[a], "second": index[b], "cost": 1, "reason": "cross_pipe"}
            for a, b in sorted(pairs)]
        with open(path, "w") as out:
            json.dump(sub, out)


def greedy_clique(instance, adjacent, seed):
    """A clique of `adjacent` from `seed`, adding the candidate with the most
    weight (its size and a quarter of its candidate neighbours') first."""
    sizes = instance.sizes
    clique, candidates = [seed], set(adjacent[seed])
    while candidates:
        best = max(candidates, key=lambda c: (
            sizes[c] + sum(sizes[x] for x in adjacent[c] & candidates) / 4, -c))
        clique.append(best)
        candidates &= adjacent[best]
    return tuple(sorted(clique))


def clique_packing(tool, instance, budget, scratch):
    """(bound, cost, cliques taken, bound of the pairs left)."""
    left = set(instance.pairs)
    adjacent = instance.related(left)
    tried = set()
    bound = cost = taken = 0
    path = os.path.join(scratch, "clique.json")
    while True:
        cliques = sorted({greedy_clique(instance, adjacent, s)
                          for s in range(len(instance.sizes))},
                         key=lambda k: (-sum(instance.sizes[b] for b in k), k))
        progress = False
        for clique in cliques:
            if sum(instance.sizes[b] for b in clique) <= instance.capacity:
                break
            if clique in tried:
                continue
            tried.add(clique)
            pairs = {p for p in itertools.combinations(clique, 2) if p in left}
            instance.write(list(clique), pairs, path)
            clique_cost, clique_bound = solve(tool, path, budget)
            if clique_bound == 0:
                continue
            bound += clique_bound
            cost += clique_cost
            taken += 1
            left -= pairs
            for a, b in pairs:
                if not instance.conflict(a, b):
                    adjacent[a].discard(b)
                    adjacent[b].discard(a)
            progress = True
            break
        if not progress:
            break
    instance.write(list(range(len(instance.sizes))), left, path)
    _, rest = solve(tool, path, 0)
    return bound, cost, taken, rest


def stars(tool, instance, budget, scratch):
    """(summed bound, summed cost) of the per-owner sub-instances."""
    sizes = instance.sizes
    owned = {}
    for a, b in instance.pairs:
        owner = a if (sizes[a], a) > (sizes[b], b) else b
        owned.setdefault(owner, set()).add((a, b))
    path = os.path.join(scratch, "star.json")
    bound = cost = 0
    everyone = list(range(len(sizes)))
    for owner in sorted(owned):
        instance.write(everyone, owned[owner], path)
        star_cost, star_bound = solve(tool, path, budget)
        bound += star_bound
        cost += star_cost
    return bound, cost


def heaviest_clique(weights, adjacent, candidates, enough):
    """The heaviest clique within the bit set `candidates` (exact branch and
    bound), or any heavier than `enough` as soon as one is found."""
    best = 0

    def members(bits):
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low

    def grow(weight, bits):
        nonlocal best
        best = max(best, weight)
        room = sum(weights[v] for v in members(bits))
        while bits and best <= enough and weight + room > best:
            v = max(members(bits), key=lambda m: (weights[m], m))
            grow(weight + weights[v], bits & adjacent[v])
            bits &= ~(1 << v)
            room -= weights[v]

    grow(0, candidates)
    return best


def paying_in_heavy_cliques(instance, offsets):
    """(paying pairs, those in some clique heavier than the pool)."""
    sizes = instance.sizes
    bits = [sum(1 << b for b in adj) for adj in instance.related(instance.pairs)]
    paying = [(a, b) for a, b in sorted(instance.pairs)
              if max(offsets[a], offsets[b]) <
              min(offsets[a] + sizes[a], offsets[b] + sizes[b])]
    inside = 0
    for a, b in paying:
        rest = instance.capacity - sizes[a] - sizes[b]
        inside += heaviest_clique(sizes, bits, bits[a] & bits[b], rest) > rest
    return len(paying), inside


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsa-solve", default=os.path.join(ROOT, "build/bin/dsa-solve"))
    parser.add_argument("--corpus", default=os.path.join(
        ROOT, "..", "shared", "corpus", "dsa-rp", "minimalloc"))
    parser.add_argument("--only", default="A,B,C,D,E,F")
    parser.add_argument("--budget", type=int, default=250000,
                        help="--cost-node-budget of each clique")
    parser.add_argument("--star-budget", type=int, default=20000,
                        help="--cost-node-budget of each star (their costs "
                        "cap the stars whatever the budget)")
    args = parser.parse_args()

    print("| instance | cost | bound | in heavy clique | cliques: bounds [costs] "
          "| cliques taken | + rest | cliques + rest | stars: bounds [costs] |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    totals = [0] * 9
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.only.split(","):
            with open(os.path.join(args.corpus, f"{name}.json")) as f:
                instance = Instance(json.load(f))
            solution = os.path.join(scratch, "solution.json")
            cost, bound = solve(args.dsa_solve, os.path.join(
                args.corpus, f"{name}.json"), 250000, solution)
            with open(solution) as f:
                placed = {int(p["buffer"]): p["offset"]
                          for p in json.load(f)["placements"]}
            offsets = [placed[b] for b in range(len(instance.sizes))]
            paying, inside = paying_in_heavy_cliques(instance, offsets)
            assert paying == cost, (paying, cost)
            c_bound, c_cost, taken, rest = clique_packing(
                args.dsa_solve, instance, args.budget, scratch)
            s_bound, s_cost = stars(args.dsa_solve, instance, args.star_budget,
                                   scratch)
            values = [cost, bound, inside, c_bound, c_cost, taken, rest,
                      s_bound, s_cost]
            totals = [t + v for t, v in zip(totals, values)]
            print(f"| {name} | {cost} | {bound} | {inside} | {c_bound} [{c_cost}] "
                  f"| {taken} | {rest} | {c_bound + rest} | {s_bound} [{s_cost}] |",
                  flush=True)
    cost, bound, inside, c_bound, c_cost, taken, rest, s_bound, s_cost = totals
    print(f"| total | {cost} | {bound} | {inside} | {c_bound} [{c_cost}] | {taken} "
          f"| {rest} | {c_bound + rest} | {s_bound} [{s_cost}] |")


if __name__ == "__main__":
    main()
