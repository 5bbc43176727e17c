// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-multi-buffer -verify-diagnostics

func.func @not_in_a_loop() {
  // expected-error @+1 {{'dsaplan.alloc' op 't' asks for dsaplan.buffers but is not allocated directly in an scf.for body; only scf.for loops rotate slots}}
  %t = memref.alloc() {name = "t", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @yielded(%x: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %init = memref.alloc() {name = "init"} : memref<1024xf32, #dsaplan.space<ub>>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%prev = %init) -> (memref<1024xf32, #dsaplan.space<ub>>) {
    // expected-error @+1 {{'dsaplan.alloc' op 'cur' asks for dsaplan.buffers but is yielded to the next iteration; its slots would rotate under the value the next iteration reads}}
    %cur = memref.alloc() {name = "cur", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    scf.yield %cur : memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

func.func @too_many() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error @+1 {{'dsaplan.buffers' must be an integer from 1 to 4 or "auto", not 5 : i64}}
    %t = memref.alloc() {dsaplan.buffers = 5 : i64} : memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

func.func @not_a_depth() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error @+1 {{'dsaplan.buffers' must be an integer from 1 to 4 or "auto", not "two"}}
    %t = memref.alloc() {dsaplan.buffers = "two"} : memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}
