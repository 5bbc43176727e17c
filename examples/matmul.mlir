// A tiled matmul on the cube unit of an Ascend 910B AI core:
//
//   C[128x128] (f32) = A[128x256] (f16) x B[256x128] (f16)
//
// GM -> L1 (MTE2) -> L0A/L0B (MTE1) -> cube (M) -> L0C -> GM (FIX), with the
// K dimension cut into four 64-wide slices. Each iteration of the loop takes
// two slices, one through the "ping" tiles and one through the "pong" tiles,
// so that MTE2 can load the pong slice while the cube works on the ping one.
// Ping and pong must never share bytes, whatever their lifetimes: that is
// what the `dsaplan.separate` ops say.
//
//   dsa-opt examples/matmul.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @matmul_128x128x256(%a: memref<128x256xf16>, %b: memref<256x128xf16>,
                                %c: memref<128x128xf32>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    // The accumulator: 64 KiB of L0C, live across the whole K loop.
    %acc = memref.alloc() {name = "acc"} : memref<128x128xf32, #dsaplan.space<l0c>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
        ins(%zero : f32) outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)

    // Ping and pong slices of A and B in L1 (16 KiB each).
    %a_l1_ping = memref.alloc() {name = "a_l1_ping"} : memref<128x64xf16, #dsaplan.space<l1>>
    %a_l1_pong = memref.alloc() {name = "a_l1_pong"} : memref<128x64xf16, #dsaplan.space<l1>>
    %b_l1_ping = memref.alloc() {name = "b_l1_ping"} : memref<64x128xf16, #dsaplan.space<l1>>
    %b_l1_pong = memref.alloc() {name = "b_l1_pong"} : memref<64x128xf16, #dsaplan.space<l1>>
    // The cube's operands in L0A/L0B (16 KiB each, 512-byte aligned).
    %a_l0_ping = memref.alloc() {name = "a_l0_ping"} : memref<128x64xf16, #dsaplan.space<l0a>>
    %a_l0_pong = memref.alloc() {name = "a_l0_pong"} : memref<128x64xf16, #dsaplan.space<l0a>>
    %b_l0_ping = memref.alloc() {name = "b_l0_ping"} : memref<64x128xf16, #dsaplan.space<l0b>>
    %b_l0_pong = memref.alloc() {name = "b_l0_pong"} : memref<64x128xf16, #dsaplan.space<l0b>>

    dsaplan.separate %a_l1_ping, %a_l1_pong {reason = "pipeline_stage"}
        : memref<128x64xf16, #dsaplan.space<l1>>, memref<128x64xf16, #dsaplan.space<l1>>
    dsaplan.separate %b_l1_ping, %b_l1_pong {reason = "pipeline_stage"}
        : memref<64x128xf16, #dsaplan.space<l1>>, memref<64x128xf16, #dsaplan.space<l1>>
    dsaplan.separate %a_l0_ping, %a_l0_pong {reason = "pipeline_stage"}
        : memref<128x64xf16, #dsaplan.space<l0a>>, memref<128x64xf16, #dsaplan.space<l0a>>
    dsaplan.separate %b_l0_ping, %b_l0_pong {reason = "pipeline_stage"}
        : memref<64x128xf16, #dsaplan.space<l0b>>, memref<64x128xf16, #dsaplan.space<l0b>>

    scf.for %k = %c0 to %c256 step %c128 {
      %k1 = arith.addi %k, %c64 : index
      // Ping: slice k.
      %a_gm_ping = memref.subview %a[0, %k] [128, 64] [1, 1]
          : memref<128x256xf16> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %b_gm_ping = memref.subview %b[%k, 0] [64, 128] [1, 1]
          : memref<256x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
      memref.copy %a_gm_ping, %a_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %b_gm_ping, %b_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %a_l1_ping, %a_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0a>>
      memref.copy %b_l1_ping, %b_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_ping, %b_l0_ping : memref<128x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
      // Pong: slice k + 64.
      %a_gm_pong = memref.subview %a[0, %k1] [128, 64] [1, 1]
          : memref<128x256xf16> to memref<128x64xf16, strided<[256, 1], offset: ?>>
      %b_gm_pong = memref.subview %b[%k1, 0] [64, 128] [1, 1]
          : memref<256x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
      memref.copy %a_gm_pong, %a_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[256, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %b_gm_pong, %b_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %a_l1_pong, %a_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0a>>
      memref.copy %b_l1_pong, %b_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_pong, %b_l0_pong : memref<128x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%acc : memref<128x128xf32, #dsaplan.space<l0c>>)
    }

    // FIX moves the finished accumulator out to GM.
    memref.copy %acc, %c {dsaplan.pipe = #dsaplan.pipe<fix>}
        : memref<128x128xf32, #dsaplan.space<l0c>> to memref<128x128xf32>
    return
  }
}
