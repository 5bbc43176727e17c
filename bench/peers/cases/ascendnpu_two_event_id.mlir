// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_injcet_sync_two_event_id
// peer-syncs: 4
// peer-count: listed
// two independent load-add-store chains: one pair a chain and pipe pair (ids 0 and 1).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @two_event_id(%x0: memref<16x16x16xf16> {llvm.noalias}, %x1: memref<16x16x16xf16> {llvm.noalias}, %y0: memref<16x16x16xf16> {llvm.noalias}, %y1: memref<16x16x16xf16> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %ob = arith.constant 8192 : index
    %b = memref.view %ub[%ob][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %oc = arith.constant 16384 : index
    %c = memref.view %ub[%oc][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %od = arith.constant 24576 : index
    %d = memref.view %ub[%od][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x1, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %c : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%a : memref<16x16x16xf16, #dsaplan.space<ub>>)
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b, %d : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%b : memref<16x16x16xf16, #dsaplan.space<ub>>)
    memref.copy %a, %y1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    memref.copy %b, %y0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    return
  }
}
