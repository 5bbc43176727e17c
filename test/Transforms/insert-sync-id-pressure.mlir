// RUN: dsa-opt %s --dsa-plan | FileCheck %s
// RUN: dsa-opt %s --dsa-plan="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: dsa-opt %s --dsa-plan | dsa-opt -dsaplan-verify-sync -dsaplan-simulate="runs=8 check-gm=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// Event-id pressure (issue 26, item 2): AddN over five inputs, every tile
// with three slots. The loop is unrolled by three (one stage a slot); each
// stage needs its four adds ordered after its five loads: four pairs
// <mte2 -> v> (the add of t0 and t1 waits for the load of t1, which orders
// t0's too). Twelve pairs in one body, where the source pipe may run a
// stage ahead of V: more than the eight ids. Before, the repair moved 14
// pairs and added 7 handshakes (MTE2 waiting for V after each wait,
// makespan / ideal 1.59); now the cheapest neighbours of each stage merge
// (IdPressure.cpp) down to eight pairs with ids 0-7 held over the whole
// loop, and no set needs a handshake (1.11):
//
//   stage 0: loads t0 t1 t2 | set 0 | loads t3 t4 | set 1
//            wait 0 | add | add | wait 1 | add | add
//   stage 1: the same with ids 2 and 3
//   stage 2: a set after each load from t1 on (ids 4-7), a wait before
//            each add
//
// The 15 back-edge WAR dependencies (V's reads of a slot, then the next
// iteration's load into it) merge by slack into four loop pairs
// <v -> mte2>, one or two a slot, each waited before its slot's loads.
//
// CLEAN-NOT: error
// SUMMARY: remark: @addn5: 23 flag pairs (7 around loops, 0 eager, 0 set late for want of an event id; before pruning, {{[0-9]+}} moved to another id and 0 handshakes added

// CHECK-LABEL: func.func @addn5
// CHECK-COUNT-4: dsaplan.set_flag <v -> mte2>
// CHECK:         scf.for
// stage 0
// CHECK:         dsaplan.wait_flag <v -> mte2>, [[S0:[0-9]]]
// CHECK-NOT:     _flag
// CHECK:         memref.copy
// CHECK-NOT:     _flag
// CHECK:         memref.copy
// CHECK-NOT:     _flag
// CHECK:         memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NOT:     _flag
// CHECK:         memref.copy
// CHECK-NOT:     _flag
// CHECK:         memref.copy
// CHECK-NEXT:    dsaplan.set_flag <mte2 -> v>, 1
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT:    dsaplan.wait_flag <mte3 -> v>
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    dsaplan.pipe_barrier <v>
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    dsaplan.pipe_barrier <v>
// CHECK-NEXT:    dsaplan.wait_flag <mte2 -> v>, 1
// CHECK:         dsaplan.set_flag <v -> mte2>, [[S0]]
// stage 1
// CHECK:         dsaplan.set_flag <mte2 -> v>, 2
// CHECK:         dsaplan.set_flag <mte2 -> v>, 3
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 2
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 3
// stage 2
// CHECK:         dsaplan.set_flag <mte2 -> v>, 4
// CHECK:         dsaplan.set_flag <mte2 -> v>, 5
// CHECK:         dsaplan.set_flag <mte2 -> v>, 6
// CHECK:         dsaplan.set_flag <mte2 -> v>, 7
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 4
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 5
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 6
// CHECK:         dsaplan.wait_flag <mte2 -> v>, 7
// CHECK:         scf.yield
// CHECK-COUNT-4: dsaplan.wait_flag <v -> mte2>
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @addn5(%a0: memref<4096xf32>, %a1: memref<4096xf32>,
                   %a2: memref<4096xf32>, %a3: memref<4096xf32>,
                   %a4: memref<4096xf32>,
                   %y: memref<4096xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    // set <v -> mte2> x4 (the slots start free), set <mte3 -> v> x3
    scf.for %b = %c0 to %c4096 step %c256 {
      %g0 = memref.subview %a0[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      %t0 = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g0, %t0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      %g1 = memref.subview %a1[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      %t1 = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g1, %t1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      %g2 = memref.subview %a2[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      %t2 = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g2, %t2 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      %g3 = memref.subview %a3[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      %t3 = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g3, %t3 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      %g4 = memref.subview %a4[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      %t4 = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      memref.copy %g4, %t4 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32, #dsaplan.space<ub>>
      // set <mte2 -> v> after t2 and after t4 (stage 0; later stages differ)
      %acc = memref.alloc() {dsaplan.buffers = 3 : i64} : memref<256xf32, #dsaplan.space<ub>>
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t0, %t1 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%acc : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t2 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%acc : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t3 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%acc : memref<256xf32, #dsaplan.space<ub>>)
      linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%acc, %t4 : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%acc : memref<256xf32, #dsaplan.space<ub>>)
      %yg = memref.subview %y[%b] [256] [1] : memref<4096xf32> to memref<256xf32, strided<[1], offset: ?>>
      memref.copy %acc, %yg {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32, strided<[1], offset: ?>>
    }
    return
  }
}
