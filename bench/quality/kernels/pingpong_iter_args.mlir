// Double buffering through scf.for iter_args: two input and two output
// tiles (32 KiB each) allocated before the loop and yielded swapped, so
// that MTE2 can load block i+1 into one input tile while V computes block
// i from the other and MTE3 stores block i-1 from the other output tile.
// The two tiles of a pair never share a byte (both are live across the
// loop); what the overlap needs is syncs that know which tile an iteration
// touches (issue 14, items 1 and 2).
//
//   y[r] = exp(x[r])   for 8 row blocks of [8 x 1024] f32
//
//   dsa-opt bench/quality/kernels/pingpong_iter_args.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @pingpong_iter_args(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %in0 = memref.alloc() {name = "in0"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %in1 = memref.alloc() {name = "in1"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out0 = memref.alloc() {name = "out0"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out1 = memref.alloc() {name = "out1"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %r:4 = scf.for %row = %c0 to %c64 step %c8
        iter_args(%in = %in0, %in_next = %in1, %out = %out0, %out_next = %out1)
        -> (memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
            memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>) {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %x_gm, %in {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%in : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%out : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      scf.yield %in_next, %in, %out_next, %out
          : memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>,
            memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>
    }
    return
  }
}
