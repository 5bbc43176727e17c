// A gather with a lookup table: a 4 KiB table tile is loaded into UB (MTE2)
// and reduced by the vector unit (V) to a [8] vector of scales; after that
// the table is dead, and four 32-byte row tiles are loaded (MTE2) into part
// of its bytes, scaled (V) and stored (MTE3).
//
// This is the partial-overlap reuse: each 32-byte tile takes bytes that the
// 4 KiB table occupied, so its MTE2 load must wait until the vector unit has
// finished reading the table. A sync inserter that compares buffers by
// identity sees two different buffers and emits no wait; the range-aware
// one sees the shared bytes.
//
//   dsa-opt examples/gather.mlir --dsa-plan="summary=true"

#id = affine_map<(d0) -> (d0)>
#red = affine_map<(d0, d1) -> (d0, d1)>
#red_out = affine_map<(d0, d1) -> (d1)>

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @gather_scale(%table: memref<128x8xf32>, %rows: memref<4x8xf32>,
                          %out: memref<4x8xf32>) {
    %zero = arith.constant 0.0 : f32

    // The 4 KiB table and its column sums (32 bytes).
    %table_ub = memref.alloc() {name = "table_ub"} : memref<128x8xf32, #dsaplan.space<ub>>
    %scales = memref.alloc() {name = "scales"} : memref<8xf32, #dsaplan.space<ub>>
    memref.copy %table, %table_ub {dsaplan.pipe = #dsaplan.pipe<mte2>}
        : memref<128x8xf32> to memref<128x8xf32, #dsaplan.space<ub>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
        ins(%zero : f32) outs(%scales : memref<8xf32, #dsaplan.space<ub>>)
    linalg.generic {indexing_maps = [#red, #red_out],
                    iterator_types = ["reduction", "parallel"]}
        ins(%table_ub : memref<128x8xf32, #dsaplan.space<ub>>)
        outs(%scales : memref<8xf32, #dsaplan.space<ub>>)
        attrs = {dsaplan.pipe = #dsaplan.pipe<v>} {
    ^bb0(%in: f32, %acc: f32):
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
    // The table is dead from here on.

    %r0 = memref.subview %rows[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
    %r1 = memref.subview %rows[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
    %r2 = memref.subview %rows[2, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 16>>
    %r3 = memref.subview %rows[3, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 24>>
    %o0 = memref.subview %out[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
    %o1 = memref.subview %out[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
    %o2 = memref.subview %out[2, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 16>>
    %o3 = memref.subview %out[3, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 24>>

    // Four 32-byte row tiles, loaded into bytes the table used to hold.
    %row0 = memref.alloc() {name = "row0"} : memref<8xf32, #dsaplan.space<ub>>
    %row1 = memref.alloc() {name = "row1"} : memref<8xf32, #dsaplan.space<ub>>
    %row2 = memref.alloc() {name = "row2"} : memref<8xf32, #dsaplan.space<ub>>
    %row3 = memref.alloc() {name = "row3"} : memref<8xf32, #dsaplan.space<ub>>
    memref.copy %r0, %row0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32, strided<[1]>> to memref<8xf32, #dsaplan.space<ub>>
    memref.copy %r1, %row1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32, strided<[1], offset: 8>> to memref<8xf32, #dsaplan.space<ub>>
    memref.copy %r2, %row2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32, strided<[1], offset: 16>> to memref<8xf32, #dsaplan.space<ub>>
    memref.copy %r3, %row3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32, strided<[1], offset: 24>> to memref<8xf32, #dsaplan.space<ub>>

    // Scale each row in place (each element is read before it is written).
    linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%row0, %scales : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
        outs(%row0 : memref<8xf32, #dsaplan.space<ub>>)
    linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%row1, %scales : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
        outs(%row1 : memref<8xf32, #dsaplan.space<ub>>)
    linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%row2, %scales : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
        outs(%row2 : memref<8xf32, #dsaplan.space<ub>>)
    linalg.mul {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%row3, %scales : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32, #dsaplan.space<ub>>)
        outs(%row3 : memref<8xf32, #dsaplan.space<ub>>)

    memref.copy %row0, %o0 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1]>>
    memref.copy %row1, %o1 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 8>>
    memref.copy %row2, %o2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 16>>
    memref.copy %row3, %o3 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 24>>
    return
  }
}
