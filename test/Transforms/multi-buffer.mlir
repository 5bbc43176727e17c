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

// -----

// A branch that yields the tile passes it on within the iteration: the
// tile rotates like one used directly in the body, and the scf.if yields
// the slot of the iteration.
//
// CHECK-LABEL: func.func @branch_yields_tile
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "t.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "t.1"}
// CHECK:         scf.for {{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK:           memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:           %[[R:.*]] = scf.if
// CHECK-NEXT:        scf.yield %[[A0]] :
// CHECK:           linalg.exp {{.*}} ins(%[[R]]
// CHECK:           scf.yield %[[A1]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @branch_yields_tile(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias}, %c: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %u = memref.alloc() {name = "u"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%u : memref<1024xf32, #dsaplan.space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %t = memref.alloc() {name = "t", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      %r = scf.if %c -> (memref<1024xf32, #dsaplan.space<ub>>) {
        scf.yield %t : memref<1024xf32, #dsaplan.space<ub>>
      } else {
        scf.yield %u : memref<1024xf32, #dsaplan.space<ub>>
      }
      %e = memref.alloc() {name = "e"} : memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%r : memref<1024xf32, #dsaplan.space<ub>>) outs(%e : memref<1024xf32, #dsaplan.space<ub>>)
      memref.copy %e, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// The same through an scf.index_switch, with "auto": MTE2 writes the tile,
// V reads it through the switch's result, so it gets two slots.
//
// REMARK: remark: 't': 2 slots (2 pipes touch it in the loop; +4096 B for the second slot)
// CHECK-LABEL: func.func @switch_yields_tile
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "t.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "t.1"}
// CHECK:         scf.for {{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK:           %[[R:.*]] = scf.index_switch
// CHECK:           case 0 {
// CHECK-NEXT:        scf.yield %[[A0]] :
// CHECK:           linalg.exp {{.*}} ins(%[[R]]
// CHECK:           scf.yield %[[A1]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @switch_yields_tile(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias}, %k: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %u = memref.alloc() {name = "u"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%u : memref<1024xf32, #dsaplan.space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %t = memref.alloc() {name = "t", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x_row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      %r = scf.index_switch %k -> memref<1024xf32, #dsaplan.space<ub>>
      case 0 {
        scf.yield %t : memref<1024xf32, #dsaplan.space<ub>>
      }
      default {
        scf.yield %u : memref<1024xf32, #dsaplan.space<ub>>
      }
      %e = memref.alloc() {name = "e"} : memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%r : memref<1024xf32, #dsaplan.space<ub>>) outs(%e : memref<1024xf32, #dsaplan.space<ub>>)
      memref.copy %e, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// Allocated in an scf.if in the body (FlashAttention's causal block skip):
