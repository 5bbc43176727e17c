module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @consumer(%gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    acme.load %gm, %a : memref<256xf32>, memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>}
        : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }
}
