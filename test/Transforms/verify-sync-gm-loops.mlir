// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics -o /dev/null
//
// verify-sync evaluates GM offsets by loop index in the iterations it
// unrolls (issue 26, item 1): %x is memref<8x256xf32>, row r is bytes
// 1024 r + [0, 1024). The UB tiles are ordered by hand; GM is what is
// checked.

// Row r loaded, row r + 1 stored, in place, with nothing ordering the
// store of one iteration before the load of the next: iteration 0 stores
// row 1, iteration 1 loads it.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @store_then_load_next_iteration_unordered(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c1024 = arith.constant 1024 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [1024, 2048)
    scf.for %r = %c0 to %c7 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      %r1 = arith.addi %r, %c1 : index
      %next = memref.subview %x[%r1, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [1024, 2048)
      dsaplan.pipe_barrier <mte2>
      // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte2 and 'memref.copy' on pipe mte3 touch bytes [1024, 2048) of GM argument #0}}
      memref.copy %row, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1x256xf32, strided<[256, 1], offset: ?>> to memref<1x256xf32, #dsaplan.space<ub>>
      // expected-note @below {{the earlier access}}
      memref.copy %a, %next {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    }
    return
  }
}

// -----

// Rows stored one per iteration with no pipe_barrier <mte3> between the
// stores: row i and row i + 1 share no byte. Accepted (before the offsets
// were evaluated, the stores wrote all of %x and were reported).
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @store_rows(%x: memref<8x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    scf.for %r = %c0 to %c8 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    }
    return
  }
}

// -----

// The same rows stored twice, at %x[%r] and at %x[%r + %base] with %base
// an index argument: the offsets differ by an unknown amount, so the two
// stores may write the same bytes, and nothing orders them.
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @unknown_offset(%x: memref<8x256xf32>, %base: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    scf.for %r = %c0 to %c4 step %c1 {
      %row = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 r + [0, 1024)
      %moved = arith.addi %r, %base : index
      %other = memref.subview %x[%moved, 0] [1, 256] [1, 1] : memref<8x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 (r + base) + [0, 1024)
      // Each is reported against the other: the second store of one
      // iteration against the first, the first of the next against it.
      // expected-note @below {{the earlier access}}
      // expected-error @below {{unordered write after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte3 touch bytes [1024, 2048) and [0, 1024) of GM argument #0 plus offsets that differ by an unknown amount}}
      memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
      // expected-note @below {{the earlier access}}
      // expected-error @below {{unordered write after write: 'memref.copy' on pipe mte3 and 'memref.copy' on pipe mte3 touch bytes [0, 1024) and [0, 1024) of GM argument #0 plus offsets that differ by an unknown amount}}
      memref.copy %a, %other {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    }
    return
  }
}

// -----

// An inner loop whose lower bound moves with the outer loop: the inner
// store's row is 4 r + j, so its bytes depend on both loops' iterations,
// though only the inner induction variable is its operand's. Rows 0-2,
// 4-6 and 8-10 in the three outer iterations the walk unrolls share no
// byte: accepted. (verify-sync computes an op's touches once per
// iteration of the loops they depend on; keyed by the inner loop alone,
// the second outer iteration would reuse rows 0-2 and report a write
// after write.)
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @inner_bound_moves_with_outer(%x: memref<16x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1x256xf32, #dsaplan.space<ub>>  // [0, 1024)
    scf.for %r = %c0 to %c3 step %c1 {
      %lb = arith.muli %r, %c4 : index
      %ub_j = arith.addi %lb, %c3 : index
      scf.for %j = %lb to %ub_j step %c1 {
        %row = memref.subview %x[%j, 0] [1, 256] [1, 1] : memref<16x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>  // 1024 j + [0, 1024)
        memref.copy %a, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1x256xf32, #dsaplan.space<ub>> to memref<1x256xf32, strided<[256, 1], offset: ?>>
      }
    }
    return
  }
}
