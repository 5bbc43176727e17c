// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-compute-lifetimes \
// RUN:   -dsaplan-assign-offsets="objective=peak" | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-compute-lifetimes \
// RUN:   -dsaplan-assign-offsets="objective=waits" | FileCheck %s

// `dsaplan.in_place` means what the hardware allows (Ascend C's address-
// overlap rule for vector instructions): the output starts exactly where
// the dying input starts, with the same element layout, or the two are
// disjoint; never a partial overlap. Sizes: memref<3072xf32> is 12 KiB.

// UB is 184 KiB usable; %l keeps 144 KiB, so 40 KiB are left. %t (24 KiB)
// sits beside %a, %u (20 KiB) beside %b. Placing the four by size alone put
// %b at %a - 4096 (a partial overlap: %b's first 4 KiB below %a, the rest
// over %a's first 8 KiB). The in-place pair is colocated instead:
//
//   %l [0, 147456)   %t [147456, 172032)   %a [172032, 184320)
//                    %u [147456, 167936)   %b [172032, 184320) = %a's bytes
// CHECK-LABEL: func.func @shifted
// CHECK-DAG: %[[A:.*]] = dsaplan.alloc {live = #dsaplan.live<11 to 17>, name = "a", offset = [[OFF:[0-9]+]] : i64}
// CHECK-DAG: dsaplan.alloc {live = #dsaplan.live<17 to 26>, name = "b", offset = [[OFF]] : i64}
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @shifted(%x: memref<3072xf32>, %y: memref<3072xf32>, %big: memref<36864xf32>,
                     %t_gm: memref<6144xf32>, %u_gm: memref<5120xf32>) {
    %l = memref.alloc() {name = "l"} : memref<36864xf32, #dsaplan.space<ub>>
    memref.copy %big, %l {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<36864xf32> to memref<36864xf32, #dsaplan.space<ub>>
    %t = memref.alloc() {name = "t"} : memref<6144xf32, #dsaplan.space<ub>>
    memref.copy %t_gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<6144xf32> to memref<6144xf32, #dsaplan.space<ub>>
    %a = memref.alloc() {name = "a"} : memref<3072xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<3072xf32> to memref<3072xf32, #dsaplan.space<ub>>
    memref.copy %t, %t_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<6144xf32, #dsaplan.space<ub>> to memref<6144xf32>
    %b = memref.alloc() {name = "b"} : memref<3072xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}        // reads %a at 16 only, writes %b at 17
        ins(%a : memref<3072xf32, #dsaplan.space<ub>>) outs(%b : memref<3072xf32, #dsaplan.space<ub>>)
    %u = memref.alloc() {name = "u"} : memref<5120xf32, #dsaplan.space<ub>>
    memref.copy %u_gm, %u {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<5120xf32> to memref<5120xf32, #dsaplan.space<ub>>
    memref.copy %u, %u_gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<5120xf32, #dsaplan.space<ub>> to memref<5120xf32>
    memref.copy %b, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<3072xf32, #dsaplan.space<ub>> to memref<3072xf32>
    memref.copy %l, %big {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<36864xf32, #dsaplan.space<ub>> to memref<36864xf32>
    return
  }
}

// -----

// A chain (Gemma-2's soft-cap, y = -tanh(exp(x))): every step writes a new
// tile in place of the last, so all four share one offset.
// CHECK-LABEL: func.func @chain
// CHECK: name = "a", offset = [[OFF:[0-9]+]] : i64
// CHECK: name = "b", offset = [[OFF]] : i64
// CHECK: name = "c", offset = [[OFF]] : i64
// CHECK: name = "d", offset = [[OFF]] : i64
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @chain(%x: memref<8192xf32>, %y: memref<8192xf32>) {
    %a = memref.alloc() {name = "a"} : memref<8192xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8192xf32> to memref<8192xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<8192xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%a : memref<8192xf32, #dsaplan.space<ub>>) outs(%b : memref<8192xf32, #dsaplan.space<ub>>)
    %c = memref.alloc() {name = "c"} : memref<8192xf32, #dsaplan.space<ub>>
    linalg.tanh {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%b : memref<8192xf32, #dsaplan.space<ub>>) outs(%c : memref<8192xf32, #dsaplan.space<ub>>)
    %d = memref.alloc() {name = "d"} : memref<8192xf32, #dsaplan.space<ub>>
    linalg.negf {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%c : memref<8192xf32, #dsaplan.space<ub>>) outs(%d : memref<8192xf32, #dsaplan.space<ub>>)
    memref.copy %d, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8192xf32, #dsaplan.space<ub>> to memref<8192xf32>
    return
  }
}

// -----

// A cast writes 4 bytes for every 2 it reads: at the same start, element i's
// result would overwrite inputs 2i and 2i+1 before they are read. Different
// element sizes mean disjoint: %h's read lasts through the write (live to
// 8, not 7), so %f [0, 32768) and %h [32768, 49152) never share bytes.
// CHECK-LABEL: func.func @cast
// CHECK: live = #dsaplan.live<3 to 8>, name = "h", offset = 32768 : i64
// CHECK: live = #dsaplan.live<7 to 10>, name = "f", offset = 0 : i64
#map = affine_map<(d0) -> (d0)>
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @cast(%x: memref<8192xf16>, %y: memref<8192xf32>) {
    %h = memref.alloc() {name = "h"} : memref<8192xf16, #dsaplan.space<ub>>
    memref.copy %x, %h {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8192xf16> to memref<8192xf16, #dsaplan.space<ub>>
    %f = memref.alloc() {name = "f"} : memref<8192xf32, #dsaplan.space<ub>>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
        ins(%h : memref<8192xf16, #dsaplan.space<ub>>) outs(%f : memref<8192xf32, #dsaplan.space<ub>>)
        attrs = {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place} {
    ^bb0(%in: f16, %out: f32):
      %e = arith.extf %in : f16 to f32
      linalg.yield %e : f32
    }
    memref.copy %f, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8192xf32, #dsaplan.space<ub>> to memref<8192xf32>
    return
  }
}

// -----

// Only whole tiles pair up: through a subview the input starts elsewhere
// than its tile, so the output stays disjoint from the whole of %a.
// CHECK-LABEL: func.func @view_input
// CHECK: live = #dsaplan.live<3 to 10>, name = "a", offset = 0 : i64
// CHECK: live = #dsaplan.live<9 to 12>, name = "b", offset = 16384 : i64
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @view_input(%x: memref<4096xf32>, %y: memref<2048xf32>) {
    %a = memref.alloc() {name = "a"} : memref<4096xf32, #dsaplan.space<ub>>
    memref.copy %x, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<4096xf32> to memref<4096xf32, #dsaplan.space<ub>>
    %hi = memref.subview %a[2048] [2048] [1] : memref<4096xf32, #dsaplan.space<ub>> to memref<2048xf32, strided<[1], offset: 2048>, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<2048xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%hi : memref<2048xf32, strided<[1], offset: 2048>, #dsaplan.space<ub>>) outs(%b : memref<2048xf32, #dsaplan.space<ub>>)
    memref.copy %b, %y {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<2048xf32, #dsaplan.space<ub>> to memref<2048xf32>
    return
  }
}
