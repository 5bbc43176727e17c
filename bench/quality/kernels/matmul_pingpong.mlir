// A matmul whose K loop double-buffers L1 and L0 through scf.for iter_args:
//
//   C[128x128] (f32) = A[128x256] (f16) x B[256x128] (f16),  K in 8 slices of 32
//
// GM -> L1 (MTE2) -> L0A/L0B (MTE1) -> cube (M) accumulating in L0C, then
// L0C -> GM (FIX) once after the loop. The L1 and L0 tiles come in pairs
// (8 KiB each) yielded swapped, so that MTE2 loads slice k+1 and MTE1 moves
// it while the cube multiplies slice k.
//
//   dsa-opt bench/quality/kernels/matmul_pingpong.mlir --dsa-plan="summary=true"

!a_l1 = memref<128x32xf16, #dsaplan.space<l1>>
!b_l1 = memref<32x128xf16, #dsaplan.space<l1>>
!a_l0 = memref<128x32xf16, #dsaplan.space<l0a>>
!b_l0 = memref<32x128xf16, #dsaplan.space<l0b>>
!a_gm = memref<128x32xf16, strided<[256, 1], offset: ?>>
!b_gm = memref<32x128xf16, strided<[128, 1], offset: ?>>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @matmul_pingpong(%a: memref<128x256xf16>, %b: memref<256x128xf16>,
                             %c: memref<128x128xf32>) {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %acc = memref.alloc() {name = "acc"} : memref<128x128xf32, #dsaplan.space<l0c>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
        ins(%zero : f32) outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
    %a_l1_0 = memref.alloc() {name = "a_l1_0"} : !a_l1
    %a_l1_1 = memref.alloc() {name = "a_l1_1"} : !a_l1
    %b_l1_0 = memref.alloc() {name = "b_l1_0"} : !b_l1
    %b_l1_1 = memref.alloc() {name = "b_l1_1"} : !b_l1
    %a_l0_0 = memref.alloc() {name = "a_l0_0"} : !a_l0
    %a_l0_1 = memref.alloc() {name = "a_l0_1"} : !a_l0
    %b_l0_0 = memref.alloc() {name = "b_l0_0"} : !b_l0
    %b_l0_1 = memref.alloc() {name = "b_l0_1"} : !b_l0
    %r:8 = scf.for %k = %c0 to %c256 step %c32
        iter_args(%a1 = %a_l1_0, %a1n = %a_l1_1, %b1 = %b_l1_0, %b1n = %b_l1_1,
                  %a0 = %a_l0_0, %a0n = %a_l0_1, %b0 = %b_l0_0, %b0n = %b_l0_1)
        -> (!a_l1, !a_l1, !b_l1, !b_l1, !a_l0, !a_l0, !b_l0, !b_l0) {
      %a_gm = memref.subview %a[0, %k] [128, 32] [1, 1] : memref<128x256xf16> to !a_gm
      %b_gm = memref.subview %b[%k, 0] [32, 128] [1, 1] : memref<256x128xf16> to !b_gm
      memref.copy %a_gm, %a1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : !a_gm to !a_l1
      memref.copy %b_gm, %b1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : !b_gm to !b_l1
      memref.copy %a1, %a0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : !a_l1 to !a_l0
      memref.copy %b1, %b0 {dsaplan.pipe = #dsaplan.pipe<mte1>} : !b_l1 to !b_l0
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a0, %b0 : !a_l0, !b_l0)
          outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
      scf.yield %a1n, %a1, %b1n, %b1, %a0n, %a0, %b0n, %b0
          : !a_l1, !a_l1, !b_l1, !b_l1, !a_l0, !a_l0, !b_l0, !b_l0
    }
    memref.copy %acc, %c {dsaplan.pipe = #dsaplan.pipe<fix>}
        : memref<128x128xf32, #dsaplan.space<l0c>> to memref<128x128xf32>
    return
  }
}
