// bench/reuse variant of examples/matmul.mlir: the same matmul, but each
// K slice allocates its L1 and L0A/L0B tiles inside the loop body and no
// `dsaplan.separate` keeps the two slices of an iteration apart. A slice's
// tiles die once the cube has read them, so objective=peak folds the second
// slice onto the first (its MTE2 load then waits for MTE1's read of the first
// slice, its MTE1 copy for the cube); every space has room to keep them
// apart, which is what objective=waits does.
//
//   bench/reuse/flags.py bench/reuse/kernels/matmul_loop_tiles.mlir

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @matmul_loop_tiles(%a: memref<128x256xf16>, %b: memref<256x128xf16>,
                               %c: memref<128x128xf32>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    %acc = memref.alloc() {name = "acc"} : memref<128x128xf32, #dsaplan.space<l0c>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
        ins(%zero : f32) outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)

    scf.for %k = %c0 to %c256 step %c128 {
      %k1 = arith.addi %k, %c64 : index
      // Slice %k: its tiles live only until the cube has read them.
      %a_gm_s0 = memref.subview %a[0, %k] [128, 64] [1, 1]
          : memref<128x256xf16> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %b_gm_s0 = memref.subview %b[%k, 0] [64, 128] [1, 1]
          : memref<256x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
      %a_l1_s0 = memref.alloc() {name = "a_l1_s0"} : memref<128x64xf16, #dsaplan.space<l1>>
      %b_l1_s0 = memref.alloc() {name = "b_l1_s0"} : memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %a_gm_s0, %a_l1_s0 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %b_gm_s0, %b_l1_s0 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      %a_l0_s0 = memref.alloc() {name = "a_l0_s0"} : memref<128x64xf16, #dsaplan.space<l0a>>
      %b_l0_s0 = memref.alloc() {name = "b_l0_s0"} : memref<64x128xf16, #dsaplan.space<l0b>>
      memref.copy %a_l1_s0, %a_l0_s0 {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0a>>
      memref.copy %b_l1_s0, %b_l0_s0 {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_s0, %b_l0_s0 : memref<128x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
      // Slice %k1: its tiles live only until the cube has read them.
      %a_gm_s1 = memref.subview %a[0, %k1] [128, 64] [1, 1]
          : memref<128x256xf16> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %b_gm_s1 = memref.subview %b[%k1, 0] [64, 128] [1, 1]
          : memref<256x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
      %a_l1_s1 = memref.alloc() {name = "a_l1_s1"} : memref<128x64xf16, #dsaplan.space<l1>>
      %b_l1_s1 = memref.alloc() {name = "b_l1_s1"} : memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %a_gm_s1, %a_l1_s1 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %b_gm_s1, %b_l1_s1 {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      %a_l0_s1 = memref.alloc() {name = "a_l0_s1"} : memref<128x64xf16, #dsaplan.space<l0a>>
      %b_l0_s1 = memref.alloc() {name = "b_l0_s1"} : memref<64x128xf16, #dsaplan.space<l0b>>
      memref.copy %a_l1_s1, %a_l0_s1 {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0a>>
      memref.copy %b_l1_s1, %b_l0_s1 {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_s1, %b_l0_s1 : memref<128x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
    }

    memref.copy %acc, %c {dsaplan.pipe = #dsaplan.pipe<fix>}
        : memref<128x128xf32, #dsaplan.space<l0c>> to memref<128x128xf32>
    return
  }
}
