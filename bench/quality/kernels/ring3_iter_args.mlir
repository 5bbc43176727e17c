// Triple buffering, a ring of three through scf.for iter_args: three input
// and three output tiles (16 KiB each) yielded rotated by one, (a, b, c)
// -> (b, c, a), so that the load of block i+2 may run while V computes
// block i and MTE3 stores block i-1.
//
//   y[r] = exp(x[r])   for 12 row blocks of [4 x 1024] f32
//
//   dsa-opt bench/quality/kernels/ring3_iter_args.mlir --dsa-plan="summary=true"

!tile = memref<4x1024xf32, #dsaplan.space<ub>>
!gm_tile = memref<4x1024xf32, strided<[1024, 1], offset: ?>>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @ring3_iter_args(%x: memref<48x1024xf32>, %y: memref<48x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c48 = arith.constant 48 : index
    %in0 = memref.alloc() {name = "in0"} : !tile
    %in1 = memref.alloc() {name = "in1"} : !tile
    %in2 = memref.alloc() {name = "in2"} : !tile
    %out0 = memref.alloc() {name = "out0"} : !tile
    %out1 = memref.alloc() {name = "out1"} : !tile
    %out2 = memref.alloc() {name = "out2"} : !tile
    %r:6 = scf.for %row = %c0 to %c48 step %c4
        iter_args(%a = %in0, %b = %in1, %c = %in2, %p = %out0, %q = %out1, %s = %out2)
        -> (!tile, !tile, !tile, !tile, !tile, !tile) {
      %x_gm = memref.subview %x[%row, 0] [4, 1024] [1, 1] : memref<48x1024xf32> to !gm_tile
      %y_gm = memref.subview %y[%row, 0] [4, 1024] [1, 1] : memref<48x1024xf32> to !gm_tile
      memref.copy %x_gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : !gm_tile to !tile
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : !tile) outs(%p : !tile)
      memref.copy %p, %y_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : !tile to !gm_tile
      scf.yield %b, %c, %a, %q, %s, %p : !tile, !tile, !tile, !tile, !tile, !tile
    }
    return
  }
}