// the slots are hoisted out of the branch to before the loop and rotate
// every iteration, whether the branch runs or not.
//
// CHECK-LABEL: func.func @allocated_in_branch
// CHECK:         %[[S0:.*]] = dsaplan.alloc {name = "k.0"}
// CHECK:         %[[S1:.*]] = dsaplan.alloc {name = "k.1"}
// CHECK:         scf.for %[[KV:.*]] = {{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK:           scf.if
// CHECK-NOT:         dsaplan.alloc {name = "k
// CHECK:             memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:             linalg.mul {{.*}} ins(%{{.*}}, %[[A0]] :
// CHECK:           scf.yield %[[A1]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @allocated_in_branch(%q: memref<1024xf32>, %k: memref<8x1024xf32>, %s: memref<8x1024xf32> {llvm.noalias}, %q_block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %q_ub = memref.alloc() {name = "q"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %q, %q_ub {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    scf.for %kv = %c0 to %c8 step %c1 {
      %visible = arith.cmpi ule, %kv, %q_block : index
      scf.if %visible {
        %k_row = memref.subview %k[%kv, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
        %s_row = memref.subview %s[%kv, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
        %k_ub = memref.alloc() {name = "k", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
        memref.copy %k_row, %k_ub {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
        %s_ub = memref.alloc() {name = "s"} : memref<1024xf32, #dsaplan.space<ub>>
        linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>} ins(%q_ub, %k_ub : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%s_ub : memref<1024xf32, #dsaplan.space<ub>>)
        memref.copy %s_ub, %s_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
      }
    }
    return
  }
}

// -----

// Allocated in a branch that yields it, with "auto", in an scf.for nested
// in another: the slots go before the inner loop, and the pipes that use
// the tile through the branch's result count (MTE2 loads it, V reads %k).
//
// REMARK: remark: 'k': 2 slots (2 pipes touch it in the loop; +4096 B for the second slot)
// CHECK-LABEL: func.func @allocated_in_branch_yielded
// CHECK:         scf.for
// CHECK:           %[[S0:.*]] = dsaplan.alloc {name = "k.0"}
// CHECK:           %[[S1:.*]] = dsaplan.alloc {name = "k.1"}
// CHECK:           scf.for {{.*}} iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]])
// CHECK:             %[[K:.*]] = scf.if
// CHECK:               memref.copy %{{.*}}, %[[A0]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:          scf.yield %[[A0]] :
// CHECK:             linalg.exp {{.*}} ins(%[[K]]
// CHECK:             scf.yield %[[A1]], %[[A0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @allocated_in_branch_yielded(%k: memref<8x1024xf32>, %s: memref<8x1024xf32> {llvm.noalias}, %q_block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %masked = memref.alloc() {name = "masked"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%masked : memref<1024xf32, #dsaplan.space<ub>>)
    scf.for %head = %c0 to %c2 step %c1 {
      scf.for %kv = %c0 to %c8 step %c1 {
        %visible = arith.cmpi ule, %kv, %q_block : index
        %k_tile = scf.if %visible -> (memref<1024xf32, #dsaplan.space<ub>>) {
          %k_row = memref.subview %k[%kv, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
          %k_ub = memref.alloc() {name = "k", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
          memref.copy %k_row, %k_ub {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
          scf.yield %k_ub : memref<1024xf32, #dsaplan.space<ub>>
        } else {
          scf.yield %masked : memref<1024xf32, #dsaplan.space<ub>>
        }
        %s_row = memref.subview %s[%kv, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
        %s_ub = memref.alloc() {name = "s"} : memref<1024xf32, #dsaplan.space<ub>>
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%k_tile : memref<1024xf32, #dsaplan.space<ub>>) outs(%s_ub : memref<1024xf32, #dsaplan.space<ub>>)
        memref.copy %s_ub, %s_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
      }
    }
    return
  }
}

// -----

// Allocated in a case of an scf.index_switch, and in an scf.execute_region
// in the default region: both are hoisted out of both regions (the
// default region comes first in the op, so its tile is rotated first).
//
// CHECK-LABEL: func.func @allocated_in_switch
// CHECK:         %[[B0:.*]] = dsaplan.alloc {name = "b.0"}
// CHECK:         %[[B1:.*]] = dsaplan.alloc {name = "b.1"}
// CHECK:         %[[B2:.*]] = dsaplan.alloc {name = "b.2"}
// CHECK:         %[[A0:.*]] = dsaplan.alloc {name = "a.0"}
// CHECK:         %[[A1:.*]] = dsaplan.alloc {name = "a.1"}
// CHECK:         scf.for {{.*}} iter_args(%[[SB0:.*]] = %[[B0]], %[[SB1:.*]] = %[[B1]], %[[SB2:.*]] = %[[B2]], %[[SA0:.*]] = %[[A0]], %[[SA1:.*]] = %[[A1]])
// CHECK:           scf.index_switch
// CHECK:           case 0 {
// CHECK-NEXT:        memref.copy %{{.*}}, %[[SA0]]
// CHECK:           default {
// CHECK-NEXT:        scf.execute_region {
// CHECK-NEXT:          memref.copy %{{.*}}, %[[SB0]]
// CHECK:           scf.yield %[[SB1]], %[[SB2]], %[[SB0]], %[[SA1]], %[[SA0]] :
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @allocated_in_switch(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias}, %k: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x_row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %y_row = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      scf.index_switch %k
      case 0 {
        %a = memref.alloc() {name = "a", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
        memref.copy %x_row, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
        memref.copy %a, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
        scf.yield
      }
      default {
        scf.execute_region {
          %b = memref.alloc() {name = "b", dsaplan.buffers = 3 : i64} : memref<1024xf32, #dsaplan.space<ub>>
          memref.copy %x_row, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
          linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
          memref.copy %b, %y_row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
          scf.yield
        }
        scf.yield
      }
    }
    return
  }
}

// -----

// "auto" never refuses: where a depth of two is an error
// (multi-buffer-errors.mlir), it keeps one slot and says why. In the
// pipeline, dsaplan-rotate-carried gives the carried tile its slots first.
// A depth of one asks for nothing a tile outside a loop lacks: it is
// dropped.
//
// REMARK: remark: 'not_in_loop': 1 slot (cannot rotate: it is not in an scf.for body; slots rotate once per scf.for iteration)
// REMARK: remark: 'carried': 1 slot (cannot rotate: 'scf.for' carries it to the next iteration (iter_arg #0): its slots would rotate under the value the next iteration reads; dsaplan-rotate-carried gives a carried tile its slots)
// REMARK: remark: 'carried_by_branch': 1 slot (cannot rotate: 'scf.for' carries it to the next iteration (iter_arg #0): its slots would rotate under the value the next iteration reads; dsaplan-rotate-carried gives a carried tile its slots)
// REMARK: remark: 'in_while': 1 slot (cannot rotate: it is in the body of 'scf.while', and only scf.for loops rotate slots)
// CHECK-LABEL: func.func @auto_cannot_rotate
// CHECK:         dsaplan.alloc {name = "not_in_loop"}
// CHECK-NOT:     dsaplan.buffers
// CHECK:         dsaplan.alloc {name = "one_slot"}
// CHECK-NOT:     dsaplan.buffers
// CHECK:         scf.for
// CHECK:           dsaplan.alloc {name = "carried"}
// CHECK:         scf.for
// CHECK:           dsaplan.alloc {name = "carried_by_branch"}
// CHECK:         scf.while
// CHECK:           dsaplan.alloc {name = "in_while"}
// CHECK:         return
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @auto_cannot_rotate(%x: memref<1024xf32>, %y: memref<1024xf32> {llvm.noalias}, %c: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() {name = "not_in_loop", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %t, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    %one = memref.alloc() {name = "one_slot", dsaplan.buffers = 1 : i64} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %one {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %one, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    %init = memref.alloc() {name = "init"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    %r1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> (memref<1024xf32, #dsaplan.space<ub>>) {
      %cur = memref.alloc() {name = "carried", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %cur : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%cur : memref<1024xf32, #dsaplan.space<ub>>)
      scf.yield %cur : memref<1024xf32, #dsaplan.space<ub>>
    }
    memref.copy %r1, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    %init2 = memref.alloc() {name = "init2"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %init2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    %r2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init2) -> (memref<1024xf32, #dsaplan.space<ub>>) {
      %next = scf.if %c -> (memref<1024xf32, #dsaplan.space<ub>>) {
        %cur = memref.alloc() {name = "carried_by_branch", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
        linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev : memref<1024xf32, #dsaplan.space<ub>>) outs(%cur : memref<1024xf32, #dsaplan.space<ub>>)
        scf.yield %cur : memref<1024xf32, #dsaplan.space<ub>>
      } else {
        %other = memref.alloc() {name = "other"} : memref<1024xf32, #dsaplan.space<ub>>
        memref.copy %x, %other {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
        scf.yield %other : memref<1024xf32, #dsaplan.space<ub>>
      }
      scf.yield %next : memref<1024xf32, #dsaplan.space<ub>>
    }
    memref.copy %r2, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    %n = scf.while (%j = %c0) : (index) -> index {
      %go = arith.cmpi ult, %j, %c4 : index
      scf.condition(%go) %j : index
    } do {
    ^bb0(%j: index):
      %w = memref.alloc() {name = "in_while", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x, %w {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %w, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1 : index
    }
    return
  }
}
