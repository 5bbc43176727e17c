// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | dsa-opt -split-input-file -dsaplan-verify-sync | dsa-opt -split-input-file -dsaplan-simulate="runs=4" -o /dev/null
//
// dsaplan.barrier_all (PIPE_ALL) is insert-sync's last resort for a flag
// pair that no event id can carry: the pass never refuses a kernel for want
// of an id. Both kernels are checked by verify-sync and the simulator too.

// The input's own flags hold all eight ids of <mte2 -> v> from before the
// load to after the exp; ids of the input are never reused where they are
// in flight, so the load -> exp dependency has none left: every pipe drains
// before the exp instead (it used to be refused with "no free event id").
// SUMMARY: remark: @out_of_event_ids: 0 flag pairs {{.*}}, 1 barrier_all for want of a safe event id)
// CHECK-LABEL: func.func @out_of_event_ids
// CHECK:         memref.copy {{.*}}pipe<mte2>
// CHECK-NEXT:    dsaplan.barrier_all
// CHECK-NEXT:    linalg.exp
func.func @out_of_event_ids(%gm: memref<8xf32>, %out: memref<8xf32>) {
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
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  dsaplan.wait_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 1
  dsaplan.wait_flag <mte2 -> v>, 2
  dsaplan.wait_flag <mte2 -> v>, 3
  dsaplan.wait_flag <mte2 -> v>, 4
  dsaplan.wait_flag <mte2 -> v>, 5
  dsaplan.wait_flag <mte2 -> v>, 6
  dsaplan.wait_flag <mte2 -> v>, 7
  return
}

// -----

// A loop pair with no id: all eight <v -> mte2> ids are the input's from
// before the loop to after it. The barrier_all in the body orders the last
// iteration's exp before the next load; the one after the loop stands in
// for the drain, which orders the last exp before the load after the loop
// (without it, verify-sync reports that load racing the exp).
// SUMMARY: remark: @loop_pair_out_of_ids: {{.*}}, 1 barrier_all for want of a safe event id)
// CHECK-LABEL: func.func @loop_pair_out_of_ids
// CHECK:         scf.for
// CHECK-NEXT:      dsaplan.barrier_all
// CHECK-NEXT:      memref.copy
// CHECK:         {{^ *}}}{{$}}
// CHECK-NEXT:    dsaplan.barrier_all
// CHECK-NEXT:    memref.copy
func.func @loop_pair_out_of_ids(%gm: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <v -> mte2>, 0
  dsaplan.set_flag <v -> mte2>, 1
  dsaplan.set_flag <v -> mte2>, 2
  dsaplan.set_flag <v -> mte2>, 3
  dsaplan.set_flag <v -> mte2>, 4
  dsaplan.set_flag <v -> mte2>, 5
  dsaplan.set_flag <v -> mte2>, 6
  dsaplan.set_flag <v -> mte2>, 7
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  }
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  dsaplan.wait_flag <v -> mte2>, 0
  dsaplan.wait_flag <v -> mte2>, 1
  dsaplan.wait_flag <v -> mte2>, 2
  dsaplan.wait_flag <v -> mte2>, 3
  dsaplan.wait_flag <v -> mte2>, 4
  dsaplan.wait_flag <v -> mte2>, 5
  dsaplan.wait_flag <v -> mte2>, 6
  dsaplan.wait_flag <v -> mte2>, 7
  return
}
