// Explicit ping/pong: the loop body unrolled by two, block r through the
// ping tiles and block r + 8 through the pong tiles (32 KiB each). No
// iter_args: each access names its tile, so the inserter sees that
// MTE2's load into pong need not wait for V on ping.
//
//   y[r] = exp(x[r])   for 8 row blocks of [8 x 1024] f32, two a trip
//
//   dsa-opt bench/quality/kernels/pingpong_unrolled.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @pingpong_unrolled(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %in_ping = memref.alloc() {name = "in_ping"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %in_pong = memref.alloc() {name = "in_pong"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out_ping = memref.alloc() {name = "out_ping"} : memref<8x1024xf32, #dsaplan.space<ub>>
    %out_pong = memref.alloc() {name = "out_pong"} : memref<8x1024xf32, #dsaplan.space<ub>>
    scf.for %row = %c0 to %c64 step %c16 {
      %row1 = arith.addi %row, %c8 : index
      // Ping: block row.
      %x_ping = memref.subview %x[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_ping = memref.subview %y[%row, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %x_ping, %in_ping {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%in_ping : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%out_ping : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out_ping, %y_ping {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      // Pong: block row + 8.
      %x_pong = memref.subview %x[%row1, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      %y_pong = memref.subview %y[%row1, 0] [8, 1024] [1, 1]
          : memref<64x1024xf32> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
      memref.copy %x_pong, %in_pong {dsaplan.pipe = #dsaplan.pipe<mte2>}
          : memref<8x1024xf32, strided<[1024, 1], offset: ?>> to memref<8x1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>}
          ins(%in_pong : memref<8x1024xf32, #dsaplan.space<ub>>)
          outs(%out_pong : memref<8x1024xf32, #dsaplan.space<ub>>)
      memref.copy %out_pong, %y_pong {dsaplan.pipe = #dsaplan.pipe<mte3>}
          : memref<8x1024xf32, #dsaplan.space<ub>> to memref<8x1024xf32, strided<[1024, 1], offset: ?>>
    }
    return
  }
}
