// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_injcet_sync_loop
// peer-syncs: 3
// peer-count: listed
// one tile loaded and stored in a loop: the back-edge pair (pre-set, set) and the load-to-store pair.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @loop(%x: memref<16x16x16xf16> {llvm.noalias}, %y: memref<16x16x16xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    scf.for %i = %c0 to %c1024 step %c128 {
      memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
      memref.copy %a, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    }
    return
  }
}
