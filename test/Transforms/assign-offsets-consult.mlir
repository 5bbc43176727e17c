// RUN: dsa-opt %s -dsaplan-assign-offsets="mode=consult" -verify-diagnostics | FileCheck %s

// consult leaves the IR as it is and compares the peak with no reuse (bump)
// and with the lower bound. Under objective=waits (the default) the status
// is the reuse cost's, and the peak was not minimised.

// CHECK-NOT: offset =
// expected-remark @below {{@k ub: 3 buffers, peak 5120 B vs 9216 B without reuse, lower bound 5120 B (peak not minimised, reuse cost optimal)}}
func.func @k() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 10>} : memref<1024xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc {name = "b", live = #dsaplan.live<5 to 20>} : memref<256xf32, #dsaplan.space<ub>>
  %c = dsaplan.alloc {name = "c", live = #dsaplan.live<12 to 30>} : memref<1024xf32, #dsaplan.space<ub>>
  return
}
