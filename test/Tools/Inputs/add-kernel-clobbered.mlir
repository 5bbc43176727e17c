// add-kernel.mlir wrongly placed: b at byte 128 overlaps the second half of
// a (bytes [0, 256)) while both are live, so loading y into b overwrites
// x[32..63] in a, and out[32] becomes y[0] + y[32] instead of x[32] + y[32].
// The syncs are as the pipeline would insert them: they do not help.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @add_tiles(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c128 = arith.constant 128 : index
    %b = memref.view %ub[%c128][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c512 = arith.constant 512 : index
    %c = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
    memref.copy %y, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%a, %b : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>)
        outs(%c : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <v -> mte3>, 0
    dsaplan.wait_flag <v -> mte3>, 0
    memref.copy %c, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}
