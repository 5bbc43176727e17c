// RUN: dsa-opt %s -split-input-file --dsa-plan="summary=true" -o /dev/null 2>&1 | FileCheck %s
//
// The summary names what held back a loop that ran below 1.5x overlap
// (issue 26, item 6), from the simulated run (lib/Sync/Simulate/SlowLoops.cpp).
//
// A double-buffered row loop whose input %x and output %y may alias (no
// llvm.noalias): each load waits for the previous store, though the run
// shows no byte in common. The summary names the two arguments, the two
// ops and the fix.
// CHECK: remark: @may_alias: simulated {{.*}}; loop 16:5: {{.*}} (1.00x overlap; held back by wait_flag <mte3 -> mte2> at 21:7, {{[0-9]+}} cycles stalled: GM ordering through arguments #1 and #0, which may alias: 'memref.copy' at 23:7 (mte3) then 'memref.copy' at 21:7 (mte2) share no byte in this run; mark them llvm.noalias if the caller never passes one buffer as both)
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @may_alias(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %row = %c0 to %c64 step %c8 {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %in = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<8x1024xf32, #dsaplan.space<ub>>
      %out = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<8x1024xf32, #dsaplan.space<ub>>
      memref.copy %x_gm, %in {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%in : memref<8x1024xf32, #dsaplan.space<ub>>) outs(%out : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}

// -----

// The same with %y llvm.noalias: the loop overlaps (above 1.5x), no cause.
// CHECK: remark: @no_alias: simulated {{.*}}; loop {{[0-9:]+}}: {{[0-9]+}} cycles of work in {{[0-9]+}} ({{[0-9.]+}}x overlap){{$}}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @no_alias(%x: memref<64x1024xf32>, %y: memref<64x1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %row = %c0 to %c64 step %c8 {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %in = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<8x1024xf32, #dsaplan.space<ub>>
      %out = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<8x1024xf32, #dsaplan.space<ub>>
      memref.copy %x_gm, %in {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%in : memref<8x1024xf32, #dsaplan.space<ub>>) outs(%out : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}

// -----

// One input and one output tile: the loop is slow for want of buffers, and
// the summary says which dependency holds it.
// CHECK: remark: @single_buffer: simulated {{.*}}x overlap; held back by wait_flag <{{[a-z0-9]+}} -> {{[a-z0-9]+}}> at {{[0-9:]+}}, {{[0-9]+}} cycles stalled: '{{.*}}' at {{[0-9:]+}} needs '{{.*}}' at {{[0-9:]+}}: the kernel's own dataflow (more buffers would let them overlap))
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @single_buffer(%x: memref<64x1024xf32>, %y: memref<64x1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %in = memref.alloc() : memref<8x1024xf32, #dsaplan.space<ub>>
    %out = memref.alloc() : memref<8x1024xf32, #dsaplan.space<ub>>
    scf.for %row = %c0 to %c64 step %c8 {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1] : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %x_gm, %in {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%in : memref<8x1024xf32, #dsaplan.space<ub>>) outs(%out : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}
