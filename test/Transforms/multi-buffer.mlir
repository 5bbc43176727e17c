// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-multi-buffer | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-multi-buffer="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-multi-buffer="summary=true objective=peak" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: dsa-opt %s -split-input-file --dsa-plan -dsaplan-simulate="runs=8" -o /dev/null

// An explicit depth of two: two tiles before the loop, rotated through
// iter_args (iteration i uses slot i mod 2).
//
// CHECK-LABEL: func.func @explicit_two
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "t.0"} : memref<1024xf32, #dsaplan.space<ub>>
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "t.1"} : memref<1024xf32, #dsaplan.space<ub>>
// CHECK:         scf.for {{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK:           memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           linalg.exp {{.*}} ins(%[[A0]]
// CHECK:           scf.yield %[[A1]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @explicit_two(%x: memref<8x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %t = memref.alloc() {name = "t", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
    }
    return
  }
}

// -----

// "auto" at the capacity that allows it: two tiles of 47104 B (11776 f32),
// each touched by two pipes, two slots each: 4 x 47104 = 188416 B, exactly
// the UB capacity left after the reserved range.
//
// REMARK: remark: 't': 2 slots (2 pipes touch it in the loop; +47104 B for the second slot)
// REMARK: remark: 'u': 2 slots (2 pipes touch it in the loop; +47104 B for the second slot)
// CHECK-LABEL: func.func @auto_at_capacity
// CHECK-COUNT-4: dsaplan.alloc
// CHECK:         scf.for
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @auto_at_capacity(%x: memref<8x11776xf32>, %y: memref<8x11776xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 11776] [1, 1] : memref<8x11776xf32> to memref<11776xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y[%i, 0] [1, 11776] [1, 1] : memref<8x11776xf32> to memref<11776xf32, strided<[1], offset: ?>>
      %t = memref.alloc() {name = "t", dsaplan.buffers = "auto"} : memref<11776xf32, #dsaplan.space<ub>>
      %u = memref.alloc() {name = "u", dsaplan.buffers = "auto"} : memref<11776xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<11776xf32, strided<[1], offset: ?>> to memref<11776xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<11776xf32, #dsaplan.space<ub>>) outs(%u : memref<11776xf32, #dsaplan.space<ub>>)
      memref.copy %u, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<11776xf32, #dsaplan.space<ub>> to memref<11776xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// Just below: tiles of 47136 B (11784 f32) need 188544 B with two slots
// each, 128 B more than UB holds. The first of the equal tiles goes back
// to one slot; 3 x 47136 = 141408 B fits.
//
// REMARK: remark: 't': 1 slot (two would not fit: smaller gains than the tiles kept at two)
// REMARK: remark: 'u': 2 slots (2 pipes touch it in the loop; +47136 B for the second slot)
// CHECK-LABEL: func.func @auto_below_capacity
// CHECK:         dsaplan.alloc {name = "u.0"}
// CHECK-NEXT:    dsaplan.alloc {name = "u.1"}
// CHECK-NEXT:    scf.for
// CHECK:           dsaplan.alloc {name = "t"}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @auto_below_capacity(%x: memref<8x11784xf32>, %y: memref<8x11784xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 11784] [1, 1] : memref<8x11784xf32> to memref<11784xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y[%i, 0] [1, 11784] [1, 1] : memref<8x11784xf32> to memref<11784xf32, strided<[1], offset: ?>>
      %t = memref.alloc() {name = "t", dsaplan.buffers = "auto"} : memref<11784xf32, #dsaplan.space<ub>>
      %u = memref.alloc() {name = "u", dsaplan.buffers = "auto"} : memref<11784xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<11784xf32, strided<[1], offset: ?>> to memref<11784xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<11784xf32, #dsaplan.space<ub>>) outs(%u : memref<11784xf32, #dsaplan.space<ub>>)
      memref.copy %u, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<11784xf32, #dsaplan.space<ub>> to memref<11784xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// A tile only V touches gains nothing from a second slot.
//
// REMARK: remark: 'scratch': 1 slot (one pipe touches it in the loop: a second slot would buy no overlap)
// CHECK-LABEL: func.func @auto_one_pipe
// CHECK-COUNT-1: dsaplan.alloc
// CHECK-NOT:     dsaplan.alloc
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @auto_one_pipe() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %s = memref.alloc() {name = "scratch", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
      linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%one : f32) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    }
    return
  }
}

// -----

// objective=waits (the default): a second slot for `y` fits (4 x 40960 B)
// but leaves no room to keep `x` (MTE2 -> V) off `e` (V): the next load
// would wait for V. One slot keeps every tile apart (4 x 40960 B, no
// reuse), so `y` goes back to one: its own one-slot wait costs less than
// the reuse. objective=peak keeps the two slots, as the fit allows.
//
// REMARK: remark: 'x': 1 slot (two would not fit: smaller gains than the tiles kept at two)
// REMARK: remark: 'y': 1 slot (two would add more waits than they save: {{[0-9]+}} cycles of waits with two, {{[0-9]+}} with one, its own wait included)
// PEAK: remark: 'x': 1 slot (two would not fit: smaller gains than the tiles kept at two)
// PEAK: remark: 'y': 2 slots (2 pipes touch it in the loop; +40960 B for the second slot)
// CHECK-LABEL: func.func @auto_waits
// CHECK-NOT:     dsaplan.alloc
// CHECK:         scf.for
// CHECK-COUNT-4:   dsaplan.alloc
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @auto_waits(%x_gm: memref<8x10240xf32>, %y_gm: memref<8x10240xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x_gm[%i, 0] [1, 10240] [1, 1] : memref<8x10240xf32> to memref<10240xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y_gm[%i, 0] [1, 10240] [1, 1] : memref<8x10240xf32> to memref<10240xf32, strided<[1], offset: ?>>
      %x = memref.alloc() {name = "x", dsaplan.buffers = "auto"} : memref<10240xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<10240xf32, strided<[1], offset: ?>> to memref<10240xf32, #dsaplan.space<ub>>
      %t = memref.alloc() {name = "t"} : memref<10240xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<10240xf32, #dsaplan.space<ub>>) outs(%t : memref<10240xf32, #dsaplan.space<ub>>)
      %e = memref.alloc() {name = "e"} : memref<10240xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<10240xf32, #dsaplan.space<ub>>) outs(%e : memref<10240xf32, #dsaplan.space<ub>>)
      %y = memref.alloc() {name = "y", dsaplan.buffers = "auto"} : memref<10240xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%e : memref<10240xf32, #dsaplan.space<ub>>) outs(%y : memref<10240xf32, #dsaplan.space<ub>>)
      memref.copy %y, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<10240xf32, #dsaplan.space<ub>> to memref<10240xf32, strided<[1], offset: ?>>
    }
    return
  }
}
