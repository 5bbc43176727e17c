// A matmul fused with its epilogue, across the cube and the vector core of
// an Ascend 910B AI core group:
//
//   out[256x128] (f32) = relu(A[256x128] (f16) x B[128x128] (f16) + bias)
//
// where bias is one 32x128 tile added to every 32-row block. The cube core
// computes a block (GM -> L1 (MTE2) -> L0A (MTE1) -> cube (M) -> L0C) and
// writes it to a GM workspace (FIX); the vector core loads it (MTE2),
// adds the bias and applies the ReLU (V) and stores the result (MTE3).
// The workspace has two slots, ping and pong: while the vector core works
// on the ping block, the cube core may compute the pong one. Each loop
// iteration takes two blocks, one through each slot (the per-slot flag ids
// need the slot to be known in the program text, as for matmul.mlir's L1
// tiles).
//
// Nothing orders the two cores in the input: `dsaplan-insert-sync` adds
// the cross-core flags on the workspace's byte ranges (FIX store -> vector
// MTE2 load of the same slot; the vector's load -> the next FIX store into
// that slot, around the back edge), with the intra-core syncs of each core.
//
//   dsa-opt examples/matmul_epilogue.mlir --dsa-plan="summary=true"

#map = affine_map<(d0, d1) -> (d0, d1)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @matmul_epilogue(%a: memref<256x128xf16> {llvm.noalias},
                             %b: memref<128x128xf16> {llvm.noalias},
                             %bias: memref<32x128xf32> {llvm.noalias},
                             %out: memref<256x128xf32> {llvm.noalias},
                             %ws: memref<2x32x128xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    // The two workspace slots in GM, 16 KiB each.
    %ws_ping = memref.subview %ws[0, 0, 0] [1, 32, 128] [1, 1, 1]
        : memref<2x32x128xf32> to memref<32x128xf32, strided<[128, 1]>>
    %ws_pong = memref.subview %ws[1, 0, 0] [1, 32, 128] [1, 1, 1]
        : memref<2x32x128xf32> to memref<32x128xf32, strided<[128, 1], offset: 4096>>

    // Cube core: B once, into L1 and L0B (32 KiB each).
    %b_l1 = memref.alloc() {name = "b_l1"} : memref<128x128xf16, #dsaplan.space<l1>>
    %b_l0 = memref.alloc() {name = "b_l0"} : memref<128x128xf16, #dsaplan.space<l0b>>
    memref.copy %b, %b_l1 {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<128x128xf16> to memref<128x128xf16, #dsaplan.space<l1>>
    memref.copy %b_l1, %b_l0 {dsaplan.pipe = #dsaplan.pipe<mte1>}
        : memref<128x128xf16, #dsaplan.space<l1>> to memref<128x128xf16, #dsaplan.space<l0b>>
    // Vector core: the bias tile once (16 KiB of UB).
    %bias_ub = memref.alloc() {name = "bias_ub"} : memref<32x128xf32, #dsaplan.space<ub>>
    memref.copy %bias, %bias_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<32x128xf32> to memref<32x128xf32, #dsaplan.space<ub>>

    // Ping and pong tiles of each stage.
    %a_l1_ping = memref.alloc() {name = "a_l1_ping"} : memref<32x128xf16, #dsaplan.space<l1>>
    %a_l1_pong = memref.alloc() {name = "a_l1_pong"} : memref<32x128xf16, #dsaplan.space<l1>>
    %a_l0_ping = memref.alloc() {name = "a_l0_ping"} : memref<32x128xf16, #dsaplan.space<l0a>>
    %a_l0_pong = memref.alloc() {name = "a_l0_pong"} : memref<32x128xf16, #dsaplan.space<l0a>>
    %acc_ping = memref.alloc() {name = "acc_ping"} : memref<32x128xf32, #dsaplan.space<l0c>>
    %acc_pong = memref.alloc() {name = "acc_pong"} : memref<32x128xf32, #dsaplan.space<l0c>>
    %x_ping = memref.alloc() {name = "x_ping"} : memref<32x128xf32, #dsaplan.space<ub>>
    %x_pong = memref.alloc() {name = "x_pong"} : memref<32x128xf32, #dsaplan.space<ub>>
    %y_ping = memref.alloc() {name = "y_ping"} : memref<32x128xf32, #dsaplan.space<ub>>
    %y_pong = memref.alloc() {name = "y_pong"} : memref<32x128xf32, #dsaplan.space<ub>>
    dsaplan.separate %a_l1_ping, %a_l1_pong {reason = "pipeline_stage"}
        : memref<32x128xf16, #dsaplan.space<l1>>, memref<32x128xf16, #dsaplan.space<l1>>
    dsaplan.separate %a_l0_ping, %a_l0_pong {reason = "pipeline_stage"}
        : memref<32x128xf16, #dsaplan.space<l0a>>, memref<32x128xf16, #dsaplan.space<l0a>>
    dsaplan.separate %acc_ping, %acc_pong {reason = "pipeline_stage"}
        : memref<32x128xf32, #dsaplan.space<l0c>>, memref<32x128xf32, #dsaplan.space<l0c>>
    dsaplan.separate %x_ping, %x_pong, %y_ping, %y_pong {reason = "pipeline_stage"}
        : memref<32x128xf32, #dsaplan.space<ub>>, memref<32x128xf32, #dsaplan.space<ub>>,
          memref<32x128xf32, #dsaplan.space<ub>>, memref<32x128xf32, #dsaplan.space<ub>>

    scf.for %m = %c0 to %c256 step %c64 {
      %m1 = arith.addi %m, %c32 : index
      %a_ping = memref.subview %a[%m, 0] [32, 128] [1, 1]
          : memref<256x128xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>>
      %a_pong = memref.subview %a[%m1, 0] [32, 128] [1, 1]
          : memref<256x128xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>>
      %out_ping = memref.subview %out[%m, 0] [32, 128] [1, 1]
          : memref<256x128xf32> to memref<32x128xf32, strided<[128, 1], offset: ?>>
      %out_pong = memref.subview %out[%m1, 0] [32, 128] [1, 1]
          : memref<256x128xf32> to memref<32x128xf32, strided<[128, 1], offset: ?>>

      // Cube core, ping block: rows [m, m + 32) into workspace slot 0.
      memref.copy %a_ping, %a_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<32x128xf16, strided<[128, 1], offset: ?>> to memref<32x128xf16, #dsaplan.space<l1>>
      memref.copy %a_l1_ping, %a_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<32x128xf16, #dsaplan.space<l1>> to memref<32x128xf16, #dsaplan.space<l0a>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%zero : f32) outs(%acc_ping : memref<32x128xf32, #dsaplan.space<l0c>>)
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_ping, %b_l0 : memref<32x128xf16, #dsaplan.space<l0a>>, memref<128x128xf16, #dsaplan.space<l0b>>)
          outs(%acc_ping : memref<32x128xf32, #dsaplan.space<l0c>>)
      memref.copy %acc_ping, %ws_ping {dsaplan.pipe = #dsaplan.pipe<fix>}
          : memref<32x128xf32, #dsaplan.space<l0c>> to memref<32x128xf32, strided<[128, 1]>>

      // Cube core, pong block: rows [m + 32, m + 64) into slot 1.
      memref.copy %a_pong, %a_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<32x128xf16, strided<[128, 1], offset: ?>> to memref<32x128xf16, #dsaplan.space<l1>>
      memref.copy %a_l1_pong, %a_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<32x128xf16, #dsaplan.space<l1>> to memref<32x128xf16, #dsaplan.space<l0a>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%zero : f32) outs(%acc_pong : memref<32x128xf32, #dsaplan.space<l0c>>)
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%a_l0_pong, %b_l0 : memref<32x128xf16, #dsaplan.space<l0a>>, memref<128x128xf16, #dsaplan.space<l0b>>)
          outs(%acc_pong : memref<32x128xf32, #dsaplan.space<l0c>>)
      memref.copy %acc_pong, %ws_pong {dsaplan.pipe = #dsaplan.pipe<fix>}
          : memref<32x128xf32, #dsaplan.space<l0c>> to memref<32x128xf32, strided<[128, 1], offset: 4096>>

      // Vector core, ping block: relu(slot 0 + bias) to out.
      memref.copy %ws_ping, %x_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<32x128xf32, strided<[128, 1]>> to memref<32x128xf32, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
          ins(%x_ping, %bias_ub : memref<32x128xf32, #dsaplan.space<ub>>, memref<32x128xf32, #dsaplan.space<ub>>)
          outs(%y_ping : memref<32x128xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%x: f32, %c: f32, %y: f32):
        %s = arith.addf %x, %c : f32
        %r = arith.maximumf %s, %zero : f32
        linalg.yield %r : f32
      }
      memref.copy %y_ping, %out_ping {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<32x128xf32, #dsaplan.space<ub>> to memref<32x128xf32, strided<[128, 1], offset: ?>>

      // Vector core, pong block.
      memref.copy %ws_pong, %x_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<32x128xf32, strided<[128, 1], offset: 4096>> to memref<32x128xf32, #dsaplan.space<ub>>
      linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
          ins(%x_pong, %bias_ub : memref<32x128xf32, #dsaplan.space<ub>>, memref<32x128xf32, #dsaplan.space<ub>>)
          outs(%y_pong : memref<32x128xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%x: f32, %c: f32, %y: f32):
        %s = arith.addf %x, %c : f32
        %r = arith.maximumf %s, %zero : f32
        linalg.yield %r : f32
      }
      memref.copy %y_pong, %out_pong {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<32x128xf32, #dsaplan.space<ub>> to memref<32x128xf32, strided<[128, 1], offset: ?>>
    }
    return
  }
}
