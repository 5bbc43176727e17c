// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics -o /dev/null
//
// The cases a walk that leaves a loop once its iterations repeat
// (lib/Sync/Verify/FixedPoint.cpp) must not miss: each hazard shows only
// on a later iteration of a loop (or of the outer loop of a nest), and the
// diagnostics are those of the walk that unrolls every loop three times.

// Iteration r loads row r and stores row r + 2: iteration 0's store and
// iteration 2's load (the third) meet, and nothing orders them. The bytes
// move with the loop, so the walk never leaves it early.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @gm_hazard_on_third_iteration(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c1024 = arith.constant 1024 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>
    scf.for %r = %c0 to %c6 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
      %r2 = arith.addi %r, %c2 : index
      %later = memref.subview %x[%r2, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
      dsaplan.pipe_barrier <mte2>
      // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 and 'memref.copy' on pipe mte3 touch bytes [2048, 3072) of GM argument #0}}
      memref.copy %row, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x256xf32, strided<[256, 1], offset: ?>> to memref<1x256xf32, #dsaplan.space<ub>>
      // expected-note @below {{the earlier access}}
      memref.copy %a, %later {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    }
    return
  }
}

// -----

// A nest of three loops, ordered inside: the innermost loop loads X and
// computes Y from it, handing X back to MTE2 each iteration. After the
// middle loop MTE3 stores Y; nothing orders that read before the next
// outer iteration's first V write of Y, so the race shows on the outer
// loop's second iteration only.
func.func @nest_hazard_on_second_outer_iteration(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.for %o = %c0 to %c4 step %c1 {
    scf.for %m = %c0 to %c4 step %c1 {
      scf.for %i = %c0 to %c4 step %c1 {
        memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
        dsaplan.set_flag <mte2 -> v>, 0
        dsaplan.wait_flag <mte2 -> v>, 0
        // expected-error @below {{unordered write after read: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte3 touch bytes [256, 512) of ub}}
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y : memref<64xf32, #dsaplan.space<ub>>)
        dsaplan.pipe_barrier <v>
        dsaplan.set_flag <v -> mte2>, 0
        dsaplan.wait_flag <v -> mte2>, 0
      }
    }
    // The same missing hand-back lets V raise this flag again before MTE3
    // consumed the last one.
    // expected-error @below {{event 0 of <v -> mte3> may be set again before the wait that consumes its previous set has run}}
    dsaplan.set_flag <v -> mte3>, 0
    // expected-note @below {{the wait it is not ordered after}}
    dsaplan.wait_flag <v -> mte3>, 0
    dsaplan.pipe_barrier <mte3>
    // expected-note @below {{the earlier access}}
    memref.copy %y, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }
  return
}

// -----

// The same nest with the store handed back to V: accepted.
func.func @nest_ordered(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %y = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte3 -> v>, 0
  scf.for %o = %c0 to %c4 step %c1 {
    dsaplan.wait_flag <mte3 -> v>, 0
    scf.for %m = %c0 to %c4 step %c1 {
      scf.for %i = %c0 to %c4 step %c1 {
        memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
        dsaplan.set_flag <mte2 -> v>, 0
        dsaplan.wait_flag <mte2 -> v>, 0
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%y : memref<64xf32, #dsaplan.space<ub>>)
        dsaplan.pipe_barrier <v>
        dsaplan.set_flag <v -> mte2>, 0
        dsaplan.wait_flag <v -> mte2>, 0
      }
    }
    dsaplan.set_flag <v -> mte3>, 0
    dsaplan.wait_flag <v -> mte3>, 0
    dsaplan.pipe_barrier <mte3>
    memref.copy %y, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    dsaplan.set_flag <mte3 -> v>, 0
  }
  dsaplan.wait_flag <mte3 -> v>, 0
  return
}

// -----

// scf.while raises event 1 in its "before" region, which runs once more
// than the "do" region, and waits for it only after the loop: the second
// run of the region raises it again before any wait.
func.func @flag_set_twice_across_iterations(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.while : () -> () {
    // expected-error @below {{event 1 of <mte2 -> v> is set again before its wait}}
    dsaplan.set_flag <mte2 -> v>, 1
    scf.condition(%c)
  } do {
    dsaplan.pipe_barrier <mte2>
    // expected-note @below {{the earlier access}}
    memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    scf.yield
  }
  dsaplan.wait_flag <mte2 -> v>, 1
  // The set that failed captured nothing: the later loads are unordered.
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 256) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%out : memref<64xf32>)
  return
}

// -----

// A flag set and waited for in each iteration, but nothing orders V's wait
// of one iteration before MTE2's set of the next: the second set may be
// lost.
func.func @flag_set_again_before_its_consumer() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{event 1 of <mte2 -> v> may be set again before the wait that consumes its previous set has run}}
    dsaplan.set_flag <mte2 -> v>, 1
    // expected-note @below {{the wait it is not ordered after}}
    dsaplan.wait_flag <mte2 -> v>, 1
  }
  return
}

// -----

// scf.while: the "do" region loads X and V reads it; nothing hands X back
// to MTE2, so the next iteration's load races the read.
func.func @while_hazard_on_second_iteration(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    dsaplan.pipe_barrier <mte2>
    // expected-error @below {{unordered write after read: 'memref.copy' on pipe mte2 and 'linalg.exp' on pipe v touch bytes [0, 256) of ub}}
    memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    // Nor is V's wait handed back before the next set.
    // expected-error @below {{event 0 of <mte2 -> v> may be set again before the wait that consumes its previous set has run}}
    dsaplan.set_flag <mte2 -> v>, 0
    // expected-note @below {{the wait it is not ordered after}}
    dsaplan.wait_flag <mte2 -> v>, 0
    dsaplan.pipe_barrier <v>
    // expected-note @below {{the earlier access}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<64xf32, #dsaplan.space<ub>>) outs(%out : memref<64xf32>)
    scf.yield
  }
  return
}
