// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_inject_sync_dyn_view_and_reinterpret_cast
// peer-syncs: 1
// peer-count: listed
// a dynamic view loaded and stored through a reinterpret_cast: <mte2 -> mte3>.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @dyn_view(%x: memref<1x?xi16> {llvm.noalias}, %y: memref<?x1xi16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c1 : memref<1x?xi16>
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %v = memref.view %ub[%c0][%n] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x?xi16, #dsaplan.space<ub>>
    memref.copy %x, %v {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x?xi16> to memref<1x?xi16, #dsaplan.space<ub>>
    %rc = memref.reinterpret_cast %v to offset: [0], sizes: [%n, 1], strides: [1, 1] : memref<1x?xi16, #dsaplan.space<ub>> to memref<?x1xi16, #dsaplan.space<ub>>
    memref.copy %rc, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<?x1xi16, #dsaplan.space<ub>> to memref<?x1xi16>
    return
  }
}
