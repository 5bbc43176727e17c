// RUN: dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync -verify-diagnostics
// RUN: not dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync="mode=fastest" 2>&1 | FileCheck %s --check-prefix=MODE

// MODE: unknown mode 'fastest' (expected all, reuse-only or identity-only)

func.func @no_pipe(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' touches a dsaplan memory space but has no pipe (a dsaplan.pipe attribute or PipeOpInterface)}}
  memref.copy %gm, %a : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// An op without memory effects is taken to read and write its tiles.
func.func @unknown_effects(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-warning @below {{'test.opaque' has unknown memory effects: taken to read and write all its dsaplan memrefs}}
  "test.opaque"(%a) {dsaplan.pipe = #dsaplan.pipe<v>} : (memref<256xf32, #dsaplan.space<ub>>) -> ()
  return
}

// -----

// Nine loads on MTE2, then nine V reads of what they loaded: nine mte2 -> v
// pairs would be in flight at once, one more than the 910B has event ids.
func.func @out_of_event_ids(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %o0 = arith.constant 0 : index
  %t0 = memref.view %ub[%o0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o1 = arith.constant 32 : index
  %t1 = memref.view %ub[%o1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o2 = arith.constant 64 : index
  %t2 = memref.view %ub[%o2][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o3 = arith.constant 96 : index
  %t3 = memref.view %ub[%o3][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o4 = arith.constant 128 : index
  %t4 = memref.view %ub[%o4][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o5 = arith.constant 160 : index
  %t5 = memref.view %ub[%o5][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o6 = arith.constant 192 : index
  %t6 = memref.view %ub[%o6][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o7 = arith.constant 224 : index
  %t7 = memref.view %ub[%o7][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  %o8 = arith.constant 256 : index
  %t8 = memref.view %ub[%o8][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t6 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t7 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t8 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t1 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t2 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t3 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t4 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t5 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t6 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t7 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  // expected-error @below {{no free event id for <mte2 -> v>: eight dependencies are in flight}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t8 : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
  return
}
