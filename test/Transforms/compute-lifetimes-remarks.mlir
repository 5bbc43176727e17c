// RUN: dsa-opt %s -split-input-file -allow-unregistered-dialect -dsaplan-compute-lifetimes -verify-diagnostics | FileCheck %s

// Buffers that escape are live over the whole function, with a remark.

func.func private @consume(memref<64xf32, #dsaplan.space<ub>>) -> memref<64xf32, #dsaplan.space<ub>>

// A call that returns a memref may hand the tile back: live to the end.
// CHECK-LABEL: func.func @escapes_through_call
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 10>, name = "a"}
// CHECK: %b = dsaplan.alloc {live = #dsaplan.live<5 to 6>, name = "b"}
func.func @escapes_through_call(%gm: memref<64xf32>) {
  // expected-remark @below {{'a' escapes through 'func.call': kept live over the whole function}}
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  %b = dsaplan.alloc {name = "b"} : memref<64xf32, #dsaplan.space<ub>>    // op 1
  memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 2
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{used here}}
  %r = func.call @consume(%a) : (memref<64xf32, #dsaplan.space<ub>>) -> memref<64xf32, #dsaplan.space<ub>> // op 3
  return                                                                  // op 4
}

// -----

func.func private @borrow(memref<64xf32, #dsaplan.space<ub>>)

// A call without memref results borrows the tile for the call only: %a is
// read and written at the call's points 6 and 7 and dies there, no remark.
// CHECK-LABEL: func.func @borrowed_by_call
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<3 to 8>, name = "a"}
func.func @borrowed_by_call(%gm: memref<64xf32>) {
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>}                // op 1: writes a at 3
      : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index                                          // op 2
  func.call @borrow(%a) : (memref<64xf32, #dsaplan.space<ub>>) -> ()     // op 3: points 6, 7
  return                                                                  // op 4
}

// -----

// CHECK-LABEL: func.func @escapes_through_return
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 8>, name = "a"}
func.func @escapes_through_return(%gm: memref<64xf32>) -> memref<64xf32, #dsaplan.space<ub>> {
  // expected-remark @below {{'a' escapes through 'func.return': kept live over the whole function}}
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>    // op 0
  %v = memref.subview %a[0] [64] [1]                                      // op 1
      : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>, #dsaplan.space<ub>>
  %c = memref.cast %v : memref<64xf32, strided<[1]>, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{used here}}
  return %c : memref<64xf32, #dsaplan.space<ub>>
}

// -----

// CHECK-LABEL: func.func @unknown_effects
// CHECK: %a = dsaplan.alloc {live = #dsaplan.live<0 to 6>, name = "a"}
func.func @unknown_effects() {
  // expected-remark @below {{'a' is used by 'test.opaque', which has unknown memory effects: kept live over the whole function}}
  %a = dsaplan.alloc {name = "a"} : memref<64xf32, #dsaplan.space<ub>>
  // expected-note @below {{used here}}
  "test.opaque"(%a) : (memref<64xf32, #dsaplan.space<ub>>) -> ()
  return
}
