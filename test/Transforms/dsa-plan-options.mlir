// The pipeline's options reach their passes, and the summary remarks give
// the numbers (pass statistics are compiled out of release LLVM).
//
// RUN: dsa-opt %s --dsa-plan="summary=true" -verify-diagnostics | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="insert-sync=false verify-sync=false" | FileCheck %s --check-prefix=NOSYNC
// Reuse-only leaves same-tile dependencies to the toolchain, so the verifier
// (which checks them all) is off here.
// RUN: dsa-opt %s --dsa-plan="sync-mode=reuse-only keep-allocs=true verify-sync=false" | FileCheck %s --check-prefix=REUSE
//
// With a summary (or report-dir or trace-file) the simulator runs last and
// reports its timing; simulate=false leaves it out, simulate-costs and
// trace-file reach it. Load: 0 + 2048 / 1 cycles; exp: 0 + 2048 / 256;
// the wait passes a cycle after the set fires: 2048 + 1 + 8.
// RUN: dsa-opt %s --dsa-plan="summary=true simulate=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSIM
// RUN: dsa-opt %s --dsa-plan="summary=true simulate-costs=mte2.fixed=0,mte2.bytes-per-cycle=1,v.fixed=0,jitter=0 trace-file=%t.trace.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COSTS
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1]))['otherData']; assert (d['makespan'], d['serial'], d['ideal']) == (2057, 2056, 2056), d" %t.trace.json
// NOSIM: remark: @k: 1 flag pairs
// NOSIM-NOT: remark: @k: simulated
// COSTS: remark: @k: simulated 1 run, worst seed 1: makespan 2057 cycles; busy v 8, mte2 2048; 2 ops, 1 flags set; 0 findings; serial 2056 cycles, dataflow ideal 2056: makespan / serial 1.00, ideal / serial 1.00, makespan / ideal 1.00

// CHECK: dsaplan.arena <ub>
// CHECK: dsaplan.set_flag <mte2 -> v>
// NOSYNC-NOT: dsaplan.set_flag
// One tile read after its load: a same-tile dependency, none in reuse-only.
// REUSE: dsaplan.alloc {{{.*}}offset = 0 : i64}
// REUSE-NOT: dsaplan.set_flag

// expected-remark @below {{@k ub: 1 buffers, peak 1024 B, lower bound 1024 B, capacity 188416 B usable, optimal}}
func.func @k(%gm: memref<256xf32>, %out: memref<256xf32>) {
  // expected-remark @above {{@k: 1 flag pairs (0 around loops, 0 eager, 0 set late for want of an event id; before pruning, 0 moved to another id and 0 handshakes added so that no set overruns its flag), 0 barriers for 1 conflicting pairs; 0 dropped as implied by the others}}
  // expected-remark @above {{@k: simulated 1 run, worst seed 1: makespan}}
  %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
