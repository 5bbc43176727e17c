// An in-place update of GM: one argument read and written, 8 rows
// (32 KiB) at a time, the loop body unrolled by two by hand: the ping
// tiles take rows %r, the pong tiles rows %r + 8.
//
//   x[r] = exp(x[r])     for 16 blocks of [8 x 1024] f32
//
// Each block is loaded, computed and stored back to the same rows; no
// block reads rows another block writes. With GM as the whole argument,
// every load waits for every earlier store and the ping-pong serialises;
// with ranges by loop index only a store and a later load of the same
// rows are ordered (issue 26, item 1).
//
//   dsa-opt bench/quality/kernels/inplace_update.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @inplace_update(%x: memref<128x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %in0 = memref.alloc() {name = "in_ping"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %in1 = memref.alloc() {name = "in_pong"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out0 = memref.alloc() {name = "out_ping"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out1 = memref.alloc() {name = "out_pong"} : memref<8x1024xf32, #dsaplan.space<ub>>
    scf.for %r = %c0 to %c128 step %c16 {
      %ping = memref.subview %x[%r, 0] [8, 1024] [1, 1]
          : memref<128x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %ping, %in0 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%in0 : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%out0 : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out0, %ping {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %r8 = arith.addi %r, %c8 : index
      %pong = memref.subview %x[%r8, 0] [8, 1024] [1, 1]
          : memref<128x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %pong, %in1 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%in1 : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%out1 : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out1, %pong {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}
