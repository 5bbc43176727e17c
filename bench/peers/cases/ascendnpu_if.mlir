// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_injcet_sync_if
// peer-syncs: 3
// peer-count: listed
// a vadd in an scf.if between load and store: <mte2 -> v>, <mte2 -> mte3> (the path without the vadd), <v -> mte3>.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @if(%x0: memref<16x16x16xf16> {llvm.noalias}, %x3: memref<16x16x16xf16> {llvm.noalias}, %p: i1) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %oc = arith.constant 8192 : index
    %c = memref.view %ub[%oc][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    scf.if %p {
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %c : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%a : memref<16x16x16xf16, #dsaplan.space<ub>>)
    }
    memref.copy %a, %x3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    return
  }
}
