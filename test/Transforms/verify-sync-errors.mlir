// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics

// Hand-written racy inputs, one per kind of race or flag misuse.

func.func @read_after_write(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The partial-overlap race: the 32-byte tile is loaded into bytes that V is
// still reading.
func.func @write_after_read_partial(%gm: memref<8xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %table = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %row = memref.view %ub[%c64][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%table : memref<1024xf32, #dsaplan.space<ub>>) outs(%out : memref<1024xf32>)
  // expected-error @below {{unordered write after read: 'memref.copy' on pipe mte2 and 'linalg.exp' on pipe v touch bytes [64, 96) of ub}}
  memref.copy %gm, %row {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @write_after_write(%gm: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{unordered write after write: 'linalg.fill' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  return
}

// -----

// One pipe, no barrier.
func.func @same_pipe_without_barrier(%out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'linalg.fill' on pipe v touch bytes [0, 1024) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The flag is waited for on the wrong pipe pair: nothing orders the copy.
func.func @wrong_flag(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> mte3>, 0
  dsaplan.wait_flag <mte2 -> mte3>, 0
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Around a loop's back edge: the next iteration's load overwrites A while V
// may still read it.
func.func @loop_carried(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %n: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    // The loads of successive iterations are unordered too: no barrier.
    // expected-error @below {{unordered write after read: 'memref.copy' on pipe mte2 and 'linalg.exp' on pipe v touch bytes [0, 1024) of ub}}
    // expected-error @below {{unordered write after write: 'memref.copy' on pipe mte2 and 'memref.copy' on pipe mte2}}
    // expected-note @below {{the earlier access}}
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    // And MTE2 may run ahead and set the flag of the next iteration before
    // V consumed this one.
    // expected-error @below {{event 0 of <mte2 -> v> may be set again before the wait that consumes its previous set has run}}
    dsaplan.set_flag <mte2 -> v>, 0
    // expected-note @below {{the wait it is not ordered after}}
    dsaplan.wait_flag <mte2 -> v>, 0
    // V writes %out again in the next iteration with no barrier between.
    // expected-error @below {{unordered write after write: 'linalg.exp' on pipe v and 'linalg.exp' on pipe v touch bytes [0, 1024) of GM argument #1}}
    // expected-note @below {{the earlier access}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  }
  return
}

// -----

// A flag is one bit (the overrun of examples/softmax.mlir before the fix):
// MTE2 sets event 0 for the first load, V consumes it, MTE2 sets event 0
// again for the second load. In program text the wait comes first, but
// nothing makes MTE2 wait for V: both sets can fire before V's first wait,
// the second signal is lost and V's second wait hangs.
func.func @flag_overrun(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %out2: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>     // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  // expected-note @below {{the wait it is not ordered after}}
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{event 0 of <mte2 -> v> may be set again before the wait that consumes its previous set has run (nothing orders this set after that wait): the signal would be lost and a wait would hang}}
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<256xf32, #dsaplan.space<ub>>) outs(%out2 : memref<256xf32>)
  return
}

// -----

func.func @wait_without_set() {
  // expected-error @below {{waits for event 3 of <v -> mte2> that no set_flag raised: the pipe would hang}}
  dsaplan.wait_flag <v -> mte2>, 3
  return
}

// -----

func.func @set_twice() {
  dsaplan.set_flag <v -> mte2>, 1
  // expected-error @below {{event 1 of <v -> mte2> is set again before its wait}}
  dsaplan.set_flag <v -> mte2>, 1
  dsaplan.wait_flag <v -> mte2>, 1
  return
}

// -----

func.func @never_waited() {
  // expected-error @below {{event 2 of <mte3 -> v> is set and never waited for}}
  dsaplan.set_flag <mte3 -> v>, 2
  return
}

// -----

func.func @unbalanced_if(%c: i1) {
  // expected-error @below {{unbalanced flags: event 0 of <v -> mte2> is set on some paths through this op and not on others}}
  scf.if %c {
    // expected-note @below {{set here}}
    dsaplan.set_flag <v -> mte2>, 0
  }
  // expected-error @below {{waits for event 0 of <v -> mte2> that no set_flag raised: the pipe would hang}}
  dsaplan.wait_flag <v -> mte2>, 0
  return
}

// -----

func.func @no_pipe(%gm: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' touches a dsaplan memory space or global memory but has no pipe}}
  memref.copy %gm, %a : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// scf.while leaves from its "before" region: the pair in the "do" region
// orders the MTE2 write for V, but on the last iteration the scalar write
// is the last one, and nothing orders it for V.
func.func @while_exit_skips_do(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.while : () -> () {
    // expected-note @below {{the earlier access}}
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<s>} ins(%zero : f32) outs(%a : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <s -> mte2>, 0
    dsaplan.wait_flag <s -> mte2>, 0
    scf.condition(%c)
  } do {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> s>, 0
    dsaplan.wait_flag <mte2 -> s>, 0
    scf.yield
  }
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'linalg.fill' on pipe s touch bytes [0, 256) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<64xf32, #dsaplan.space<ub>>) outs(%out : memref<64xf32>)
  return
}

// -----

// Strided subviews: the left half of T (rows of 32 f32 at stride 64) and
// the two columns 31 and 32 share one element per row; the first shared
// bytes are T[0][31], [124, 128).
func.func @strided_overlap(%gm: memref<8x32xf32> {llvm.noalias}, %out: memref<8x2xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8x64xf32, #dsaplan.space<ub>>
  %left = memref.subview %t[0, 0] [8, 32] [1, 1] : memref<8x64xf32, #dsaplan.space<ub>> to memref<8x32xf32, strided<[64, 1]>, #dsaplan.space<ub>>
  %seam = memref.subview %t[0, 31] [8, 2] [1, 1] : memref<8x64xf32, #dsaplan.space<ub>> to memref<8x2xf32, strided<[64, 1], offset: 31>, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %left {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8x32xf32> to memref<8x32xf32, strided<[64, 1]>, #dsaplan.space<ub>>
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [124, 128) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%seam : memref<8x2xf32, strided<[64, 1], offset: 31>, #dsaplan.space<ub>>) outs(%out : memref<8x2xf32>)
  return
}

// -----

// The history is filed by 4 KiB page: a store of 12 KiB is found from its
// third page, where the race is.
func.func @race_on_a_later_page(%gm: memref<3072xf32> {llvm.noalias}, %src: memref<8xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c8224 = arith.constant 8224 : index
  %big = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<3072xf32, #dsaplan.space<ub>>      // [0, 12288)
  %small = memref.view %ub[%c8224][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>  // [8224, 8256)
  // expected-note @below {{the earlier access}}
  memref.copy %big, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<3072xf32, #dsaplan.space<ub>> to memref<3072xf32>
  // expected-error @below {{unordered write after read: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte3 touch bytes [8224, 8256) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%src : memref<8xf32>) outs(%small : memref<8xf32, #dsaplan.space<ub>>)
  return
}

// -----

// An access is forgotten once a write ordered after it covers its bytes: the
// MTE3 read below races with the V write, and only with it (the load is
// ordered before the V write, so a flag V -> MTE3 would order it too).
func.func @only_the_covering_write(%gm: memref<2048xf32> {llvm.noalias}, %src: memref<2048xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %tile = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<2048xf32, #dsaplan.space<ub>>  // [0, 8192)
  %row = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>   // [4096, 4128)
  memref.copy %gm, %tile {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<2048xf32> to memref<2048xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  // expected-note @below {{the earlier access}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%src : memref<2048xf32>) outs(%tile : memref<2048xf32, #dsaplan.space<ub>>)
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'linalg.exp' on pipe v touch bytes [4096, 4128) of ub}}
  memref.copy %row, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}

// -----

// A race across a page boundary is reported once, over all its bytes.
func.func @race_across_pages(%gm: memref<3072xf32> {llvm.noalias}, %src: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4064 = arith.constant 4064 : index
  %big = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<3072xf32, #dsaplan.space<ub>>    // [0, 12288)
  %row = memref.view %ub[%c4064][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>  // [4064, 4320)
  // expected-note @below {{the earlier access}}
  memref.copy %big, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<3072xf32, #dsaplan.space<ub>> to memref<3072xf32>
  // expected-error @below {{unordered write after read: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte3 touch bytes [4064, 4320) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%src : memref<64xf32>) outs(%row : memref<64xf32, #dsaplan.space<ub>>)
  return
}

// -----

// After scf.index_switch, V reads A that case 1 wrote on V: the flag pair
// from MTE2 (which loaded A in case 0) orders the load, not V's own write.
func.func @index_switch_missing_barrier(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %k: index) {
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
    // expected-note @below {{the earlier access}}
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    scf.yield
  }
  default {
  }
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'linalg.exp' on pipe v touch bytes [0, 1024) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
// -----

// A call with a tile and no pipe cannot be checked; the declaration itself
// has nothing to check.
func.func private @helper(memref<256xf32, #dsaplan.space<ub>>)
func.func @call_without_pipe(%gm: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{call to @helper passes a dsaplan tile or GM buffer but has no pipe}}
  func.call @helper(%a) : (memref<256xf32, #dsaplan.space<ub>>) -> ()
  return
}

// -----

// Unstructured control flow is refused when the pass runs alone too (it
// used to see only the entry block: no sync, and a race approved).
// expected-error @below {{@split: function body with 2 blocks (unstructured control flow) is not supported; lift it to scf first}}
func.func @split(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  cf.br ^bb1
^bb1:
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

func.func @execute_region(%c: i1, %gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.execute_region' has a region with 3 blocks (unstructured control flow), which is not supported; lift it to scf first}}
  scf.execute_region {
    cf.cond_br %c, ^load, ^done
  ^load:
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    cf.br ^done
  ^done:
    scf.yield
  }
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// The load writes the tile through a cast out of the dsaplan space: still a
// write of its bytes, racing the exp.
func.func @space_cast(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %g = memref.memory_space_cast %a : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %g {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32>
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Its iterations may run in any order: the body is no straight-line code.
func.func @forall(%gm: memref<4x256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.forall' over dsaplan memory is not supported: its iterations may run in any order; use scf.for}}
  scf.forall (%i) in (4) {
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  }
  return
}

// -----

func.func @parallel(%gm: memref<4x256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.parallel' over dsaplan memory is not supported: its iterations may run in any order; use scf.for}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  }
  return
}

// -----

// A tile of index elements is 8 bytes an element (it crashed the verifier).
func.func @index_tile(%gm: memref<8xindex> {llvm.noalias}, %out: memref<8xindex> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xindex, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xindex> to memref<8xindex, #dsaplan.space<ub>>
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [0, 64) of ub}}
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xindex, #dsaplan.space<ub>> to memref<8xindex>
  return
}

// -----

// scf.index_switch runs one case: the wait of case 0 does not order the
// exp after the load when case 1 (or the default) runs. (The cases used to
// be walked one after another, as if all ran.)
func.func @index_switch(%i: index, %gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  scf.index_switch %i
  case 0 {
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
  }
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Through a choice: %t may be %a ([0, 1024)) or %b ([1024, 2048)); the load
// into %b is not ordered before V reads %t.
func.func @choice_may_hold_the_loaded_tile(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %first: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  %t = arith.select %first, %a, %b : memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{unordered read after write: 'linalg.exp' on pipe v and 'memref.copy' on pipe mte2 touch bytes [1024, 2048) of ub}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// Global memory: MTE3 stores a row to GM and MTE2 loads the same bytes back
// with nothing between them.
func.func @gm_store_then_load(%gm: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %s = memref.subview %gm[128] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: 128>>
  // expected-note @below {{the earlier access}}
  memref.copy %a, %s {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: 128>>
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 and 'memref.copy' on pipe mte3 touch bytes [512, 768) of GM argument #0}}
  memref.copy %s, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 128>> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// Two arguments may be one buffer: disjoint ranges do not help.
func.func @gm_aliasing_arguments(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %xs = memref.subview %x[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  %ys = memref.subview %y[512] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: 512>>
  // expected-note @below {{the earlier access}}
  memref.copy %a, %xs {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 and 'memref.copy' on pipe mte3 touch bytes [2048, 2304) of GM argument #1 and [0, 256) of GM argument #0, which may alias (mark an argument llvm.noalias if it cannot)}}
  memref.copy %ys, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 512>> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// FIX cannot write UB on ascend910b (Fixpipe moves L0C to GM or L1 there).
func.func @fix_writes_ub() {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' on pipe fix writes ub, which ascend910b pipe fix cannot write (it writes gm, l1)}}
  memref.copy %acc, %a {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// The cube core's FIX writes GM that the vector core's MTE2 then reads: the
// flag orders FIX with the cube core's MTE2, not with the vector core's
// (each core its own pipes); a cross-core pair would order them
// (verify-sync-cross-core.mlir).
func.func @cross_core(%gm: memref<64xf32>) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %acc, %gm {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
  dsaplan.set_flag <fix -> mte2>, 0
  dsaplan.wait_flag <fix -> mte2>, 0
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 (vector core) and 'memref.copy' on pipe fix (cube core) touch bytes [0, 256) of GM argument #0}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @gm_only_without_pipe(%gm: memref<64xf32>, %out: memref<64xf32>) {
  // expected-error @below {{'memref.copy' touches a dsaplan memory space or global memory but has no pipe}}
  memref.copy %gm, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// A cast out of the space of an scf.if result is still each tile it may
// be: MTE2 writing [512, 768), the bytes of %b, while MTE3 stores through
// the cast of a choice of %a and %b is a race (verify-sync.mlir
// @cast_of_choice has the tile between them, which is none).
func.func @cast_of_choice(%gm: memref<64xf32>, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c512][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> mte3>, 0
  dsaplan.wait_flag <mte2 -> mte3>, 0
  %r = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {
    scf.yield %a : memref<64xf32, #dsaplan.space<ub>>
  } else {
    scf.yield %b : memref<64xf32, #dsaplan.space<ub>>
  }
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %g = memref.memory_space_cast %r : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [512, 768) of ub}}
  memref.copy %g, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32> to memref<64xf32>
  return
}

// -----

// A barrier_all orders what runs before it against what runs after it,
// nothing else: here it comes before the load, so the exp still races it.
func.func @barrier_all_before_the_producer(%gm: memref<256xf32>, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.barrier_all
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{unordered read after write}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}
