// RUN: dsa-opt %s -split-input-file -dsaplan-simulate="summary=true runs=8" -verify-diagnostics | FileCheck %s

// Correctly synchronised kernels: every run passes, and the summary remark
// reports the worst of the eight runs. The pass leaves the IR as it is.

// The worked example of DESIGN.md "Sync model", materialised: A and B in UB,
// one load, one vector op and one store per iteration, pre-set before the
// loop and drained after it.
// CHECK-LABEL: func.func @single_buffered
// CHECK: scf.for
// CHECK: dsaplan.wait_flag <v -> mte2>, 0
// expected-remark @below {{@single_buffered: simulated 8 runs, worst seed}}
func.func @single_buffered(%gm: memref<256xf32>, %out: memref<256xf32>) {
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
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 1
    dsaplan.wait_flag <mte2 -> v>, 1
    dsaplan.wait_flag <mte3 -> v>, 0
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

// One pipe, one tile written twice and read: pipe_barrier orders V's own
// ops, so the second write waits for the first and the read for both.
// expected-remark @below {{makespan}}
func.func @same_pipe_with_barrier(%out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  dsaplan.pipe_barrier <v>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  dsaplan.pipe_barrier <v>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The scalar pipe runs its ops one after the other: no barrier needed.
// expected-remark @below {{busy s}}
func.func @scalar_pipe_in_order() {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  return
}

// -----

// Concrete addresses from loop indices: iteration i loads row i of T and
// V reads it and writes row i of the GM output. V's writes of different
// iterations share no bytes of GM, so they need no barrier; the loads are
// ordered after the previous read by the pair around the back edge.
// expected-remark @below {{makespan}}
func.func @dynamic_rows(%gm: memref<8xf32>, %out: memref<4x8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4x8xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <v -> mte2>, 0
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %t[%i, 0] [1, 8] [1, 1] : memref<4x8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
    %o = memref.subview %out[%i, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    dsaplan.wait_flag <v -> mte2>, 0
    memref.copy %gm, %row {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%row : memref<8xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>) outs(%o : memref<8xf32, strided<[1], offset: ?>>)
    dsaplan.set_flag <v -> mte2>, 0
  }
  dsaplan.wait_flag <v -> mte2>, 0
  return
}

// -----

// Branches on an unknown condition (a choice at every evaluation), a switch
// on a computed value, and an scf.while that leaves after at most
// max-while-iterations: every path is ordered.
// expected-remark @below {{makespan}}
func.func @control_flow(%gm: memref<256xf32>, %c: i1, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.if %c {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
  } else {
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    dsaplan.pipe_barrier <v>
  }
  %k = arith.remui %n, %c2 : index
  scf.index_switch %k
  case 0 {
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    scf.yield
  }
  default {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    scf.yield
  }
  dsaplan.set_flag <v -> mte3>, 0
  dsaplan.wait_flag <v -> mte3>, 0
  %r = scf.while (%j = %c0) : (index) -> index {
    scf.condition(%c) %j : index
  } do {
  ^bb0(%j: index):
    memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    dsaplan.pipe_barrier <mte3>
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// Before materialisation, with the placed allocs kept (keep-allocs): the
// offsets are the addresses.
// expected-remark @below {{makespan}}
func.func @kept_allocs(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = dsaplan.alloc {offset = 0 : i64} : memref<256xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc {offset = 1024 : i64} : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  return
}

// -----

// The same loop synchronised by dsaplan.barrier_all alone (insert-sync's
// last resort): each barrier holds every pipe until all have reached it and
// finished their earlier ops, so the load, the exp and the store of one
// iteration and the next never overlap. A barrier that held only the
// scalar unit would let MTE2 reload %a while V still reads it.
// CHECK-LABEL: func.func @barrier_all_only
// CHECK-COUNT-2: dsaplan.barrier_all
// expected-remark @below {{@barrier_all_only: simulated 8 runs, worst seed}}
func.func @barrier_all_only(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.barrier_all
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    dsaplan.barrier_all
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  }
  return
}
