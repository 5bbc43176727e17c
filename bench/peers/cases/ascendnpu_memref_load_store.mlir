// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_mem_memref_load_store
// peer-syncs: 2
// peer-count: listed
// scalar loads and stores of UB in a loop between a load and a store (64 iterations here, 1024 in the peer): <mte2 -> s>, <s -> mte3>.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @load_store(%x: memref<1024xf16> {llvm.noalias}, %y: memref<1024xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf16, #dsaplan.space<ub>>
    %ob = arith.constant 2048 : index
    %b = memref.view %ub[%ob][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf16, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf16> to memref<1024xf16, #dsaplan.space<ub>>
    scf.for %i = %c0 to %c64 step %c1 {
      %u = memref.load %a[%i] {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1024xf16, #dsaplan.space<ub>>
      %w = memref.load %a[%i] {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1024xf16, #dsaplan.space<ub>>
      %s = arith.addf %u, %w : f16
      memref.store %s, %b[%i] {dsaplan.pipe = #dsaplan.pipe<s>} : memref<1024xf16, #dsaplan.space<ub>>
    }
    memref.copy %b, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf16, #dsaplan.space<ub>> to memref<1024xf16>
    return
  }
}
