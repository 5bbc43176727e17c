// RUN: dsa-opt %s -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync=summary=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s -dsaplan-insert-sync -dsaplan-verify-sync -dsaplan-simulate="runs=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=350 summary=true" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=350" | dsa-opt -dsaplan-verify-sync -o /dev/null
//
// A loop pair inside an outer loop (issue 26, item 5): AscendNPU-IR's
// test_injcet_sync_loop_nest (bishengir/test/Dialect/HIVM/inject-sync.mlir)
// in our IR, its GM arguments llvm.noalias (the peer takes different GM
// arguments as disjoint). One UB tile [0, 8192), loaded by MTE2 and stored
// by MTE3 in the inner loop. The peer expects 3 syncs: the pair around the
// inner back edge set once before the outer loop and drained once after
// it, and the load-to-store pair. The pre-set and the drain used to be in
// the outer body, with a handshake <mte2 -> mte3> after the drain so that
// the next outer iteration's pre-set followed it: 4 set_flags.
//
// CLEAN-NOT: error

// CHECK-LABEL: func.func @loop_nest
// CHECK:         dsaplan.set_flag <mte3 -> mte2>, [[ID:[0-9]]]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:        memref.copy {{.*}}<mte2>
// CHECK-NEXT:        dsaplan.set_flag <mte2 -> mte3>, [[FWD:[0-9]]]
// CHECK-NEXT:        dsaplan.wait_flag <mte2 -> mte3>, [[FWD]]
// CHECK-NEXT:        memref.copy {{.*}}<mte3>
// CHECK-NEXT:        dsaplan.set_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:      {{^ +}}}{{$}}
// CHECK-NEXT:    {{^ +}}}{{$}}
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:    return
// SUMMARY: remark: @loop_nest: 2 flag pairs (1 around loops, {{.*}}); 1 loop pairs set and drained outside their outer loops
//
// The hoist's checks walk within what pruning left of the prune budget (they
// walked without a bound, a whole-function check per try, once pruning was
// complete). Pruning walks 284 ops here and one check of the hoist 84: with
// 350 the pair stays in the outer body, handshake and all.
// BUDGET:      remark: @loop_nest: 2 flag pairs (1 around loops, {{.*}} (284 ops walked){{$}}
// BUDGET:      scf.for
// BUDGET-NEXT:   dsaplan.set_flag <mte3 -> mte2>, [[ID:[0-9]]]
// BUDGET-NEXT:   scf.for
// BUDGET:        {{^ +}}}{{$}}
// BUDGET-NEXT:   dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// BUDGET-NEXT:   dsaplan.set_flag <mte2 -> mte3>
// BUDGET-NEXT:   dsaplan.wait_flag <mte2 -> mte3>
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @loop_nest(%x: memref<16x16x16xf16> {llvm.noalias},
                       %y: memref<16x16x16xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>  // [0, 8192)
    // set <mte3 -> mte2> here, once (peer: set_flag[MTE3, MTE2, EVENT_ID0])
    scf.for %i = %c0 to %c1024 step %c128 {
      scf.for %j = %c0 to %c1024 step %c128 {
        // wait <mte3 -> mte2>: the previous store of the tile, in this outer
        // iteration or the one before
        memref.copy %x, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
        // set and wait <mte2 -> mte3>: the store reads what the load wrote
        memref.copy %t, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
        // set <mte3 -> mte2>
      }
    }
    // wait <mte3 -> mte2> here, once
    return
  }
}
