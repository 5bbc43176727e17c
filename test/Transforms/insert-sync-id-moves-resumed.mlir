// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync | grep -E "dsaplan\.(set_flag|wait_flag|barrier_all|pipe_barrier)" | FileCheck %s --check-prefix=SYNC
// RUN: dsa-opt %s -dsaplan-insert-sync | grep -cE "dsaplan\.(set_flag|wait_flag|barrier_all|pipe_barrier)" | FileCheck %s --check-prefix=COUNT
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync | dsa-opt -dsaplan-simulate="runs=8" -o /dev/null
//
// The kernel of insert-sync-id-moves.mlir behind 20 ops that hold no
// access: the one-bit repair's first changes lie past the first
// checkpoints of its walk, so each round after the first starts from the
// checkpoint before the last round's first change, and replays the
// repairs the last round asked for before it (EventIds.cpp). Eight rounds
// of moves, handshakes and a barrier_all must come out as a walk of the
// whole function each round gives them: the syncs below, in order, are
// those of such a walk (dsa-opt at 13870a0).
//
// CHECK: remark: @repair_rounds_after_a_prefix: 7 flag pairs (0 around loops, 4 eager, 0 set late for want of an event id; before pruning, 19 moved to another id and 8 handshakes added so that no set overruns its flag, 1 barrier_all for want of a safe event id), 1 barriers for 25 conflicting pairs; 18 dropped as implied by the others ({{[0-9]+}} ops walked)
// CHECK-LABEL: func.func @repair_rounds_after_a_prefix
// COUNT: 21
// SYNC: dsaplan.set_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 1
// SYNC-NEXT: dsaplan.set_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// SYNC-NEXT: dsaplan.set_flag <v -> mte3>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> mte3>, 1
// SYNC-NEXT: dsaplan.set_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <v -> mte2>, 1
// SYNC-NEXT: dsaplan.pipe_barrier <mte3>
// SYNC-NEXT: dsaplan.set_flag <mte3 -> mte2>, 1
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 1
// SYNC-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// SYNC-NEXT: dsaplan.barrier_all
// SYNC-NEXT: dsaplan.set_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// SYNC-NEXT: dsaplan.barrier_all
func.func @repair_rounds_after_a_prefix(%gm: memref<64xf32>, %gm16: memref<16xf32>, %gm8: memref<8xf32>, %gm8x8: memref<8x8xf32>, %gmr: memref<64xf32> {llvm.noalias}, %rows: memref<4x64xf32> {llvm.noalias}, %n: index, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %pad0 = arith.constant 0 : index
  %pad1 = arith.constant 1 : index
  %pad2 = arith.constant 2 : index
  %pad3 = arith.constant 3 : index
  %pad4 = arith.constant 4 : index
  %pad5 = arith.constant 5 : index
  %pad6 = arith.constant 6 : index
  %pad7 = arith.constant 7 : index
  %pad8 = arith.constant 8 : index
  %pad9 = arith.constant 9 : index
  %pad10 = arith.constant 10 : index
  %pad11 = arith.constant 11 : index
  %pad12 = arith.constant 12 : index
  %pad13 = arith.constant 13 : index
  %pad14 = arith.constant 14 : index
  %pad15 = arith.constant 15 : index
  %pad16 = arith.constant 16 : index
  %pad17 = arith.constant 17 : index
  %pad18 = arith.constant 18 : index
  %pad19 = arith.constant 19 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %row0 = memref.subview %rows[%n, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
  %o0 = arith.constant 448 : index
  %t0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %o1 = arith.constant 416 : index
  %t1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %o2 = arith.constant 224 : index
  %t2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %t2, %gmr {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  scf.while : () -> () {
    scf.for %i2_0 = %c0 to %n step %c1 {
      memref.copy %row0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<64xf32, #dsaplan.space<ub>>) outs(%t2 : memref<64xf32, #dsaplan.space<ub>>)
    }
    scf.condition(%c)
  } do {
    memref.copy %t0, %gmr {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    scf.yield
  }
  scf.for %i1_11 = %c0 to %n step %c1 {
    scf.if %c {
      memref.copy %t2, %row0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row0, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
    } else {
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<64xf32, #dsaplan.space<ub>>) outs(%t1 : memref<64xf32, #dsaplan.space<ub>>)
    }
  }
  return
}
