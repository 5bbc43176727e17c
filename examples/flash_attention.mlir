// A FlashAttention-style kernel across the cube and the vector core of an
// Ascend 910B AI core group: for one 64-row block of queries Q and eight
// 64-key blocks of K and V,
//
//   S_j = Q K_j^T                      cube:   GM -> L1 -> L0A/L0B -> L0C -> GM (FIX)
//   P_j = exp(S_j - rowmax(S_j))       vector: GM -> UB (MTE2), V, UB -> GM (MTE3)
//   O  += P_j V_j                      cube:   GM -> L1 -> L0A, V_j -> L0B, L0C
//
// and O goes out once at the end. Each block's P_j is normalised by its own
// row maximum (no online rescaling, which would keep O on the vector core):
// the structure, cube -> vector -> cube through GM workspaces, is
// FlashAttention's; the arithmetic is a simplification. S and P each have a
// workspace of two slots (ping and pong): while the vector core turns S of
// one block into P, the cube core may compute S of the next, and PV of the
// one before. K is given transposed (128 x 512, f16).
//
// Nothing orders the two cores in the input: `dsaplan-insert-sync` adds the
// cross-core flags on the workspaces' byte ranges, per slot: FIX(S) ->
// vector MTE2 (RAW), vector MTE3(P) -> cube MTE2 (RAW), and around the
// back edge each slot's readers before its next writer (WAR).
//
//   dsa-opt examples/flash_attention.mlir --dsa-plan="summary=true"

