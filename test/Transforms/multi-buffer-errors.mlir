// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-multi-buffer -verify-diagnostics

// A depth above one where the tile cannot rotate is an error naming the
// tile, its size and space, and why; "auto" keeps one slot instead
// (multi-buffer.mlir, @auto_cannot_rotate_*).

func.func @not_in_a_loop() {
  // expected-error @+1 {{'dsaplan.alloc' op 't' asks for 2 slots of 4096 B in ub (dsaplan.buffers) but it is not in an scf.for body; slots rotate once per scf.for iteration}}
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
    // expected-error @+1 {{'dsaplan.alloc' op 'cur' asks for 3 slots of 4096 B in ub (dsaplan.buffers) but 'scf.for' carries it to the next iteration (iter_arg #0): its slots would rotate under the value the next iteration reads; dsaplan-rotate-carried gives a carried tile its slots}}
    %cur = memref.alloc() {name = "cur", dsaplan.buffers = 3 : i64} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    scf.yield %cur : memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// Carried through a branch: the scf.if passes the tile on within the
// iteration, but the loop yields the scf.if's result (iter_arg #1) to the
// next one.
func.func @carried_through_branch(%x: memref<1024xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %init = memref.alloc() {name = "init"} : memref<1024xf32, #dsaplan.space<ub>>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%n = %c0, %prev = %init) -> (index, memref<1024xf32, #dsaplan.space<ub>>) {
    // expected-error @+1 {{'dsaplan.alloc' op 'cur' asks for 2 slots of 4096 B in ub (dsaplan.buffers) but 'scf.for' carries it to the next iteration (iter_arg #1): its slots would rotate under the value the next iteration reads; dsaplan-rotate-carried gives a carried tile its slots}}
    %cur = memref.alloc() {name = "cur", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %x, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    %next = scf.if %c -> (memref<1024xf32, #dsaplan.space<ub>>) {
      scf.yield %cur : memref<1024xf32, #dsaplan.space<ub>>
    } else {
      scf.yield %prev : memref<1024xf32, #dsaplan.space<ub>>
    }
    scf.yield %n, %next : index, memref<1024xf32, #dsaplan.space<ub>>
  }
  return
}

// -----

// Slots rotate once per scf.for iteration: not in an scf.while body, even
// through an scf.if (which alone would be hoisted out of).
func.func @in_while(%x: memref<1024xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  scf.while (%go = %c) : (i1) -> () {
    scf.condition(%go)
  } do {
    scf.if %c {
      // expected-error @+1 {{'dsaplan.alloc' op 't' asks for 2 slots of 4096 B in ub (dsaplan.buffers) but it is in the body of 'scf.while', and only scf.for loops rotate slots}}
      %t = memref.alloc() {name = "t", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    }
    scf.yield %c : i1
  }
  return
}

// -----

// A region op other than scf.if, scf.index_switch and scf.execute_region
// between the tile and the scf.for body: its slots are not hoisted out.
func.func @in_alloca_scope(%x: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.alloca_scope {
      // expected-error @+1 {{'dsaplan.alloc' op 't' asks for 4 slots of 4096 B in ub (dsaplan.buffers) but it is in a region of 'memref.alloca_scope', and slots are hoisted only out of scf.if, scf.index_switch and scf.execute_region regions}}
      %t = memref.alloc() {name = "t", dsaplan.buffers = 4 : i64} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %x, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    }
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
