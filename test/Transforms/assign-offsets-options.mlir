// RUN: dsa-opt %s -dsaplan-assign-offsets="algorithm=fastest" -verify-diagnostics
// RUN: not dsa-opt %s -dsaplan-assign-offsets="mode=guess" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not dsa-opt %s -dsaplan-assign-offsets="import-solution=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=IMPORT

// expected-error @below {{unknown algorithm 'fastest' (expected bump, first-fit, best-fit, multi-start, exact, auto)}}
module {
  func.func @f() {
    %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
    return
  }
}
// MODE: unknown mode 'guess' (expected plan or consult)
// IMPORT: error: cannot read solution '{{.*}}.missing.json'
