// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_db_two_address_two_buffer
// peer-syncs: 8
// peer-count: listed
// two double-buffered tiles in one loop.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @db_two_buffer(%x0: memref<16xf16> {llvm.noalias}, %x1: memref<16xf16> {llvm.noalias}, %x2: memref<16xf16> {llvm.noalias}, %x3: memref<16xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c4 {
      %t0 = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<16xf16, #dsaplan.space<ub>>
      memref.copy %x0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf16> to memref<16xf16, #dsaplan.space<ub>>
      memref.copy %t0, %x1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf16, #dsaplan.space<ub>> to memref<16xf16>
      %t1 = memref.alloc() {dsaplan.buffers = 2 : i64} : memref<16xf16, #dsaplan.space<ub>>
      memref.copy %x2, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf16> to memref<16xf16, #dsaplan.space<ub>>
      memref.copy %t1, %x3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf16, #dsaplan.space<ub>> to memref<16xf16>
    }
    return
  }
}
