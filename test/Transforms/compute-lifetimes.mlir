// RUN: dsa-opt %s -split-input-file -dsaplan-compute-lifetimes | FileCheck %s

// Worked examples of the lifetime rules. Ops are numbered in pre-order from
// 0; op k reads at point 2k and writes at point 2k+1; `a to b` is [a, b).

// An op's input and output are co-live: %a is read at 6 and that read lasts
// through the op's write point 7, where %b is born.
// CHECK-LABEL: func.func @straight_line
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<7 to 10>, name = "b"}
func.func @straight_line(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<256xf32, #dsaplan.space<ub>>  // op 0
  %b = dsaplan.alloc {name = "b"} : memref<256xf32, #dsaplan.space<ub>>  // op 1
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}               // op 2: writes a at 5
      : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}                           // op 3: reads a at 6, writes b at 7
      ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}              // op 4: reads b at 8
      : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}

// -----

// With `dsaplan.in_place` the read ends at the op's read point: %a and %b
// are no longer co-live and may share bytes.
// CHECK-LABEL: func.func @in_place
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<5 to 7>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<7 to 10>, name = "b"}
func.func @in_place(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<256xf32, #dsaplan.space<ub>>  // op 0
  %b = dsaplan.alloc {name = "b"} : memref<256xf32, #dsaplan.space<ub>>  // op 1
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}               // op 2: writes a at 5
      : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}         // op 3: reads a at 6 only
      ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}              // op 4: reads b at 8
      : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}

// -----

// Accesses through views and casts count for the root allocation.
// CHECK-LABEL: func.func @views
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<5 to 16>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<11 to 24>, name = "b"}
func.func @views(%gm: memref<8x16xf32>, %gm_flat: memref<128xf32>, %out: memref<256xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<16x16xf32, #dsaplan.space<ub>>           // op 0
  %top = memref.subview %a[0, 0] [8, 16] [1, 1]                                      // op 1
      : memref<16x16xf32, #dsaplan.space<ub>> to memref<8x16xf32, strided<[16, 1]>, #dsaplan.space<ub>>
  memref.copy %gm, %top {dsaplan.pipe = #dsaplan.pipe<mte2>}                         // op 2: writes a at 5
      : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>, #dsaplan.space<ub>>
  %b = dsaplan.alloc {name = "b"} : memref<128xf32, #dsaplan.space<ub>>              // op 3
  %b2d = memref.expand_shape %b [[0, 1]] output_shape [8, 16]                        // op 4
      : memref<128xf32, #dsaplan.space<ub>> into memref<8x16xf32, #dsaplan.space<ub>>
  memref.copy %gm, %b2d {dsaplan.pipe = #dsaplan.pipe<mte2>}                         // op 5: writes b at 11
      : memref<8x16xf32> to memref<8x16xf32, #dsaplan.space<ub>>
  %flat = memref.reinterpret_cast %a to offset: [0], sizes: [256], strides: [1]      // op 6
      : memref<16x16xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1]>, #dsaplan.space<ub>>
  memref.copy %flat, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}                       // op 7: reads a at 14
      : memref<256xf32, strided<[1]>, #dsaplan.space<ub>> to memref<256xf32>
  %cast = memref.cast %b : memref<128xf32, #dsaplan.space<ub>> to memref<?xf32, #dsaplan.space<ub>>  // op 8
  %head = memref.subview %out[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>  // op 9
  %dyn = memref.cast %head : memref<128xf32, strided<[1]>> to memref<?xf32, strided<[1]>>     // op 10
  memref.copy %cast, %dyn {dsaplan.pipe = #dsaplan.pipe<mte3>}                       // op 11: reads b at 22
      : memref<?xf32, #dsaplan.space<ub>> to memref<?xf32, strided<[1]>>
  return
}

// -----

// A buffer used inside a loop but allocated outside it is live over the
// whole loop (ops 1-4, points [2, 10)); one allocated after it is not.
// CHECK-LABEL: func.func @loop_defined_outside
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<2 to 10>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<13 to 14>, name = "b"}
func.func @loop_defined_outside(%gm: memref<64xf32>, %out: memref<64xf32>,
                                %lb: index, %ub: index, %step: index) {
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>  // op 0
  scf.for %i = %lb to %ub step %step {                                  // op 1: [2, 10)
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}            // op 2
        : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}           // op 3
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }                                                                     // op 4: scf.yield
  %b = dsaplan.alloc {name = "b"} : memref<64xf32, #dsaplan.space<ub>>  // op 5
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>}              // op 6: writes b at 13
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// A buffer allocated and used inside one iteration lives only there.
// CHECK-LABEL: func.func @loop_local
// CHECK: %t = dsaplan.alloc {live = #dsaplan.live<5 to 8>, name = "t"}
func.func @loop_local(%gm: memref<64xf32>, %out: memref<64xf32>,
                      %lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {                                  // op 0: [0, 10)
    %t = dsaplan.alloc {name = "t"} : memref<64xf32, #dsaplan.space<ub>>  // op 1
    memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>}            // op 2: writes t at 5
        : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}           // op 3: reads t at 6
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }                                                                     // op 4: scf.yield
  return
}

