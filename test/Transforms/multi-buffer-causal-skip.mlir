// FlashAttention's causal block skip, end to end: an scf.for over the KV
// blocks, and an scf.if that skips the blocks after the query block. The K
// block is loaded (MTE2) into a `dsaplan.buffers = 2` UB tile allocated in
// the branch, so that the next block's load overlaps this block's compute
// (V); the scores go out on MTE3. @causal_skip computes in the branch;
// in @causal_skip_yield the branch yields the K tile (or a zero tile for a
// skipped block) and the compute follows it.
//
// The K tile's slots are hoisted out of the branch; the kernel plans,
// verify-sync proves its syncs, and the simulator runs it without a race,
// a lost signal or a hang. test/Tools/dsa-diff-causal-skip.test runs it on
// the CPU before and after placement.
//
// RUN: dsa-opt %s -dsaplan-import -dsaplan-multi-buffer | FileCheck %s --check-prefix=SLOTS
// RUN: dsa-opt %s --dsa-plan="summary=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: dsa-opt %t.mlir -dsaplan-verify-sync -dsaplan-simulate="runs=8 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: FileCheck %s --check-prefix=PLACED < %t.mlir

// SLOTS-LABEL: func.func @causal_skip
// SLOTS:         %[[K0:.*]] = dsaplan.alloc {name = "k.0"} : memref<64x32xf32, #dsaplan.space<ub>>
// SLOTS:         %[[K1:.*]] = dsaplan.alloc {name = "k.1"} : memref<64x32xf32, #dsaplan.space<ub>>
// SLOTS:         scf.for {{.*}} iter_args(%[[A0:.*]] = %[[K0]], %[[A1:.*]] = %[[K1]])
// SLOTS:           scf.if
// SLOTS:             memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SLOTS:             linalg.matmul {{.*}} ins(%{{.*}}, %[[A0]] :
// SLOTS:           scf.yield %[[A1]], %[[A0]] :
// SLOTS-LABEL: func.func @causal_skip_yield
// SLOTS:         %[[K0:.*]] = dsaplan.alloc {name = "k.0"} : memref<64x32xf32, #dsaplan.space<ub>>
// SLOTS:         %[[K1:.*]] = dsaplan.alloc {name = "k.1"} : memref<64x32xf32, #dsaplan.space<ub>>
// SLOTS:         scf.for {{.*}} iter_args(%[[A0:.*]] = %[[K0]], %[[A1:.*]] = %[[K1]])
// SLOTS:           %[[K:.*]] = scf.if
// SLOTS:             memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// SLOTS-NEXT:        scf.yield %[[A0]] :
// SLOTS:           linalg.matmul {{.*}} ins(%{{.*}}, %[[K]] :
// SLOTS:           scf.yield %[[A1]], %[[A0]] :

// PLAN-NOT: error
// PLAN: remark: @causal_skip: simulated 1 run, {{.*}}; 0 findings;
// PLAN: remark: @causal_skip_yield: simulated 1 run, {{.*}}; 0 findings;

// SIM-NOT: error
// SIM: remark: @causal_skip: simulated 8 runs, {{.*}}; 0 findings;
// SIM: remark: @causal_skip_yield: simulated 8 runs, {{.*}}; 0 findings;

// The ring is unrolled: each slot is loaded by its own copy, with its own
// event id for the wait on the previous compute that read it.
// PLACED-LABEL: func.func @causal_skip
// PLACED-COUNT-2: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<64x32xf32, #dsaplan.space<ub>>
// PLACED-LABEL: func.func @causal_skip_yield
// PLACED-COUNT-2: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<64x32xf32, #dsaplan.space<ub>>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  // s[kv] = q x k[kv] for kv <= q_block (the blocks the query block sees),
  // acc = the sum of them.
  func.func @causal_skip(%q: memref<32x64xf32>, %k: memref<8x64x32xf32>,
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
        %s_ub = memref.alloc() {name = "s"} : memref<32x32xf32, #dsaplan.space<ub>>
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

  // The same, with the branch yielding the K tile, or a zero tile for a
  // skipped block (its scores are then zero): every block is stored.
  func.func @causal_skip_yield(%q: memref<32x64xf32>, %k: memref<8x64x32xf32>,
                               %s: memref<8x32x32xf32> {llvm.noalias},
                               %q_block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %q_ub = memref.alloc() {name = "q"} : memref<32x64xf32, #dsaplan.space<ub>>
    memref.copy %q, %q_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<32x64xf32> to memref<32x64xf32, #dsaplan.space<ub>>
    %masked = memref.alloc() {name = "masked"} : memref<64x32xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32)
        outs(%masked : memref<64x32xf32, #dsaplan.space<ub>>)
    scf.for %kv = %c0 to %c8 step %c1 {
      %visible = arith.cmpi ule, %kv, %q_block : index
      %k_tile = scf.if %visible -> (memref<64x32xf32, #dsaplan.space<ub>>) {
        %k_gm = memref.subview %k[%kv, 0, 0] [1, 64, 32] [1, 1, 1]
            : memref<8x64x32xf32> to memref<64x32xf32, strided<[32, 1], offset: ?>>
        %k_ub = memref.alloc() {name = "k", dsaplan.buffers = 2 : i64}
            : memref<64x32xf32, #dsaplan.space<ub>>
        memref.copy %k_gm, %k_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
            : memref<64x32xf32, strided<[32, 1], offset: ?>> to memref<64x32xf32, #dsaplan.space<ub>>
        scf.yield %k_ub : memref<64x32xf32, #dsaplan.space<ub>>
      } else {
        scf.yield %masked : memref<64x32xf32, #dsaplan.space<ub>>
      }
      %s_ub = memref.alloc() {name = "s"} : memref<32x32xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32)
          outs(%s_ub : memref<32x32xf32, #dsaplan.space<ub>>)
      linalg.matmul {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%q_ub, %k_tile : memref<32x64xf32, #dsaplan.space<ub>>, memref<64x32xf32, #dsaplan.space<ub>>)
          outs(%s_ub : memref<32x32xf32, #dsaplan.space<ub>>)
      %s_gm = memref.subview %s[%kv, 0, 0] [1, 32, 32] [1, 1, 1]
          : memref<8x32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
      memref.copy %s_ub, %s_gm {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<32x32xf32, #dsaplan.space<ub>> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    }
    return
  }
}
