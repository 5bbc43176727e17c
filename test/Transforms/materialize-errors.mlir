// RUN: dsa-opt %s -split-input-file -dsaplan-materialize -verify-diagnostics

func.func @unplaced() {
  // expected-error @below {{'dsaplan.alloc' op 'x' has no offset; run dsaplan-assign-offsets first}}
  %a = dsaplan.alloc {name = "x"} : memref<256xf32, #dsaplan.space<ub>>
  return
}
