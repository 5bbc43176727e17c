// RUN: dsa-opt %s -dsa-plan | FileCheck %s
// RUN: dsa-opt %s -dsa-plan | dsa-opt -dsaplan-verify-sync

// A frontend kernel in the vector and math dialects (registered in dsa-opt):
// vector.transfer_read/transfer_write and vector.load/store on UB tiles are
// accesses on the pipe their dsaplan.pipe gives (read/write effects on the
// memref from MLIR's MemoryEffectOpInterface). a and b are co-live: a at 0,
// b at 256.
// CHECK-LABEL: func.func @vec
// CHECK:      memref.copy %{{.*}}, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, [[E0:[0-9]]]
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, [[E0]]
// CHECK-NEXT: vector.transfer_read %[[A]]
// CHECK-NEXT: math.exp
// CHECK-NEXT: vector.transfer_write
// CHECK-NEXT: dsaplan.pipe_barrier <v>
// CHECK-NEXT: vector.load
// CHECK-NEXT: vector.store
// CHECK-NEXT: dsaplan.set_flag <v -> mte3>, [[E1:[0-9]]]
// CHECK-NEXT: dsaplan.wait_flag <v -> mte3>, [[E1]]
// CHECK-NEXT: memref.copy %[[A]]
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @vec(%gm: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %a = memref.alloc() {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    %v = vector.transfer_read %a[%c0], %pad {dsaplan.pipe = #dsaplan.pipe<v>} : memref<64xf32, #dsaplan.space<ub>>, vector<64xf32>
    %e = math.exp %v : vector<64xf32>
    vector.transfer_write %e, %b[%c0] {dsaplan.pipe = #dsaplan.pipe<v>} : vector<64xf32>, memref<64xf32, #dsaplan.space<ub>>
    %w = vector.load %b[%c0] {dsaplan.pipe = #dsaplan.pipe<v>} : memref<64xf32, #dsaplan.space<ub>>, vector<64xf32>
    vector.store %w, %a[%c0] {dsaplan.pipe = #dsaplan.pipe<v>} : memref<64xf32, #dsaplan.space<ub>>, vector<64xf32>
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}
