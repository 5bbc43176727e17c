// The option parser refuses a value not in the option's list, and names the
// list.
// RUN: not dsa-opt %s -dsaplan-assign-offsets="algorithm=fastest" 2>&1 | FileCheck %s --check-prefix=ALGO --implicit-check-not='<unknown>'
// RUN: not dsa-opt %s -dsaplan-assign-offsets="mode=guess" 2>&1 | FileCheck %s --check-prefix=MODE --implicit-check-not='<unknown>'
// RUN: not dsa-opt %s -dsaplan-assign-offsets="import-solution=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=IMPORT

module {
  func.func @f() {
    %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
    return
  }
}
// ALGO: for the --algorithm option: 'fastest' is not a valid value (expected one of: bump, first-fit, best-fit, multi-start, exact, auto)
// MODE: for the --mode option: 'guess' is not a valid value (expected one of: plan, consult)
// IMPORT: error: cannot read solution '{{.*}}.missing.json'
