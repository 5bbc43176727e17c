// Places three buffers with the installed solver and validates the result.
#include "DsaPlan/Solver/Solve.h"
#include "DsaPlan/Solver/Validate.h"

#include <cstdio>

int main() {
  using namespace dsaplan::solver;
  Problem problem;
  problem.pools.push_back({"ub", "ub", 4096, {}, 32});
  // a and b are live together; c reuses a's bytes after a dies.
  problem.buffers.push_back({"a", "a", 1024, 32, {{0, 10}}, 0, {}});
  problem.buffers.push_back({"b", "b", 2048, 32, {{5, 20}}, 0, {}});
  problem.buffers.push_back({"c", "c", 1024, 32, {{12, 30}}, 0, {}});
  Solution solution = solve(problem);
  if (!validate(problem, solution.offsets).empty())
    return 1;
  std::printf("peak %lld lower-bound %lld\n",
              static_cast<long long>(solution.pools[0].peak),
              static_cast<long long>(solution.pools[0].lowerBound));
  return 0;
}
