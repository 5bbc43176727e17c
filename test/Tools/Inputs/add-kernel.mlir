// out = x + y, through three 256-byte UB tiles that are all live at the add:
// a placement must keep them apart.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @add_tiles(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>) {
    %a = memref.alloc() {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<64xf32, #dsaplan.space<ub>>
    %c = memref.alloc() {name = "c"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %y, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%a, %b : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>)
        outs(%c : memref<64xf32, #dsaplan.space<ub>>)
    memref.copy %c, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}
