// RUN: dsa-opt %s -split-input-file -dsaplan-unroll-rotations | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-unroll-rotations -dsaplan-insert-sync | FileCheck %s --check-prefix=SYNC
// RUN: dsa-opt %s -split-input-file -dsaplan-unroll-rotations -dsaplan-insert-sync -dsaplan-verify-sync -dsaplan-simulate="runs=8" -o /dev/null

// A ping-pong through iter_args: the loop yields (%nxt, %cur), a rotation
// of period 2. Unrolled by two, the body yields each argument unchanged and
// every access names its tile: the first copy loads into %a (bytes
// [0, 4096)), the second into %b (bytes [4096, 8192)).
//
// With the accesses on one tile each, the sync pass gives each slot its own
// mte3 -> mte2 pair around the back edge: the load into %a waits for the
// store of %a of the previous iteration only (id 0), the load into %b for
// the store of %b (id 1). Both are set before the loop and drained after.
//
// CHECK-LABEL: func.func @ping_pong
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c2
// CHECK:           memref.copy %{{.*}}, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.exp {{.*}} ins(%[[A]]
// CHECK:           memref.copy %[[A]]
// CHECK:           memref.copy %{{.*}}, %[[B:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.exp {{.*}} ins(%[[B]]
// CHECK:           memref.copy %[[B]]
// CHECK:           scf.yield %[[A]], %[[B]]
//
// SYNC-LABEL: func.func @ping_pong
// SYNC:         dsaplan.set_flag <mte3 -> mte2>, 0
// SYNC-NEXT:    dsaplan.set_flag <mte3 -> mte2>, 1
// SYNC-NEXT:    scf.for
// SYNC:           dsaplan.wait_flag <mte3 -> mte2>, 0
// SYNC-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SYNC:           memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// SYNC-NEXT:      dsaplan.set_flag <mte3 -> mte2>, 0
// SYNC:           dsaplan.wait_flag <mte3 -> mte2>, 1
// SYNC-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SYNC:           memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// SYNC-NEXT:      dsaplan.set_flag <mte3 -> mte2>, 1
// SYNC-NEXT:      scf.yield
// SYNC:         dsaplan.wait_flag <mte3 -> mte2>, 1
// SYNC-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, 0
func.func @ping_pong(%x: memref<8x1024xf32> {llvm.noalias}, %y: memref<8x1024xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %nxt = %b)
      -> (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) {
    %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %y_row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    memref.copy %x_row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%cur : memref<1024xf32, #dsaplan.space<ub>>) outs(%cur : memref<1024xf32, #dsaplan.space<ub>>)
    memref.copy %cur, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>}
        : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    scf.yield %nxt, %cur : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// A ring of three (yield %b, %c, %a): period 3. Seven iterations leave one
