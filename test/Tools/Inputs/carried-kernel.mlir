// The shape of issue 18 item 1 (test/Transforms/rotate-carried.mlir): a tile
// allocated in an scf.for body and read through the iter_arg in the next
// iteration, out = sum of the rows of %gm.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @carried_by_for(%gm: memref<4x64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    memref.copy %row0, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> (memref<64xf32, #dsaplan.space<ub>>) {
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      scf.yield %cur : memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %last, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }

}
