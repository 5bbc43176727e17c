// RUN: dsa-opt %s -dsaplan-insert-sync > %t.once
// RUN: dsa-opt %s > %t.input
// RUN: diff %t.input %t.once
//
// Insert-sync's own output (insert-sync-property.test, seed 7, kernel 38,
// once the random kernels store to and load from GM), which verify-sync
// accepts and from which no sync can be left out, must come back from
// insert-sync as it went in. It did not (issue 13, item 5, a known gap
// until now): run again, insert-sync planned an <mte2 -> mte3> loop pair
// and an <mte3 -> mte2> pair on top of the input's syncs, and pruning kept
// both. Each keeps the other's set from overrunning its flag (without the
// first, event 4 of <mte3 -> mte2> "may be set again before the wait that
// consumes its previous set"; without the second, event 0 of
// <mte2 -> mte3>), so neither goes alone, and pruning left groups out one
// at a time. It now tries such groups together (insert-sync-prune-pairs.mlir).
module {
  func.func @k38(%arg0: memref<64xf32>, %arg1: memref<16xf32>, %arg2: memref<64xf32> {llvm.noalias}, %arg3: memref<4x64xf32> {llvm.noalias}, %arg4: index, %arg5: i1) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %subview = memref.subview %arg3[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    %c32 = arith.constant 32 : index
    %view = memref.view %ub[%c32][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c192 = arith.constant 192 : index
    %view_0 = memref.view %ub[%c192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c480 = arith.constant 480 : index
    %view_1 = memref.view %ub[%c480][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c416 = arith.constant 416 : index
    %view_2 = memref.view %ub[%c416][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c480_3 = arith.constant 480 : index
    %view_4 = memref.view %ub[%c480_3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %subview_5 = memref.subview %view_1[%arg4] [16] [1] : memref<64xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
    dsaplan.set_flag <s -> mte2>, 0
    dsaplan.set_flag <mte3 -> mte2>, 0
    scf.for %arg6 = %c0 to %arg4 step %c1 {
      dsaplan.wait_flag <s -> mte2>, 0
      dsaplan.wait_flag <mte3 -> mte2>, 0
      dsaplan.set_flag <mte2 -> v>, 1
      scf.for %arg7 = %c0 to %arg4 step %c1 {
        dsaplan.pipe_barrier <v>
        dsaplan.wait_flag <mte2 -> v>, 1
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%view : memref<64xf32, #dsaplan.space<ub>>) outs(%view_2 : memref<64xf32, #dsaplan.space<ub>>)
        dsaplan.set_flag <v -> mte3>, 0
        dsaplan.wait_flag <v -> mte3>, 0
        memref.copy %subview_5, %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>> to memref<16xf32>
        dsaplan.set_flag <mte3 -> mte2>, 1
        dsaplan.wait_flag <mte3 -> mte2>, 1
        memref.copy %subview, %view_4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
        dsaplan.set_flag <mte2 -> v>, 1
        dsaplan.pipe_barrier <v>
        linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%cst : f32) outs(%view : memref<64xf32, #dsaplan.space<ub>>)
      }
      dsaplan.wait_flag <mte2 -> v>, 1
      dsaplan.set_flag <v -> s>, 0
      dsaplan.wait_flag <v -> s>, 0
      dsaplan.set_flag <v -> mte3>, 0
      dsaplan.wait_flag <v -> mte3>, 0
      dsaplan.pipe_barrier <mte2>
      scf.index_switch %arg4 
      case 0 {
        memref.copy %arg1, %subview_5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
        dsaplan.set_flag <mte2 -> mte3>, 1
        dsaplan.wait_flag <mte2 -> mte3>, 1
        memref.copy %subview_5, %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>> to memref<16xf32>
        linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%cst : f32) outs(%view : memref<64xf32, #dsaplan.space<ub>>)
        scf.yield
      }
      case 1 {
        linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%cst : f32) outs(%view_4 : memref<64xf32, #dsaplan.space<ub>>)
        dsaplan.set_flag <s -> mte3>, 1
        dsaplan.wait_flag <s -> mte3>, 1
        memref.copy %view_2, %subview {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
        scf.yield
      }
      default {
      }
      dsaplan.set_flag <s -> mte2>, 0
      dsaplan.set_flag <mte3 -> mte2>, 0
    }
    dsaplan.wait_flag <mte3 -> mte2>, 0
    dsaplan.wait_flag <s -> mte2>, 0
    return
  }
}
