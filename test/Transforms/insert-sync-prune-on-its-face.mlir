// RUN: dsa-opt %s -dsaplan-insert-sync="summary=true" 2>&1 | FileCheck %s
// RUN: dsa-opt %s -dsaplan-insert-sync="prune-budget=15 summary=true" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: dsa-opt %s -dsaplan-insert-sync | dsa-opt -dsaplan-verify-sync -o /dev/null
//
// Pruning refuses a group without a walk when a dependency next to it
// plainly needs it (IncrementalCheck::leavesUnordered): an access and one
// of its sources in the group's block, the source before the group, the
// access after it, and no other sync between them. Every group here is
// such a one, so pruning walks nothing beyond its first walk over the
// function (15 ops: the 11 of the body and the 4 inside the linalg.add).
// Each try used to walk again from the checkpoint before its group to the
// access that failed: 34 ops in all.
//
//   copy %gm -> A     mte2   source of the add (RAW on A)
//   set/wait mte2->v         refused: the add follows with nothing between
//   add A, A -> B     v      source of the first store (RAW on B)
//   set/wait v->mte3         refused: the store follows
//   copy B -> %out    mte3   source of the second store (WAW on %out)
//   pipe_barrier mte3        refused: the second store follows
//   copy A -> %out    mte3
//
// CHECK: remark: @on_its_face: 2 flag pairs {{.*}}, 1 barriers for 5 conflicting pairs; 0 dropped as implied by the others (15 ops walked){{$}}
// CHECK-LABEL: func.func @on_its_face
// CHECK:      memref.copy %arg0, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: linalg.add
// CHECK-NEXT: dsaplan.set_flag <v -> mte3>, 0
// CHECK-NEXT: dsaplan.wait_flag <v -> mte3>, 0
// CHECK-NEXT: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT: dsaplan.pipe_barrier <mte3>
// CHECK-NEXT: memref.copy %[[A]], %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>}
//
// The first walk's 15 ops are the whole budget pruning needs: it completes
// (no "stopped by prune-budget").
// BUDGET: remark: @on_its_face: {{.*}}; 0 dropped as implied by the others (15 ops walked){{$}}
func.func @on_its_face(%gm: memref<256xf32>, %out: memref<256xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [0, 1024)
  %b = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<256xf32, #dsaplan.space<ub>>  // [1024, 2048)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<256xf32> to memref<256xf32, #dsaplan.space<ub>>
  linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a, %a : memref<256xf32, #dsaplan.space<ub>>, memref<256xf32, #dsaplan.space<ub>>) outs(%b : memref<256xf32, #dsaplan.space<ub>>)
  memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<256xf32, #dsaplan.space<ub>> to memref<256xf32>
  return
}
