// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_db_two_address
// peer-syncs: 4
// peer-count: listed
// a double-buffered tile (the peer: hivm.multi_buffer = 2 and an event id selected at run time; ours: dsaplan.buffers = 2, unrolled, an id a slot).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @db_two_address(%x0: memref<16xf16> {llvm.noalias}, %x1: memref<16xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c4 {
      %t0 = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<16xf16, #dsaplan.space<ub>>
      memref.copy %x0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf16> to memref<16xf16, #dsaplan.space<ub>>
      memref.copy %t0, %x1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf16, #dsaplan.space<ub>> to memref<16xf16>
    }
    return
  }
}
