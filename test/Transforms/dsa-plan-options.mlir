// Every option of --dsa-plan reaches its pass, and the summary remarks give
// the numbers (pass statistics are compiled out of release LLVM).
//
// RUN: dsa-opt %s --dsa-plan="summary=true" -verify-diagnostics | FileCheck %s
//
// insert-sync=false places without synchronising, and the verifier (which
// would refuse the unsynchronised kernel) is off unless asked for.
// RUN: dsa-opt %s --dsa-plan="insert-sync=false" | FileCheck %s --check-prefix=NOSYNC
// RUN: dsa-opt %s --dsa-plan="insert-sync=false verify-sync=false" | FileCheck %s --check-prefix=NOSYNC
// RUN: not dsa-opt %s --dsa-plan="insert-sync=false verify-sync=true" 2>&1 | FileCheck %s --check-prefix=UNSYNCED --implicit-check-not=func.func
// Errors are one line and the source line; the op in generic form only on
// request.
// RUN: not dsa-opt %s --dsa-plan="insert-sync=false verify-sync=true" -mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=WITHOP
//
// Reuse-only leaves same-tile dependencies to the toolchain, so the verifier
// (which checks them all) is off here; identity-only is the baseline that
// sees only them.
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
// RUN: dsa-opt %s --dsa-plan="sync-mode=identity-only" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="sync-mode=all sync-prune-budget=0" | FileCheck %s
// RUN: not dsa-opt %s --dsa-plan="sync-mode=some" 2>&1 | FileCheck %s --check-prefix=BADMODE
//
// Every algorithm, and the node budget.
// RUN: dsa-opt %s --dsa-plan="algorithm=bump" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=first-fit" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=best-fit" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=multi-start" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=exact node-budget=10" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=auto node-budget=0" | FileCheck %s
// RUN: not dsa-opt %s --dsa-plan="algorithm=fastest" 2>&1 | FileCheck %s --check-prefix=BADALGO
//
// Files: the problem, the solution and the reports are written, and the
// solution applies back.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %s --dsa-plan="export-problem=%t/problems export-solution=%t/solutions report-dir=%t/reports" -o %t/placed.mlir
// RUN: FileCheck %s --check-prefix=PROBLEM < %t/problems/k.json
// RUN: FileCheck %s --check-prefix=SOLUTION < %t/solutions/k.json
// RUN: FileCheck %s --check-prefix=REPORT < %t/reports/k.json
// RUN: FileCheck %s --check-prefixes=SVG,SYNCSVG < %t/reports/k.ub.svg
// One picture per space, with the syncs (insert-sync draws it again from
// its own input).
// RUN: ls %t/reports | FileCheck %s --check-prefix=FILES --implicit-check-not=.svg
// RUN: FileCheck %s --check-prefix=CHECK < %t/placed.mlir
// Without syncs, the placement's picture stays, without arrows or marks.
// RUN: dsa-opt %s --dsa-plan="insert-sync=false report-dir=%t/nosync" | FileCheck %s --check-prefix=NOSYNC
// RUN: %python %S/Inputs/check_schemas.py %t/reports %t/nosync
// RUN: FileCheck %s --check-prefix=SVG --implicit-check-not='class="sync' < %t/nosync/k.ub.svg
// RUN: dsa-opt %s --dsa-plan="import-solution=%t/solutions/k.json keep-allocs=true" | FileCheck %s --check-prefix=IMPORTED

// CHECK: dsaplan.arena <ub>
// CHECK: dsaplan.set_flag <mte2 -> v>
// NOSYNC: dsaplan.arena <ub>
// NOSYNC-NOT: dsaplan.set_flag
// UNSYNCED: error: unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub
// UNSYNCED-NEXT: linalg.exp
// UNSYNCED-NEXT: ^
// UNSYNCED-NEXT: note: the earlier access
// WITHOP: see current operation
// WITHOP: "linalg.exp"
// One tile read after its load: a same-tile dependency, none in reuse-only.
// REUSE: dsaplan.alloc {{{.*}}offset = 0 : i64}
// REUSE-NOT: dsaplan.set_flag
// BADMODE: for the --sync-mode option: 'some' is not a valid value (expected one of: all, reuse-only, identity-only)
// BADALGO: for the --algorithm option: 'fastest' is not a valid value (expected one of: bump, first-fit, best-fit, multi-start, exact, auto)
// PROBLEM: "buffers"
// SOLUTION: "placements"
// REPORT: "name": "a"
// SVG: <svg
// SVG: class="buffer" data-buffer="0" data-name="a"
// SYNCSVG: class="sync" data-pipe="mte2" data-from="{{[0-9]+}}" data-to="{{[0-9]+}}" data-from-name="a" data-to-name="a"
// FILES: k.json
// FILES-NEXT: k.syncs.json
// FILES-NEXT: k.timing.json
// FILES-NEXT: k.trace.json
// FILES-NEXT: k.ub.svg
// IMPORTED: dsaplan.alloc {{{.*}}offset = 0 : i64}

// expected-remark @below {{@k ub: 1 buffers, reuse cost 0 (optimal, bound 0, 0 penalised pairs share bytes); peak 1024 B (not minimised, least 1024 B), capacity 188416 B usable}}
func.func @k(%gm: memref<256xf32>, %out: memref<256xf32>) {
  // expected-remark @above {{@k: 1 flag pairs (0 around loops, 0 eager, 0 set late for want of an event id; before pruning, 0 moved to another id and 0 handshakes added so that no set overruns its flag, 0 barrier_all for want of a safe event id), 0 barriers for 1 conflicting pairs; 0 dropped as implied by the others}}
  // expected-remark @above {{@k: simulated 1 run, worst seed 1: makespan}}
  %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
