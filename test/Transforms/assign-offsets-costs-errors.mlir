// RUN: dsa-opt %s -dsaplan-assign-offsets="costs=bogus=1" -verify-diagnostics
// RUN: not dsa-opt %s -dsaplan-assign-offsets="costs=mte2.fixed=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not dsa-opt %s --dsa-plan="simulate-costs=v.bytes-per-cycle=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// The cycle estimates the reuse penalties of objective=waits are counted in
// take the overrides dsaplan-simulate takes, with its checks; --dsa-plan
// passes its simulate-costs to both.
// NOTINT: error: dsaplan-assign-offsets: cost 'mte2.fixed' needs a non-negative integer, got 'x'
// PIPELINE: error: dsaplan-assign-offsets: cost 'v.bytes-per-cycle' must be at least 1

// expected-error @below {{dsaplan-assign-offsets: unknown cost 'bogus' (expected <pipe>.fixed, <pipe>.bytes-per-cycle, sync-latency, jitter or pipe-overlap)}}
module {
  func.func @f() {
    %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
    return
  }
}
