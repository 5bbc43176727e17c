// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | dsa-opt -split-input-file -dsaplan-verify-sync
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="mode=reuse-only" | FileCheck %s --check-prefix=REUSE

// Worked examples on placed IR: each tile is a view of the UB arena at a
// constant offset; the byte ranges are beside the views.

// The partial-overlap case: a 4 KiB tile read by V, then a 32-byte tile
// inside its bytes written by MTE2. Different tiles, shared bytes: V -> MTE2.
// CHECK-LABEL: func.func @partial_overlap
// CHECK:      linalg.generic
// CHECK:      dsaplan.set_flag <v -> mte2>, 0
// CHECK-NEXT: dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT: memref.copy %{{.*}}, %[[ROW:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// REUSE-LABEL: func.func @partial_overlap
// REUSE:      dsaplan.set_flag <v -> mte2>, 0
// REUSE-NEXT: dsaplan.wait_flag <v -> mte2>, 0
#red = affine_map<(d0) -> (d0)>
#red_out = affine_map<(d0) -> ()>
func.func @partial_overlap(%gm: memref<8xf32> {llvm.noalias}, %acc: memref<f32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %table = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>  // [0, 4096)
  %row = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>       // [0, 32)
  linalg.generic {indexing_maps = [#red, #red_out], iterator_types = ["reduction"]}
      ins(%table : memref<1024xf32, #dsaplan.space<ub>>) outs(%acc : memref<f32>)
      attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  memref.copy %gm, %row {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  return
}

// -----

// PTOAS-style: bytes [1280, 9472) stored by MTE3, then bytes [8192, 16384)
// written by V: they share [8192, 9472), so MTE3 -> V.
// CHECK-LABEL: func.func @ptoas_overlap
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT: dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT: linalg.fill
func.func @ptoas_overlap(%out: memref<2048xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c1280 = arith.constant 1280 : index
  %c8192 = arith.constant 8192 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c1280][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>  // [1280, 9472)
  %b = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>  // [8192, 16384)
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<2048xf32, #dsaplan.space<ub>> to memref<2048xf32>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%b : memref<2048xf32, #dsaplan.space<ub>>)
  return
}

// -----

// Disjoint ranges: nothing to order.
// CHECK-LABEL: func.func @disjoint
// CHECK-NOT: dsaplan.set_flag
// CHECK-NOT: dsaplan.pipe_barrier
func.func @disjoint(%out: memref<1024xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>     // [0, 4096)
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>  // [4096, 8192)
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
  return
}

// -----

// Same tile, MTE2 load then V compute: a pair in mode=all, none in
// reuse-only (the toolchain orders accesses to one tile itself).
// CHECK-LABEL: func.func @same_tile_raw
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
// REUSE-LABEL: func.func @same_tile_raw
// REUSE-NOT: dsaplan.set_flag
func.func @same_tile_raw(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [0, 1024)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The single-buffered vector loop of DESIGN.md: A in [0, 1024), B in
// [1024, 2048). RAW on A and B inside an iteration; around the back edge
// the next load of A waits for this iteration's V read, and the next V write
// of B for this iteration's MTE3 read: set before the loop, wait after it.
// In reuse-only mode all of these are same-tile dependencies: none.
// REUSE-LABEL: func.func @vector_loop
// REUSE-NOT: dsaplan.set_flag
// CHECK-LABEL: func.func @vector_loop
// CHECK-DAG:  dsaplan.set_flag <v -> mte2>, 0
// CHECK-DAG:  dsaplan.set_flag <mte3 -> v>, 0
// CHECK:      scf.for
// CHECK:        dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT:   memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:   dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:   dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:   dsaplan.wait_flag <mte3 -> v>, 0
// CHECK-NEXT:   linalg.exp
// CHECK-NEXT:   dsaplan.set_flag <v -> mte2>, 0
// CHECK-NEXT:   dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:   dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:   memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:   dsaplan.set_flag <mte3 -> v>, 0
// CHECK:      }
// CHECK-DAG:  dsaplan.wait_flag <v -> mte2>, 0
// CHECK-DAG:  dsaplan.wait_flag <mte3 -> v>, 0
func.func @vector_loop(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  }
  return
}

// -----

// scf.if: each branch's access is ordered where both paths meet again; the
// if op is treated as one op, so the flags balance on both paths.
// CHECK-LABEL: func.func @if_else
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// CHECK-NEXT: scf.if
func.func @if_else(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  scf.if %c {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  } else {
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  }
  return
}

// -----

// Nested loops: the inner loop carries the V -> MTE2 dependency around its
// own back edge. Its pre-set goes before the outer loop and its drain after
// it (HoistLoopPairs.cpp): the inner loop leaves the flag set as it found
// it, and the first wait of the next outer iteration orders the last inner
// iteration before it. Set and drained in the outer body instead, the next
// outer iteration's pre-set (on V) would have to follow the drain (on
// MTE2), which a handshake back after the drain did: 3 set_flags then, 2
// now.
// CHECK-LABEL: func.func @nested_loops
// CHECK:      dsaplan.set_flag <v -> mte2>, [[ID:[0-7]]]
// CHECK-NEXT: scf.for
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     dsaplan.wait_flag <v -> mte2>, [[ID]]
// CHECK:          dsaplan.set_flag <v -> mte2>, [[ID]]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: dsaplan.wait_flag <v -> mte2>, [[ID]]
// CHECK-NEXT: return
func.func @nested_loops(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [0, 1024)
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
    }
  }
  return
}

// -----

// The input already orders the MTE2 -> V dependency: nothing is added, and
// the input's event id 0 is not reused.
// REUSE-LABEL: func.func @existing_sync
// CHECK-LABEL: func.func @existing_sync
// CHECK:      dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
// CHECK-NOT:  dsaplan.set_flag <mte2 -> v>
func.func @existing_sync(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Same pipe: two V ops on overlapping bytes need a barrier; the scalar pipe
// would not.
// CHECK-LABEL: func.func @same_pipe
// CHECK:      linalg.fill
// CHECK-NEXT: dsaplan.pipe_barrier <v>
// CHECK-NEXT: linalg.exp
func.func @same_pipe(%out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// scf.while: MTE2 loads A in the "before" region and V reads it in the "do"
// region of the same iteration. No gap of the function body lies between
// the two (both are inside the one while op): the pair goes right after the
// load. (The V read -> next iteration's load, around the back edge, gets
// the eager pair after the read.)
// CHECK-LABEL: func.func @while_before_to_do
// CHECK:      scf.while
// CHECK-NEXT:   memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:   dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT:   dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:   scf.condition
// CHECK:      } do {
// CHECK-NEXT:   linalg.exp
// CHECK-NEXT:   dsaplan.set_flag <v -> mte2>, 0
// CHECK-NEXT:   dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT:   scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @while_before_to_do(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // A: [0, 1024)
  scf.while : () -> () {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    scf.condition(%c)
  } do {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
    scf.yield
  }
  return
}

// -----

// scf.while leaves from the end of its "before" region. The scalar write
// of A there is what V reads after the loop, although the "do" region
// writes A again by MTE2: on the last iteration that write does not run.
// CHECK-LABEL: func.func @while_exits_from_before
// CHECK:      scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: dsaplan.set_flag <s -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <s -> v>, 0
// CHECK-NEXT: linalg.exp
func.func @while_exits_from_before(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %zero = arith.constant 0.0 : f32
  %c512 = arith.constant 512 : index
  %a = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // A: [512, 768)
  scf.while : () -> () {
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<64xf32, #dsaplan.space<ub>>)
    scf.condition(%c)
  } do {
    memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    scf.yield
  }
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<64xf32, #dsaplan.space<ub>>) outs(%out : memref<64xf32>)
  return
}

// -----

// Static subviews count exactly the bytes they touch, strides included.
// T is 8 rows of 64 f32 at [0, 2048): its left half is eight runs
// [256r, 256r + 128), its right half eight runs [256r + 128, 256r + 256).
// Loading the left half on MTE2 while V reads the right half needs no sync
// (their hulls [0, 1920) and [128, 2048) would overlap); V reading the left
// half needs the MTE2 -> V pair.
// (The set follows the load, the wait comes just before the read that
// needs it: the read of the right half does not wait.)
// CHECK-LABEL: func.func @column_halves
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%subview_0 :
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%subview :
func.func @column_halves(%gm: memref<8x32xf32> {llvm.noalias}, %out: memref<8x32xf32> {llvm.noalias}, %out2: memref<8x32xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8x64xf32, #dsaplan.space<ub>>  // T: [0, 2048)
  %left = memref.subview %t[0, 0] [8, 32] [1, 1] : memref<8x64xf32, #dsaplan.space<ub>> to memref<8x32xf32, strided<[64, 1]>, #dsaplan.space<ub>>
  %right = memref.subview %t[0, 32] [8, 32] [1, 1] : memref<8x64xf32, #dsaplan.space<ub>> to memref<8x32xf32, strided<[64, 1], offset: 32>, #dsaplan.space<ub>>
  memref.copy %gm, %left {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8x32xf32> to memref<8x32xf32, strided<[64, 1]>, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%right : memref<8x32xf32, strided<[64, 1], offset: 32>, #dsaplan.space<ub>>) outs(%out : memref<8x32xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%left : memref<8x32xf32, strided<[64, 1]>, #dsaplan.space<ub>>) outs(%out2 : memref<8x32xf32>)
  return
}

// -----

// Strides inside a row: the even and the odd elements of A [0, 128) are
// disjoint sets of 4-byte runs, so a write of one and a read of the other
// need no sync.
// CHECK-LABEL: func.func @even_and_odd
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
// CHECK-NEXT: return
func.func @even_and_odd(%gm: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32xf32, #dsaplan.space<ub>>  // A: [0, 128)
  %even = memref.subview %a[0] [16] [2] : memref<32xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[2]>, #dsaplan.space<ub>>
  %odd = memref.subview %a[1] [16] [2] : memref<32xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[2], offset: 1>, #dsaplan.space<ub>>
  memref.copy %gm, %even {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[2]>, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%odd : memref<16xf32, strided<[2], offset: 1>, #dsaplan.space<ub>>) outs(%out : memref<16xf32>)
  return
}

// -----

// A dynamic subview may touch any byte of its tile: the MTE2 write of
// A[%i, %i + 8) and the V read of A's last 8 elements [96, 128) conflict.
// CHECK-LABEL: func.func @dynamic_subview
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
func.func @dynamic_subview(%gm: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %i: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32xf32, #dsaplan.space<ub>>  // A: [0, 128)
  %somewhere = memref.subview %a[%i] [8] [1] : memref<32xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
  %tail = memref.subview %a[24] [8] [1] : memref<32xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 24>, #dsaplan.space<ub>>
  memref.copy %gm, %somewhere {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%tail : memref<8xf32, strided<[1], offset: 24>, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  return
}

// -----

// scf.index_switch runs one of its cases. The load of A in case 0 and V's
// write of A in case 1 never both run; after the switch, V reads A: it
// waits for the load (a pair set after the switch, on MTE2's stream) and,
// being on the same pipe as case 1's write, needs a barrier. Pruning used to
// walk the cases one after the other and took the load's pair for an order
// of V's own write, dropping the barrier.
// CHECK-LABEL: func.func @index_switch_cases
// CHECK:      scf.index_switch
// CHECK:      default {
// CHECK-NEXT: }
// CHECK-NEXT: dsaplan.pipe_barrier <v>
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
func.func @index_switch_cases(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %k: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  scf.index_switch %k
  case 0 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    scf.yield
  }
  case 1 {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    scf.yield
  }
  default {
  }
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
// -----

// An access through a cast out of the dsaplan space is an access of the
// tile's bytes: the load writes [0, 1024) of ub through %g, the exp reads
// them through %a: mte2 -> v (the cast used to hide the load).
// CHECK-LABEL: func.func @space_cast
// CHECK:      memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32>
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
func.func @space_cast(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [0, 1024)
  %g = memref.memory_space_cast %a : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  memref.copy %gm, %g {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Views and metadata ops only name bytes, even with a pipe: the transpose
// and the subview (given pipe v) are aliases of %a, not accesses; dim and
// the extract ops need no pipe. The reads through them depend on the load:
// mte2 -> v for the copy of the transpose, mte2 -> mte3 for the store of
// row 0 ([0, 64)).
// CHECK-LABEL: func.func @views_and_metadata
// CHECK:      memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// CHECK-NEXT: memref.transpose
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.dim
// CHECK-NEXT: memref.extract_aligned_pointer_as_index
// CHECK-NEXT: memref.extract_strided_metadata
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// CHECK-NEXT: memref.copy
func.func @views_and_metadata(%gm: memref<16x16xf32> {llvm.noalias}, %out: memref<16x16xf32> {llvm.noalias}, %row: memref<16xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16x16xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16x16xf32> to memref<16x16xf32, #dsaplan.space<ub>>
  %t = memref.transpose %a (i, j) -> (j, i) {dsaplan.pipe = #dsaplan.pipe<v>} : memref<16x16xf32, #dsaplan.space<ub>> to memref<16x16xf32, strided<[1, 16]>, #dsaplan.space<ub>>
  %s = memref.subview %a[0, 0] [1, 16] [1, 1] {dsaplan.pipe = #dsaplan.pipe<v>} : memref<16x16xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1]>, #dsaplan.space<ub>>
  %d = memref.dim %a, %c0 : memref<16x16xf32, #dsaplan.space<ub>>
  %p = memref.extract_aligned_pointer_as_index %a : memref<16x16xf32, #dsaplan.space<ub>> -> index
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %a : memref<16x16xf32, #dsaplan.space<ub>> -> memref<f32, #dsaplan.space<ub>>, index, index, index, index, index
  linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<16x16xf32, strided<[1, 16]>, #dsaplan.space<ub>>) outs(%out : memref<16x16xf32>)
  memref.copy %s, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, strided<[1]>, #dsaplan.space<ub>> to memref<16xf32>
  return
}

// -----

// A tile of index elements: 8 bytes each, so %a is [0, 64) and %b, right
// after it, shares none of its bytes: no mte2 barrier between the loads
// (the verifier crashed sizing index; the inserter took the whole space).
// CHECK-LABEL: func.func @index_tile
// CHECK:      memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xindex>
// CHECK-NEXT: dsaplan.set_flag <mte2 -> mte3>, 0
// CHECK-NEXT: memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32>
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> mte3>, 0
// CHECK-NEXT: memref.copy
func.func @index_tile(%gm: memref<8xindex> {llvm.noalias}, %gm2: memref<16xf32> {llvm.noalias}, %out: memref<8xindex> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xindex, #dsaplan.space<ub>>  // [0, 64)
  %b = memref.view %ub[%c64][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16xf32, #dsaplan.space<ub>>   // [64, 128)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xindex> to memref<8xindex, #dsaplan.space<ub>>  // [0, 64)
  memref.copy %gm2, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, #dsaplan.space<ub>>   // [64, 128)
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xindex, #dsaplan.space<ub>> to memref<8xindex>
  return
}

// -----

// Chained views: %u is a static subview of the dynamic subview %s, so it
// may be any 16 elements of %t: bytes [0, 256) as far as we know. V's
// read of %w = %t[32:48] (bytes [128, 192)) may overlap MTE2's write of %u
// and waits for it. (The inserter measured %u against %t as if %s were
// static, as %t[0:16] = bytes [0, 64), and inserted nothing; the verifier
// then rejected the kernel.)
// CHECK-LABEL: func.func @static_subview_of_dynamic_subview
// CHECK:      memref.copy
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.exp
func.func @static_subview_of_dynamic_subview(%gm: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [0, 256)
  %s = memref.subview %t[%n] [32] [1] : memref<64xf32, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
  %u = memref.subview %s[0] [16] [1] : memref<32xf32, strided<[1], offset: ?>, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
  %w = memref.subview %t[32] [16] [1] : memref<64xf32, #dsaplan.space<ub>> to memref<16xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>  // [128, 192)
  memref.copy %gm, %u {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, strided<[1], offset: ?>, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%w : memref<16xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>) outs(%out : memref<16xf32>)
  return
}

// -----

// A value that may be one of several tiles touches those tiles' bytes, not
// the whole space: the exp through %t (tile %a at [0, 4096) or %b at
// [4096, 8192)) needs nothing from the load into %c at [8192, 12288), but
// the store of %a after it must wait for it (it may have written %a).
// The store also overwrites the GM bytes the load read (mte2 -> mte3).
//
// CHECK-LABEL: func.func @select_of_two_tiles
// CHECK:         memref.copy %{{.*}}, %[[C:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> mte3>, 0
// CHECK-NEXT:    %[[T:.*]] = arith.select
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> mte3>, 0
// CHECK-NEXT:    memref.copy
func.func @select_of_two_tiles(%gm: memref<1024xf32> {llvm.noalias}, %first: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c8192 = arith.constant 8192 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %c = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  memref.copy %gm, %c {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
  %t = arith.select %first, %a, %b : memref<1024xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
  memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
  return
}
