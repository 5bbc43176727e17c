// RUN: dsa-opt %s -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync

// Nine loads on MTE2, then nine V reads of what they loaded. A pair per
// load would keep nine mte2 -> v flags in flight across the reads, one more
// than the eight ids. The two cheapest neighbours merge instead
// (IdPressure.cpp): one set after the second load orders both loads before
// the first read, which now waits for one load more. Eight pairs, ids 0-7,
// no set moved late and no handshake (before: the ninth set moved down to
// its wait, and V handed MTE2 a flag back after the first wait).
// SUMMARY: remark: @out_of_event_ids: 8 flag pairs (0 around loops, 0 eager, 0 set late for want of an event id; before pruning, 0 moved to another id and 0 handshakes added so that no set overruns its flag, 0 barrier_all for want of a safe event id)
// CHECK-LABEL: func.func @out_of_event_ids
// CHECK:         memref.copy
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-COUNT-7: dsaplan.set_flag <mte2 -> v>
// CHECK-NOT:     dsaplan.set_flag
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 1
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 7
// CHECK-NEXT:    linalg.exp
// CHECK-NOT:     dsaplan.set_flag
// CHECK:         return
func.func @out_of_event_ids(%gm: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %o0 = arith.constant 0 : index
  %t0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o1 = arith.constant 32 : index
  %t1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o2 = arith.constant 64 : index
  %t2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o3 = arith.constant 96 : index
  %t3 = memref.view %ub[%o3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o4 = arith.constant 128 : index
  %t4 = memref.view %ub[%o4][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o5 = arith.constant 160 : index
  %t5 = memref.view %ub[%o5][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o6 = arith.constant 192 : index
  %t6 = memref.view %ub[%o6][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o7 = arith.constant 224 : index
  %t7 = memref.view %ub[%o7][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o8 = arith.constant 256 : index
  %t8 = memref.view %ub[%o8][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t6 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t7 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t8 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<8xf32, #dsaplan.space<ub>>) outs(%t0 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<8xf32, #dsaplan.space<ub>>) outs(%t1 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2 : memref<8xf32, #dsaplan.space<ub>>) outs(%t2 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t3 : memref<8xf32, #dsaplan.space<ub>>) outs(%t3 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t4 : memref<8xf32, #dsaplan.space<ub>>) outs(%t4 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t5 : memref<8xf32, #dsaplan.space<ub>>) outs(%t5 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t6 : memref<8xf32, #dsaplan.space<ub>>) outs(%t6 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t7 : memref<8xf32, #dsaplan.space<ub>>) outs(%t7 : memref<8xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t8 : memref<8xf32, #dsaplan.space<ub>>) outs(%t8 : memref<8xf32, #dsaplan.space<ub>>)
  return
}

// scf.while: V's write in the "do" region reaches each of the nine MTE3
// reads of the next iteration's "before" region. Those dependencies leave
// by the fallback pair right after the write, and one pair orders the write
// before all of them: one <v -> mte3> pair, not nine (nine took ids 0-7 at
// one point and then failed for want of a ninth). Each read's own pair back
// to V is implied by the last one's and pruned. The two pairs meet every
// iteration, so each set follows the wait of its previous set. (Ids are
// made safe before pruning, while the eight pairs pruned later still set
// <mte3 -> v> one after another: the summary counts those moves.)
// SUMMARY: remark: @one_eager_pair_per_op: 2 flag pairs (0 around loops, 2 eager, 0 set late for want of an event id; before pruning, {{[0-9]+}} moved to another id and {{[0-9]+}} handshakes added so that no set overruns its flag, 0 barrier_all for want of a safe event id)
// CHECK-LABEL: func.func @one_eager_pair_per_op
// CHECK:         scf.while
// CHECK-COUNT-9:   memref.copy
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:      dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:      scf.condition
// CHECK:           linalg.exp
// CHECK-NEXT:      dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:      dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     dsaplan.set_flag
// (Nine disjoint rows of GM: the stores do not order each other.)
func.func @one_eager_pair_per_op(%gm: memref<9x8xf32> {llvm.noalias}, %src: memref<8xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %o0 = arith.constant 0 : index
  %t = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %r0 = memref.subview %gm[0, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 0>>
  %r1 = memref.subview %gm[1, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %r2 = memref.subview %gm[2, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 16>>
  %r3 = memref.subview %gm[3, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 24>>
  %r4 = memref.subview %gm[4, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 32>>
  %r5 = memref.subview %gm[5, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 40>>
  %r6 = memref.subview %gm[6, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 48>>
  %r7 = memref.subview %gm[7, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 56>>
  %r8 = memref.subview %gm[8, 0] [1, 8] [1, 1] : memref<9x8xf32> to memref<8xf32, strided<[1], offset: 64>>
  scf.while : () -> () {
    memref.copy %t, %r0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 0>>
    memref.copy %t, %r1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 8>>
    memref.copy %t, %r2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 16>>
    memref.copy %t, %r3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 24>>
    memref.copy %t, %r4 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 32>>
    memref.copy %t, %r5 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 40>>
    memref.copy %t, %r6 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 48>>
    memref.copy %t, %r7 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 56>>
    memref.copy %t, %r8 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 64>>
    scf.condition(%c)
  } do {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%src : memref<8xf32>) outs(%t : memref<8xf32, #dsaplan.space<ub>>)
    scf.yield
  }
  return
}

// A flag is one bit. The shape of examples/softmax.mlir's overrun: two
// loads, each read by V after its own wait. Program order puts V's first
// wait before MTE2's second set, but nothing makes MTE2 wait for V, so the
// second pair takes another id (with one id for both, both sets could fire
// before V's first wait and V's second wait would hang).
// CHECK-LABEL: func.func @second_set_needs_another_id
// CHECK:         memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 1
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 1
// CHECK-NEXT:    linalg.exp
func.func @second_set_needs_another_id(%gm: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %o0 = arith.constant 0 : index
  %t0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>   // [0, 32)
  %o1 = arith.constant 32 : index
  %t1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>   // [32, 64)
  memref.copy %gm, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<8xf32, #dsaplan.space<ub>>) outs(%t0 : memref<8xf32, #dsaplan.space<ub>>)
  memref.copy %gm, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<8xf32, #dsaplan.space<ub>>) outs(%t1 : memref<8xf32, #dsaplan.space<ub>>)
  return
}

// -----

// The input's own pairs hold all eight ids of <mte2 -> v>, but only up to
// their waits, and V then hands MTE2 a flag back, so that every later set
// of <mte2 -> v> follows those waits. The load -> exp pair after them takes
// id 0 again (ids of the input used to be held over the whole function:
// "no free event id").
// CHECK-LABEL: func.func @input_ids_free_after_their_waits
// CHECK:         dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
func.func @input_ids_free_after_their_waits(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.set_flag <mte2 -> v>, 1
  dsaplan.set_flag <mte2 -> v>, 2
  dsaplan.set_flag <mte2 -> v>, 3
  dsaplan.set_flag <mte2 -> v>, 4
  dsaplan.set_flag <mte2 -> v>, 5
  dsaplan.set_flag <mte2 -> v>, 6
  dsaplan.set_flag <mte2 -> v>, 7
  dsaplan.wait_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 1
  dsaplan.wait_flag <mte2 -> v>, 2
  dsaplan.wait_flag <mte2 -> v>, 3
  dsaplan.wait_flag <mte2 -> v>, 4
  dsaplan.wait_flag <mte2 -> v>, 5
  dsaplan.wait_flag <mte2 -> v>, 6
  dsaplan.wait_flag <mte2 -> v>, 7
  dsaplan.set_flag <v -> mte2>, 0
  dsaplan.wait_flag <v -> mte2>, 0
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  return
}
