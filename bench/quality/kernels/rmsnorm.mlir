// RMSNorm over rows, 8 rows (32 KiB) a block, input and output tiles
// double-buffered with `dsaplan.buffers = 2`:
//
//   y[r] = x[r] / sqrt(mean(x[r]^2) + eps) * gamma     per row
//
// The row loop reads x and writes y through subviews at %row: block i's
// store and block i+1's load touch different rows (issue 26, item 1). The
// output is `llvm.noalias` (the caller never passes x as y); x and gamma
// are only read.
//
//   dsa-opt bench/quality/kernels/rmsnorm.mlir --dsa-plan="summary=true"

#row_map = affine_map<(d0, d1) -> (d0, d1)>
#red_map = affine_map<(d0, d1) -> (d0)>
#col_map = affine_map<(d0, d1) -> (0, d1)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @rmsnorm(%x: memref<64x1024xf32>, %gamma: memref<1x1024xf32>,
                     %y: memref<64x1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %inv_n = arith.constant 9.765625e-04 : f32
    %eps = arith.constant 1.0e-06 : f32
    %gamma_ub = memref.alloc() {name = "gamma"} : memref<1x1024xf32, #dsaplan.space<ub>>
    memref.copy %gamma, %gamma_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<1x1024xf32> to memref<1x1024xf32, #dsaplan.space<ub>>
    scf.for %row = %c0 to %c64 step %c8 {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %x_ub = memref.alloc() {name = "x", dsaplan.buffers = 2 : i64}
          : memref<8x1024xf32, #dsaplan.space<ub>>
      memref.copy %x_gm, %x_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      // Sum of squares per row.
      %ss = memref.alloc() {name = "sum_sq"} : memref<8xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%zero : f32) outs(%ss : memref<8xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row_map, #red_map],
                      iterator_types = ["parallel", "reduction"]}
          ins(%x_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%ss : memref<8xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %sq = arith.mulf %in, %in : f32
        %s = arith.addf %sq, %acc : f32
        linalg.yield %s : f32
      }
      // y = x * rsqrt(ss / n + eps) * gamma
      %y_ub = memref.alloc() {name = "y", dsaplan.buffers = 2 : i64}
          : memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#row_map, #red_map, #col_map, #row_map],
                      iterator_types = ["parallel", "parallel"]}
          ins(%x_ub, %ss, %gamma_ub : memref<8x1024xf32, #dsaplan.space<ub>>,
              memref<8xf32, #dsaplan.space<ub>>, memref<1x1024xf32, #dsaplan.space<ub>>)
          outs(%y_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %s: f32, %g: f32, %out: f32):
        %mean = arith.mulf %s, %inv_n : f32
        %m = arith.addf %mean, %eps : f32
        %r = math.rsqrt %m : f32
        %n = arith.mulf %in, %r : f32
        %o = arith.mulf %n, %g : f32
        linalg.yield %o : f32
      }
      memref.copy %y_ub, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}
