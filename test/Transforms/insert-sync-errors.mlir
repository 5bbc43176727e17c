// RUN: dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync -verify-diagnostics
// RUN: not dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-insert-sync="mode=fastest" 2>&1 | FileCheck %s --check-prefix=MODE

// MODE: for the --mode option: 'fastest' is not a valid value (expected one of: all, reuse-only, identity-only)

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

// The input's own flags use all eight ids of <mte2 -> v> (in another part of
// the kernel); ids of the input are never reused, so the load -> exp
// dependency has none left.
func.func @out_of_event_ids(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <mte2 -> v>, 0
  dsaplan.set_flag <mte2 -> v>, 1
  dsaplan.set_flag <mte2 -> v>, 2
  dsaplan.set_flag <mte2 -> v>, 3
  dsaplan.set_flag <mte2 -> v>, 4
  dsaplan.set_flag <mte2 -> v>, 5
  dsaplan.set_flag <mte2 -> v>, 6
  dsaplan.set_flag <mte2 -> v>, 7
  dsaplan.wait_flag <mte2 -> v>, 0
  dsaplan.wait_flag <mte2 -> v>, 1
  dsaplan.wait_flag <mte2 -> v>, 2
  dsaplan.wait_flag <mte2 -> v>, 3
  dsaplan.wait_flag <mte2 -> v>, 4
  dsaplan.wait_flag <mte2 -> v>, 5
  dsaplan.wait_flag <mte2 -> v>, 6
  dsaplan.wait_flag <mte2 -> v>, 7
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  // expected-error @below {{no free event id for <mte2 -> v>: all eight are in flight here or taken by the input's syncs}}
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<8xf32, #dsaplan.space<ub>>) outs(%out : memref<8xf32>)
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
  // expected-error @below {{call to @helper passes a dsaplan tile but has no pipe (give the call the dsaplan.pipe its accesses run on)}}
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