// -----

// Buffers carried by scf.for iter_args are live over the whole loop, and
// until the last use of the loop's result: here a ping-pong, the two tiles
// allocated before the loop and swapped by its yield. (A tile allocated in
// the body and yielded is refused: compute-lifetimes-errors.mlir.)
// CHECK-LABEL: func.func @loop_carried
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<4 to 12>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<4 to 12>, name = "b"}
func.func @loop_carried(%out: memref<64xf32>, %lb: index, %ub: index, %step: index) {
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  %b = dsaplan.alloc {name = "b"} : memref<64xf32, #dsaplan.space<ub>>    // op 1
  %r:2 = scf.for %i = %lb to %ub step %step                               // op 2: from 4
      iter_args(%cur = %a, %next = %b) -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
    memref.copy %cur, %next {dsaplan.pipe = #dsaplan.pipe<v>}             // op 3
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    scf.yield %next, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>  // op 4
  }
  memref.copy %r#0, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}             // op 5: reads at 10, so to 12
      : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// Temporaries of the two branches of an scf.if are disjoint, and %t, read in
// both branches but not after the if, is dead in the rest of the `then`
// branch: two intervals, with %x inside the hole.
// CHECK-LABEL: func.func @if_branches
// CHECK: %t = dsaplan.alloc {live = #dsaplan.live<3 to 8, 16 to 20>, name = "t"}
// CHECK: %x = dsaplan.alloc {live = #dsaplan.live<11 to 14>, name = "x"}
// CHECK: %y = dsaplan.alloc {live = #dsaplan.live<19 to 22>, name = "y"}
func.func @if_branches(%gm: memref<64xf32>, %out: memref<64xf32>, %c: i1) {
  %t = dsaplan.alloc {name = "t"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 1: writes t at 3
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  scf.if %c {                                                             // op 2: [4, 24)
    memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}             // op 3: reads t at 6
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    %x = dsaplan.alloc {name = "x"} : memref<64xf32, #dsaplan.space<ub>>  // op 4
    memref.copy %gm, %x {dsaplan.pipe = #dsaplan.pipe<mte2>}              // op 5: writes x at 11
        : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %x, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}             // op 6: reads x at 12
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  } else {                                                                // op 7: scf.yield
    %y = dsaplan.alloc {name = "y"} : memref<64xf32, #dsaplan.space<ub>>  // op 8
    memref.copy %t, %y {dsaplan.pipe = #dsaplan.pipe<v>}                  // op 9: reads t at 18, writes y at 19
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %y, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}             // op 10: reads y at 20
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }                                                                       // op 11: scf.yield
  return                                                                  // op 12
}

// -----

// A buffer yielded by an scf.if is an alias of its result: live until the
// result's last use.
// CHECK-LABEL: func.func @if_result
// CHECK: %p = dsaplan.alloc {live = #dsaplan.live<5 to 18>, name = "p"}
// CHECK: %q = dsaplan.alloc {live = #dsaplan.live<7 to 18>, name = "q"}
func.func @if_result(%gm: memref<64xf32>, %out: memref<64xf32>, %c: i1) {
  %p = dsaplan.alloc {name = "p"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  %q = dsaplan.alloc {name = "q"} : memref<64xf32, #dsaplan.space<ub>>    // op 1
  memref.copy %gm, %p {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 2: writes p at 5
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %q {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 3: writes q at 7
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %r = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {                // op 4: [8, 14)
    scf.yield %p : memref<64xf32, #dsaplan.space<ub>>                     // op 5
  } else {
    scf.yield %q : memref<64xf32, #dsaplan.space<ub>>                     // op 6
  }
  memref.copy %gm, %out {dsaplan.pipe = #dsaplan.pipe<mte2>}              // op 7: no buffer
      : memref<64xf32> to memref<64xf32>
  memref.copy %r, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}               // op 8: reads r at 16
      : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// scf.while: a buffer used in the `do` region but allocated before the loop
// is live over the whole loop; one allocated inside an iteration is not.
// CHECK-LABEL: func.func @while_loop
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<7 to 24>, name = "a"}
// CHECK: %t = dsaplan.alloc {live = #dsaplan.live<17 to 20>, name = "t"}
func.func @while_loop(%gm: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index                                          // op 0
  %c1 = arith.constant 1 : index                                          // op 1
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 2
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 3: writes a at 7
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %r = scf.while (%arg = %c0) : (index) -> index {                        // op 4: [8, 24)
    %cond = arith.cmpi slt, %arg, %n : index                              // op 5
    scf.condition(%cond) %arg : index                                     // op 6
  } do {
  ^bb0(%i: index):
    %t = dsaplan.alloc {name = "t"} : memref<64xf32, #dsaplan.space<ub>>  // op 7
    memref.copy %a, %t {dsaplan.pipe = #dsaplan.pipe<v>}                  // op 8: writes t at 17
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}             // op 9
        : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    %next = arith.addi %i, %c1 : index                                    // op 10
    scf.yield %next : index                                               // op 11
  }
  return                                                                  // op 12
}

// -----

// Nested loops: %t is allocated in the outer body and used in the inner
// loop, so it is live over the inner loop only; %a over the outer one and
// until its read after it.
// CHECK-LABEL: func.func @nested_loops
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<2 to 18>, name = "a"}
// CHECK: %t = dsaplan.alloc {live = #dsaplan.live<6 to 14>, name = "t"}
func.func @nested_loops(%gm: memref<64xf32>, %out: memref<64xf32>,
                        %lb: index, %ub: index, %step: index) {
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>      // op 0
  scf.for %i = %lb to %ub step %step {                                      // op 1: [2, 16)
    %t = dsaplan.alloc {name = "t"} : memref<64xf32, #dsaplan.space<ub>>    // op 2
    scf.for %j = %lb to %ub step %step {                                    // op 3: [6, 14)
      memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>}              // op 4
          : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
      memref.copy %t, %a {dsaplan.pipe = #dsaplan.pipe<v>}                  // op 5
          : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    }                                                                       // op 6: scf.yield
  }                                                                         // op 7: scf.yield
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}                 // op 8: reads a at 16
      : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// Constraint ops are not uses; a buffer never accessed lives at its own op.
// CHECK-LABEL: func.func @constraints_are_not_uses
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<5 to 6>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<2 to 4>, name = "b"}
func.func @constraints_are_not_uses(%gm: memref<64xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  %b = dsaplan.alloc {name = "b"} : memref<64xf32, #dsaplan.space<ub>>    // op 1
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 2: writes a at 5
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.separate %a, %b : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// memref.transpose has no ViewLikeOpInterface but no effects either: its
// result names %a's bytes, so the add's read of %t is a read of %a and %a
// lives until the add (it used to end at its load, 3 to 4, letting %b take
// its bytes). dim and the metadata ops are not accesses.
// CHECK-LABEL: func.func @transpose_alias
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<3 to 12>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<9 to 12>, name = "b"}
func.func @transpose_alias(%gm: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<16x16xf32, #dsaplan.space<ub>>  // op 0
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}                  // op 1: writes a at 3
      : memref<16x16xf32> to memref<16x16xf32, #dsaplan.space<ub>>
  %t = memref.transpose %a (i, j) -> (j, i)                                 // op 2: no access
      : memref<16x16xf32, #dsaplan.space<ub>> to memref<16x16xf32, strided<[1, 16]>, #dsaplan.space<ub>>
  %b = dsaplan.alloc {name = "b"} : memref<16x16xf32, #dsaplan.space<ub>>  // op 3
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>}                  // op 4: writes b at 9
      : memref<16x16xf32> to memref<16x16xf32, #dsaplan.space<ub>>
  linalg.add {dsaplan.pipe = #dsaplan.pipe<v>}                              // op 5: reads a (as %t) and b at 10
      ins(%t, %b : memref<16x16xf32, strided<[1, 16]>, #dsaplan.space<ub>>, memref<16x16xf32, #dsaplan.space<ub>>)
      outs(%out : memref<16x16xf32>)
  %c0 = arith.constant 0 : index                                            // op 6
  %d = memref.dim %a, %c0 : memref<16x16xf32, #dsaplan.space<ub>>           // op 7: not an access
  %p = memref.extract_aligned_pointer_as_index %a                           // op 8: not an access
      : memref<16x16xf32, #dsaplan.space<ub>> -> index
  return
}
