// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync=summary=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync -dsaplan-verify-sync -dsaplan-simulate="runs=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// GM ranges by loop index (issue 26, item 1; docs/sync.md, "Global
// memory"). %x is memref<8x256xf32> (or 16x256): row r is bytes
// 1024 r + [0, 1024). The UB tile %a is bytes [0, 1024), filled by V
// before the loop, %b bytes [1024, 2048). Each result is checked by
// verify-sync (which evaluates the offsets in three unrolled iterations)
// and by the simulator (concrete addresses, every iteration).
//
// CLEAN-NOT: error

// Rows stored by MTE3, one per iteration: row r is bytes 1024 r + [0, 1024)
// of %x, so row i's store and row i+1's share no byte: no pipe_barrier
// <mte3> (with %x as a whole, one before every store).
// 1 pair (the fill before the stores), 0 barriers.
// CHECK-LABEL: func.func @store_rows
// CHECK:         dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    scf.for
// CHECK-NOT:       dsaplan.{{set_flag|wait_flag|pipe_barrier|barrier_all}}
// CHECK:         {{^ +}}}{{$}}
// CHECK-NEXT:    return
// SUMMARY: remark: @store_rows: 1 flag pairs (0 around loops, {{.*}}), 0 barriers for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @store_rows(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1x256xf32, #dsaplan.space<ub>>)
    scf.for %r = %c0 to %c8 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // nothing before it
    }
    return
  }
}

// -----
// The same row stored twice in one iteration: the second store and the
// first write the same bytes, a pipe_barrier <mte3> between them (two MTE3
// writes of the same GM bytes: docs/sync.md, "Global memory"). The first
// store of iteration i+1 writes another row: nothing before it.
// 1 pair, 1 barrier.
// CHECK-LABEL: func.func @store_row_twice
// CHECK:         dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    scf.for
// CHECK-NOT:       dsaplan.{{set_flag|wait_flag|pipe_barrier|barrier_all}}
// CHECK:           memref.copy
// CHECK-NEXT:      dsaplan.pipe_barrier <mte3>
// CHECK-NEXT:      memref.copy
// CHECK-NEXT:    {{^ +}}}{{$}}
// CHECK-NEXT:    return
// SUMMARY: remark: @store_row_twice: 1 flag pairs (0 around loops, {{.*}}), 1 barriers for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @store_row_twice(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1x256xf32, #dsaplan.space<ub>>)
    scf.for %r = %c0 to %c8 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // nothing before it
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // pipe_barrier <mte3> before it
    }
    return
  }
}

// -----
// In place, a row apart: iteration i loads row i into %b and stores row
// i + 1 from %a. The store of row i + 1 and the load of row i + 1 in the
// next iteration are the same bytes: <mte3 -> mte2> around the back edge.
// The load and the store of one iteration share no byte (no <mte2 -> mte3>
// for GM; the pair of that name below is the handshake that keeps the
// next iteration's set <mte3 -> mte2> after this wait), and each load
// rewrites %b: pipe_barrier <mte2>.
// 2 pairs (the fill's, the loop pair with a handshake), 1 barrier.
// CHECK-LABEL: func.func @store_then_load_next_iteration
// CHECK:         dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.set_flag <mte3 -> mte2>, [[ID:[0-9]]]
// CHECK-NEXT:    scf.for
// CHECK:           dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> mte3>, [[BACK:[0-9]]]
// CHECK-NEXT:      dsaplan.wait_flag <mte2 -> mte3>, [[BACK]]
// CHECK-NEXT:      dsaplan.pipe_barrier <mte2>
// CHECK-NEXT:      memref.copy {{.*}}<mte2>
// CHECK-NEXT:      memref.copy {{.*}}<mte3>
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:    {{^ +}}}{{$}}
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// SUMMARY: remark: @store_then_load_next_iteration: 2 flag pairs (1 around loops, {{.*}} 1 handshakes added {{.*}}), 1 barriers for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @store_then_load_next_iteration(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1x256xf32, #dsaplan.space<ub>>)
    scf.for %r = %c0 to %c7 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      %r1 = arith.addi %r, %c1 : index
      %next = memref.subview %x[%r1, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [1024, 2048)
      memref.copy %row, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x256xf32, strided<[256, 1], offset: ?>> to memref<1x256xf32, #dsaplan.space<ub>>  // wait <mte3 -> mte2> (around the back edge) before it
      memref.copy %a, %next {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // set <mte3 -> mte2> after it
    }
    return
  }
}

