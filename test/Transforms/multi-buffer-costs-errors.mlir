// RUN: dsa-opt %s -dsaplan-import -dsaplan-multi-buffer="costs=bogus=1" -verify-diagnostics
// RUN: not dsa-opt %s -dsaplan-import -dsaplan-multi-buffer="costs=v.fixed=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTINT

// Under objective=waits an "auto" tile's slots are weighed in the cycle
// estimates of dsaplan-assign-offsets' penalties, with the overrides and
// the checks dsaplan-simulate has.
// NOTINT: error: dsaplan-multi-buffer: cost 'v.fixed' needs a non-negative integer, got 'x'

// expected-error @below {{dsaplan-multi-buffer: unknown cost 'bogus' (expected <pipe>.fixed, <pipe>.bytes-per-cycle, sync-latency, jitter or pipe-overlap)}}
func.func @auto(%x: memref<8x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %row = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %t = memref.alloc() {name = "t", dsaplan.buffers = "auto"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %row, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
  }
  return
}
