// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %s -dsaplan-insert-sync="report-dir=%t" | FileCheck %s --check-prefix=IR
// RUN: %python %S/Inputs/check_schemas.py %t
// RUN: FileCheck %s < %t/out_of_event_ids.ub.svg

// A barrier_all (insert-sync's last resort when no event id is free, as in
// insert-sync-barrier-all.mlir) is marked on the memory map at the access
// it holds back (the linalg.exp, op 12: points 24, 25 of the input), as a
// drain of every pipe.
// IR: memref.copy
// IR-NEXT: dsaplan.barrier_all
// IR-NEXT: linalg.exp
// CHECK: 1 buffers, peak 32 B, lower bound 32 B, capacity 192 KiB, optimal; 0 arrows for the function's 8 set_flag ops, 1 barriers
// CHECK: <g class="barrier" data-pipe="all" data-point="24"><title>barrier_all at {{.*}}
// CHECK-NEXT: before linalg.exp (v, {{.*}}insert-sync-pictures-barrier-all.mlir:{{[0-9]+}}:{{[0-9]+}})</title>
// CHECK: barrier_all (every pipe)
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
