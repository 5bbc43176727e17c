// Two 1 KiB tiles live together in a UB of 1536 B: proved not to fit.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 1536}}>} {
  func.func @k(%gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}
        : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}
