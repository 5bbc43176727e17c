// An external solver in the loop: export each function's problem, solve it
// with dsa-solve, import the solution, and check the placement that lands
// in the IR with the solver's validator.
//
// RUN: rm -rf %t && mkdir -p %t/problems %t/solutions
// RUN: dsa-opt %s -dsaplan-assign-offsets="export-problem=%t/problems mode=consult" -o %t/consulted.mlir
// RUN: dsa-solve %t/problems/k.json --algorithm best-fit --output %t/solutions/k.json | FileCheck %s --check-prefix=SOLVE
// RUN: dsa-opt %s -dsaplan-assign-offsets="import-solution=%t/solutions export-solution=%t/applied" | FileCheck %s
// RUN: dsa-solve %t/problems/k.json --check %t/applied/k.json | FileCheck %s --check-prefix=VALID
// The problem file is deterministic.
// RUN: dsa-opt %s -dsaplan-assign-offsets="export-problem=%t/again mode=consult" -o /dev/null
// RUN: diff %t/problems/k.json %t/again/k.json
// A solution for another problem is refused.
// RUN: not dsa-opt %S/Inputs/other-kernel.mlir -dsaplan-assign-offsets="import-solution=%t/solutions/k.json" 2>&1 | FileCheck %s --check-prefix=MISMATCH

// SOLVE: pool ub {{.*}}peak {{ *}}5120
// VALID: 0 violations

// CHECK-LABEL: func.func @k
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "a", offset = {{[0-9]+}} : i64}
// MISMATCH: error: cannot apply solution '{{.*}}k.json' to @k: problem_fingerprint: the solution is for problem {{[0-9a-f]+}}, not {{[0-9a-f]+}}
func.func @k() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 10>} : memref<1024xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc {name = "b", live = #dsaplan.live<5 to 20>} : memref<256xf32, #dsaplan.space<ub>>
  %c = dsaplan.alloc {name = "c", live = #dsaplan.live<12 to 30>} : memref<1024xf32, #dsaplan.space<ub>>
  return
}
