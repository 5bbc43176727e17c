// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_mem_injcet_sync_basic
// peer-syncs: 2
// peer-count: listed
// load, in-place vadd, store: <mte2 -> v> and <v -> mte3> (its closing PIPE_ALL not counted).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @basic(%x: memref<16x16x16xf16> {llvm.noalias}, %y: memref<16x16x16xf16> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %ob = arith.constant 8192 : index
    %b = memref.view %ub[%ob][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %b : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%a : memref<16x16x16xf16, #dsaplan.space<ub>>)
    memref.copy %a, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    return
  }
}
