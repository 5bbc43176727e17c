// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-rotate-carried | FileCheck %s
// RUN: dsa-opt %s -split-input-file --dsa-plan -dsaplan-simulate="runs=8" -o /dev/null
// RUN: not dsa-opt %s -split-input-file -dsaplan-import -dsaplan-compute-lifetimes -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED

// A tile allocated in a loop body and carried to the next iteration (what
// one-shot bufferization emits to keep the previous row). One offset for
// %cur would put the next iteration's %cur on the %prev it still reads
// (add(%prev, %cur) computing cur + cur): it gets two slots before the loop
// that rotate, and %cur is the slot of the iteration. Without the rewrite,
// compute-lifetimes refuses the shape (REFUSED); test/Tools/dsa-diff-shapes
// runs it on the CPU.
//
// REFUSED: error: a tile allocated in the body of 'scf.for' is carried to the next iteration
//
// CHECK-LABEL: func.func @carried_by_for
// CHECK:         %[[INIT:.*]] = dsaplan.alloc {name = "init"}
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "cur.0"} : memref<64xf32, #dsaplan.space<ub>>
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "cur.1"} : memref<64xf32, #dsaplan.space<ub>>
// CHECK:         %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[PREV:.*]] = %[[INIT]], %[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK-NOT:       dsaplan.alloc
// CHECK:           memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.add {{.*}} ins(%[[PREV]], %[[A0]] : {{.*}}) outs(%[[A0]] :
// CHECK:           scf.yield %[[A0]], %[[A1]], %[[A0]] :
// CHECK:         memref.copy %[[R]]#0, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_by_for(%gm: memref<4x64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    memref.copy %row0, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> (memref<64xf32, #dsaplan.space<ub>>) {
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      scf.yield %cur : memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %last, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

// -----

// The same in the "do" region of scf.while, carried through a cast: the
// slots pass through scf.condition unchanged and rotate at scf.yield.
//
// REFUSED: error: a tile allocated in the body of 'scf.while' is carried to the next iteration
//
// CHECK-LABEL: func.func @carried_by_while
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "cur.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "cur.1"}
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[B0:.*]] = %[[S0]], %[[B1:.*]] = %[[S1]])
// CHECK:           scf.condition(%{{.*}}) %{{.*}}, %{{.*}}, %[[B0]], %[[B1]] :
// CHECK:         } do {
// CHECK:         ^bb0(%{{.*}}: index, %[[P:.*]]: memref<64xf32, #dsaplan.space<ub>>, %[[D0:.*]]: memref<64xf32, #dsaplan.space<ub>>, %[[D1:.*]]: memref<64xf32, #dsaplan.space<ub>>):
// CHECK-NOT:       dsaplan.alloc
// CHECK:           linalg.add {{.*}} ins(%[[P]], %[[D0]] : {{.*}}) outs(%[[D0]] :
// CHECK:           %[[V:.*]] = memref.cast %[[D0]]
// CHECK:           scf.yield %{{.*}}, %[[V]], %[[D1]], %[[D0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_by_while(%gm: memref<4x64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    memref.copy %row0, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.while (%i = %c1, %prev = %init) : (index, memref<64xf32, #dsaplan.space<ub>>) -> (index, memref<64xf32, #dsaplan.space<ub>>) {
      %more = arith.cmpi slt, %i, %c4 : index
      scf.condition(%more) %i, %prev : index, memref<64xf32, #dsaplan.space<ub>>
    } do {
    ^bb0(%j: index, %p: memref<64xf32, #dsaplan.space<ub>>):
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%j, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      %next = arith.addi %j, %c1 : index
      %v = memref.cast %cur : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
      scf.yield %next, %v : index, memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %r#1, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

// -----

// Read two iterations later (carried through two iter_args): three slots.
// %sum is not carried and stays one tile in the body.
//
// REFUSED: error: a tile allocated in the body of 'scf.for' is carried to the next iteration
//
// CHECK-LABEL: func.func @carried_two_iterations
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "cur.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "cur.1"}
// CHECK:         %[[S2:.*]] = dsaplan.alloc {name = "cur.2"}
// CHECK:         scf.for {{.*}} iter_args(%[[P2:.*]] = %{{.*}}, %[[P1:.*]] = %{{.*}}, %[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]], %[[A2:.*]] = %[[S2]])
// CHECK:           dsaplan.alloc {name = "sum"}
// CHECK:           linalg.add {{.*}} ins(%[[P2]], %[[A0]] :
// CHECK:           scf.yield %[[P1]], %[[A0]], %[[A1]], %[[A2]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_two_iterations(%gm: memref<6x64xf32>, %out: memref<4x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %a = memref.alloc() {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1]>>
    %row1 = memref.subview %gm[1, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1], offset: 64>>
    memref.copy %row0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %row1, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.for %i = %c2 to %c6 step %c1 iter_args(%p2 = %a, %p1 = %b) -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %sum = memref.alloc() {name = "sum"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%i, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p2, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%sum : memref<64xf32, #dsaplan.space<ub>>)
      %i2 = arith.subi %i, %c2 : index
      %orow = memref.subview %out[%i2, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %sum, %orow {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
      scf.yield %p1, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
    }
    return
  }
}

// -----

// Allocated in the "before" region of scf.while and carried through the
// "do" region back to it: the "before" slot argument replaces the tile.
//
// REFUSED: error: a tile allocated in the body of 'scf.while' is carried to the next iteration
//
// CHECK-LABEL: func.func @carried_from_before
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "t.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "t.1"}
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %[[PREV:.*]] = %{{.*}}, %[[B0:.*]] = %[[S0]], %[[B1:.*]] = %[[S1]])
// CHECK-NOT:       dsaplan.alloc
// CHECK:           linalg.add {{.*}} ins(%[[PREV]], %[[PREV]] : {{.*}}) outs(%[[B0]] :
// CHECK:           scf.condition(%{{.*}}) %{{.*}}, %[[B0]], %[[B0]], %[[B1]] :
// CHECK:         } do {
// CHECK:         ^bb0(%{{.*}}: index, %[[T:.*]]: memref<64xf32, #dsaplan.space<ub>>, %[[D0:.*]]: memref<64xf32, #dsaplan.space<ub>>, %[[D1:.*]]: memref<64xf32, #dsaplan.space<ub>>):
// CHECK:           scf.yield %{{.*}}, %[[T]], %[[D1]], %[[D0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_from_before(%gm: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.while (%k = %c0, %prev = %init) : (index, memref<64xf32, #dsaplan.space<ub>>) -> (index, memref<64xf32, #dsaplan.space<ub>>) {
      %t = memref.alloc() {name = "t"} : memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %prev : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%t : memref<64xf32, #dsaplan.space<ub>>)
      %more = arith.cmpi slt, %k, %c3 : index
      scf.condition(%more) %k, %t : index, memref<64xf32, #dsaplan.space<ub>>
    } do {
    ^bb0(%j: index, %t: memref<64xf32, #dsaplan.space<ub>>):
      %next = arith.addi %j, %c1 : index
      scf.yield %next, %t : index, memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %r#1, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

// -----

// Not carried: a tile local to one iteration keeps its one allocation in
// the body.
//
// CHECK-LABEL: func.func @not_carried
// CHECK:         scf.for
// CHECK-NEXT:      dsaplan.alloc {name = "t"}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @not_carried(%gm: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %t = memref.alloc() {name = "t"} : memref<64xf32, #dsaplan.space<ub>>
      memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
      memref.copy %t, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    }
    return
  }
}
