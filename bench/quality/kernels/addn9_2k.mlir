// AddN over nine inputs, 512 f32 (2 KiB) a block, every tile with three
// slots (`dsaplan.buffers = 3`): the smaller variant of `addn.mlir` that
// issue 26 (item 2) quotes at 1.46x its ideal. Nine loads a block and eight
// adds; the loop pairs of nine tiles times three slots ask for more event
// ids per pipe pair than the eight there are. The output is `llvm.noalias`.
//
//   y[b] = a0[b] + a1[b] + ... + a8[b]     for 16 blocks
//
//   dsa-opt bench/quality/kernels/addn9_2k.mlir --dsa-plan="summary=true"

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @addn9_2k(%a0: memref<8192xf32>,
                  %a1: memref<8192xf32>,
                  %a2: memref<8192xf32>,
                  %a3: memref<8192xf32>,
                  %a4: memref<8192xf32>,
                  %a5: memref<8192xf32>,
                  %a6: memref<8192xf32>,
                  %a7: memref<8192xf32>,
                  %a8: memref<8192xf32>,
                  %y: memref<8192xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c8192 = arith.constant 8192 : index
    scf.for %b = %c0 to %c8192 step %c512 {
      %g0 = memref.subview %a0[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t0 = memref.alloc() {name = "a0", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g1 = memref.subview %a1[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t1 = memref.alloc() {name = "a1", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g1, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g2 = memref.subview %a2[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t2 = memref.alloc() {name = "a2", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g2, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g3 = memref.subview %a3[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t3 = memref.alloc() {name = "a3", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g3, %t3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g4 = memref.subview %a4[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t4 = memref.alloc() {name = "a4", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g4, %t4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g5 = memref.subview %a5[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t5 = memref.alloc() {name = "a5", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g5, %t5 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g6 = memref.subview %a6[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t6 = memref.alloc() {name = "a6", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g6, %t6 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g7 = memref.subview %a7[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t7 = memref.alloc() {name = "a7", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g7, %t7 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %g8 = memref.subview %a8[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      %t8 = memref.alloc() {name = "a8", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      memref.copy %g8, %t8 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<512xf32, strided<[1], offset: ?>> to memref<512xf32, #dsaplan.space<ub>>
      %acc = memref.alloc() {name = "acc", dsaplan.buffers = 3 : i64} : memref<512xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0, %t1 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t2 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t3 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t4 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t5 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t6 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t7 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t8 : memref<512xf32, #dsaplan.space<ub>>, memref<512xf32, #dsaplan.space<ub>>) outs(%acc : memref<512xf32, #dsaplan.space<ub>>)
      %yg = memref.subview %y[%b] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
      memref.copy %acc, %yg {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<512xf32, #dsaplan.space<ub>> to memref<512xf32, strided<[1], offset: ?>>
    }
    return
  }
}
