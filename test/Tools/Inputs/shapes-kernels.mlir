// The shapes of issue 18 that --dsa-plan now plans rather than refuses,
// as CPU-runnable kernels for dsa-diff (test/Tools/dsa-diff-shapes.test):
// tiles carried across scf.for and scf.while iterations (rotating slots),
// a cf.br chain, a cf.cond_br diamond, scf.forall and scf.parallel (run
// in order). (@execute_region of lift-control-flow.mlir is left out: on one
// path it reads a tile nothing wrote.) The same functions, with the
// expected rewrite and syncs, are in test/Transforms/rotate-carried.mlir
// and test/Transforms/lift-control-flow.mlir.
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

  func.func @carried_by_while(%gm: memref<4x64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1]>>
    memref.copy %row0, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.while (%i = %c1, %prev = %init) : (index, memref<64xf32, #dsaplan.space<ub>>) -> (index, memref<64xf32, #dsaplan.space<ub>>) {
      %more = arith.cmpi slt, %i, %c4 : index
      scf.condition(%more) %i, %prev : index, memref<64xf32, #dsaplan.space<ub>>
    } do {
    ^bb0(%j: index, %p: memref<64xf32, #dsaplan.space<ub>>):
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%j, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      %next = arith.addi %j, %c1 : index
      %v = memref.cast %cur : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
      scf.yield %next, %v : index, memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %r#1, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }

  func.func @carried_two_iterations(%gm: memref<6x64xf32>, %out: memref<4x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %a = memref.alloc() {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<64xf32, #dsaplan.space<ub>>
    %row0 = memref.subview %gm[0, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1]>>
    %row1 = memref.subview %gm[1, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1], offset: 64>>
    memref.copy %row0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %row1, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.for %i = %c2 to %c6 step %c1 iter_args(%p2 = %a, %p1 = %b) -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      %sum = memref.alloc() {name = "sum"} : memref<64xf32, #dsaplan.space<ub>>
      %row = memref.subview %gm[%i, 0] [1, 64] [1, 1] : memref<6x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %row, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p2, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%sum : memref<64xf32, #dsaplan.space<ub>>)
      %i2 = arith.subi %i, %c2 : index
      %orow = memref.subview %out[%i2, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %sum, %orow {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
      scf.yield %p1, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
    }
    return
  }

  func.func @carried_from_before(%gm: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = memref.alloc() {name = "init"} : memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %init {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    %r:2 = scf.while (%k = %c0, %prev = %init) : (index, memref<64xf32, #dsaplan.space<ub>>) -> (index, memref<64xf32, #dsaplan.space<ub>>) {
      %t = memref.alloc() {name = "t"} : memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %prev : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%t : memref<64xf32, #dsaplan.space<ub>>)
      %more = arith.cmpi slt, %k, %c3 : index
      scf.condition(%more) %k, %t : index, memref<64xf32, #dsaplan.space<ub>>
    } do {
    ^bb0(%j: index, %t: memref<64xf32, #dsaplan.space<ub>>):
      %next = arith.addi %j, %c1 : index
      scf.yield %next, %t : index, memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %r#1, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }

  func.func @split(%gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    cf.br ^bb1
  ^bb1:
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }

  func.func @diamond(%c: i1, %f: f32, %gm: memref<256xf32>, %out: memref<256xf32>) {
    %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
    cf.cond_br %c, ^then, ^else
  ^then:
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
    cf.br ^join
  ^else:
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%f : f32) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
    cf.br ^join
  ^join:
    %b = memref.alloc() {name = "b"} : memref<256xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
    return
  }

  func.func @forall(%gm: memref<4x256xf32>, %out: memref<4x256xf32>) {
    scf.forall (%i) in (4) {
      %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
      %src = memref.subview %gm[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %dst = memref.subview %out[%i, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
      memref.copy %a, %dst {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1], offset: ?>>
    }
    return
  }

  func.func @parallel(%gm: memref<4x256xf32>, %out: memref<4x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
      %a = memref.alloc() {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
      %r0 = arith.muli %i, %c2 : index
      %r = arith.addi %r0, %j : index
      %src = memref.subview %gm[%r, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %dst = memref.subview %out[%r, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      memref.copy %src, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<256xf32, #dsaplan.space<ub>>) outs(%a : memref<256xf32, #dsaplan.space<ub>>)
      memref.copy %a, %dst {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1], offset: ?>>
    }
    return
  }
}
