// RUN: dsa-opt %s -dsa-plan 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-import -dsaplan-compute-lifetimes -dsaplan-assign-offsets -dsaplan-materialize -o %t.placed.mlir 2>/dev/null
// RUN: dsa-opt %t.placed.mlir -dsaplan-insert-sync 2>/dev/null | dsa-opt -dsaplan-verify-sync | FileCheck %s --check-prefix=STAGES
// RUN: dsa-opt %t.placed.mlir -dsaplan-insert-sync 2>/dev/null | dsa-opt -dsaplan-simulate="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIMULATE

// A bodiless declaration, and a call to it with a tile (each pass used to
// crash walking the declaration's empty region; dsaplan-simulate too, found
// by random_sync_kernels.py once it called declarations). The call says which pipe
// its callee runs on; its effects are unknown, so it reads and writes the
// whole tile on that pipe: mte2 -> v before it, a v barrier after it (the
// exp reads what the call may have written), v -> mte3 before the store.

// CHECK: remark: call to @helper has unknown memory effects: taken to read and write all its dsaplan memrefs on pipe v
// CHECK-LABEL: func.func private @helper(memref<256xf32, #dsaplan.space<ub>>)
// CHECK-LABEL: func.func @k
// CHECK:      memref.copy %{{.*}}, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, [[E0:[0-9]]]
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, [[E0]]
// CHECK-NEXT: call @helper(%[[A]]) {dsaplan.pipe = #dsaplan.pipe<v>}
// CHECK-NEXT: dsaplan.pipe_barrier <v>
// CHECK-NEXT: linalg.exp
// CHECK-NEXT: dsaplan.set_flag <v -> mte3>, [[E1:[0-9]]]
// CHECK-NEXT: dsaplan.wait_flag <v -> mte3>, [[E1]]
// CHECK-NEXT: memref.copy

// STAGES-LABEL: func.func private @helper
// STAGES-LABEL: func.func @k
// STAGES: dsaplan.wait_flag <mte2 -> v>
// STAGES-NEXT: call @helper
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(memref<256xf32, #dsaplan.space<ub>>)
  func.func @k(%gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    func.call @helper(%a) {dsaplan.pipe = #dsaplan.pipe<v>} : (memref<256xf32, #dsaplan.space<ub>>) -> ()
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}

// The simulator runs @k only, and finds nothing wrong with the synced kernel.
// SIMULATE-NOT: @helper
// SIMULATE: remark: @k: {{.*}}
// SIMULATE-NOT: error
