// The control: one input and one output tile in UB, reused by every
// iteration. Iteration i+1's load must wait for iteration i's V read of
// the input, and its V write for iteration i's MTE3 read of the output,
// so the pipes overlap only a little; makespan near serial is the truth
// here, not a defect.
//
//   y[r] = exp(x[r])   for 8 row blocks of [8 x 1024] f32 (32 KiB each)
//
//   dsa-opt bench/quality/kernels/single_buffer.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @single_buffer(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %in = memref.alloc() {name = "in"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out = memref.alloc() {name = "out"} : memref<8x1024xf32, #dsaplan.space<ub>>
    scf.for %row = %c0 to %c64 step %c8 {
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
    }
    return
  }
}
