// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync 2>/dev/null | grep -E "dsaplan\.(set_flag|wait_flag|barrier_all|pipe_barrier)" | FileCheck %s --check-prefix=SYNC
// RUN: dsa-opt %s -dsaplan-insert-sync 2>/dev/null | grep -cE "dsaplan\.(set_flag|wait_flag|barrier_all|pipe_barrier)" | FileCheck %s --check-prefix=COUNT
// RUN: dsa-opt %s -dsaplan-insert-sync 2>/dev/null | dsa-opt -dsaplan-verify-sync | dsa-opt -dsaplan-simulate="runs=8" -o /dev/null
//
// The one-bit repair's rounds walk only where the last round's walk went
// stale, and jump over the rest where their state meets the last round's
// checkpoint, making the last round's calls there again (EventIds.cpp).
// This kernel (k328 of random_sync_kernels.py, seed 1) takes four rounds,
// whose walks jump three times. Its third round moves the pair of a set at
// the top of the body (before its first scf.for) one of whose ops the
// walk had run before it: the next round walks from that op through the
// set, and may not stop in between where its state meets the last
// round's and make the last round's call at the set again. (A version
// that did moved that pair again in every round and ended with 37 flag
// pairs, 45 moves and a barrier_all.) The syncs below, in order, are
// those of rounds that walk the whole function from the first change on
// (dsa-opt at 5921d4f).
//
// CHECK: remark: @k328: 40 flag pairs (3 around loops, 10 eager, 0 set late for want of an event id; before pruning, 42 moved to another id and 8 handshakes added so that no set overruns its flag, 0 barrier_all for want of a safe event id), 9 barriers for 670 conflicting pairs; 71 dropped as implied by the others ({{[0-9]+}} ops walked); 1 loop pairs set and drained outside their outer loops
// COUNT: 101
// SYNC: dsaplan.set_flag <mte2 -> v>, 2
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 2
// SYNC-NEXT: dsaplan.pipe_barrier <v>
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 2
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 1
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 3
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 3
// SYNC-NEXT: dsaplan.set_flag <s -> mte2>, 0
// SYNC-NEXT: dsaplan.pipe_barrier <v>
// SYNC-NEXT: dsaplan.wait_flag <s -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> v>, 2
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 1
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 2
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 1
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 2
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 2
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> mte3>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> mte3>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> s>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> s>, 2
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> s>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 2
// SYNC-NEXT: dsaplan.set_flag <mte3 -> v>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> v>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> s>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 0
// SYNC-NEXT: dsaplan.set_flag <s -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> v>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.set_flag <s -> mte3>, 1
// SYNC-NEXT: dsaplan.wait_flag <s -> mte3>, 1
// SYNC-NEXT: dsaplan.set_flag <mte3 -> v>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> v>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 2
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 2
// SYNC-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 2
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 2
// SYNC-NEXT: dsaplan.pipe_barrier <mte3>
// SYNC-NEXT: dsaplan.set_flag <mte3 -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> s>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> s>, 1
// SYNC-NEXT: dsaplan.pipe_barrier <v>
// SYNC-NEXT: dsaplan.set_flag <s -> mte3>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> mte3>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// SYNC-NEXT: dsaplan.pipe_barrier <mte3>
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 1
// SYNC-NEXT: dsaplan.set_flag <mte3 -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> v>, 0
// SYNC-NEXT: dsaplan.pipe_barrier <mte3>
// SYNC-NEXT: dsaplan.set_flag <mte3 -> v>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> v>, 1
// SYNC-NEXT: dsaplan.pipe_barrier <v>
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.pipe_barrier <mte2>
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> s>, 0
// SYNC-NEXT: dsaplan.set_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <s -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte3>, 0
// SYNC-NEXT: dsaplan.wait_flag <v -> mte3>, 0
// SYNC-NEXT: dsaplan.pipe_barrier <v>
func.func private @helper(memref<64xf32, #dsaplan.space<ub>>)
func.func @k328(%gm: memref<64xf32>, %gm16: memref<16xf32>, %gm8: memref<8xf32>, %gm8x8: memref<8x8xf32>, %gmr: memref<64xf32> {llvm.noalias}, %rows: memref<4x64xf32> {llvm.noalias}, %n: index, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %row0 = memref.subview %rows[1, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: 64>>
  %row1 = memref.subview %rows[2, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: 128>>
  %o0 = arith.constant 608 : index
  %t0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %o1 = arith.constant 512 : index
  %t1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %o2 = arith.constant 256 : index
  %t2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %s0 = memref.subview %t2[8] [16] [2] : memref<64xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>
  %s1 = memref.subview %t2[20] [16] [1] : memref<64xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>
  scf.for %i1_0 = %c0 to %n step %c1 {
    scf.index_switch %n
    case 0 {
      memref.copy %row0, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
      memref.copy %gmr, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
      scf.yield
    }
    case 1 {
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2 : memref<64xf32, #dsaplan.space<ub>>) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
      memref.copy %row0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
      scf.yield
    }
    default {
    }
    scf.for %i2_17 = %c0 to %n step %c1 {
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
    }
  }
  scf.while : () -> () {
    scf.if %c {
      memref.copy %gm16, %s1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>
      memref.copy %gm, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
    } else {
      memref.copy %s0, %gm16 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>> to memref<16xf32>
      memref.copy %row1, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 128>> to memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %t0, %gmr {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    scf.for %i2_9 = %c0 to %n step %c1 {
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<64xf32, #dsaplan.space<ub>>) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%t1 : memref<64xf32, #dsaplan.space<ub>>)
      memref.copy %row0, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
    }
    scf.if %c {
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%t2 : memref<64xf32, #dsaplan.space<ub>>)
      memref.copy %t0, %row0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: 64>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
      memref.copy %gm16, %s0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>
    } else {
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
    }
    scf.condition(%c)
  } do {
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
    memref.copy %gm, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %s1, %gm16 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>> to memref<16xf32>
    scf.yield
  }
  scf.execute_region {
    scf.if %c {
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
      memref.copy %row0, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<64xf32, #dsaplan.space<ub>>) outs(%t2 : memref<64xf32, #dsaplan.space<ub>>)
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%t0 : memref<64xf32, #dsaplan.space<ub>>)
    } else {
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s1 : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
    }
    scf.index_switch %n
    case 0 {
      memref.copy %gm16, %s0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>
      memref.copy %s1, %gm16 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>> to memref<16xf32>
      memref.copy %t0, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
      scf.yield
    }
    default {
    }
    scf.if %c {
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<64xf32, #dsaplan.space<ub>>) outs(%t2 : memref<64xf32, #dsaplan.space<ub>>)
    } else {
      memref.copy %t2, %gmr {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
      memref.copy %t2, %gmr {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
      func.call @helper(%t2) {dsaplan.pipe = #dsaplan.pipe<v>} : (memref<64xf32, #dsaplan.space<ub>>) -> ()
    }
    scf.for %i2_25 = %c0 to %n step %c1 {
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
      memref.copy %gm, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
      memref.copy %gm16, %s1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[1], offset: 20>, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%s0 : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>>)
    }
    scf.yield
  }
  scf.if %c {
    scf.for %i2_0 = %c0 to %n step %c1 {
      func.call @helper(%t0) {dsaplan.pipe = #dsaplan.pipe<v>} : (memref<64xf32, #dsaplan.space<ub>>) -> ()
    }
  } else {
    memref.copy %s0, %gm16 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[2], offset: 8>, #dsaplan.space<ub>> to memref<16xf32>
  }
  return
}
