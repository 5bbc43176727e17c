// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics

// How the verifier's history keeps the bytes of an earlier access that a
// later ordered write did not cover: a cut trims an access at one end,
// splits it in the middle, and at a merge the access stays a candidate if
// one path did not cut it. Each later unordered access is reported against
// every earlier op whose remaining bytes it meets.

// The fill, ordered after the load, covers the load's first half: the
// unordered store is reported against the fill there and the load on the
// rest.
func.func @cut_trims(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %h = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<128xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  // expected-note @below {{the earlier access}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%h : memref<128xf32, #dsaplan.space<ub>>)
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'linalg.fill' on pipe v touch bytes [0, 512) of ub}}
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [512, 1024) of ub}}
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}

// -----

// The fill covers the middle of the load: a read of the middle alone meets
// the fill only, and the load's two ends stay.
func.func @cut_splits(%gm: memref<256xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}, %out2: memref<64xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c768 = arith.constant 768 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %mid = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<128xf32, #dsaplan.space<ub>>
  %tail = memref.view %ub[%c768][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  // expected-note @below {{the earlier access}}
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%mid : memref<128xf32, #dsaplan.space<ub>>)
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'linalg.fill' on pipe v touch bytes [256, 768) of ub}}
  memref.copy %mid, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<128xf32, #dsaplan.space<ub>> to memref<128xf32>
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [768, 1024) of ub}}
  memref.copy %tail, %out2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// One branch overwrites the load, the other does not: after the merge the
// store meets both the fill and the load.
func.func @merge_keeps_uncut(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}, %c: i1) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 0
  scf.if %c {
    // expected-note @below {{the earlier access}}
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
  }
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'linalg.fill' on pipe v touch bytes [0, 1024) of ub}}
  // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte2 touch bytes [0, 1024) of ub}}
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}
