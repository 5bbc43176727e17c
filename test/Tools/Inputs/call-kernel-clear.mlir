// call-kernel.mlir placed by hand with the helper's tile t at UB 256, clear
// of the caller's tile a at 0, which is live across the call
// (dsa-diff-calls.test).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%arg0: memref<64xf32>, %arg1: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c256 = arith.constant 256 : index
    %view = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %arg0, %view {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.negf {dsaplan.pipe = #dsaplan.pipe<v>} ins(%view : memref<64xf32, #dsaplan.space<ub>>) outs(%view : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <v -> mte3>, 0
    dsaplan.wait_flag <v -> mte3>, 0
    memref.copy %view, %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
  func.func @caller(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>, %arg3: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %view = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %arg1, %view {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> mte3>, 0
    dsaplan.wait_flag <mte2 -> mte3>, 0
    call @helper(%arg0, %arg3) {dsaplan.pipe = #dsaplan.pipe<mte3>} : (memref<64xf32>, memref<64xf32>) -> ()
    dsaplan.pipe_barrier <mte3>
    memref.copy %view, %arg2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

