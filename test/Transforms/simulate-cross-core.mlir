// RUN: dsa-opt %s -split-input-file --dsaplan-simulate="runs=8" -verify-diagnostics

// The kernels of verify-sync-cross-core.mlir run by the simulator: the cube
// core's pipes and the vector core's (aiv.*) side by side, a cross-core
// counter per core and id, a cross_core_wait holding its whole core.

// Synchronised: no finding in eight runs.
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

// The vector core's wait for the store is missing: its load runs while
// the cube still stores, and the four signals are never taken.
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
  scf.for %i = %c0 to %cN step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <fix -> m>, 0
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    dsaplan.set_flag <m -> fix>, 0
    dsaplan.wait_flag <m -> fix>, 0
    dsaplan.cross_core_wait cube, mode 2, id 0
    // expected-note @below {{the earlier access, 'memref.copy' on pipe fix in iteration 0}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    // expected-error @below {{simulated run ends with cross-core id 0 of the vector core holding 4 signals that no cross_core_wait took, the oldest set in iteration 0}}
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    // expected-error @below {{simulated race, read after write on bytes [0, 256) of gm argument #0: 'memref.copy' on pipe aiv.mte2 in iteration 0 is not ordered after 'memref.copy' on pipe fix in iteration 0}}
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

// The slot is reused too early: the cube's next store does not wait for
// the vector core's load.
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
    // expected-error @below {{simulated race, write after read on bytes [0, 256) of gm argument #0: 'memref.copy' on pipe fix in iteration 1 is not ordered after 'memref.copy' on pipe aiv.mte2 in iteration 0}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    dsaplan.cross_core_wait cube, mode 2, id 0
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.cross_core_wait vector, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    // expected-note @below {{the earlier access, 'memref.copy' on pipe aiv.mte2 in iteration 0}}
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

// No back-pressure at all over 40 iterations: the cube core runs ahead of
// the vector core until its counter holds 15 signals, and the 16th is lost
// (an overrun), so the vector core's last wait never passes (a hang); and
// the slot is overwritten while it is being loaded.
func.func @no_back_pressure(%ws: memref<64xf32> {llvm.noalias}, %out: memref<40x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cN = arith.constant 40 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte3 -> mte2>, 0
  dsaplan.set_flag <fix -> m>, 0
  scf.for %i = %c0 to %cN step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<40x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <fix -> m>, 0
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    dsaplan.set_flag <m -> fix>, 0
    dsaplan.wait_flag <m -> fix>, 0
    // expected-error @below {{simulated race, write after read on bytes [0, 256) of gm argument #0: 'memref.copy' on pipe fix in iteration 1 is not ordered after 'memref.copy' on pipe aiv.mte2 in iteration 0}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    // expected-error @below {{simulated overrun: cross-core id 0 of the vector core in iteration}}
    // expected-note @below {{the oldest signal it holds}}
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    // expected-error @below {{simulated hang: the vector core waits for ever at a cross_core_wait in iteration}}
    dsaplan.cross_core_wait vector, mode 2, id 0
    dsaplan.set_flag <fix -> m>, 0
    dsaplan.wait_flag <mte3 -> mte2>, 0
    // expected-note @below {{the earlier access, 'memref.copy' on pipe aiv.mte2 in iteration 0}}
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> mte3>, 0
    dsaplan.wait_flag <mte2 -> mte3>, 0
    memref.copy %x, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
    dsaplan.set_flag <mte3 -> mte2>, 0
  }
  dsaplan.wait_flag <fix -> m>, 0
  dsaplan.wait_flag <mte3 -> mte2>, 0
  return
}


// -----

// Mode 1 orders the two vector cores of a group: not simulated.
func.func @mode_one() {
  // expected-error @below {{cannot simulate 'dsaplan.cross_core_set': mode 1 synchronises cores of one kind; only mode 2 (the cube core with the vector cores) is simulated}}
  dsaplan.cross_core_set vector <mte3>, mode 1, id 0
  return
}

// -----

// A copy between two GM buffers on MTE2 (a pipe of both cores) in a
// function of both: the simulator cannot tell which core runs it.
func.func @core_not_decided(%gm: memref<64xf32> {llvm.noalias}, %copy: memref<64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  memref.copy %acc, %gm {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
  dsaplan.cross_core_set cube <fix>, mode 2, id 0
  dsaplan.cross_core_wait vector, mode 2, id 0
  // expected-error @below {{cannot simulate 'memref.copy': on pipe mte2 it may run on the cube or the vector core (say which with dsaplan.core)}}
  memref.copy %gm, %copy {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32>
  return
}
