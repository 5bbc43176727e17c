// A space that is not placed is either proved infeasible (with the proof)
// or given up on (with the nodes spent); the two are never confused, and
// the JSON report says which.
//
// First fit does not search: it proves nothing and gives up on both.
// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets="algorithm=first-fit" -verify-diagnostics
// RUN: rm -rf %t && mkdir %t %t/auto
// RUN: not dsa-opt %s -split-input-file -dsaplan-assign-offsets="algorithm=first-fit report-dir=%t" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=GAVE-UP < %t/tight.json
// GAVE-UP:      "status": "gave-up",
// GAVE-UP-NEXT: "proof": "none"
//
// `auto` places @tight at its lower bound, and proves @odd_cycle infeasible
// by exhausting the search.
// RUN: not dsa-opt %s -split-input-file -dsaplan-assign-offsets="report-dir=%t/auto" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO-NOT: error: space ub of @tight
// AUTO: error: space ub of @odd_cycle does not fit: infeasible (exhaustive search: no placement within 64 B usable of 64 B, {{[0-9]+}} nodes)
// AUTO-NOT: error: space ub of @tight
// RUN: FileCheck %s --check-prefix=SEARCH < %t/auto/odd_cycle.json
// SEARCH:      "status": "infeasible",
// SEARCH-NEXT: "proof": "exhaustive-search"
// RUN: FileCheck %s --check-prefix=PLACED < %t/auto/tight.json
// RUN: %python %S/Inputs/check_schemas.py %t
// PLACED:      "peak": 480,
// PLACED-NEXT: "lower_bound": 480,
// PLACED-NEXT: "status": "optimal",
// PLACED-NEXT: "proof": "none"

// UB is 480 B here. The seven tiles fit in 480 B (auto places them at the
// lower bound), but first fit by decreasing size ends at 512 B: it gave up,
// with nothing proved.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 480}}>} {
// expected-error @below {{space ub of @tight does not fit: gave up after 0 nodes: best peak 512 B, usable 480 B of 480 B (over by 32 B); the lower bound 480 B fits, so it is not proved infeasible (raise node-budget or try another algorithm)}}
func.func @tight() {
  // expected-note @below {{'b0' (64 B) is live at the peak}}
  %b0 = dsaplan.alloc {name = "b0", live = #dsaplan.live<5 to 8>} : memref<64xi8, #dsaplan.space<ub>>
  // expected-note @below {{'b1' (32 B) is live at the peak}}
  %b1 = dsaplan.alloc {name = "b1", live = #dsaplan.live<2 to 8>} : memref<32xi8, #dsaplan.space<ub>>
  // expected-note @below {{'b2' (128 B) is live at the peak}}
  %b2 = dsaplan.alloc {name = "b2", live = #dsaplan.live<5 to 10>} : memref<128xi8, #dsaplan.space<ub>>
  %b3 = dsaplan.alloc {name = "b3", live = #dsaplan.live<1 to 4>} : memref<160xi8, #dsaplan.space<ub>>
  // expected-note @below {{'b4' (128 B) is live at the peak}}
  %b4 = dsaplan.alloc {name = "b4", live = #dsaplan.live<0 to 6>} : memref<128xi8, #dsaplan.space<ub>>
  // expected-note @below {{'b5' (128 B) is live at the peak}}
  %b5 = dsaplan.alloc {name = "b5", live = #dsaplan.live<2 to 8>} : memref<128xi8, #dsaplan.space<ub>>
  %b6 = dsaplan.alloc {name = "b6", live = #dsaplan.live<6 to 8>} : memref<64xi8, #dsaplan.space<ub>>
  return
}
}

// -----

// UB is 64 B: two 32 B slots. Five tiles never live together, but
// separated in a cycle of five; no three of them are pairwise separated,
// so the lower bound (64 B) fits, yet an odd cycle needs three slots.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 64}}>} {
// expected-error @below {{space ub of @odd_cycle does not fit: gave up after 0 nodes}}
func.func @odd_cycle() {
  // expected-note @below {{'s0' (32 B) is live at the peak}}
  %s0 = dsaplan.alloc {name = "s0", live = #dsaplan.live<0 to 1>} : memref<32xi8, #dsaplan.space<ub>>
  %s1 = dsaplan.alloc {name = "s1", live = #dsaplan.live<2 to 3>} : memref<32xi8, #dsaplan.space<ub>>
  %s2 = dsaplan.alloc {name = "s2", live = #dsaplan.live<4 to 5>} : memref<32xi8, #dsaplan.space<ub>>
  %s3 = dsaplan.alloc {name = "s3", live = #dsaplan.live<6 to 7>} : memref<32xi8, #dsaplan.space<ub>>
  %s4 = dsaplan.alloc {name = "s4", live = #dsaplan.live<8 to 9>} : memref<32xi8, #dsaplan.space<ub>>
  dsaplan.separate %s0, %s1 : memref<32xi8, #dsaplan.space<ub>>, memref<32xi8, #dsaplan.space<ub>>
  dsaplan.separate %s1, %s2 : memref<32xi8, #dsaplan.space<ub>>, memref<32xi8, #dsaplan.space<ub>>
  dsaplan.separate %s2, %s3 : memref<32xi8, #dsaplan.space<ub>>, memref<32xi8, #dsaplan.space<ub>>
  dsaplan.separate %s3, %s4 : memref<32xi8, #dsaplan.space<ub>>, memref<32xi8, #dsaplan.space<ub>>
  dsaplan.separate %s4, %s0 : memref<32xi8, #dsaplan.space<ub>>, memref<32xi8, #dsaplan.space<ub>>
  return
}
}