#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @flash_attention(%q: memref<64x128xf16> {llvm.noalias},
                             %kt: memref<128x512xf16> {llvm.noalias},
                             %v: memref<512x128xf16> {llvm.noalias},
                             %o: memref<64x128xf32> {llvm.noalias},
                             %ws_s: memref<2x64x64xf32> {llvm.noalias},
                             %ws_p: memref<2x64x64xf16> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32

    %s_ping = memref.subview %ws_s[0, 0, 0] [1, 64, 64] [1, 1, 1]
        : memref<2x64x64xf32> to memref<64x64xf32, strided<[64, 1]>>
    %s_pong = memref.subview %ws_s[1, 0, 0] [1, 64, 64] [1, 1, 1]
        : memref<2x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: 4096>>
    %p_ping = memref.subview %ws_p[0, 0, 0] [1, 64, 64] [1, 1, 1]
        : memref<2x64x64xf16> to memref<64x64xf16, strided<[64, 1]>>
    %p_pong = memref.subview %ws_p[1, 0, 0] [1, 64, 64] [1, 1, 1]
        : memref<2x64x64xf16> to memref<64x64xf16, strided<[64, 1], offset: 4096>>

    // Cube core: Q once into L1 and L0A; O accumulates in L0C.
    %q_l1 = memref.alloc() {name = "q_l1"} : memref<64x128xf16, #dsaplan.space<l1>>
    %q_l0 = memref.alloc() {name = "q_l0"} : memref<64x128xf16, #dsaplan.space<l0a>>
    %o_acc = memref.alloc() {name = "o_acc"} : memref<64x128xf32, #dsaplan.space<l0c>>
    memref.copy %q, %q_l1 {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<64x128xf16> to memref<64x128xf16, #dsaplan.space<l1>>
    memref.copy %q_l1, %q_l0 {dsaplan.pipe = #dsaplan.pipe<mte1>}
        : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0a>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
        ins(%zero : f32) outs(%o_acc : memref<64x128xf32, #dsaplan.space<l0c>>)

    // Ping and pong tiles of each stage, cube then vector.
    %k_l1_ping = memref.alloc() {name = "k_l1_ping"} : memref<128x64xf16, #dsaplan.space<l1>>
    %k_l1_pong = memref.alloc() {name = "k_l1_pong"} : memref<128x64xf16, #dsaplan.space<l1>>
    %k_l0_ping = memref.alloc() {name = "k_l0_ping"} : memref<128x64xf16, #dsaplan.space<l0b>>
    %k_l0_pong = memref.alloc() {name = "k_l0_pong"} : memref<128x64xf16, #dsaplan.space<l0b>>
    %s_acc_ping = memref.alloc() {name = "s_acc_ping"} : memref<64x64xf32, #dsaplan.space<l0c>>
    %s_acc_pong = memref.alloc() {name = "s_acc_pong"} : memref<64x64xf32, #dsaplan.space<l0c>>
    %p_l1_ping = memref.alloc() {name = "p_l1_ping"} : memref<64x64xf16, #dsaplan.space<l1>>
    %p_l1_pong = memref.alloc() {name = "p_l1_pong"} : memref<64x64xf16, #dsaplan.space<l1>>
    %p_l0_ping = memref.alloc() {name = "p_l0_ping"} : memref<64x64xf16, #dsaplan.space<l0a>>
    %p_l0_pong = memref.alloc() {name = "p_l0_pong"} : memref<64x64xf16, #dsaplan.space<l0a>>
    %v_l1_ping = memref.alloc() {name = "v_l1_ping"} : memref<64x128xf16, #dsaplan.space<l1>>
    %v_l1_pong = memref.alloc() {name = "v_l1_pong"} : memref<64x128xf16, #dsaplan.space<l1>>
    %v_l0_ping = memref.alloc() {name = "v_l0_ping"} : memref<64x128xf16, #dsaplan.space<l0b>>
    %v_l0_pong = memref.alloc() {name = "v_l0_pong"} : memref<64x128xf16, #dsaplan.space<l0b>>
    %s_ub_ping = memref.alloc() {name = "s_ub_ping"} : memref<64x64xf32, #dsaplan.space<ub>>
    %s_ub_pong = memref.alloc() {name = "s_ub_pong"} : memref<64x64xf32, #dsaplan.space<ub>>
    %p_ub_ping = memref.alloc() {name = "p_ub_ping"} : memref<64x64xf16, #dsaplan.space<ub>>
    %p_ub_pong = memref.alloc() {name = "p_ub_pong"} : memref<64x64xf16, #dsaplan.space<ub>>
    %m_ub = memref.alloc() {name = "m_ub"} : memref<64xf32, #dsaplan.space<ub>>
    dsaplan.separate %k_l1_ping, %k_l1_pong {reason = "pipeline_stage"}
        : memref<128x64xf16, #dsaplan.space<l1>>, memref<128x64xf16, #dsaplan.space<l1>>
    dsaplan.separate %s_acc_ping, %s_acc_pong {reason = "pipeline_stage"}
        : memref<64x64xf32, #dsaplan.space<l0c>>, memref<64x64xf32, #dsaplan.space<l0c>>
    dsaplan.separate %s_ub_ping, %s_ub_pong {reason = "pipeline_stage"}
        : memref<64x64xf32, #dsaplan.space<ub>>, memref<64x64xf32, #dsaplan.space<ub>>
    dsaplan.separate %p_ub_ping, %p_ub_pong {reason = "pipeline_stage"}
        : memref<64x64xf16, #dsaplan.space<ub>>, memref<64x64xf16, #dsaplan.space<ub>>

    scf.for %j = %c0 to %c512 step %c128 {
      %j1 = arith.addi %j, %c64 : index
      %k_ping = memref.subview %kt[0, %j] [128, 64] [1, 1]
          : memref<128x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
      %k_pong = memref.subview %kt[0, %j1] [128, 64] [1, 1]
          : memref<128x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
      %v_ping = memref.subview %v[%j, 0] [64, 128] [1, 1]
          : memref<512x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
      %v_pong = memref.subview %v[%j1, 0] [64, 128] [1, 1]
          : memref<512x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>

      // Cube core: S = Q K^T of both blocks, to the S slots.
      memref.copy %k_ping, %k_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[512, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %k_l1_ping, %k_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0b>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%zero : f32) outs(%s_acc_ping : memref<64x64xf32, #dsaplan.space<l0c>>)
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%q_l0, %k_l0_ping : memref<64x128xf16, #dsaplan.space<l0a>>, memref<128x64xf16, #dsaplan.space<l0b>>)
          outs(%s_acc_ping : memref<64x64xf32, #dsaplan.space<l0c>>)
      memref.copy %s_acc_ping, %s_ping {dsaplan.pipe = #dsaplan.pipe<fix>}
          : memref<64x64xf32, #dsaplan.space<l0c>> to memref<64x64xf32, strided<[64, 1]>>
      memref.copy %k_pong, %k_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<128x64xf16, strided<[512, 1], offset: ?>> to memref<128x64xf16, #dsaplan.space<l1>>
      memref.copy %k_l1_pong, %k_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<128x64xf16, #dsaplan.space<l1>> to memref<128x64xf16, #dsaplan.space<l0b>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%zero : f32) outs(%s_acc_pong : memref<64x64xf32, #dsaplan.space<l0c>>)
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%q_l0, %k_l0_pong : memref<64x128xf16, #dsaplan.space<l0a>>, memref<128x64xf16, #dsaplan.space<l0b>>)
          outs(%s_acc_pong : memref<64x64xf32, #dsaplan.space<l0c>>)
      memref.copy %s_acc_pong, %s_pong {dsaplan.pipe = #dsaplan.pipe<fix>}
          : memref<64x64xf32, #dsaplan.space<l0c>> to memref<64x64xf32, strided<[64, 1], offset: 4096>>

      // Vector core: P = exp(S - rowmax(S)) of both blocks, to the P slots.
      memref.copy %s_ping, %s_ub_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x64xf32, strided<[64, 1]>> to memref<64x64xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%ninf : f32) outs(%m_ub : memref<64xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
          ins(%s_ub_ping : memref<64x64xf32, #dsaplan.space<ub>>)
          outs(%m_ub : memref<64xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %mx = arith.maximumf %in, %acc : f32
        linalg.yield %mx : f32
      }
      linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
          ins(%s_ub_ping, %m_ub : memref<64x64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>)
          outs(%p_ub_ping : memref<64x64xf16, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %mx: f32, %out: f16):
        %d = arith.subf %in, %mx : f32
        %e = math.exp %d : f32
        %h = arith.truncf %e : f32 to f16
        linalg.yield %h : f16
      }
      memref.copy %p_ub_ping, %p_ping {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<64x64xf16, #dsaplan.space<ub>> to memref<64x64xf16, strided<[64, 1]>>
      memref.copy %s_pong, %s_ub_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x64xf32, strided<[64, 1], offset: 4096>> to memref<64x64xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%ninf : f32) outs(%m_ub : memref<64xf32, #dsaplan.space<ub>>)
      linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
          ins(%s_ub_pong : memref<64x64xf32, #dsaplan.space<ub>>)
          outs(%m_ub : memref<64xf32, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %acc: f32):
        %mx = arith.maximumf %in, %acc : f32
        linalg.yield %mx : f32
      }
      linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
          ins(%s_ub_pong, %m_ub : memref<64x64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>)
          outs(%p_ub_pong : memref<64x64xf16, #dsaplan.space<ub>>)
          attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
      ^bb0(%in: f32, %mx: f32, %out: f16):
        %d = arith.subf %in, %mx : f32
        %e = math.exp %d : f32
        %h = arith.truncf %e : f32 to f16
        linalg.yield %h : f16
      }
      memref.copy %p_ub_pong, %p_pong {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<64x64xf16, #dsaplan.space<ub>> to memref<64x64xf16, strided<[64, 1], offset: 4096>>

      // Cube core: O += P V of both blocks.
      memref.copy %p_ping, %p_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x64xf16, strided<[64, 1]>> to memref<64x64xf16, #dsaplan.space<l1>>
      memref.copy %p_l1_ping, %p_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x64xf16, #dsaplan.space<l1>> to memref<64x64xf16, #dsaplan.space<l0a>>
      memref.copy %v_ping, %v_l1_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %v_l1_ping, %v_l0_ping {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%p_l0_ping, %v_l0_ping : memref<64x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%o_acc : memref<64x128xf32, #dsaplan.space<l0c>>)
      memref.copy %p_pong, %p_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x64xf16, strided<[64, 1], offset: 4096>> to memref<64x64xf16, #dsaplan.space<l1>>
      memref.copy %p_l1_pong, %p_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x64xf16, #dsaplan.space<l1>> to memref<64x64xf16, #dsaplan.space<l0a>>
      memref.copy %v_pong, %v_l1_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<64x128xf16, strided<[128, 1], offset: ?>> to memref<64x128xf16, #dsaplan.space<l1>>
      memref.copy %v_l1_pong, %v_l0_pong {dsaplan.pipe = #dsaplan.pipe<mte1>}
          : memref<64x128xf16, #dsaplan.space<l1>> to memref<64x128xf16, #dsaplan.space<l0b>>
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<m>}
          ins(%p_l0_pong, %v_l0_pong : memref<64x64xf16, #dsaplan.space<l0a>>, memref<64x128xf16, #dsaplan.space<l0b>>)
          outs(%o_acc : memref<64x128xf32, #dsaplan.space<l0c>>)
    }
    memref.copy %o_acc, %o {dsaplan.pipe = #dsaplan.pipe<fix>}
        : memref<64x128xf32, #dsaplan.space<l0c>> to memref<64x128xf32>
    return
  }
}
