// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync

// Nine loads on MTE2, then nine V reads of what they loaded. Each read waits
// for its own load (a set right after each load), which keeps eight
// mte2 -> v flags in flight across the reads: ids 0-7. The ninth pair finds
// none free, so its set moves down to just before its wait, where the other
// eight have been waited for.
// CHECK: remark: @out_of_event_ids: 9 flag pairs (0 around loops, 0 eager, 1 set late for want of an event id)
// CHECK-LABEL: func.func @out_of_event_ids
// CHECK-COUNT-8: dsaplan.set_flag <mte2 -> v>
// CHECK-NOT:     dsaplan.set_flag
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 7
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.exp
func.func @out_of_event_ids(%gm: memref<8xf32>, %out: memref<8xf32>) {
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
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t3 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t4 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t5 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t6 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t7 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t8 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  return
}
