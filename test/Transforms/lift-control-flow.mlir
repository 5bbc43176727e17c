// RUN: dsa-opt %s -split-input-file -dsaplan-lift-control-flow | FileCheck %s --check-prefix=LIFT
// RUN: dsa-opt %s -split-input-file --dsa-plan | FileCheck %s
// RUN: dsa-opt %s -split-input-file --dsa-plan -dsaplan-simulate="runs=8" -o /dev/null

// --dsa-plan lifts multi-block regions to scf and runs the iterations of
// scf.forall and scf.parallel in order as scf.for (one AI core runs them
// one after the other) before any analysis; then the tile loaded by MTE2
// and read by V gets its MTE2 -> V flag, which a multi-block body did not
// get before (compute-lifetimes-errors.mlir: the passes on their own still
// refuse these shapes). test/Tools/dsa-diff-shapes.test runs them on the CPU.

// A body split by cf.br: one block.
//
// LIFT-LABEL: func.func @split
// LIFT-NOT:     cf.br
// LIFT-NOT:     arith.constant
// LIFT:         return
// CHECK-LABEL: func.func @split
// CHECK:         memref.copy %{{.*}}, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%[[A]]
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @split(%gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    cf.br ^bb1
  ^bb1:
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}

// -----

// A cf.cond_br diamond becomes an scf.if; the load on one path is ordered
// before the read at the join.
//
// LIFT-LABEL: func.func @diamond
// LIFT:         scf.if %{{.*}} {
// LIFT-NEXT:      memref.copy
// LIFT-NEXT:    } else {
// LIFT-NEXT:      linalg.fill
// LIFT-NEXT:    {{^ *}}}{{$}}
// CHECK-LABEL: func.func @diamond
// CHECK:         scf.if
// CHECK:           memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:         }
// CHECK:         dsaplan.set_flag <mte2 -> v>, 0
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @diamond(%c: i1, %f: f32, %gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    cf.cond_br %c, ^then, ^else
  ^then:
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    cf.br ^join
  ^else:
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%f : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    cf.br ^join
  ^join:
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}

// -----

// A nested region with branches (scf.execute_region) is lifted too.
//
// LIFT-LABEL: func.func @execute_region
// LIFT:         scf.execute_region {
// LIFT-NOT:       cf.cond_br
// LIFT:           scf.if
// CHECK-LABEL: func.func @execute_region
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @execute_region(%c: i1, %gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
    scf.execute_region {
      cf.cond_br %c, ^load, ^done
    ^load:
      memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      cf.br ^done
    ^done:
      scf.yield
    }
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
    return
  }
}

// -----

// scf.forall: the iterations run in order. The tile of iteration i+1 is
// loaded over the one iteration i still stores: the loop pair <mte3 ->
// mte2> is set before the loop and at the end of the body, and waited for
// before the load (the back edge).
//
// LIFT-LABEL: func.func @forall
// LIFT-NOT:     scf.forall
// LIFT:         scf.for %{{.*}} = %c0 to %c4 step %c1 {
// LIFT-NEXT:      memref.alloc() {name = "a"}
// CHECK-LABEL: func.func @forall
// CHECK:         dsaplan.set_flag <mte3 -> mte2>, 0
// CHECK-NEXT:    scf.for
// CHECK:           dsaplan.wait_flag <mte3 -> mte2>, 0
// CHECK-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:      dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:      dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> mte2>, 0
// CHECK-NEXT:    }
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, 0
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @forall(%gm: memref<4x256xf32>, %out: memref<4x256xf32>) {
    scf.forall (%i) in (4) {
      %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
      %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %dst = memref.subview %out[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
      memref.copy %a, %dst {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// scf.parallel over two dimensions: two nested scf.for, the same pairs
// around the back edge of the inner loop.
//
// LIFT-LABEL: func.func @parallel
// LIFT-NOT:     scf.parallel
// LIFT:         scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// LIFT-NEXT:      scf.for %[[J:.*]] = %c0 to %c2 step %c1 {
// CHECK-LABEL: func.func @parallel
// CHECK:         scf.for
// CHECK:           dsaplan.set_flag <mte3 -> mte2>, [[ID:[0-9]]]
// CHECK-NEXT:      scf.for
// CHECK:             dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:        memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:             memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:        dsaplan.set_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:      }
// CHECK-NEXT:      dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @parallel(%gm: memref<4x256xf32>, %out: memref<4x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
      %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
      %r0 = arith.muli %i, %c2 : index
      %r = arith.addi %r0, %j : index
      %src = memref.subview %gm[%r, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %dst = memref.subview %out[%r, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
      memref.copy %a, %dst {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// Without dsaplan memory the function is left as it is.
//
// LIFT-LABEL: func.func @no_tiles
// LIFT:         cf.cond_br
func.func @no_tiles(%c: i1, %x: memref<4xf32>) {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}
