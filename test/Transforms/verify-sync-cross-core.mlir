// RUN: dsa-opt %s -split-input-file --dsaplan-verify-sync -verify-diagnostics

// The cross-core flags in the verifier: one cube and one vector core, each
// with its own pipes, joined only by the counters of cross_core_set and
// cross_core_wait (docs/sync.md, "Cross-core synchronisation"). A GM
// workspace slot, written by the cube's FIX and loaded by the vector core's
// MTE2 every iteration; simulate-cross-core.mlir runs the same kernels.

// Synchronised as dsaplan-insert-sync does it: RAW in the iteration, WAR
// around the back edge (set before the loop, drained after it). Nothing to
// report.
func.func @clean(%ws: memref<64xf32> {llvm.noalias}, %out: memref<4x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cN = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.cross_core_set vector <mte2>, mode 2, id 0    // the slot starts free
  dsaplan.set_flag <mte3 -> mte2>, 0
  dsaplan.set_flag <fix -> m>, 0
  scf.for %i = %c0 to %cN step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <fix -> m>, 0
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    dsaplan.set_flag <m -> fix>, 0
    dsaplan.wait_flag <m -> fix>, 0
    dsaplan.cross_core_wait cube, mode 2, id 0
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.cross_core_wait vector, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.cross_core_set vector <mte2>, mode 2, id 0
    dsaplan.set_flag <mte2 -> mte3>, 0
    dsaplan.wait_flag <mte2 -> mte3>, 0
    memref.copy %x, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.set_flag <mte3 -> mte2>, 0
  }
  dsaplan.wait_flag <fix -> m>, 0
  dsaplan.wait_flag <mte3 -> mte2>, 0
  dsaplan.cross_core_wait cube, mode 2, id 0
  return
}


// -----

// The vector core's wait for the store is missing: its load races with the
// store, and the counter gains a signal per iteration that nothing takes.
func.func @missing_wait(%ws: memref<64xf32> {llvm.noalias}, %out: memref<4x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cN = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.cross_core_set vector <mte2>, mode 2, id 0    // the slot starts free
  dsaplan.set_flag <mte3 -> mte2>, 0
  dsaplan.set_flag <fix -> m>, 0
  // expected-error @below {{unbalanced cross-core flags: id 0 of the vector core holds a different number of signals on different paths through this op}}
  scf.for %i = %c0 to %cN step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <fix -> m>, 0
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    dsaplan.set_flag <m -> fix>, 0
    dsaplan.wait_flag <m -> fix>, 0
    dsaplan.cross_core_wait cube, mode 2, id 0
    // expected-note @below {{the earlier access}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 (vector core) and 'memref.copy' on pipe fix (cube core) touch bytes [0, 256) of GM argument #0}}
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.cross_core_set vector <mte2>, mode 2, id 0
    dsaplan.set_flag <mte2 -> mte3>, 0
    dsaplan.wait_flag <mte2 -> mte3>, 0
    memref.copy %x, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.set_flag <mte3 -> mte2>, 0
  }
  dsaplan.wait_flag <fix -> m>, 0
  dsaplan.wait_flag <mte3 -> mte2>, 0
  dsaplan.cross_core_wait cube, mode 2, id 0
  return
}


// -----

// The slot is reused too early: the cube waits for the vector core's load
// of the previous iteration only after its next store into the slot.
func.func @reused_early(%ws: memref<64xf32> {llvm.noalias}, %out: memref<4x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cN = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.cross_core_set vector <mte2>, mode 2, id 0    // the slot starts free
  dsaplan.set_flag <mte3 -> mte2>, 0
  dsaplan.set_flag <fix -> m>, 0
  scf.for %i = %c0 to %cN step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <fix -> m>, 0
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    dsaplan.set_flag <m -> fix>, 0
    dsaplan.wait_flag <m -> fix>, 0
    // expected-error @below {{unordered write after read: 'memref.copy' on pipe fix (cube core) and 'memref.copy' on pipe mte2 (vector core) touch bytes [0, 256) of GM argument #0}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    dsaplan.cross_core_wait cube, mode 2, id 0
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.cross_core_wait vector, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    // expected-note @below {{the earlier access}}
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.cross_core_set vector <mte2>, mode 2, id 0
    dsaplan.set_flag <mte2 -> mte3>, 0
    dsaplan.wait_flag <mte2 -> mte3>, 0
    memref.copy %x, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.set_flag <mte3 -> mte2>, 0
  }
  dsaplan.wait_flag <fix -> m>, 0
  dsaplan.wait_flag <mte3 -> mte2>, 0
  dsaplan.cross_core_wait cube, mode 2, id 0
  return
}


// -----

// A wait on a counter no set ever signals: the vector core would hang.
func.func @wait_without_set() {
  // expected-error @below {{waits on cross-core id 3 of the vector core, which no cross_core_set has signalled on this path: the core would hang}}
  dsaplan.cross_core_wait vector, mode 2, id 3
  return
}

// -----

// One counter set from two pipes of the cube core: the two signals may
// arrive in either order, and the vector core's first wait may take the
// second.
func.func @counter_from_two_pipes() {
  dsaplan.cross_core_set cube <fix>, mode 2, id 0
  // expected-error @below {{cross-core id 0 of the vector core is set on mte2 (cube core) and on fix (cube core): its signals may arrive in either order, and a wait may take the wrong one}}
  dsaplan.cross_core_set cube <mte2>, mode 2, id 0
  dsaplan.cross_core_wait vector, mode 2, id 0
  // The refused set adds no signal.
  // expected-error @below {{waits on cross-core id 0 of the vector core, which no cross_core_set has signalled on this path: the core would hang}}
  dsaplan.cross_core_wait vector, mode 2, id 0
  return
}

// -----

// Sixteen signals in one counter before any wait: a counter holds 15.
func.func @counter_over_limit() {
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  // expected-error @below {{cross-core id 1 of the vector core would hold 16 signals, and a counter of ascend910b holds 15}}
  dsaplan.cross_core_set cube <fix>, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  dsaplan.cross_core_wait vector, mode 2, id 1
  return
}

// -----

// Mode 0 synchronises all cores of one kind, which one program of a cube
// and a vector core does not model.
func.func @mode_zero() {
  // expected-error @below {{mode 0 synchronises cores of one kind; the verifier models one cube and one vector core (mode 2) only}}
  dsaplan.cross_core_set vector <mte3>, mode 0, id 0
  return
}

// -----

// Signals left at the end of the function.
func.func @left_over() {
  // expected-error @below {{cross-core id 2 of the cube core ends the function holding 1 signal that no cross_core_wait takes}}
  dsaplan.cross_core_set vector <mte3>, mode 2, id 2
  return
}

// -----

// In a function of both cores, a copy between two GM buffers on MTE2 (a
// pipe of both) must say which core runs it.
func.func @core_not_decided(%gm: memref<64xf32> {llvm.noalias}, %copy: memref<64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %acc, %gm {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
  dsaplan.cross_core_set cube <fix>, mode 2, id 0
  dsaplan.cross_core_wait vector, mode 2, id 0
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' on pipe mte2 may run on the cube or the vector core, and this function holds ops of both: say which with dsaplan.core}}
  memref.copy %gm, %copy {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32>
  // Said: the vector core's MTE2, after the wait.
  memref.copy %gm, %copy {dsaplan.pipe = #dsaplan.pipe<mte2>, dsaplan.core = #dsaplan.core<vector>} : memref<64xf32> to memref<64xf32>
  return
}
