// test/Tools/Inputs/carried-kernel.mlir as --dsa-plan places it, but with
// both slots of %cur at byte 256 (edited by hand: %view_2 at %c256, not
// %c512): the one offset a carried tile had before dsaplan-rotate-carried.
// Each iteration loads its row over the previous one it still adds, so
// add(%prev, %cur) computes cur + cur.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_by_for(%arg0: memref<4x64xf32>, %arg1: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0_0 = arith.constant 0 : index
    %view = memref.view %ub[%c0_0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %subview = memref.subview %arg0[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    memref.copy %subview, %view {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    %c256 = arith.constant 256 : index
    %view_1 = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c512 = arith.constant 512 : index
    %view_2 = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.wait_flag <mte2 -> v>, 0
    dsaplan.set_flag <v -> mte2>, 0
    %0:3 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %view, %arg4 = %view_1, %arg5 = %view_2) -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
      %subview_3 = memref.subview %arg0[%arg2, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      dsaplan.wait_flag <v -> mte2>, 0
      memref.copy %subview_3, %arg4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      dsaplan.set_flag <mte2 -> v>, 0
      dsaplan.wait_flag <mte2 -> v>, 0
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%arg3, %arg4 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%arg4 : memref<64xf32, #dsaplan.space<ub>>)
      dsaplan.set_flag <v -> mte2>, 0
      scf.yield %arg4, %arg5, %arg4 : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
    }
    dsaplan.wait_flag <v -> mte2>, 0
    dsaplan.set_flag <v -> mte3>, 0
    dsaplan.wait_flag <v -> mte3>, 0
    memref.copy %0#0, %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

