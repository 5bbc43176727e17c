// RUN: dsa-opt %s -split-input-file -dsaplan-lift-control-flow -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsa-plan -verify-diagnostics

// What --dsa-plan still refuses of the shapes lift-control-flow.mlir makes
// structured.

// An scf.parallel with a reduction has no in-order scf.for form here.
func.func @parallel_reduce(%gm: memref<4x256xf32>, %out: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'scf.parallel' over dsaplan memory cannot be turned into scf.for loops (it has results or reductions); write it as scf.for}}
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
    %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
    memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
    scf.reduce(%zero : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return
}
