// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync --dsaplan-verify-sync -o /dev/null
// RUN: dsa-opt %s -split-input-file --dsaplan-insert-sync --dsaplan-simulate="runs=4" -o /dev/null

// Cross-core pairs between the cube core (L1, L0*, FIX) and the vector core
// (UB, V, MTE3), over GM byte ranges; the syncs expected are written beside
// the ops. Every output also passes the verifier and the simulator.

// One store of the cube core read back by the vector core: a set on FIX
// after the store, a wait of the vector core before the load.
// REMARK: remark: @forward: 1 cross-core flag pairs (0 around loops) for 1 dependencies between the cores
// CHECK-LABEL: func.func @forward
func.func @forward(%ws: memref<64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>  // l0c [0, 256)
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>      // ub [0, 256)
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
  // CHECK: memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<fix>}
  // CHECK-NEXT: dsaplan.cross_core_set cube <fix>, mode 2, id 0
  // CHECK-NEXT: dsaplan.cross_core_wait vector, mode 2, id 0
  // CHECK-NEXT: memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
  memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>   // gm [0, 256), RAW ->
  memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>     // set cube <fix>, wait vector before this
  return
}

// -----

// One workspace slot reused every iteration: RAW within the iteration
// (FIX -> vector MTE2) and WAR around the back edge (the vector core's load
// of iteration i -> the cube's store of iteration i + 1), the latter set
// once before the loop (the slot starts free) and drained after it.
// 2 pairs, 1 around the loop; ids 0 to each core.
// REMARK: remark: @one_slot: 2 cross-core flag pairs (1 around loops) for 2 dependencies between the cores
// (The intra-core pairs of each core, <m -> fix> and <fix -> m> on the
// cube, <mte2 -> mte3> and <mte3 -> mte2> on the vector core, come between.)
// CHECK-LABEL: func.func @one_slot
// CHECK:      dsaplan.cross_core_set vector <mte2>, mode 2, id 0
// CHECK:      scf.for
// CHECK:        dsaplan.cross_core_wait cube, mode 2, id 0
// CHECK:        memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<fix>}
// CHECK-NEXT:   dsaplan.cross_core_set cube <fix>, mode 2, id 0
// CHECK-NEXT:   dsaplan.cross_core_wait vector, mode 2, id 0
// CHECK:        memref.copy %{{.*}}, %{{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT:   dsaplan.cross_core_set vector <mte2>, mode 2, id 0
// CHECK:      }
// CHECK:      dsaplan.cross_core_wait cube, mode 2, id 0
// CHECK-NEXT: return
func.func @one_slot(%ws: memref<64xf32> {llvm.noalias}, %out: memref<4x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>  // l0c [0, 256)
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>      // ub [0, 256)
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>   // wait cube (WAR, last iteration's load)
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>     // wait vector (RAW)
    memref.copy %x, %row {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: ?>>
  }
  return
}

// -----

// Two slots stored 0 then 1 and loaded 1 then 0: the pair of slot 1 (set
// after the later store, waited before the earlier load) orders slot 0's
// too. 1 pair for 2 dependencies.
// REMARK: remark: @implied: 1 cross-core flag pairs (0 around loops) for 2 dependencies between the cores
// CHECK-LABEL: func.func @implied
// CHECK:      memref.copy {{.*}}pipe<fix>
// CHECK-NEXT: memref.copy {{.*}}pipe<fix>
// CHECK-NEXT: dsaplan.cross_core_set cube <fix>, mode 2, id 0
// CHECK-NEXT: dsaplan.cross_core_wait vector, mode 2, id 0
// CHECK-NEXT: memref.copy {{.*}}pipe<mte2>
// CHECK-NEXT: memref.copy {{.*}}pipe<mte2>
// CHECK-NOT:  cross_core
func.func @implied(%ws: memref<2x64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>
  %x0 = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>     // ub [0, 256)
  %x1 = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>   // ub [256, 512)
  %s0 = memref.subview %ws[0, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1]>>                // gm [0, 256)
  %s1 = memref.subview %ws[1, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1], offset: 64>>    // gm [256, 512)
  memref.copy %acc, %s0 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32, strided<[1]>>
  memref.copy %acc, %s1 {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32, strided<[1], offset: 64>>  // set after this
  memref.copy %s1, %x1 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>  // wait before this
  memref.copy %s0, %x0 {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
  return
}

// -----

// The cross-core pair is created before the intra-core cover runs, which
// passes its set and wait by: the gaps it counts are those of the input's
// ops. Counted with them, the input's barrier would seem to follow the
// fill and order it before the exp (no barrier between them).
// CHECK-LABEL: func.func @input_sync_after_cross_core_pair
// CHECK:      dsaplan.cross_core_set cube <fix>, mode 2, id 0
// CHECK-NEXT: dsaplan.cross_core_wait vector, mode 2, id 0
// CHECK:      dsaplan.pipe_barrier <v>
// CHECK-NEXT: linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>}
// CHECK-NEXT: arith.addi
// CHECK-NEXT: dsaplan.pipe_barrier <v>
// CHECK-NEXT: linalg.exp
func.func @input_sync_after_cross_core_pair(%ws: memref<64xf32> {llvm.noalias}) {
  %l0c = dsaplan.arena <l0c> : memref<131072xi8, #dsaplan.space<l0c>>
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.view %l0c[%c0][] : memref<131072xi8, #dsaplan.space<l0c>> to memref<64xf32, #dsaplan.space<l0c>>  // l0c [0, 256)
  %x = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>      // ub [0, 256)
  %y = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>    // ub [256, 512)
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<m>} ins(%zero : f32) outs(%acc : memref<64xf32, #dsaplan.space<l0c>>)
  memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>} : memref<64xf32, #dsaplan.space<l0c>> to memref<64xf32>   // cross-core set after this
  memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>     // and wait before this
  dsaplan.pipe_barrier <v>
  linalg.fill {dsaplan.pipe = #dsaplan.pipe<v>} ins(%zero : f32) outs(%y : memref<64xf32, #dsaplan.space<ub>>)
  %unused = arith.addi %c0, %c256 : index
  linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%y : memref<64xf32, #dsaplan.space<ub>>) outs(%y : memref<64xf32, #dsaplan.space<ub>>)  // RAW after the fill: a barrier
  return
}