// -----
// A row read two iterations before it is written: iteration i loads row
// i + 2 and stores row i. The load of iteration i and the store of
// iteration i + 2 are the same bytes (a write after read two iterations
// apart). The load is ahead of the store in the body, so one pair
// <mte2 -> mte3> within each iteration orders every later store after it
// (a pair around the back edge would set before its own wait: no event id
// keeps that safe), with a handshake back so that the next set follows
// this wait.
// 2 pairs (the fill's, <mte2 -> mte3> with a handshake), 0 barriers;
// before this rule the repair found no safe id and used a barrier_all.
// CHECK-LABEL: func.func @load_two_ahead
// CHECK:         dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    scf.for
// CHECK:           memref.copy {{.*}}<mte2>
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> mte3>, [[ID:[0-9]]]
// CHECK-NEXT:      dsaplan.wait_flag <mte2 -> mte3>, [[ID]]
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> mte2>, [[BACK:[0-9]]]
// CHECK-NEXT:      dsaplan.wait_flag <mte3 -> mte2>, [[BACK]]
// CHECK-NEXT:      memref.copy {{.*}}<mte3>
// CHECK-NEXT:    {{^ +}}}{{$}}
// CHECK-NEXT:    return
// SUMMARY: remark: @load_two_ahead: 2 flag pairs (0 around loops, {{.*}} 1 handshakes added {{.*}} 0 barrier_all {{.*}}), 0 barriers for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @load_two_ahead(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1x256xf32, #dsaplan.space<ub>>)
    scf.for %r = %c0 to %c6 step %c1 {
      %r2 = arith.addi %r, %c2 : index
      %ahead = memref.subview %x[%r2, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [2048, 3072)
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      memref.copy %ahead, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x256xf32, strided<[256, 1], offset: ?>> to memref<1x256xf32, #dsaplan.space<ub>>  // set <mte2 -> mte3> after it
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // wait <mte2 -> mte3> before it
    }
    return
  }
}

// -----
// One argument indexed two ways, %x[2 r] and %x[r]: their offsets differ
// by 1024 r, which the analysis does not follow; they are ordered as if
// they overlapped, both ways (a load after the last store, the store after
// the load).
// 3 pairs (the fill's, <mte2 -> mte3>, <mte3 -> mte2> around the back edge),
// 0 barriers.
// CHECK-LABEL: func.func @two_ways
// CHECK:         dsaplan.set_flag <mte3 -> mte2>, [[ID:[0-9]]]
// CHECK-NEXT:    scf.for
// CHECK:           dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:      memref.copy {{.*}}<mte2>
// CHECK-NEXT:      dsaplan.set_flag <mte2 -> mte3>, [[FWD:[0-9]]]
// CHECK-NEXT:      dsaplan.wait_flag <mte2 -> mte3>, [[FWD]]
// CHECK-NEXT:      memref.copy {{.*}}<mte3>
// CHECK-NEXT:      dsaplan.set_flag <mte3 -> mte2>, [[ID]]
// CHECK-NEXT:    {{^ +}}}{{$}}
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> mte2>, [[ID]]
// SUMMARY: remark: @two_ways: 3 flag pairs (1 around loops, {{.*}}), 0 barriers for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @two_ways(%x: memref<16x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<1x256xf32, #dsaplan.space<ub>>)
    scf.for %r = %c0 to %c8 step %c1 {
      %r2 = arith.muli %r, %c2 : index
      %even = memref.subview %x[%r2, 0] [1, 256] [1, 1] : memref<16x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 2048 r + [0, 1024)
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<16x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      memref.copy %even, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x256xf32, strided<[256, 1], offset: ?>> to memref<1x256xf32, #dsaplan.space<ub>>  // wait <mte3 -> mte2> (around the back edge) before it
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // after set/wait <mte2 -> mte3>
    }
    return
  }
}

