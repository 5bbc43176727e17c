// bench/reuse variant of examples/softmax.mlir: the same kernel with
// `dsaplan.buffers = "auto"` on the input tile `x_ub` and the output tile
// `y_ub`, to see how dsaplan-multi-buffer (which runs before placement)
// and objective=waits share UB. Multi-buffer decides first, on whether the
// slots fit; whatever room it leaves is what waits can use to keep tiles of
// different pipes apart.
//
//   bench/reuse/flags.py bench/reuse/kernels/softmax_auto.mlir

#row_map = affine_map<(d0, d1) -> (d0, d1)>
#red_map = affine_map<(d0, d1) -> (d0)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @softmax_auto(%x: memref<64x1024xf32>, %scale: memref<8x1024xf32>,
                             %y: memref<64x1024xf32> {llvm.noalias}, %scaled: i1) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32

    scf.for %row = %c0 to %c64 step %c8 {
      %x_gm = memref.subview %x[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_gm = memref.subview %y[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>

      %x_ub = memref.alloc() {name = "x_ub", dsaplan.buffers = "auto"} : memref<8x1024xf32, #dsaplan.space<ub>>
      memref.copy %x_gm, %x_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>

      // Optionally scale: two different temporaries in the two branches.
      %t = memref.alloc() {name = "t"} : memref<8x1024xf32, #dsaplan.space<ub>>
      scf.if %scaled {
        %scale_ub = memref.alloc() {name = "scale_ub"} : memref<8x1024xf32, #dsaplan.space<ub>>
        memref.copy %scale, %scale_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
            : memref<8x1024xf32> to memref<8x1024xf32, #dsaplan.space<ub>>
        linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>}
            ins(%x_ub, %scale_ub : memref<8x1024xf32, #dsaplan.space<ub>>, memref<8x1024xf32, #dsaplan.space<ub>>)
            outs(%t : memref<8x1024xf32, #dsaplan.space<ub>>)
      } else {
        %copy_ub = memref.alloc() {name = "copy_ub"} : memref<8x1024xf32, #dsaplan.space<ub>>
        linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>}
            ins(%x_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
            outs(%copy_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
        linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>}
            ins(%copy_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
            outs(%t : memref<8x1024xf32, #dsaplan.space<ub>>)
      }

      // Row maximum.
      %row_max = memref.alloc() {name = "row_max"} : memref<8xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%ninf : f32) outs(%row_max : memref<8xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row_map, #red_map],
                      iterator_types = ["parallel", "reduction"]}
          ins(%t : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%row_max : memref<8xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }

      // e = exp(t - max), and its row sums.
      %e = memref.alloc() {name = "e"} : memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#row_map, #red_map, #row_map],
                      iterator_types = ["parallel", "parallel"]}
          ins(%t, %row_max : memref<8x1024xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
          outs(%e : memref<8x1024xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %m: f32, %out: f32):
        %d = arith.subf %in, %m : f32
        %x_exp = math.exp %d : f32
        linalg.yield %x_exp : f32
      }
      %row_sum = memref.alloc() {name = "row_sum"} : memref<8xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%zero : f32) outs(%row_sum : memref<8xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row_map, #red_map],
                      iterator_types = ["parallel", "reduction"]}
          ins(%e : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%row_sum : memref<8xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }

      // y = e / sum, then out to GM.
      %y_ub = memref.alloc() {name = "y_ub", dsaplan.buffers = "auto"} : memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#row_map, #red_map, #row_map],
                      iterator_types = ["parallel", "parallel"]}
          ins(%e, %row_sum : memref<8x1024xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
          outs(%y_ub : memref<8x1024xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %s: f32, %out: f32):
        %q = arith.divf %in, %s : f32
        linalg.yield %q : f32
      }
      memref.copy %y_ub, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}
