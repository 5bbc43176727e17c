// RUN: dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync -verify-diagnostics
// RUN: not dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync="mode=fastest" 2>&1 | FileCheck %s --check-prefix=MODE --implicit-check-not='<unknown>'

// A refused option is its one line (here once per split chunk), without
// the empty `<unknown>:0: error:` MLIR's driver adds (dsa-opt drops it).
// MODE: for the --mode option: 'fastest' is not a valid value (expected one of: all, reuse-only, identity-only)

func.func @no_pipe(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' touches a dsaplan memory space or global memory but has no pipe (a dsaplan.pipe attribute or PipeOpInterface)}}
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

// A call with a tile and no pipe: what its callee runs, on which pipes, is
// unknown, so there is no pipe to order it on.
func.func private @helper(memref<256xf32, #dsaplan.space<ub>>)
func.func @call_without_pipe(%gm: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{call to @helper passes a dsaplan tile or GM buffer but has no pipe (give the call the dsaplan.pipe its accesses run on)}}
  func.call @helper(%a) : (memref<256xf32, #dsaplan.space<ub>>) -> ()
  return
}

// -----

// Unstructured control flow is refused when the pass runs alone too (it
// used to see only the entry block: no sync, and a race approved).
// expected-error @below {{@split: function body with 2 blocks (unstructured control flow) is not supported; lift it to scf first}}
func.func @split(%gm: memref<256xf32>, %out: memref<256xf32>) {
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

func.func @execute_region(%c: i1, %gm: memref<256xf32>, %out: memref<256xf32>) {
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

// Its iterations may run in any order: the body is no straight-line code.
func.func @forall(%gm: memref<4x256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.forall' over dsaplan memory is not supported: its iterations may run in any order; run dsaplan-lift-control-flow (part of --dsa-plan) to run them in order as scf.for, as one core does}}
  scf.forall (%i) in (4) {
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  }
  return
}

// -----

func.func @parallel(%gm: memref<4x256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.parallel' over dsaplan memory is not supported: its iterations may run in any order; run dsaplan-lift-control-flow (part of --dsa-plan) to run them in order as scf.for, as one core does}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  }
  return
}

// -----

// FIX cannot write UB on ascend910b.
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

// In a function of both cores, an access either core could run (a copy
// between two GM buffers on MTE2, a pipe of both) must say which.
func.func @core_not_decided(%gm: memref<64xf32>, %copy: memref<64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  memref.copy %acc, %gm {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  // expected-error @below {{'memref.copy' on pipe mte2 may run on the cube or the vector core, and this function holds ops of both: say which with dsaplan.core = #dsaplan.core<cube> or #dsaplan.core<vector>}}
  memref.copy %gm, %copy {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32>
  return
}

// -----

// A cross-core dependency from a scalar access: a cross-core set cannot be
// issued on S.
func.func @cross_core_from_scalar(%gm: memref<64xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %l1 = dsaplan.arena <l1> : memref<524288xi8, #dsaplan.space<l1>>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.view %l1[%c0][] : memref<524288xi8, #dsaplan.space<l1>> to memref<64xf32, #dsaplan.space<l1>>
  %b = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // A scalar store on the cube core, to GM.
  // expected-note @below {{the earlier access}}
  memref.store %one, %gm[%c0] {dsaplan.pipe = #dsaplan.pipe<s>, dsaplan.core = #dsaplan.core<cube>} : memref<64xf32>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<l1>>
  // expected-error @below {{'memref.copy' on pipe mte2 depends on 'memref.store' on pipe s of the other core, and a cross-core set cannot be issued on pipe s: give the access a pipe that can signal}}
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// An op that touches GM only still runs on some pipe, which the sync must
// know to order it against the other accesses of that GM buffer.
func.func @gm_only_without_pipe(%gm: memref<64xf32>, %out: memref<64xf32>) {
  // expected-error @below {{'memref.copy' touches a dsaplan memory space or global memory but has no pipe (a dsaplan.pipe attribute or PipeOpInterface)}}
  memref.copy %gm, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// Twelve slots written by the cube core and read by the vector core, each
// pair needed (no set comes later with a wait earlier): one more than the
// 11 cross-core ids of a vector core's counters.
// expected-error @below {{@ids_exhausted needs 12 cross-core flag pairs signalling the vector core, and ascend910b has 11 cross-core ids}}
func.func @ids_exhausted(%ws: memref<48xf32>) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<4xf32, #dsaplan.space<l0c>>
  %slot0 = memref.subview %ws[0] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 0>>
  %slot1 = memref.subview %ws[4] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 4>>
  %slot2 = memref.subview %ws[8] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 8>>
  %slot3 = memref.subview %ws[12] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 12>>
  %slot4 = memref.subview %ws[16] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 16>>
  %slot5 = memref.subview %ws[20] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 20>>
  %slot6 = memref.subview %ws[24] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 24>>
  %slot7 = memref.subview %ws[28] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 28>>
  %slot8 = memref.subview %ws[32] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 32>>
  %slot9 = memref.subview %ws[36] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 36>>
  %slot10 = memref.subview %ws[40] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 40>>
  %slot11 = memref.subview %ws[44] [4] [1] : memref<48xf32> to memref<4xf32, strided<[1], offset: 44>>
  memref.copy %acc, %slot0 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 0>>
  memref.copy %acc, %slot1 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %acc, %slot2 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 8>>
  memref.copy %acc, %slot3 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 12>>
  memref.copy %acc, %slot4 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 16>>
  memref.copy %acc, %slot5 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 20>>
  memref.copy %acc, %slot6 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 24>>
  memref.copy %acc, %slot7 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 28>>
  memref.copy %acc, %slot8 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 32>>
  memref.copy %acc, %slot9 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 36>>
  memref.copy %acc, %slot10 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 40>>
  memref.copy %acc, %slot11 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<4xf32, #dsaplan.space<l0c>> to memref<4xf32, strided<[1], offset: 44>>
  %c0b = arith.constant 0 : index
  %x0 = memref.view %ub[%c0b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot0, %x0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 0>> to memref<4xf32, #dsaplan.space<ub>>
  %c1b = arith.constant 64 : index
  %x1 = memref.view %ub[%c1b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot1, %x1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, #dsaplan.space<ub>>
  %c2b = arith.constant 128 : index
  %x2 = memref.view %ub[%c2b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot2, %x2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 8>> to memref<4xf32, #dsaplan.space<ub>>
  %c3b = arith.constant 192 : index
  %x3 = memref.view %ub[%c3b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot3, %x3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 12>> to memref<4xf32, #dsaplan.space<ub>>
  %c4b = arith.constant 256 : index
  %x4 = memref.view %ub[%c4b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot4, %x4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 16>> to memref<4xf32, #dsaplan.space<ub>>
  %c5b = arith.constant 320 : index
  %x5 = memref.view %ub[%c5b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot5, %x5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 20>> to memref<4xf32, #dsaplan.space<ub>>
  %c6b = arith.constant 384 : index
  %x6 = memref.view %ub[%c6b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot6, %x6 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 24>> to memref<4xf32, #dsaplan.space<ub>>
  %c7b = arith.constant 448 : index
  %x7 = memref.view %ub[%c7b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot7, %x7 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 28>> to memref<4xf32, #dsaplan.space<ub>>
  %c8b = arith.constant 512 : index
  %x8 = memref.view %ub[%c8b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot8, %x8 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 32>> to memref<4xf32, #dsaplan.space<ub>>
  %c9b = arith.constant 576 : index
  %x9 = memref.view %ub[%c9b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot9, %x9 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 36>> to memref<4xf32, #dsaplan.space<ub>>
  %c10b = arith.constant 640 : index
  %x10 = memref.view %ub[%c10b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot10, %x10 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 40>> to memref<4xf32, #dsaplan.space<ub>>
  %c11b = arith.constant 704 : index
  %x11 = memref.view %ub[%c11b][] : memref<196608xi8, #dsaplan.space<ub>> to memref<4xf32, #dsaplan.space<ub>>
  memref.copy %slot11, %x11 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4xf32, strided<[1], offset: 44>> to memref<4xf32, #dsaplan.space<ub>>
  return
}

// -----

// An scf.while whose "before" region stores a slot on the cube core and
// whose "do" region loads it on the vector core: the "before" region runs
// once more than the "do" region, so no pair between them balances, and a
// pair around the back edge of anything but scf.for is not placed.
func.func @cross_core_while(%ws: memref<64xf32> {llvm.noalias}, %more: i1) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.while : () -> () {
    // expected-error @below {{'memref.copy' on pipe fix depends on 'memref.copy' on pipe mte2 of the other core, and a cross-core pair around the back edge of 'scf.while' is not supported (only scf.for)}}
    // expected-note @below {{the earlier access}}
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
    scf.condition(%more)
  } do {
    // expected-error @below {{'memref.copy' on pipe mte2 depends on 'memref.copy' on pipe fix of the other core, and the two run in regions of one op ('scf.while'), where a cross-core pair cannot balance}}
    // expected-note @below {{the earlier access}}
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    scf.yield
  }
  return
}
