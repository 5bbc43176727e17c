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
