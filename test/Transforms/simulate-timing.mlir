// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true costs=mte2.fixed=10,mte2.bytes-per-cycle=64,v.fixed=0,v.bytes-per-cycle=256,mte3.fixed=10,mte3.bytes-per-cycle=128,jitter=0,sync-latency=3" -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT

// The timing of the summary with the costs given and no jitter. Each op's
// bytes are those of all its memref operands (GM included): 2048 here.
//   load  (mte2): 10 + 2048 / 64  = 42 cycles, [0, 42); its set fires at 42
//   exp   (v):     0 + 2048 / 256 =  8 cycles, after the wait: [45, 53)
//   store (mte3): 10 + 2048 / 128 = 26 cycles, after the wait: [56, 82)
// serial 42 + 8 + 26 = 76; the ideal chains the three without the flags'
// latency: 76; the makespan pays 3 + 3 cycles of sync latency: 82.
// expected-remark @below {{@chain: simulated 1 run, worst seed 1: makespan 82 cycles; busy v 8, mte2 42, mte3 26; 3 ops, 2 flags set; 0 findings; serial 76 cycles, dataflow ideal 76: makespan / serial 1.08, ideal / serial 1.00, makespan / ideal 1.08}}
func.func @chain(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  dsaplan.set_flag <v -> mte3>, 0
  dsaplan.wait_flag <v -> mte3>, 0
  memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}
// DEFAULT: remark: @chain: {{.*}}; serial {{[1-9][0-9]*}} cycles, dataflow ideal {{[1-9][0-9]*}}: makespan / serial

// -----

// Two loads into different tiles and barriers that nothing needs between
// them: the ideal overlaps the two loads of an iteration (the second issues
// a cycle after the first), the run does not.
//   each load: 10 + 2048 / 64 = 42 cycles
//   run:   [0, 42), [42, 84), [84, 126), [126, 168)   makespan 168
//   ideal: [0, 42), [1, 43), then each load waits for the previous write
//          of its tile: [42, 84), [43, 85)             ideal 85
// The loop's two iterations did 168 cycles of work in 168: no overlap.
// Below 1.5x, the summary names what held it back: the barrier at 53:5
// held MTE2 for the load issued a cycle before it, 42 - 1 cycles in each
// of the two iterations, 82 in all (SlowLoops.cpp).
// expected-remark @below {{@needless_barrier: simulated 1 run, worst seed 1: makespan 168 cycles; busy mte2 168; 4 ops, 0 flags set; 0 findings; serial 168 cycles, dataflow ideal 85: makespan / serial 1.00, ideal / serial 0.51, makespan / ideal 1.98; loop 51:3: 168 cycles of work in 168 (1.00x overlap; held back by pipe_barrier <mte2> at 53:5, 82 cycles stalled: its pipe's earlier ops must finish first)}}
func.func @needless_barrier(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %c2 step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
    memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
  }
  return
}

// The same kernel with pipe-overlap=0: a pipe runs one op at a time, so the
// ideal cannot overlap the two loads either; only the barriers' cost is
// left, which is none here.
// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true costs=mte2.fixed=10,mte2.bytes-per-cycle=64,jitter=0,pipe-overlap=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INORDER
// INORDER: remark: @needless_barrier: {{.*}}makespan 168 cycles; {{.*}}; serial 168 cycles, dataflow ideal 168: makespan / serial 1.00, ideal / serial 1.00, makespan / ideal 1.00

// -----

// A handover waits for the producer's pipe: V issues without waiting, and
// the barrier that orders the fill of %b before the exp reading it waits
// for every earlier V op, the long exp of %a too. No synchronised kernel
// starts the second exp before 64, so neither does the ideal.
//   exp %a -> %c (v): 16384 / 256 = 64 cycles, [0, 64)
//   fill %b      (v):  1024 / 256 =  4 cycles, [1, 5)
//   exp %b -> %d (v):  2048 / 256 =  8 cycles, after the barrier: [64, 72)
// ideal: the second exp waits for the fill's handover, when V's ops up to
// the fill have finished: 64, so [64, 72), ideal 72 (not 5 + 8: 64).
// expected-remark @below {{@handover_barrier: simulated 1 run, worst seed 1: makespan 72 cycles; busy v 72; 3 ops, 0 flags set; 0 findings; serial 76 cycles, dataflow ideal 72: makespan / serial 0.95, ideal / serial 0.95, makespan / ideal 1.00}}
func.func @handover_barrier() {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %c16384 = arith.constant 16384 : index
  %c17408 = arith.constant 17408 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>
  %c = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c16384][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %d = memref.view %ub[%c17408][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<2048xf32, #dsaplan.space<ub>>) outs(%c : memref<2048xf32, #dsaplan.space<ub>>)
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  dsaplan.pipe_barrier <v>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<256xf32, #dsaplan.space<ub>>) outs(%d : memref<256xf32, #dsaplan.space<ub>>)
  return
}

// -----

// The same across pipes: the set that hands the fill of %b to the store
// fires once V's earlier ops, the long exp too, have finished.
//   exp [0, 64), fill [1, 5); the set fires at 64, the store
//   (10 + 2048 / 128 = 26 cycles) after 3 cycles of latency: [67, 93)
// ideal: the store waits for the fill's handover, 64: [64, 90), ideal 90
// (not 5 + 26: 64).
// expected-remark @below {{@handover_flag: simulated 1 run, worst seed 1: makespan 93 cycles; busy v 64, mte3 26; 3 ops, 1 flags set; 0 findings; serial 94 cycles, dataflow ideal 90: makespan / serial 0.99, ideal / serial 0.96, makespan / ideal 1.03}}
func.func @handover_flag(%out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %c16384 = arith.constant 16384 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>
  %c = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c16384][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<2048xf32, #dsaplan.space<ub>>) outs(%c : memref<2048xf32, #dsaplan.space<ub>>)
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  dsaplan.set_flag <v -> mte3>, 0
  dsaplan.wait_flag <v -> mte3>, 0
  memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}
