// RUN: dsa-opt %s -split-input-file | FileCheck %s
// RUN: dsa-opt %s -split-input-file | dsa-opt -split-input-file | FileCheck %s
// RUN: dsa-opt %s -split-input-file --mlir-print-op-generic | dsa-opt -split-input-file | FileCheck %s

// Every attribute and op of the dialect survives a print/parse round trip.

// CHECK: module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {alignment = 64 : i64, capacity = 131072 : i64, reserved = {{\[\[}}0, 1024]]}}>}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 131072, alignment = 64, reserved = [[0, 1024]]}}>} {

// CHECK-LABEL: func.func @allocs
func.func @allocs() {
  // CHECK: %x_tile = dsaplan.alloc {name = "x_tile"} : memref<32x32xf32, #dsaplan.space<ub>>
  %a = dsaplan.alloc {name = "x_tile"} : memref<32x32xf32, #dsaplan.space<ub>>
  // CHECK: dsaplan.alloc {alignment = 128 : i64, live = #dsaplan.live<4 to 9, 12 to 15>, offset = 4096 : i64} : memref<16x32xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc {alignment = 128 : i64, live = #dsaplan.live<4 to 9, 12 to 15>, offset = 4096 : i64} : memref<16x32xf32, #dsaplan.space<ub>>
  // CHECK: dsaplan.alloc : memref<64x64xf16, #dsaplan.space<l1>>
  %c = dsaplan.alloc : memref<64x64xf16, #dsaplan.space<l1>>
  // CHECK: dsaplan.alloc : memref<16x16xf16, #dsaplan.space<l0a>>
  %d = dsaplan.alloc : memref<16x16xf16, #dsaplan.space<l0a>>
  // CHECK: dsaplan.alloc : memref<16x16xf16, #dsaplan.space<l0b>>
  %e = dsaplan.alloc : memref<16x16xf16, #dsaplan.space<l0b>>
  // CHECK: dsaplan.alloc : memref<16x16xf32, #dsaplan.space<l0c>>
  %f = dsaplan.alloc : memref<16x16xf32, #dsaplan.space<l0c>>
  // CHECK: dsaplan.alloc : memref<16xf32, #dsaplan.space<bt>>
  %g = dsaplan.alloc : memref<16xf32, #dsaplan.space<bt>>

  // CHECK: dsaplan.separate %x_tile, %{{.*}} {reason = "pipeline_stage"} : memref<32x32xf32, #dsaplan.space<ub>>, memref<16x32xf32, #dsaplan.space<ub>>
  dsaplan.separate %a, %b {reason = "pipeline_stage"} : memref<32x32xf32, #dsaplan.space<ub>>, memref<16x32xf32, #dsaplan.space<ub>>
  // CHECK: dsaplan.colocate %x_tile, %{{.*}} : memref<32x32xf32, #dsaplan.space<ub>>, memref<16x32xf32, #dsaplan.space<ub>>
  dsaplan.colocate %a, %b : memref<32x32xf32, #dsaplan.space<ub>>, memref<16x32xf32, #dsaplan.space<ub>>
  return
}

// CHECK-LABEL: func.func @arena_and_sync
func.func @arena_and_sync(%gm: memref<256xf32>) {
  // CHECK: %ub = dsaplan.arena <ub> : memref<131072xi8, #dsaplan.space<ub>>
  %ub = dsaplan.arena <ub> : memref<131072xi8, #dsaplan.space<ub>>
  // CHECK: %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %c4096 = arith.constant 4096 : index
  %t = memref.view %ub[%c4096][] : memref<131072xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // CHECK: dsaplan.set_flag <v -> mte2>, 0
  dsaplan.set_flag <v -> mte2>, 0
  // CHECK: dsaplan.wait_flag <v -> mte2>, 0
  dsaplan.wait_flag <v -> mte2>, 0
  // CHECK: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // CHECK: dsaplan.set_flag <mte2 -> v>, 7
  dsaplan.set_flag <mte2 -> v>, 7
  // CHECK: dsaplan.wait_flag <mte2 -> v>, 7
  dsaplan.wait_flag <mte2 -> v>, 7
  // CHECK: dsaplan.pipe_barrier <v>
  dsaplan.pipe_barrier <v>
  // CHECK: dsaplan.barrier_all
  dsaplan.barrier_all
  // CHECK: dsaplan.set_flag <s -> m>, 1
  dsaplan.set_flag <s -> m>, 1
  // CHECK: dsaplan.wait_flag <mte1 -> m>, 2
  dsaplan.wait_flag <mte1 -> m>, 2
  // CHECK: dsaplan.set_flag <m -> fix>, 3
  dsaplan.set_flag <m -> fix>, 3
  // CHECK: dsaplan.set_flag <fix -> mte2>, 4
  dsaplan.set_flag <fix -> mte2>, 4
  // CHECK: dsaplan.set_flag <mte3 -> mte2>, 5 {dsaplan.core = #dsaplan.core<vector>}
  dsaplan.set_flag <mte3 -> mte2>, 5 {dsaplan.core = #dsaplan.core<vector>}
  // The cross-core flags: the cube's FIX signals the vector cores, the
  // vector core's MTE2 signals the cube, ids 0-10.
  // CHECK: dsaplan.cross_core_set cube <fix>, mode 2, id 0
  dsaplan.cross_core_set cube <fix>, mode 2, id 0
  // CHECK: dsaplan.cross_core_wait vector, mode 2, id 0
  dsaplan.cross_core_wait vector, mode 2, id 0
  // CHECK: dsaplan.cross_core_set vector <mte2>, mode 2, id 10
  dsaplan.cross_core_set vector <mte2>, mode 2, id 10
  // CHECK: dsaplan.cross_core_wait cube, mode 2, id 10
  dsaplan.cross_core_wait cube, mode 2, id 10
  // CHECK: dsaplan.cross_core_set vector <mte3>, mode 1, id 3
  dsaplan.cross_core_set vector <mte3>, mode 1, id 3
  // CHECK: dsaplan.cross_core_set cube <fix>, mode 0, id 4
  dsaplan.cross_core_set cube <fix>, mode 0, id 4
  // CHECK: linalg.fill {dsaplan.in_place, dsaplan.pipe = #dsaplan.pipe<v>}
  %zero = arith.constant 0.0 : f32
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place} ins(%zero : f32) outs(%t : memref<256xf32, #dsaplan.space<ub>>)
  return
}

}

// -----
// A second target table by name.
// CHECK: module attributes {dsaplan.target = #dsaplan.target<"ascend950">}
module attributes {dsaplan.target = #dsaplan.target<"ascend950">} {
  // CHECK: dsaplan.arena <ub> : memref<253952xi8, #dsaplan.space<ub>>
  func.func @k() {
    %ub = dsaplan.arena <ub> : memref<253952xi8, #dsaplan.space<ub>>
    // Mode 4 exists on ascend950 only (errors.mlir), and MTE3 runs on both
    // of its cores.
    // CHECK: dsaplan.cross_core_set vector <v>, mode 4, id 1
    dsaplan.cross_core_set vector <v>, mode 4, id 1
    // CHECK: dsaplan.set_flag <fix -> mte3>, 4
    dsaplan.set_flag <fix -> mte3>, 4
    return
  }
}
