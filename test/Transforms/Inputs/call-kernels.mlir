// Kernels with outlined helpers: a helper with its own UB scratch called
// from a loop and from two sites with different caller tiles live, and a
// nested call. Used by dsa-plan-calls.test (planned, verified, simulated,
// several times with the pass manager's threads) and by dsa-diff.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  // out = exp(x) + x, through a scratch tile of its own.
  func.func private @exp_add(%x: memref<1024xf32, #dsaplan.space<ub>>, %out: memref<1024xf32, #dsaplan.space<ub>>) {
    %s = memref.alloc() {name = "scratch"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s, %x : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%out : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  // x = exp_add(x) twice, through a tile of its own: a nested call.
  func.func private @twice(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    %t = memref.alloc() {name = "t"} : memref<1024xf32, #dsaplan.space<ub>>
    func.call @exp_add(%x, %t) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
    func.call @exp_add(%t, %x) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
    return
  }
  func.func @rows(%gx: memref<4x1024xf32> {llvm.noalias}, %gy: memref<4x1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %xs = memref.subview %gx[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %ys = memref.subview %gy[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %xs, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
      func.call @exp_add(%a, %b) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
      memref.copy %b, %ys {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    return
  }
  func.func @two_sites(%gx: memref<1024xf32> {llvm.noalias}, %gy: memref<1024xf32> {llvm.noalias}, %gz: memref<1024xf32> {llvm.noalias}) {
    %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %gx, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @exp_add(%a, %b) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
    %c = memref.alloc() {name = "c"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %gz, %c {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @twice(%b) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    memref.copy %b, %gy {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    memref.copy %c, %gz {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}
