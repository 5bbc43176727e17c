// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"schema_version": 1, "instance": "out_of_event_ids", "pools": [{"id": "ub", "name": "ub", "capacity": 196608, "peak": 32, "lower_bound": 32, "status": "optimal", "proof": "none", "certificate": [], "nodes": 0, "buffers": [{"id": "0", "name": "t", "size": 32, "alignment": 32, "offset": 0, "live": [[19, 22]], "partial_reuse": false}]}]}' > %t/out_of_event_ids.json
// RUN: dsa-opt %s -dsaplan-insert-sync="report-dir=%t" | FileCheck %s --check-prefix=IR --implicit-check-not=report_point
// RUN: %python %S/Inputs/check_schemas.py %t
// RUN: FileCheck %s < %t/out_of_event_ids.ub.svg
// RUN: %python %S/Inputs/check_pictures.py %t out_of_event_ids | FileCheck %s --check-prefix=PICTURE

// A barrier_all (insert-sync's last resort when no event id is free, as in
// insert-sync-barrier-all.mlir) is marked on the memory map at the access
// it holds back, as a drain of every pipe; the marks of the placement's
// program points are gone from the IR.
// IR: memref.copy
// IR-NEXT: dsaplan.barrier_all
// IR-NEXT: linalg.exp
// CHECK: 1 buffers, peak 32 B, lower bound 32 B, capacity 192 KiB, optimal; 0 arrows for the function's 8 set_flag ops, 1 barriers
// CHECK: <g class="barrier" data-pipe="all" data-point="20"><title>barrier_all at {{.*}}
// CHECK-NEXT: before linalg.exp (v, {{.*}}insert-sync-pictures-barrier-all.mlir:{{[0-9]+}}:{{[0-9]+}})</title>
// CHECK: barrier_all (every pipe)
// PICTURE: ub: 0 arrows (0 to the next iteration, 0 with an end on no tile), 1 barriers, peak 32, lower bound 32: ok
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
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>, dsaplan.report_point = 18 : i64} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.report_point = 20 : i64} ins(%t : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
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
