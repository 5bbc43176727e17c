// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="mode=identity-only" | FileCheck %s --check-prefix=IDENTITY
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="mode=reuse-only" | FileCheck %s --check-prefix=REUSE

// The scoped modes on a body that dsaplan-unroll-rotations cloned: the two
// views of `x` (same arena, bytes, type and location: the allocation's) are
// one tile, so the second load into `x` waiting for V's read of the first
// is a same-tile dependency, not a reuse of bytes. `y` is another
// allocation at the same bytes (another location): a reuse.

#x = loc("x"("kernel.mlir":3:5))

// IDENTITY-LABEL: func.func @clones_of_one_tile
// IDENTITY:      linalg.exp
// IDENTITY-NEXT: dsaplan.set_flag <v -> mte2>, 0
// IDENTITY:      dsaplan.wait_flag <v -> mte2>, 0
// IDENTITY-NEXT: memref.copy
// IDENTITY-NOT:  dsaplan.set_flag <v -> mte2>
// IDENTITY:      return
// REUSE-LABEL: func.func @clones_of_one_tile
// REUSE-NOT:   dsaplan.set_flag
// REUSE:       return
func.func @clones_of_one_tile(%gm: memref<256xf32>, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %x0 = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>> loc(#x)
  memref.copy %gm, %x0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x0 : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  %c0_1 = arith.constant 0 : index
  %x1 = memref.view %ub[%c0_1][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>> loc(#x)
  memref.copy %gm, %x1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

#x = loc("x"("kernel.mlir":3:5))
#y = loc("y"("kernel.mlir":9:5))

// IDENTITY-LABEL: func.func @another_tile_on_the_bytes
// IDENTITY-NOT:   dsaplan.set_flag <v -> mte2>
// IDENTITY:       return
// REUSE-LABEL: func.func @another_tile_on_the_bytes
// REUSE:       linalg.exp
// REUSE-NEXT:  dsaplan.set_flag <v -> mte2>, 0
// REUSE:       dsaplan.wait_flag <v -> mte2>, 0
// REUSE-NEXT:  dsaplan.pipe_barrier <mte2>
// REUSE-NEXT:  memref.copy
func.func @another_tile_on_the_bytes(%gm: memref<256xf32>, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %x0 = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>> loc(#x)
  memref.copy %gm, %x0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x0 : memref<256xf32, #dsaplan.space<ub>>) outs(%out : memref<256xf32>)
  %y0 = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>> loc(#y)
  memref.copy %gm, %y0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  return
}
