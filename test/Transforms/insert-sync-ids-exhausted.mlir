// RUN: dsa-opt %s --dsa-plan="algorithm=first-fit" | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="algorithm=first-fit" | dsa-opt -dsaplan-simulate="runs=8 check-gm=false" -o /dev/null
//
// Regression test: a kernel of the placement property test (seed 3, kernel
// 40, placed by first-fit) that insert-sync refused ("no event id of
// <mte2 -> mte3> is free here") since sets must follow the wait of their
// previous set: the eager <mte2 -> mte3> pair in the scf.while "do" region
// may overrun its own set of the previous iteration, no id helps, and the
// wait it may pass is a handshake's wait, which got no handshake of its own.
// A handshake may now follow a handshake's wait (chains are cut at depth 2).
// Since the "do" region of an scf.while gets pairs around its back edge as
// an scf.for body does, the dependency of the next iteration's load on
// this iteration's store is a loop pair <mte3 -> mte2> (set before the
// while, waited before the load, set after the store, drained after the
// while) instead of an eager pair and a handshake after the store.
//
// CHECK-LABEL: func.func @k40
// CHECK:         dsaplan.pipe_barrier <v>
// CHECK-NEXT:    dsaplan.set_flag <mte3 -> mte2>, [[BACK:[0-9]+]]
// CHECK-NEXT:    scf.while
// CHECK:         } do {
// CHECK:           dsaplan.wait_flag <mte3 -> mte2>, [[BACK]]
// CHECK-NEXT:      memref.copy {{.*}}#dsaplan.pipe<mte2>
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> mte3>, [[ID:[0-9]+]]
// CHECK:           dsaplan.wait_flag <mte2 -> mte3>, [[ID]]
// CHECK-NEXT:      memref.copy {{.*}}#dsaplan.pipe<mte3>
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> mte2>, [[BACK]]
// CHECK-NOT:       dsaplan.wait_flag <mte3 -> mte2>
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, [[BACK]]
//
// The GM arguments are llvm.noalias: GM dependencies between arguments that
// may alias add syncs that would hide what this kernel reproduces.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @k40(%x: memref<256xf32> {llvm.noalias}, %y: memref<256xf32> {llvm.noalias}, %out0: memref<256xf32> {llvm.noalias}, %out1: memref<256xf32> {llvm.noalias}, %p: i1, %q: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %t1 = memref.alloc() {name = "t1"} : memref<64xf32, #dsaplan.space<ub>>
    %t2 = memref.alloc() {name = "t2"} : memref<128xf32, #dsaplan.space<ub>>
    %t3 = memref.alloc() {name = "t3"} : memref<64xf32, #dsaplan.space<ub>>
    %g4 = memref.subview %x[96] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 96>>
    memref.copy %g4, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<128xf32, strided<[1], offset: 96>> to memref<128xf32, #dsaplan.space<ub>>
    %g5 = memref.subview %out0[120] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 120>>
    memref.copy %t2, %g5 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 120>>
    %s6 = memref.subview %t3[32] [32] [1] : memref<64xf32, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>
    %t7 = memref.alloc() {name = "t7"} : memref<128xf32, #dsaplan.space<ub>>
    linalg.sub {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2, %t2 : memref<128xf32, #dsaplan.space<ub>>, memref<128xf32, #dsaplan.space<ub>>) outs(%t7 : memref<128xf32, #dsaplan.space<ub>>)
    %g8 = memref.subview %out0[104] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 104>>
    memref.copy %t2, %g8 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 104>>
    %g9 = memref.subview %x[96] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 96>>
    memref.copy %g9, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<128xf32, strided<[1], offset: 96>> to memref<128xf32, #dsaplan.space<ub>>
    scf.for %i10 = %c0 to %c3 step %c1 {
      %t11 = memref.alloc() {name = "t11"} : memref<32xf32, #dsaplan.space<ub>>
      %t12 = memref.alloc() {name = "t12"} : memref<128xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2, %t2 : memref<128xf32, #dsaplan.space<ub>>, memref<128xf32, #dsaplan.space<ub>>) outs(%t12 : memref<128xf32, #dsaplan.space<ub>>)
      %r13 = scf.while (%n14 = %c0) : (index) -> index {
        %o18 = arith.muli %i10, %c8 : index
        %s19 = memref.subview %t12[%o18] [16] [1] : memref<128xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
        linalg.sub {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t7, %t2 : memref<128xf32, #dsaplan.space<ub>>, memref<128xf32, #dsaplan.space<ub>>) outs(%t12 : memref<128xf32, #dsaplan.space<ub>>)
        %t20 = memref.alloc() {name = "t20"} : memref<128xf32, #dsaplan.space<ub>>
        linalg.sub {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place} ins(%t2, %t7 : memref<128xf32, #dsaplan.space<ub>>, memref<128xf32, #dsaplan.space<ub>>) outs(%t2 : memref<128xf32, #dsaplan.space<ub>>)
        %g21 = memref.subview %y[232] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: 232>>
        memref.copy %g21, %s19 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32, strided<[1], offset: 232>> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
        %cond16 = arith.cmpi slt, %n14, %c2 : index
        scf.condition(%cond16) %n14 : index
      } do {
      ^bb0(%m15: index):
        %g22 = memref.subview %x[144] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: 144>>
        memref.copy %g22, %t3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 144>> to memref<64xf32, #dsaplan.space<ub>>
        %g23 = memref.subview %out0[8] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1], offset: 8>>
        memref.copy %s6, %g23 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: 8>>
        %t24 = memref.alloc() {name = "t24"} : memref<32xf32, #dsaplan.space<ub>>
        %g25 = memref.subview %y[128] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1], offset: 128>>
        memref.copy %g25, %t24 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<32xf32, strided<[1], offset: 128>> to memref<32xf32, #dsaplan.space<ub>>
        %n17 = arith.addi %m15, %c1 : index
        scf.yield %n17 : index
      }
      %g26 = memref.subview %out1[40] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 40>>
      memref.copy %t12, %g26 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 40>>
    }
    %t27 = memref.alloc() {name = "t27"} : memref<32xf32, #dsaplan.space<ub>>
    linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s6, %s6 : memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>, memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>) outs(%t27 : memref<32xf32, #dsaplan.space<ub>>)
    %g28 = memref.subview %out0[128] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 128>>
    memref.copy %t2, %g28 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 128>>
    %g29 = memref.subview %out1[192] [64] [1] : memref<256xf32> to memref<64xf32, strided<[1], offset: 192>>
    memref.copy %t3, %g29 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: 192>>
    %g30 = memref.subview %out0[88] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 88>>
    memref.copy %t7, %g30 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 88>>
    %g31 = memref.subview %out0[16] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1], offset: 16>>
    memref.copy %t27, %g31 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<32xf32, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: 16>>
    return
  }
}
