// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="runs=8" -verify-diagnostics

// Hand-written kernels with a sync defect each, run under eight seeds; each
// distinct finding is reported once.

// The worked example of DESIGN.md with the RAW wait on A left out: V reads A
// while MTE2 may still be loading it, and the flag that wait should take is
// still set when the next iteration sets it again.
func.func @missing_wait(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <v -> mte2>, 0
  dsaplan.set_flag <mte3 -> v>, 0
  scf.for %i = %c0 to %c8 step %c1 {
    dsaplan.wait_flag <v -> mte2>, 0
    // The next iteration's load: nothing orders it after this one (the chain
    // through V is the wait that is missing).
    // expected-note @below {{the earlier access, 'memref.copy' on pipe mte2 in iteration 0}}
    // expected-error @below {{simulated race, write after write on bytes [0, 1024) of ub: 'memref.copy' on pipe mte2 in iteration 1 is not ordered after 'memref.copy' on pipe mte2 in iteration 0}}
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    // expected-error @below {{simulated overrun: event 1 of <mte2 -> v> in iteration 1 fires at cycle}}
    // expected-note @below {{the earlier set_flag in iteration 0}}
    // expected-error @below {{simulated run ends with event 1 of <mte2 -> v> still set in iteration 0: it is never waited for}}
    dsaplan.set_flag <mte2 -> v>, 1
    dsaplan.wait_flag <mte3 -> v>, 0
    // expected-error @below {{simulated race, read after write on bytes [0, 1024) of ub: 'linalg.exp' on pipe v in iteration 0 is not ordered after 'memref.copy' on pipe mte2 in iteration 0}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <v -> mte2>, 0
    dsaplan.set_flag <v -> mte3>, 1
    dsaplan.wait_flag <v -> mte3>, 1
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    dsaplan.set_flag <mte3 -> v>, 0
  }
  dsaplan.wait_flag <v -> mte2>, 0
  dsaplan.wait_flag <mte3 -> v>, 0
  return
}

// -----

// Two sets of <mte2 -> v> 0 in one iteration, and nothing orders the second
// after V's first wait: when the second load is done before the first, both
// sets fire in one cycle and a signal is lost.
func.func @double_set(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <v -> mte2>, 0
  scf.for %i = %c0 to %c4 step %c1 {
    // The lost signal leaves V waiting, so V never sets this flag again.
    // expected-error @below {{simulated hang: pipe mte2 waits for ever for event 0 of <v -> mte2> in iteration 1, which is never set}}
    dsaplan.wait_flag <v -> mte2>, 0
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    // expected-note @below {{the earlier set_flag in iteration 0}}
    dsaplan.set_flag <mte2 -> v>, 0
    memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    // expected-error @below {{simulated overrun: event 0 of <mte2 -> v> in iteration 0 fires at cycle}}
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    // expected-error @below {{simulated hang: pipe v waits for ever for event 0 of <mte2 -> v> in iteration 0, which is never set}}
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %b : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
    dsaplan.pipe_barrier <v>
    dsaplan.set_flag <v -> mte2>, 0
  }
  // Under seed 5 the signal is lost in the last iteration (3): MTE2 then
  // hangs here, after the loop.
  // expected-error @below {{simulated hang: pipe mte2 waits for ever for event 0 of <v -> mte2>, which is never set (seed 5)}}
  dsaplan.wait_flag <v -> mte2>, 0
  return
}

// -----

func.func @wait_without_set() {
  // expected-error @below {{simulated hang: pipe mte2 waits for ever for event 3 of <v -> mte2>, which is never set (seed 1)}}
  dsaplan.wait_flag <v -> mte2>, 3
  return
}

// -----

func.func @set_without_wait() {
  // expected-error @below {{simulated run ends with event 2 of <v -> mte2> still set: it is never waited for}}
  dsaplan.set_flag <v -> mte2>, 2
  return
}

// -----

// The partial-overlap race: C (32 bytes at 64) is placed over part of A's
// bytes while V still reads A. Different tiles, the same bytes.
func.func @partial_overlap(%gm: memref<8xf32>, %out: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %c = memref.view %ub[%c64][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access, 'linalg.exp' on pipe v}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%out : memref<1024xf32>)
  // expected-error @below {{simulated race, write after read on bytes [64, 96) of ub: 'memref.copy' on pipe mte2 is not ordered after 'linalg.exp' on pipe v}}
  memref.copy %gm, %c {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  return
}

// -----

