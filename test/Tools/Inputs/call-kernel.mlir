// A caller with a UB tile live across a call of an outlined helper that has
// a UB tile of its own (dsa-diff-calls.test).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<64xf32>, %out: memref<64xf32>) {
    %t = memref.alloc() {name = "t"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %x, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    linalg.negf {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<64xf32, #dsaplan.space<ub>>) outs(%t : memref<64xf32, #dsaplan.space<ub>>)
    memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
  func.func @caller(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>, %neg: memref<64xf32>) {
    %a = memref.alloc() {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %y, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    func.call @helper(%x, %neg) {dsaplan.pipe = #dsaplan.pipe<mte3>} : (memref<64xf32>, memref<64xf32>) -> ()
    memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}
