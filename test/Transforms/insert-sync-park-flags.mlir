// RUN: dsa-opt %s -split-input-file -dsaplan-settle-calls -dsaplan-insert-sync -dsaplan-verify-sync | FileCheck %s

// A flag in flight at a settled call is parked: waited before the call's
// barrier_all and set again after the one behind it. Here the flag is
// consumed on both paths through the scf.if, so nothing is in flight at
// the call and nothing is parked. (The walk used to keep the state before
// an scf.if with an else among the paths leaving it, parked this flag, and
// its parking wait would have hung: verify-sync refused the result.)
// CHECK-LABEL: func.func @consumed_on_both_paths
// CHECK:       dsaplan.set_flag <mte2 -> v>, 3
// CHECK:       scf.if
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 3
// CHECK:       } else {
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 3
// CHECK-NEXT:  }
// CHECK-NEXT:  dsaplan.barrier_all
// CHECK-NEXT:  call @helper
// CHECK-NEXT:  dsaplan.barrier_all
// CHECK-NEXT:  return
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @consumed_on_both_paths(%g: memref<1024xf32>, %c: i1) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 3
    scf.if %c {
      dsaplan.wait_flag <mte2 -> v>, 3
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%a : memref<1024xf32, #dsaplan.space<ub>>)
    } else {
      dsaplan.wait_flag <mte2 -> v>, 3
    }
    func.call @helper(%a) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    return
  }
}

// -----

// In a loop, the flag the previous iteration set (or the one before the
// loop) is in flight at the call at the top of the body: it is parked
// around the call, and the body's own wait still consumes it.
// CHECK-LABEL: func.func @in_flight_around_back_edge
// CHECK:       dsaplan.set_flag <v -> mte2>, 3
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte2>, 3
// CHECK-NEXT:    dsaplan.barrier_all
// CHECK-NEXT:    func.call @helper
// CHECK-NEXT:    dsaplan.barrier_all
// CHECK-NEXT:    dsaplan.set_flag <v -> mte2>, 3
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte2>, 3
// CHECK-NEXT:    memref.copy
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @in_flight_around_back_edge(%g: memref<1024xf32>, %n: index) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <v -> mte2>, 3
    scf.for %i = %c0 to %n step %c1 {
      func.call @helper(%b) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
      dsaplan.wait_flag <v -> mte2>, 3
      memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%a : memref<1024xf32, #dsaplan.space<ub>>)
      dsaplan.set_flag <v -> mte2>, 3
    }
    dsaplan.wait_flag <v -> mte2>, 3
    return
  }
}
