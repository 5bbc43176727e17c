// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync | dsa-opt -dsaplan-simulate="runs=8" -o /dev/null
//
// Kernel 185 of random_sync_kernels.py seed 415, with GM, that insert-sync
// used to refuse with "no event id of <mte2 -> v> is free here". Two
// <mte2 -> v> pairs whose sets may overrun each other's flag (one a
// handshake's set) are moved by the one-bit repair, each to the lowest free
// id, so they trade ids 0 and 1 round after round. A round that can fix
// nothing now replaces the stuck set's group by dsaplan.barrier_all at its
// waits (no id needed); the rest keeps its flags. verify-sync and the
// simulator accept the result.
//
// CHECK: remark: @ids_swapped_back_and_forth: {{[0-9]+}} flag pairs {{.*}}, {{[1-9]}} barrier_all for want of a safe event id)
// CHECK-LABEL: func.func @ids_swapped_back_and_forth
// CHECK: dsaplan.barrier_all
func.func @ids_swapped_back_and_forth(%gm: memref<64xf32>, %gm16: memref<16xf32>, %gm8: memref<8xf32>, %gm8x8: memref<8x8xf32>, %gmr: memref<64xf32> {llvm.noalias}, %rows: memref<4x64xf32> {llvm.noalias}, %n: index, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
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
