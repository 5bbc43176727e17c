// RUN: dsa-opt %s -split-input-file -dsaplan-assign-offsets -verify-diagnostics

func.func @no_live_range() {
  // expected-error @below {{'dsaplan.alloc' op 'a' has no live range; run dsaplan-compute-lifetimes first}}
  %a = dsaplan.alloc {name = "a"} : memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @constraint_on_argument(%arg: memref<256xf32, #dsaplan.space<ub>>) {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'dsaplan.separate' op operand 1 is not a dsaplan.alloc of this function or a view of one}}
  dsaplan.separate %a, %arg : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @constraint_on_two_views_of_one_alloc() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 4>} : memref<256xf32, #dsaplan.space<ub>>
  %lo = memref.subview %a[0] [128] [1] : memref<256xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1]>, #dsaplan.space<ub>>
  %hi = memref.subview %a[128] [128] [1] : memref<256xf32, #dsaplan.space<ub>> to memref<128xf32, strided<[1], offset: 128>, #dsaplan.space<ub>>
  // expected-error @below {{'dsaplan.separate' op operands 0 and 1 are views of the same allocation 'a'}}
  dsaplan.separate %lo, %hi : memref<128xf32, strided<[1]>, #dsaplan.space<ub>>, memref<128xf32, strided<[1], offset: 128>, #dsaplan.space<ub>>
  return
}

// -----

func.func @colocate_co_live() {
  %a = dsaplan.alloc {name = "a", live = #dsaplan.live<0 to 10>} : memref<256xf32, #dsaplan.space<ub>>
  %b = dsaplan.alloc {name = "b", live = #dsaplan.live<5 to 15>} : memref<256xf32, #dsaplan.space<ub>>
  // expected-error @below {{'dsaplan.colocate' op cannot colocate 'a' (live #dsaplan.live<0 to 10>) and 'b' (live #dsaplan.live<5 to 15>): they are live at the same time}}
  dsaplan.colocate %a, %b : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>
  return
}

// -----

// Two co-live 96 KiB tiles cannot fit the 184 KiB of UB that are usable:
// 188416 B lie below the reserved top 8 KiB, so the second tile's last
// 8 KiB would have to go above it, to 196608 + 8192 = 204800 B. The two
// tiles are the certificate.
// expected-error @below {{space ub of @too_big does not fit: infeasible (certificate: 2 buffers that may not share bytes need 204800 B, usable 188416 B of 196608 B)}}
func.func @too_big() {
  // expected-note @below {{'x' (98304 B) may not share bytes with the others of the certificate}}
  %x = dsaplan.alloc {name = "x", live = #dsaplan.live<0 to 10>} : memref<24576xf32, #dsaplan.space<ub>>
  // expected-note @below {{'y' (98304 B) may not share bytes with the others of the certificate}}
  %y = dsaplan.alloc {name = "y", live = #dsaplan.live<0 to 10>} : memref<24576xf32, #dsaplan.space<ub>>
  // Not in the certificate: no note.
  %z = dsaplan.alloc {name = "z", live = #dsaplan.live<20 to 30>} : memref<256xf32, #dsaplan.space<ub>>
  return
}