// One pipe, no barrier: V's second write may overtake its first.
func.func @same_pipe_without_barrier() {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  // expected-error @below {{simulated race, write after write on bytes [0, 1024) of ub: 'linalg.fill' on pipe v is not ordered after 'linalg.fill' on pipe v}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  return
}

// -----

// Strided subviews: the even elements of A and its odd ones share no byte;
// the odd ones and the second half of A do.
func.func @strided(%gm: memref<64xf32>, %out: memref<64xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<128xf32, #dsaplan.space<ub>>
  %even = memref.subview %a[0] [64] [2] : memref<128xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[2]>, #dsaplan.space<ub>>
  %odd = memref.subview %a[1] [64] [2] : memref<128xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[2], offset: 1>, #dsaplan.space<ub>>
  %high = memref.subview %a[64] [64] [1] : memref<128xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: 64>, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %even {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, strided<[2]>, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %odd, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, strided<[2], offset: 1>, #dsaplan.space<ub>> to memref<64xf32>
  // expected-error @below {{simulated race, write after write on bytes [256, 508) of ub: 'memref.copy' on pipe mte2 is not ordered after 'memref.copy' on pipe mte2}}
  // expected-error @below {{simulated race, write after read on bytes [260, 512) of ub: 'memref.copy' on pipe mte2 is not ordered after 'memref.copy' on pipe mte3}}
  memref.copy %gm, %high {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, strided<[1], offset: 64>, #dsaplan.space<ub>>
  return
}

// -----

// GM is memory too: MTE2 reads the argument that MTE3 writes.
func.func @gm_race(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  // expected-error @below {{simulated race, read after write on bytes [0, 1024) of gm argument #0: 'memref.copy' on pipe mte2 is not ordered after 'memref.copy' on pipe mte3}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @unknown_region_op(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{cannot simulate 'scf.parallel': an op with regions and no pipe}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  }
  return
}

// -----

func.func @outside_the_arena(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c196600 = arith.constant 196600 : index
  %a = memref.view %ub[%c196600][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{cannot simulate 'memref.copy': it touches bytes [196600, 197624) outside the 196608 bytes of ub}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @unplaced(%gm: memref<256xf32>) {
  // expected-error @below {{cannot simulate 'memref.alloc': the tile has no address (run dsaplan-materialize first)}}
  %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @no_pipe(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{cannot simulate 'memref.copy': it touches a dsaplan memory space but has no pipe}}
  memref.copy %gm, %a : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// expected-warning @below {{simulation gave up after 200000 trace entries (max-trace-length)}}
func.func @gave_up(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %big step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
  }
  return
}

// -----

// Views the simulator follows to the arena: a cast out of the space and a
// transpose. MTE3 stores the tile through the cast, V reads a column of it
// through the transpose; neither waits for the load. (It used to refuse
// both views: "a view the simulator cannot follow".)
module {
  func.func @views_out_of_space(%gm: memref<64xf32>, %out: memref<32x2xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %d = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32x2xf32, #dsaplan.space<ub>>
    // expected-note @below {{the earlier access, 'memref.copy' on pipe mte2}}
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    %g = memref.memory_space_cast %a : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    // expected-error @below {{simulated race, read after write on bytes [0, 256) of ub: 'memref.copy' on pipe mte3 is not ordered after 'memref.copy' on pipe mte2}}
    memref.copy %g, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32> to memref<64xf32>
    %e = memref.expand_shape %a [[0, 1]] output_shape [2, 32] : memref<64xf32, #dsaplan.space<ub>> into memref<2x32xf32, #dsaplan.space<ub>>
    %t = memref.transpose %e (i, j) -> (j, i) : memref<2x32xf32, #dsaplan.space<ub>> to memref<32x2xf32, strided<[1, 32]>, #dsaplan.space<ub>>
    // expected-error @below {{simulated race, read after write on bytes [0, 256) of ub: 'linalg.copy' on pipe v is not ordered after 'memref.copy' on pipe mte2}}
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<32x2xf32, strided<[1, 32]>, #dsaplan.space<ub>>) outs(%d : memref<32x2xf32, #dsaplan.space<ub>>)
    return
  }
}

// -----

// V waits for a flag that MTE2 sets only after a barrier_all: every other
// pipe reaches the barrier and waits there for V, which never comes.
func.func @barrier_all_before_the_set(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{simulated hang: pipe v waits for ever for event 0 of <mte2 -> v>, which is never set (seed 1)}}
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  // expected-error @below {{simulated hang: a barrier_all waits for ever for pipe v, blocked before it (seed 1)}}
  dsaplan.barrier_all
  dsaplan.set_flag <mte2 -> v>, 0
  return
}
