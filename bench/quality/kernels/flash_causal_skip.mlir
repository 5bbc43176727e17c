// FlashAttention's causal block skip (the QK part): an scf.for over the
// KV blocks and an scf.if that skips the blocks after the query block.
// The K block is loaded (MTE2) into a `dsaplan.buffers = 2` UB tile
// allocated in the branch, so that the next block's load can overlap this
// block's QK (V); the scores go out on MTE3. The query block is an
// argument: the simulator chooses it in [0, 4), so the runs cover one to
// four visible blocks of eight (issue 26, item 4).
//
//   dsa-opt bench/quality/kernels/flash_causal_skip.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @flash_causal_skip(%q: memref<32x64xf32>, %k: memref<8x64x32xf32>,
                               %s: memref<8x32x32xf32> {llvm.noalias},
                               %acc_out: memref<32x32xf32> {llvm.noalias},
                               %q_block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %q_ub = memref.alloc() {name = "q"} : memref<32x64xf32, #dsaplan.space<ub>>
    memref.copy %q, %q_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<32x64xf32> to memref<32x64xf32, #dsaplan.space<ub>>
    %acc = memref.alloc() {name = "acc"} : memref<32x32xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32)
        outs(%acc : memref<32x32xf32, #dsaplan.space<ub>>)
    scf.for %kv = %c0 to %c8 step %c1 {
      %visible = arith.cmpi ule, %kv, %q_block : index
      scf.if %visible {
        %k_gm = memref.subview %k[%kv, 0, 0] [1, 64, 32] [1, 1, 1]
            : memref<8x64x32xf32> to memref<64x32xf32, strided<[32, 1], offset: ?>>
        %k_ub = memref.alloc() {name = "k", dsaplan.buffers = 2 : i64}
            : memref<64x32xf32, #dsaplan.space<ub>>
        memref.copy %k_gm, %k_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
            : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<64x32xf32, #dsaplan.space<ub>>
        %s_ub = memref.alloc() {name = "s", dsaplan.buffers = 2 : i64} : memref<32x32xf32, #dsaplan.space<ub>>
        linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32)
            outs(%s_ub : memref<32x32xf32, #dsaplan.space<ub>>)
        linalg.matmul {dsaplan.pipe = #dsaplan.pipe<v>}
            ins(%q_ub, %k_ub : memref<32x64xf32, #dsaplan.space<ub>>, memref<64x32xf32, #dsaplan.space<ub>>)
            outs(%s_ub : memref<32x32xf32, #dsaplan.space<ub>>)
        linalg.add {dsaplan.pipe = #dsaplan.pipe<v>}
            ins(%acc, %s_ub : memref<32x32xf32, #dsaplan.space<ub>>, memref<32x32xf32, #dsaplan.space<ub>>)
            outs(%acc : memref<32x32xf32, #dsaplan.space<ub>>)
        %s_gm = memref.subview %s[%kv, 0, 0] [1, 32, 32] [1, 1, 1]
            : memref<8x32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
        memref.copy %s_ub, %s_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
            : memref<32x32xf32, #dsaplan.space<ub>> to memref<32x32xf32, strided<[32, 1], offset: ?>>
      }
    }
    memref.copy %acc, %acc_out {dsaplan.pipe = #dsaplan.pipe<mte3>}
        : memref<32x32xf32, #dsaplan.space<ub>> to memref<32x32xf32>
    return
  }
}
