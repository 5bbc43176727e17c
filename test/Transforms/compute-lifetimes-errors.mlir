// RUN: dsa-opt %s -split-input-file -dsaplan-compute-lifetimes -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsa-plan -verify-diagnostics

// Control flow that the lifetime and sync analyses cannot follow is refused
// in the first pass that needs it (compute-lifetimes; in --dsa-plan too),
// with one error naming the op, never planned or synced as straight-line
// code.

// A body split by cf.br.
// expected-error @below {{@split: function body with 2 blocks (unstructured control flow) is not supported; lift it to scf first}}
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
// expected-error @below {{@diamond: function body with 4 blocks (unstructured control flow) is not supported; lift it to scf first}}
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
  // expected-error @below {{'scf.forall' over dsaplan memory is not supported: its iterations may run in any order; use scf.for}}
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
  // expected-error @below {{'scf.parallel' over dsaplan memory is not supported: its iterations may run in any order; use scf.for}}
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
