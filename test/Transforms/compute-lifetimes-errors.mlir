// RUN: dsa-opt %s -split-input-file -dsaplan-compute-lifetimes -verify-diagnostics

// Control flow that the lifetime and sync analyses cannot follow is refused
// in the first pass that needs it (compute-lifetimes), with one error naming
// the op, never planned or synced as straight-line code. --dsa-plan first
// makes these shapes structured (lift-control-flow.mlir) and rotates carried
// tiles (rotate-carried.mlir); what it still refuses is in
// lift-control-flow-errors.mlir and rotate-carried-errors.mlir.

// A body split by cf.br.
// expected-error @below {{@split: function body with 2 blocks (unstructured control flow) is not supported; lift it to scf first (dsaplan-lift-control-flow, part of --dsa-plan)}}
func.func @split(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  cf.br ^bb1
^bb1:
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// A cf.cond_br diamond.
// expected-error @below {{@diamond: function body with 4 blocks (unstructured control flow) is not supported; lift it to scf first (dsaplan-lift-control-flow, part of --dsa-plan)}}
func.func @diamond(%c: i1, %f: f32, %gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
  cf.cond_br %c, ^then, ^else
^then:
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  cf.br ^join
^else:
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%f : f32) outs(%out : memref<256xf32>)
  cf.br ^join
^join:
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  return
}

// -----

// A nested region with branches.
func.func @execute_region(%c: i1, %gm: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'scf.execute_region' has a region with 3 blocks (unstructured control flow), which is not supported; lift it to scf first (dsaplan-lift-control-flow, part of --dsa-plan)}}
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

// Unstructured control flow without dsaplan memory is none of our business.
func.func @no_tiles(%c: i1, %x: memref<4xf32>) {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}

// -----

// Iterations that may run in any order (or at once) are not a loop to be
// walked in order: a tile local to one iteration is live in all of them.
func.func @forall(%gm: memref<4x256xf32>, %out: memref<4x256xf32>) {
  // expected-error @below {{'scf.forall' over dsaplan memory is not supported: its iterations may run in any order; run dsaplan-lift-control-flow (part of --dsa-plan) to run them in order as scf.for, as one core does}}
  scf.forall (%i) in (4) {
    %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

func.func @parallel(%gm: memref<4x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{'scf.parallel' over dsaplan memory is not supported: its iterations may run in any order; run dsaplan-lift-control-flow (part of --dsa-plan) to run them in order as scf.for, as one core does}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// affine.for is a loop no analysis here walks.
func.func @affine_for(%gm: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'affine.for' over dsaplan memory is not supported: only scf.for and scf.while loops are modelled; lower it to scf.for}}
  affine.for %i = 0 to 4 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// A tile allocated in a loop body and yielded to the next iteration (what
// one-shot bufferization emits to keep the previous row). One offset for
// %cur would put the next iteration's %cur on the %prev it still reads
// (add(%prev, %cur) computing cur + cur; dsa-diff shows the clobber): it
// needs two rotating slots, which dsaplan-rotate-carried makes.
func.func @carried_by_for(%gm: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<64xf32, #dsaplan.space<ub>>) {
    // expected-error @below {{a tile allocated in the body of 'scf.for' is carried to the next iteration: it would share its one offset with the tile the next iteration allocates while that iteration still reads it; run dsaplan-rotate-carried (part of --dsa-plan) to give it rotating slots, or allocate two tiles before the loop and pass them as iter_args (ping-pong)}}
    %cur = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
    // expected-note @below {{carried here}}
    scf.yield %cur : memref<64xf32, #dsaplan.space<ub>>
  }
  memref.copy %last, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  return
}

// -----

// The same through the "do" region of scf.while, and through a view.
func.func @carried_by_while(%gm: memref<64xf32>, %c: i1) {
  %init = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
  memref.copy %gm, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %r = scf.while (%prev = %init) : (memref<64xf32, #dsaplan.space<ub>>) -> memref<64xf32, #dsaplan.space<ub>> {
    scf.condition(%c) %prev : memref<64xf32, #dsaplan.space<ub>>
  } do {
  ^bb0(%p: memref<64xf32, #dsaplan.space<ub>>):
    // expected-error @below {{a tile allocated in the body of 'scf.while' is carried to the next iteration}}
    %cur = memref.alloc() : memref<64xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p : memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
    %v = memref.cast %cur : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    // expected-note @below {{carried here}}
    scf.yield %v : memref<64xf32, #dsaplan.space<ub>>
  }
  return
}
