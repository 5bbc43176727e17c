// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync | dsa-opt -split-input-file --dsaplan-verify-sync --dsaplan-simulate="runs=8 check-gm=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// A set right after a loop, for a producer in the loop, goes ahead of the
// loop's drains when they tell its pipe nothing it hands over (issue 26,
// item 1). A drain is a wait: held in front of the set, it would keep the
// set (and the consumer after the loop) until the drained pipe has
// finished the loop's last iteration.
//
// CLEAN-NOT: error

// A branch loop pair's drain tells V nothing (the branch may not have run
// in the last iterations), so the set for the store of acc goes first. The
// drain <mte3 -> v> in front of it made the store of acc wait for the last
// store of b: makespan / ideal 1.19 before, 1.01 after (dsaplan-simulate,
// runs=8). The set takes id 1: id 0 of <v -> mte3> is free again after
// the branch's wait, but only the drain ordered a set after that wait.
//
// CHECK-LABEL: func.func @branch_drain
// CHECK:         dsaplan.set_flag <v -> mte2>, 0
// CHECK:         dsaplan.set_flag <mte3 -> v>, 0
// CHECK:         scf.for
// CHECK:           scf.if
        // after: set <v -> mte2> (last read of x)
// CHECK:             linalg.add
// CHECK-NEXT:        dsaplan.set_flag <v -> mte2>, 0
// CHECK:             dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    dsaplan.set_flag <v -> mte3>, 1
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte3>, 1
// CHECK-NEXT:    memref.copy %{{.*}}, %arg2

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @branch_drain(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias},
                          %out: memref<1024xf32> {llvm.noalias}, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>            // [0, 4096): x row, MTE2 -> V
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>         // [4096, 8192): exp, V -> MTE3
    %acc = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>       // [8192, 12288): sum, stored after the loop
    scf.for %i = %c0 to %c8 step %c1 {
      %live = arith.cmpi ule, %i, %n : index
      scf.if %live {
        %xi = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
        // wait <v -> mte2> (slot free: last iteration's add read it), after: set/wait <mte2 -> v>
        memref.copy %xi, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
        // wait <mte3 -> v> (last store of b), after: set <v -> mte3>
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
        // after: set <v -> mte2> (last read of x)
        linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %a : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%acc : memref<1024xf32, #dsaplan.space<ub>>)
        %yi = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
        // wait <v -> mte3>, after: set <mte3 -> v>
        memref.copy %b, %yi {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
      }
    }
    // set <v -> mte3> right after the loop, then the drains, then its wait
    memref.copy %acc, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}

// -----

// The same loop without the branch: its drain <mte3 -> v> hands V what
// the loop's last store set, and the set after it passes that on to MTE3
// (here it also keeps id 0 safe). The set does not hand over the same
// without the drain, so it stays behind it (makespan / ideal 1.10 before
// and after).
//
// CHECK-LABEL: func.func @body_drain
// CHECK:         scf.for
// CHECK:           dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:    }
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT:    dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    memref.copy %{{.*}}, %arg2

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @body_drain(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias},
                          %out: memref<1024xf32> {llvm.noalias}, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>            // [0, 4096): x row, MTE2 -> V
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>         // [4096, 8192): exp, V -> MTE3
    %acc = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>       // [8192, 12288): sum, stored after the loop
    scf.for %i = %c0 to %c8 step %c1 {
        %xi = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // wait <v -> mte2> (last iteration's add read x), after: set/wait <mte2 -> v>
        memref.copy %xi, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      // wait <mte3 -> v> (last store of b), after: set <v -> mte3>
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
      // after: set <v -> mte2> (last read of x)
        linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %a : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%acc : memref<1024xf32, #dsaplan.space<ub>>)
        %yi = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // wait <v -> mte3>, after: set <mte3 -> v>
        memref.copy %b, %yi {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    // the drains, then set and wait <v -> mte3>
    memref.copy %acc, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}
