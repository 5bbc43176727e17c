// RUN: dsa-opt %s --dsa-plan | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s --dsa-plan | dsa-opt -dsaplan-verify-sync -dsaplan-simulate="runs=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty

// Event-id pressure in a block inside another block's flag pair
// (IdPressure.cpp, heldAround): the load of %a before the scf.if and its
// add after it are one <mte2 -> v> pair in flight over the whole scf.if, so
// the branch's eight loads-then-adds have seven ids, not eight. The relief
// merges the pairs of the first two loads (one set after both, one wait
// before the first add) before ids are handed out; without the pair around
// the branch counted, all eight pairs would keep their own set and the
// last would be set late, right before its wait, for want of an id.

// CLEAN-NOT: error
// SUMMARY: remark: @held_around_if: 18 flag pairs (0 around loops, 0 eager, 0 set late for want of an event id;

// CHECK-LABEL: func.func @held_around_if
// CHECK:         memref.copy %arg0
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:    scf.if
// CHECK-NOT:       _flag
// CHECK:           memref.copy %arg1
// CHECK-NOT:       _flag
// CHECK:           memref.copy %arg2
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> v>, 1
// CHECK-NOT:       _flag
// CHECK:           memref.copy %arg3
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> v>, 2
// CHECK:           memref.copy %arg8
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> v>, 7
// CHECK-NOT:       dsaplan.set_flag <mte2 -> v>
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    linalg.add

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @held_around_if(%ga: memref<256xf32>, %g0: memref<256xf32>, %g1: memref<256xf32>, %g2: memref<256xf32>, %g3: memref<256xf32>, %g4: memref<256xf32>, %g5: memref<256xf32>, %g6: memref<256xf32>, %g7: memref<256xf32>, %cond: i1) {
    %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %ga, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    scf.if %cond {
      %x0 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g0, %x0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x1 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g1, %x1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x2 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g2, %x2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x3 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g3, %x3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x4 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g4, %x4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x5 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g5, %x5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x6 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g6, %x6 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      %x7 = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g7, %x7 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x0, %x0 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x0 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x1, %x1 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x1 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x2, %x2 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x2 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x3, %x3 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x3 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x4, %x4 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x4 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x5, %x5 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x5 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x6, %x6 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x6 : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x7, %x7 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%x7 : memref<256xf32, #dsaplan.space<ub>>)
      memref.copy %x0, %g0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x1, %g1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x2, %g2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x3, %g3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x4, %g4 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x5, %g5 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x6, %g6 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
      memref.copy %x7, %g7 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    }
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %a : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %a, %ga {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}
