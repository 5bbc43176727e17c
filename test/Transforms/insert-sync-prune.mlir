// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=0" | FileCheck %s --check-prefix=NOPRUNE
// RUN: dsa-opt %s --dsa-plan="sync-prune-budget=0" | FileCheck %s --check-prefix=NOPRUNE
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=10 summary=true" 2>&1 | FileCheck %s --check-prefixes=BUDGET,NOPRUNE
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=10" | dsa-opt -dsaplan-verify-sync
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=0" | dsa-opt -dsaplan-verify-sync

// MTE2 loads A [0, 1024); then, on either branch, MTE3 stores A and V
// overwrites it. Block by block, the if op is one consumer on two pipes:
// the cover gives it an mte2 -> v pair (WAW on A) and an mte2 -> mte3 pair
// (RAW on A), and each branch an mte3 -> v pair (WAR on A). On every path,
// though, V already waits for MTE3, which waited for MTE2: pruning drops
// the mte2 -> v pair.
// CHECK:      remark: @chain_through_branches: 3 flag pairs {{.*}}; 1 dropped as implied by the others ({{[0-9]+}} ops walked)
//
// The budget counts the ops the checks walk: ten are not enough for even
// the first walk over the function, and every inserted sync stays.
// BUDGET:     remark: @chain_through_branches: 4 flag pairs {{.*}}; 0 dropped as implied by the others (10 ops walked, stopped by prune-budget)
// CHECK-LABEL: func.func @chain_through_branches
// CHECK:      memref.copy %arg0, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// CHECK-NEXT: scf.if
// CHECK-NEXT:   memref.copy %[[A]], %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:   dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:   dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:   linalg.fill
// CHECK:      } else {
// CHECK-NEXT:   memref.copy %[[A]], %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:   dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:   dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:   linalg.fill
// NOPRUNE-LABEL: func.func @chain_through_branches
// NOPRUNE:      memref.copy %arg0, {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// NOPRUNE-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// NOPRUNE-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// NOPRUNE-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// NOPRUNE-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// NOPRUNE-NEXT: scf.if
func.func @chain_through_branches(%gm: memref<256xf32>, %out: memref<256xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [0, 1024)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  scf.if %c {
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  } else {
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  }
  return
}
