// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics

// Inputs the verifier must accept: orders it can prove only by following
// the bytes, not the tiles. (Racy inputs are in verify-sync-errors.mlir.)

// A load is overwritten on both paths of an scf.if, all of it on one path
// and the part that V later writes on the other. The verifier keeps, on
// each path, only the bytes of the load that no later write ordered after
// it has covered: [384, 640) on neither path reach V's [320, 576) write
// unordered. (It used to forget an access only when one write covered all
// of it, then lost at the merge which path had ordered what, and reported a
// race here; found by the insert-sync property kernels, seed 243.)
func.func @cut_on_both_paths(%gm: memref<64xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %zero = arith.constant 0.0 : f32
  %c320 = arith.constant 320 : index
  %c384 = arith.constant 384 : index
  %a = memref.view %ub[%c384][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [384, 640)
  %b = memref.view %ub[%c320][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [320, 576)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> s>, 0
  dsaplan.wait_flag <mte2 -> s>, 0
  scf.if %c {
    // All of the load's bytes: MTE3 learns of the load through S.
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <s -> mte3>, 0
    dsaplan.wait_flag <s -> mte3>, 0
    memref.copy %a, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  } else {
    // [384, 576) of the load: V learns of this fill, and so of the load.
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%b : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <s -> v>, 0
    dsaplan.wait_flag <s -> v>, 0
  }
  dsaplan.set_flag <mte3 -> v>, 1
  dsaplan.wait_flag <mte3 -> v>, 1
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%gm : memref<64xf32>) outs(%b : memref<64xf32, #dsaplan.space<ub>>)
  return
}

// -----

// A set may reuse its flag once its pipe knows the previous set was
// consumed: V hands MTE2 a flag after its wait (here with the WAR pair V
// needs anyway), so MTE2's second set of event 0 follows V's first wait.

func.func @flag_reused_after_its_wait(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  dsaplan.set_flag <v -> mte2>, 1
  dsaplan.wait_flag <v -> mte2>, 1
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The cases of scf.index_switch never both run: MTE2's load of A in case 0
// and V's write of A in case 1 do not race (they were reported as a write
// after write when the cases were walked one after the other).
func.func @index_switch_cases_exclusive(%gm: memref<256xf32>, %k: index) {
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
  return
}

// -----

// A cast out of the space of an scf.if result names the bytes of each tile
// the result may be, [0, 256) or [512, 768), not the range from the first
// to the last: MTE2 writing [256, 512) while MTE3 stores through the cast
// is no race. (The verifier used to take [0, 768) and reported one; found
// by the random placement kernels with --shapes, seed 2 kernel 79, where
// the choice was the result of a loop that rotates a carried tile.)
func.func @cast_of_choice(%gm: memref<64xf32>, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>    // [0, 256)
  %t = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [256, 512)
  %b = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [512, 768)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> mte3>, 0
  dsaplan.wait_flag <mte2 -> mte3>, 0
  %r = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {
    scf.yield %a : memref<64xf32, #dsaplan.space<ub>>
  } else {
    scf.yield %b : memref<64xf32, #dsaplan.space<ub>>
  }
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %g = memref.memory_space_cast %r : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  // The store goes to a noalias output: a store over %gm, which MTE2 reads
  // after the flag, would be a GM race of its own.
  memref.copy %g, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32> to memref<64xf32>
  return
}

// -----

// The same through a chain of views: a transpose of an expand_shape of the
// choice. (Seed 2 kernel 190 of the --shapes kernels: the verifier took the
// range from %a to %b and found V's read of the transpose unordered with a
// later V write to %t.)
func.func @transpose_of_choice(%gm: memref<64xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>    // [0, 256)
  %t = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [256, 512)
  %b = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [512, 768)
  %d = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32x2xf32, #dsaplan.space<ub>>
  %r = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {
    scf.yield %a : memref<64xf32, #dsaplan.space<ub>>
  } else {
    scf.yield %b : memref<64xf32, #dsaplan.space<ub>>
  }
  %e = memref.expand_shape %r [[0, 1]] output_shape [2, 32] : memref<64xf32, #dsaplan.space<ub>> into memref<2x32xf32, #dsaplan.space<ub>>
  %tr = memref.transpose %e (i, j) -> (j, i) : memref<2x32xf32, #dsaplan.space<ub>> to memref<32x2xf32, strided<[1, 32]>, #dsaplan.space<ub>>
  linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%tr : memref<32x2xf32, strided<[1, 32]>, #dsaplan.space<ub>>) outs(%d : memref<32x2xf32, #dsaplan.space<ub>>)
  %zero = arith.constant 0.0 : f32
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%t : memref<64xf32, #dsaplan.space<ub>>)
  return
}

// -----

// A subview of such a view: a row of the expand_shape of the choice is in
// %a or in %b, never in %t between them. (Seed 2 kernel 332 of the
// --shapes kernels.)
func.func @subview_of_view_of_choice(%gm: memref<64xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>    // [0, 256)
  %t = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [256, 512)
  %b = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [512, 768)
  %d = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32xf32, #dsaplan.space<ub>>
  %zero = arith.constant 0.0 : f32
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%t : memref<64xf32, #dsaplan.space<ub>>)
  %r = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {
    scf.yield %a : memref<64xf32, #dsaplan.space<ub>>
  } else {
    scf.yield %b : memref<64xf32, #dsaplan.space<ub>>
  }
  %e = memref.expand_shape %r [[0, 1]] output_shape [2, 32] : memref<64xf32, #dsaplan.space<ub>> into memref<2x32xf32, #dsaplan.space<ub>>
  %row = memref.subview %e[1, 0] [1, 32] [1, 1] : memref<2x32xf32, #dsaplan.space<ub>> to memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>
  linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%row : memref<32xf32, strided<[1], offset: 32>, #dsaplan.space<ub>>) outs(%d : memref<32xf32, #dsaplan.space<ub>>)
  return
}

// -----

// dsaplan.barrier_all drains every pipe: the load is ordered before the exp
// without a flag, and MTE2's second set of event 0 runs after V's wait of
// the first (the same kernel without the barrier is @flag_overrun in
// verify-sync-errors.mlir).
func.func @barrier_all_orders_every_pipe(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %out2: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.barrier_all
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<256xf32, #dsaplan.space<ub>>) outs(%out2 : memref<256xf32>)
  // V's exp of %a is finished too: MTE2 may overwrite it.
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}
