// Rotary position embedding over rows of 128 f32 (two halves of 64), 16
// rows a block; x, cos and sin tiles double-buffered:
//
//   y[r, :64] = x[r, :64] * cos[r] - x[r, 64:] * sin[r]
//   y[r, 64:] = x[r, 64:] * cos[r] + x[r, :64] * sin[r]
//
// The halves are static subviews of the UB tiles; the row blocks are
// subviews of GM at %row (issue 26, item 1). The output is `llvm.noalias`.
//
//   dsa-opt bench/quality/kernels/rope.mlir --dsa-plan="summary=true"

#id = affine_map<(d0, d1) -> (d0, d1)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @rope(%x: memref<256x128xf32>, %cos: memref<256x64xf32>,
                  %sin: memref<256x64xf32>, %y: memref<256x128xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    scf.for %row = %c0 to %c256 step %c16 {
      %x_gm = memref.subview %x[%row, 0] [16, 128] [1, 1]
          : memref<256x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
      %cos_gm = memref.subview %cos[%row, 0] [16, 64] [1, 1]
          : memref<256x64xf32> to memref<16x64xf32, strided<[64, 1], offset: ?>>
      %sin_gm = memref.subview %sin[%row, 0] [16, 64] [1, 1]
          : memref<256x64xf32> to memref<16x64xf32, strided<[64, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [16, 128] [1, 1]
          : memref<256x128xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
      %x_ub = memref.alloc() {name = "x", dsaplan.buffers = 2 : i64} : memref<16x128xf32, #dsaplan.space<ub>>
      %cos_ub = memref.alloc() {name = "cos", dsaplan.buffers = 2 : i64} : memref<16x64xf32, #dsaplan.space<ub>>
      %sin_ub = memref.alloc() {name = "sin", dsaplan.buffers = 2 : i64} : memref<16x64xf32, #dsaplan.space<ub>>
      memref.copy %x_gm, %x_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<16x128xf32, strided<[128, 1], offset: ?>> to memref<16x128xf32, #dsaplan.space<ub>>
      memref.copy %cos_gm, %cos_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<16x64xf32, strided<[64, 1], offset: ?>> to memref<16x64xf32, #dsaplan.space<ub>>
      memref.copy %sin_gm, %sin_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<16x64xf32, strided<[64, 1], offset: ?>> to memref<16x64xf32, #dsaplan.space<ub>>
      %x1 = memref.subview %x_ub[0, 0] [16, 64] [1, 1]
          : memref<16x128xf32, #dsaplan.space<ub>> to memref<16x64xf32, strided<[128, 1]>, #dsaplan.space<ub>>
      %x2 = memref.subview %x_ub[0, 64] [16, 64] [1, 1]
          : memref<16x128xf32, #dsaplan.space<ub>> to memref<16x64xf32, strided<[128, 1], offset: 64>, #dsaplan.space<ub>>
      %y_ub = memref.alloc() {name = "y", dsaplan.buffers = 2 : i64} : memref<16x128xf32, #dsaplan.space<ub>>
      %y1 = memref.subview %y_ub[0, 0] [16, 64] [1, 1]
          : memref<16x128xf32, #dsaplan.space<ub>> to memref<16x64xf32, strided<[128, 1]>, #dsaplan.space<ub>>
      %y2 = memref.subview %y_ub[0, 64] [16, 64] [1, 1]
          : memref<16x128xf32, #dsaplan.space<ub>> to memref<16x64xf32, strided<[128, 1], offset: 64>, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x1, %x2, %cos_ub, %sin_ub : memref<16x64xf32, strided<[128, 1]>, #dsaplan.space<ub>>,
              memref<16x64xf32, strided<[128, 1], offset: 64>, #dsaplan.space<ub>>,
              memref<16x64xf32, #dsaplan.space<ub>>, memref<16x64xf32, #dsaplan.space<ub>>)
          outs(%y1 : memref<16x64xf32, strided<[128, 1]>, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %out: f32):
        %ac = arith.mulf %a, %c : f32
        %bs = arith.mulf %b, %s : f32
        %r = arith.subf %ac, %bs : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x1, %x2, %cos_ub, %sin_ub : memref<16x64xf32, strided<[128, 1]>, #dsaplan.space<ub>>,
              memref<16x64xf32, strided<[128, 1], offset: 64>, #dsaplan.space<ub>>,
              memref<16x64xf32, #dsaplan.space<ub>>, memref<16x64xf32, #dsaplan.space<ub>>)
          outs(%y2 : memref<16x64xf32, strided<[128, 1], offset: 64>, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %out: f32):
        %bc = arith.mulf %b, %c : f32
        %as = arith.mulf %a, %s : f32
        %r = arith.addf %bc, %as : f32
        linalg.yield %r : f32
      }
      memref.copy %y_ub, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<16x128xf32, #dsaplan.space<ub>> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    }
    return
  }
}
