// Peer: PTOAS test/basic/issue454_loop_if_else_loop_carried_sync_regression.pto @loop_if_else_loop_carried_sync
// peer-syncs: 1
// peer-count: at-least
// peer-pipes: m -> mte1
// The CHECK lines name one set_flag <PIPE_M -> PIPE_MTE1> (the pre-set of the
// loop-carried pair) and its waits, not the rest.
// Translated: pto.tmov mat -> left/right as memref.copy on MTE1, pto.tmatmul as
// linalg.matmul on M, pto.tmov acc -> mat as memref.copy on FIX; the
// accumulator is f16 here (a copy keeps its element type), 32x32 tiles
// at offset 0 of each space (m1 at 2048 of L1).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @loop_if_else_loop_carried_sync() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %l1 = dsaplan.arena <l1> : memref<524288xi8, #dsaplan.space<l1>>
    %l0a = dsaplan.arena <l0a> : memref<65536xi8, #dsaplan.space<l0a>>
    %l0b = dsaplan.arena <l0b> : memref<65536xi8, #dsaplan.space<l0b>>
    %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
    %o_m0 = arith.constant 0 : index
    %m0 = memref.view %l1[%o_m0][] : memref<524288xi8, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l1>>
    %o_m1 = arith.constant 2048 : index
    %m1 = memref.view %l1[%o_m1][] : memref<524288xi8, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l1>>
    %o_l0 = arith.constant 0 : index
    %l0 = memref.view %l0a[%o_l0][] : memref<65536xi8, #dsaplan.space<l0a>> to memref<32x32xf16, #dsaplan.space<l0a>>
    %o_r0 = arith.constant 0 : index
    %r0 = memref.view %l0b[%o_r0][] : memref<65536xi8, #dsaplan.space<l0b>> to memref<32x32xf16, #dsaplan.space<l0b>>
    %o_acc = arith.constant 0 : index
    %acc = memref.view %l0c[%o_acc][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<32x32xf16, #dsaplan.space<l0c>>
    memref.copy %m0, %l0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<32x32xf16, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l0a>>
    memref.copy %m1, %r0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<32x32xf16, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l0b>>
    linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>} ins(%l0, %r0 : memref<32x32xf16, #dsaplan.space<l0a>>, memref<32x32xf16, #dsaplan.space<l0b>>) outs(%acc : memref<32x32xf16, #dsaplan.space<l0c>>)
    memref.copy %acc, %m0 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<32x32xf16, #dsaplan.space<l0c>> to memref<32x32xf16, #dsaplan.space<l1>>
    scf.for %i = %c0 to %c2 step %c1 {
      memref.copy %m0, %l0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<32x32xf16, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l0a>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>} ins(%l0, %r0 : memref<32x32xf16, #dsaplan.space<l0a>>, memref<32x32xf16, #dsaplan.space<l0b>>) outs(%acc : memref<32x32xf16, #dsaplan.space<l0c>>)
      %even = arith.cmpi eq, %i, %c0 : index
      scf.if %even {
        memref.copy %acc, %m0 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<32x32xf16, #dsaplan.space<l0c>> to memref<32x32xf16, #dsaplan.space<l1>>
      } else {
        memref.copy %acc, %m0 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<32x32xf16, #dsaplan.space<l0c>> to memref<32x32xf16, #dsaplan.space<l1>>
        memref.copy %m1, %r0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<32x32xf16, #dsaplan.space<l1>> to memref<32x32xf16, #dsaplan.space<l0b>>
      }
    }
    return
  }
}
