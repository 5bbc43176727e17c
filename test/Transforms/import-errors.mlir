// RUN: dsa-opt %s -split-input-file -dsaplan-import -verify-diagnostics

func.func @dynamic_shape(%n: index) {
  // expected-error @below {{'memref.alloc' op allocates 'memref<?xf32, #dsaplan.space<ub>>' with a dynamic shape; a dsaplan space needs static shapes}}
  %a = memref.alloc(%n) : memref<?xf32, #dsaplan.space<ub>>
  return
}

// -----

func.func @alignment_below_space_minimum() {
  // expected-error @below {{'dsaplan.alloc' op alignment 64 is below the minimum alignment 512 of space l0a}}
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x16xf16, #dsaplan.space<l0a>>
  return
}
