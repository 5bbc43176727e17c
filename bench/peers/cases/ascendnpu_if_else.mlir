// Peer: AscendNPU-IR bishengir/test/Dialect/HIVM/inject-sync.mlir @test_injcet_sync_if_else
// peer-syncs: 3
// peer-count: listed
// a and b share bytes [0, 8192): pipe_barrier <mte2> between their loads, <mte2 -> v>, <v -> mte3>.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @if_else(%x0: memref<16x16x16xf16> {llvm.noalias}, %x1: memref<16x16x16xf16> {llvm.noalias}, %x2: memref<16x16x16xf16> {llvm.noalias}, %x3: memref<16x16x16xf16> {llvm.noalias}, %p: i1) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %oa = arith.constant 0 : index
    %a = memref.view %ub[%oa][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %ob = arith.constant 0 : index
    %b = memref.view %ub[%ob][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %oc = arith.constant 8192 : index
    %c = memref.view %ub[%oc][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %od = arith.constant 16384 : index
    %d = memref.view %ub[%od][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x1, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x2, %c {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    memref.copy %x3, %d {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16x16xf16> to memref<16x16x16xf16, #dsaplan.space<ub>>
    %r = scf.if %p -> (memref<16x16x16xf16, #dsaplan.space<ub>>) {
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %c : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%a : memref<16x16x16xf16, #dsaplan.space<ub>>)
      scf.yield %a : memref<16x16x16xf16, #dsaplan.space<ub>>
    } else {
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b, %d : memref<16x16x16xf16, #dsaplan.space<ub>>, memref<16x16x16xf16, #dsaplan.space<ub>>) outs(%b : memref<16x16x16xf16, #dsaplan.space<ub>>)
      scf.yield %b : memref<16x16x16xf16, #dsaplan.space<ub>>
    }
    memref.copy %r, %x3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16x16x16xf16, #dsaplan.space<ub>> to memref<16x16x16xf16>
    return
  }
}
