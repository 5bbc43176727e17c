// RUN: dsa-opt %s --dsa-plan="objective=peak" | FileCheck %s
//
// Regression test for a race insert-sync left (found by the random kernels
// of placement-property.test, seed 1, kernel 198, reduced). objective=peak
// puts t51 and t52 over the first 128 bytes of t43, a reuse objective=waits
// avoids; verify-sync runs in --dsa-plan and used to fail with
//
//   error: unordered read after write: 'linalg.add' on pipe v and
//   'memref.copy' on pipe mte2 touch bytes [0, 64) of ub
//
// t43 is loaded by MTE2 in the "before" region of the scf.while, inside the
// scf.for; V reads t51 over its bytes after the loop. The loop's drain pair
// <mte3 -> v> is set in the body before MTE3's wait for MTE2:
//
//   dsaplan.set_flag <mte2 -> mte3>, 0
//   dsaplan.set_flag <mte3 -> v>, 0      // loop pair, drained after the loop
//   dsaplan.wait_flag <mte2 -> mte3>, 0
//
// so its wait after the loop tells V nothing about MTE2. The cover took the
// knowledge the drain hands over from MTE3's state *after* the loop (which
// includes that wait), believed V ordered after the load, and left out the
// mte2 -> v pair. The drain now hands over what MTE3 knew at its set.
//
// CHECK-LABEL: func.func @k198
// CHECK:         scf.for
// CHECK:           scf.while
// CHECK:           dsaplan.set_flag <mte3 -> v>, [[LOOP:[0-9]+]]
// CHECK:           dsaplan.wait_flag <mte2 -> mte3>
// CHECK:         }
// CHECK:         dsaplan.wait_flag <mte3 -> v>, [[LOOP]]
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, [[ID:[0-9]+]]
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, [[ID]]
// CHECK-NEXT:    scf.if
// CHECK:           linalg.add

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @k198(%x: memref<256xf32>, %y: memref<256xf32>, %out0: memref<256xf32>, %out1: memref<256xf32>, %p: i1, %q: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %t1 = memref.alloc() {name = "t1"} : memref<16xf32, #dsaplan.space<ub>>
    scf.if %q {
      scf.for %i23 = %c0 to %c3 step %c1 {
        %g26 = memref.subview %x[136] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: 136>>
        memref.copy %g26, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32, strided<[1], offset: 136>> to memref<16xf32, #dsaplan.space<ub>>
      }
    }
    scf.for %i29 = %c0 to %c3 step %c1 {
      %t30 = memref.alloc() {name = "t30"} : memref<32xf32, #dsaplan.space<ub>>
      %t34 = memref.alloc() {name = "t34"} : memref<16xf32, #dsaplan.space<ub>>
      linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<16xf32, #dsaplan.space<ub>>) outs(%t34 : memref<16xf32, #dsaplan.space<ub>>)
      %r37 = scf.while (%n38 = %c0) : (index) -> index {
        %g42 = memref.subview %out1[88] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: 88>>
        memref.copy %t34, %g42 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: 88>>
        %t43 = memref.alloc() {name = "t43"} : memref<128xf32, #dsaplan.space<ub>>
        %g44 = memref.subview %x[48] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1], offset: 48>>
        memref.copy %g44, %t43 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<128xf32, strided<[1], offset: 48>> to memref<128xf32, #dsaplan.space<ub>>
        %cond40 = arith.cmpi slt, %n38, %c2 : index
        scf.condition(%cond40) %n38 : index
      } do {
      ^bb0(%m39: index):
        %g48 = memref.subview %out0[136] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: 136>>
        memref.copy %t1, %g48 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: 136>>
        %g49 = memref.subview %x[136] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1], offset: 136>>
        memref.copy %g49, %t30 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<32xf32, strided<[1], offset: 136>> to memref<32xf32, #dsaplan.space<ub>>
        %n41 = arith.addi %m39, %c1 : index
        scf.yield %n41 : index
      }
      %g50 = memref.subview %out1[160] [32] [1] : memref<256xf32> to memref<32xf32, strided<[1], offset: 160>>
      memref.copy %t30, %g50 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<32xf32, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: 160>>
    }
    scf.if %p {
      %t51 = memref.alloc() {name = "t51"} : memref<16xf32, #dsaplan.space<ub>>
      %t52 = memref.alloc() {name = "t52"} : memref<16xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t51, %t51 : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<ub>>) outs(%t52 : memref<16xf32, #dsaplan.space<ub>>)
    }
    return
  }
}

