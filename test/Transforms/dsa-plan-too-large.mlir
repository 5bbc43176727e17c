// RUN: dsa-opt %s --dsa-plan -verify-diagnostics

// A tile whose byte size does not fit 64 bits (2^61 f32 elements) is
// refused with its size when imported, not reported as a tile that cannot
// be placed after an overflowed size.
func.func @k() {
  // expected-error @+1 {{'dsaplan.alloc' op type 'memref<2305843009213693952xf32, #dsaplan.space<ub>>' is larger than 1099511627776 bytes (2^40), the most a tile may have}}
  %a = memref.alloc() : memref<2305843009213693952xf32, #dsaplan.space<ub>>
  return
}
