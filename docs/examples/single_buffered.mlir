// The single-buffered vector loop of the design notes, placed and synchronised
// (sync.md, "Worked example: one wait removed by hand"; the same kernel is
// @single_buffered in test/Transforms/simulate.mlir).
//
//   dsa-opt docs/examples/single_buffered.mlir --dsaplan-simulate="summary=true runs=8"

// The arguments are llvm.noalias (distinct tensors): GM needs no order.
// A and B in UB, one load, one vector op and one store per iteration,
// pre-set before the loop and drained after it.
func.func @single_buffered(%gm: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>
  dsaplan.set_flag <v -> mte2>, 0
  dsaplan.set_flag <mte3 -> v>, 0
  scf.for %i = %c0 to %c8 step %c1 {
    dsaplan.wait_flag <v -> mte2>, 0
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 1
    dsaplan.wait_flag <mte2 -> v>, 1
    dsaplan.wait_flag <mte3 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    dsaplan.set_flag <v -> mte2>, 0
    dsaplan.set_flag <v -> mte3>, 1
    dsaplan.wait_flag <v -> mte3>, 1
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    dsaplan.set_flag <mte3 -> v>, 0
  }
  dsaplan.wait_flag <v -> mte2>, 0
  dsaplan.wait_flag <mte3 -> v>, 0
  return
}

