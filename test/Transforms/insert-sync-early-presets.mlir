// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync | dsa-opt -split-input-file --dsaplan-verify-sync --dsaplan-simulate="runs=8 check-gm=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// A loop pair's pre-set goes up its block, ahead of the work of its pipe
// before the loop that the loop's first wait need not see (issue 26,
// flash_causal_skip's worst seed). A set fires once its pipe's earlier ops
// have finished: behind the fill of acc, the pre-set <v -> mte2> held the
// first load of k until the fill had finished, though the two share no
// byte.
//
// CLEAN-NOT: error

// The fill of acc touches nothing the loop's loads write, and the store
// of acc after the loop has its own pair: the pre-set <v -> mte2> goes
// ahead of the fill. <mte3 -> v> has no op of MTE3 to pass.
//
// CHECK-LABEL: func.func @fill_before_loop
// CHECK:         dsaplan.set_flag <v -> mte2>, 0
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:    scf.for

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @fill_before_loop(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias},
                              %out: memref<1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %zero = arith.constant 0.0 : f32
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>            // [0, 4096): x row, MTE2 -> V
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>         // [4096, 8192): exp, V -> MTE3
    %acc = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>       // [8192, 12288): sum, stored after the loop
    // before: set <v -> mte2> (pre-set, was after the fill); after: set <v -> mte3> (store of acc), set <mte3 -> v> (pre-set)
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%acc : memref<1024xf32, #dsaplan.space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %xi = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // wait <v -> mte2> (slot free: last iteration's add read it), after: set/wait <mte2 -> v>
      memref.copy %xi, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      // wait <mte3 -> v> (last store of b), after: set <v -> mte3>, set <v -> mte2> (last read of x)
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
      %yi = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // wait <v -> mte3>, after: set <mte3 -> v>
      memref.copy %b, %yi {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    memref.copy %acc, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}

// -----

// Here the op before the loop reads the tile the loop's first load
// overwrites: the pre-set <v -> mte2> is what orders that read before the
// load, so it stays behind it.
//
// CHECK-LABEL: func.func @read_before_loop
// CHECK:         linalg.exp
// CHECK-NEXT:    dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT:    dsaplan.set_flag <v -> mte2>, 1
// CHECK-NEXT:    dsaplan.set_flag <mte3 -> v>, 0
// CHECK-NEXT:    scf.for

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @read_before_loop(%x: memref<8x1024xf32>, %y: memref<8x1024xf32> {llvm.noalias},
                              %out: memref<1024xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>            // [0, 4096): x row, MTE2 -> V
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>         // [4096, 8192): exp, V -> MTE3
    %acc = memref.view %ub[%c8192][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>       // [8192, 12288)
    %x0 = memref.subview %x[0, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1]>>
    // after: set/wait <mte2 -> v>
    memref.copy %x0, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1]>> to memref<1024xf32, #dsaplan.space<ub>>
    // reads a, which the loop's first load overwrites; after: set <v -> mte3>, set <v -> mte2> (pre-set, stays)
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%acc : memref<1024xf32, #dsaplan.space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %xi = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // wait <v -> mte2>
      memref.copy %xi, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
      %yi = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      memref.copy %b, %yi {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    memref.copy %acc, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}