// for an epilogue, which starts where the rotation is back where it began:
// it loads into %a and writes %c (a single iteration, inlined by the
// unroller; a longer epilogue stays a loop whose arguments may be any of
// the three tiles: correct, without the overlap).
//
// CHECK-LABEL: func.func @ring_of_three
// CHECK:         scf.for %{{.*}} = %c0 to %c6 step %c3
// CHECK:           memref.copy %{{.*}}, %[[T0:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:      linalg.exp {{.*}} ins(%[[T0]] {{.*}} outs(%[[T2:[a-z0-9_]*]] :
// CHECK:           memref.copy %{{.*}}, %[[T1:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:      linalg.exp {{.*}} ins(%[[T1]] {{.*}} outs(%[[T0]] :
// CHECK:           memref.copy %{{.*}}, %[[T2]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:      linalg.exp {{.*}} ins(%[[T2]] {{.*}} outs(%[[T1]] :
// CHECK:           scf.yield %[[T0]], %[[T1]], %[[T2]] :
// CHECK:         memref.copy %{{.*}}, %[[T0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:    linalg.exp {{.*}} ins(%[[T0]] {{.*}} outs(%[[T2]] :
//
// Around the back edge, the load into %a waits for the V op that wrote %a
// last (id 0, set after the second exp), the load into %b for the one that
// wrote %b (id 1, set at the end); the load into %c waits within the
// iteration for the first exp, which wrote %c.
//
// SYNC-LABEL: func.func @ring_of_three
// SYNC:         dsaplan.set_flag <v -> mte2>, 0
// SYNC-NEXT:    dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT:    scf.for
// SYNC:           dsaplan.wait_flag <v -> mte2>, 0
// SYNC-NEXT:      memref.copy
// SYNC:           linalg.exp
// SYNC-NEXT:      dsaplan.set_flag <v -> mte2>, [[C:[0-9]]]
// SYNC:           dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT:      memref.copy
// SYNC:           linalg.exp
// SYNC-NEXT:      dsaplan.set_flag <v -> mte2>, 0
// SYNC:           dsaplan.wait_flag <v -> mte2>, [[C]]
// SYNC-NEXT:      memref.copy
// SYNC:           linalg.exp
// SYNC-NEXT:      dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT:      scf.yield
func.func @ring_of_three(%x: memref<7x1024xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %c = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %r:3 = scf.for %i = %c0 to %c7 step %c1 iter_args(%p = %a, %q = %b, %s = %c)
      -> (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) {
    %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<7x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    memref.copy %x_row, %p {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%p : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    scf.yield %q, %s, %p : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// Not a rotation: the loop yields a tile it did not get as an argument
// (%a twice), so an argument may be either tile; the loop stays as it is.
//
// CHECK-LABEL: func.func @not_a_permutation
// CHECK:         scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
// CHECK:           scf.yield %{{.*}}, %{{.*}} :
// CHECK-NOT:     scf.for
func.func @not_a_permutation(%x: memref<1024xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %nxt = %b)
      -> (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) {
    memref.copy %x, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    scf.yield %nxt, %nxt : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// A carried tile rotated by dsaplan-rotate-carried: %prev takes the slot
// the ring argument %s0 held, one iteration late. It is on no ring and
// follows the ring of %s0 and %s1 (period 2): the unrolled body loads into
// %a and then %b, and reads %init or %b, then %a, as the previous row.
//
// CHECK-LABEL: func.func @carried_follows_ring
// CHECK:         scf.for %{{.*}} = %c0 to %c4 step %c2 iter_args(%[[PREV:[a-z0-9_]*]] = %{{[a-z0-9_]*}},
// CHECK:           memref.copy %{{.*}}, %[[A:[a-z0-9_]*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.add {{.*}} ins(%[[PREV]], %[[A]] : {{.*}}) outs(%[[A]] :
// CHECK:           memref.copy %{{.*}}, %[[B:[a-z0-9_]*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.add {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[B]] :
// CHECK:           scf.yield %[[B]], %[[A]], %[[B]] :
//
// Each slot's load waits for the last V op that read that slot: id 0 for
// %a (set at the end of the body), id 1 for %b (set after the first add).
//
// SYNC-LABEL: func.func @carried_follows_ring
// SYNC:         scf.for
// SYNC:           dsaplan.wait_flag <v -> mte2>, 0
// SYNC-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SYNC:           linalg.add
// SYNC-NEXT:      dsaplan.set_flag <v -> mte2>, 1
// SYNC:           dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SYNC:           linalg.add
// SYNC-NEXT:      dsaplan.set_flag <v -> mte2>, 0
// SYNC-NEXT:      scf.yield
func.func @carried_follows_ring(%gm: memref<4x64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %init = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %a = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
  memref.copy %row0, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
  %r:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init, %s0 = %a, %s1 = %b)
      -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
    %row = memref.subview %gm[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    memref.copy %row, %s0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %s0 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%s0 : memref<64xf32, #dsaplan.space<ub>>)
    scf.yield %s0, %s1, %s0 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
  }
  memref.copy %r#0, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}
