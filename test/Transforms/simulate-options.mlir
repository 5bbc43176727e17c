// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true check-gm=false args=3" -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true check-gm=false runs=5 seed=11 max-while-iterations=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEEDS
//
// The same input and options give the same output, byte for byte.
// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true runs=3" -o /dev/null > %t.1 2>&1 || true
// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true runs=3" -o /dev/null > %t.2 2>&1 || true
// RUN: diff %t.1 %t.2

// check-gm=false: MTE2 reads the GM argument that MTE3 writes, and nothing
// orders them; insert-sync orders only the on-chip spaces, and so the
// simulator looks only at those too.
// expected-remark @below {{@gm_unchecked: simulated 1 run, worst seed 1: makespan}}
func.func @gm_unchecked(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}
// SEEDS: remark: @gm_unchecked: simulated 5 runs, worst seed {{1[1-5]}}: makespan

// -----

// args=3: the loop runs three times, one load and one barrier each.
// expected-remark @below {{; 3 ops, 0 flags set; 0 findings}}
func.func @given_trip_count(%gm: memref<256xf32>, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
  }
  return
}
// SEEDS: remark: @given_trip_count: simulated 5 runs

// -----

// An scf.while on a condition the scalar unit cannot know (a value loaded
// from GM) leaves after max-while-iterations (4 by default, 2 in the SEEDS
// run: at most 2 loads).
// expected-remark @below {{@bounded_while: simulated 1 run}}
func.func @bounded_while(%gm: memref<256xf32>, %flags: memref<1xi1>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c = memref.load %flags[%c0] : memref<1xi1>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.pipe_barrier <mte2>
    scf.yield
  }
  return
}
// SEEDS: remark: @bounded_while: simulated 5 runs, worst seed {{1[1-5]}}: makespan {{[0-9]+}} cycles; busy {{.*}}; {{[0-2]}} ops
