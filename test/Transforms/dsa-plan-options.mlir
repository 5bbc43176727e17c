// The pipeline's options reach their passes, and the summary remarks give
// the numbers (pass statistics are compiled out of release LLVM).
//
// RUN: dsa-opt %s --dsa-plan="summary=true" -verify-diagnostics | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="insert-sync=false verify-sync=false" | FileCheck %s --check-prefix=NOSYNC
// Reuse-only leaves same-tile dependencies to the toolchain, so the verifier
// (which checks them all) is off here.
// RUN: dsa-opt %s --dsa-plan="sync-mode=reuse-only keep-allocs=true verify-sync=false" | FileCheck %s --check-prefix=REUSE

// CHECK: dsaplan.arena <ub>
// CHECK: dsaplan.set_flag <mte2 -> v>
// NOSYNC-NOT: dsaplan.set_flag
// One tile read after its load: a same-tile dependency, none in reuse-only.
// REUSE: dsaplan.alloc {{{.*}}offset = 0 : i64}
// REUSE-NOT: dsaplan.set_flag

// expected-remark @below {{@k ub: 1 buffers, peak 1024 B, lower bound 1024 B, capacity 188416 B usable, optimal}}
func.func @k(%gm: memref<256xf32>, %out: memref<256xf32>) {
  // expected-remark @above {{@k: 1 flag pairs (0 around loops, 0 eager, 0 set late for want of an event id; before pruning, 0 moved to another id and 0 handshakes added so that no set overruns its flag), 0 barriers for 1 conflicting pairs; 0 dropped as implied by the others}}
  %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
