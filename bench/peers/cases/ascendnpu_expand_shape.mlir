// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_injcet_sync_expand_shape
// peer-syncs: 2
// peer-count: listed
// the same through an expand_shape.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @expand_shape(%x0: memref<16x16x16xf16> {llvm.noalias}, %x1: memref<16x16x16xf16> {llvm.noalias}, %y: memref<2x8x16x16xf16> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %ob = arith.constant 8192 : index
    %b = memref.view %ub[%ob][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %oc = arith.constant 0 : index
    %c = memref.view %ub[%oc][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x1, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %b : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%c : memref<16x16x16xf16, #dsaplan.space<ub>>)
    %es = memref.expand_shape %c [[0, 1], [2], [3]] output_shape [2, 8, 16, 16] : memref<16x16x16xf16, #dsaplan.space<ub>> into memref<2x8x16x16xf16, #dsaplan.space<ub>>
    memref.copy %es, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<2x8x16x16xf16, #dsaplan.space<ub>> to memref<2x8x16x16xf16>
    return
  }
}
