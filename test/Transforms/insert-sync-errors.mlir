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

// A dependency between the cores (FIX on the cube core writes GM, MTE2 on
// the vector core reads it) cannot be ordered with set_flag/wait_flag.
func.func @cross_core(%gm: memref<64xf32>) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  memref.copy %acc, %gm {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>
  // expected-error @below {{'memref.copy' on pipe mte2 (vector core) depends on 'memref.copy' on pipe fix (cube core): a set_flag/wait_flag orders pipes of one core only; order the two cores with a cross-core sync before dsaplan inserts the intra-core ones}}
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
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
