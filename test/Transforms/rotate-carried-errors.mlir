// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-rotate-carried -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsa-plan -verify-diagnostics

// Carried for an unbounded number of iterations: on the path that yields
// %prev back, the tile of iteration i is still read in every later one.
// No fixed number of rotating slots keeps it.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @unbounded(%gm: memref<64xf32>, %init: memref<64xf32, #dsaplan.space<ub>>, %c: i1, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<64xf32, #dsaplan.space<ub>>) {
      // expected-error @below {{'dsaplan.alloc' op 'cur' is carried by 'scf.for' into more than 3 later iterations, or without bound (an iter_arg that may be yielded back unchanged): no fixed number of rotating slots keeps it; copy it into a tile allocated before the loop}}
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%prev, %prev : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      %keep = scf.if %c -> (memref<64xf32, #dsaplan.space<ub>>) {
        scf.yield %cur : memref<64xf32, #dsaplan.space<ub>>
      } else {
        scf.yield %prev : memref<64xf32, #dsaplan.space<ub>>
      }
      scf.yield %keep : memref<64xf32, #dsaplan.space<ub>>
    }
    memref.copy %last, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

// -----

// Read four iterations later: five slots would be needed, more than the
// four a tile may have.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @too_deep(%gm: memref<64xf32>, %init: memref<64xf32, #dsaplan.space<ub>>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%p4 = %init, %p3 = %init, %p2 = %init, %p1 = %init) -> (memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>) {
      // expected-error @below {{'cur' is carried by 'scf.for' into more than 3 later iterations}}
      %cur = memref.alloc() {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%p4 : memref<64xf32, #dsaplan.space<ub>>) outs(%cur : memref<64xf32, #dsaplan.space<ub>>)
      scf.yield %p3, %p2, %p1, %cur : memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>, memref<64xf32, #dsaplan.space<ub>>
    }
    return
  }
}
