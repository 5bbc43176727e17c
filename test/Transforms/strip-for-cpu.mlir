// RUN: dsa-opt %s -split-input-file -dsaplan-strip-for-cpu | FileCheck %s

// The pipeline's output: the arena becomes a plain byte buffer, the tiles
// stay views of it at their offsets, the syncs and every dsaplan attribute
// go, and no type keeps a dsaplan space.

// CHECK-LABEL: module {
// CHECK-LABEL: func.func @placed
// CHECK-SAME:    (%[[GM:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK-NEXT:    %[[UB:.*]] = memref.alloc() {name = "ub"} : memref<196608xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[UB]][%[[C0]]][] : memref<196608xi8> to memref<64xf32>
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[UB]][%[[C256]]][] : memref<196608xi8> to memref<64xf32>
// CHECK-NEXT:    memref.copy %[[GM]], %[[A]] : memref<64xf32> to memref<64xf32>
// CHECK-NEXT:    linalg.exp ins(%[[A]] : memref<64xf32>) outs(%[[B]] : memref<64xf32>)
// CHECK-NEXT:    memref.copy %[[B]], %[[OUT]] : memref<64xf32> to memref<64xf32>
// CHECK-NEXT:    return
// CHECK-NOT:   dsaplan
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @placed(%gm: memref<64xf32>, %out: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %c256 = arith.constant 256 : index
    %b = memref.view %ub[%c256][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>, dsaplan.in_place}
        ins(%a : memref<64xf32, #dsaplan.space<ub>>) outs(%b : memref<64xf32, #dsaplan.space<ub>>)
    dsaplan.pipe_barrier <v>
    dsaplan.barrier_all
    dsaplan.set_flag <v -> mte3>, 0
    dsaplan.wait_flag <v -> mte3>, 0
    memref.copy %b, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
    return
  }
}

// -----

// The pipeline's input after dsaplan-import: each dsaplan.alloc becomes a
// memref.alloc with its alignment and name; the constraint ops go.

// CHECK-LABEL: func.func @imported
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64, name = "ping"} : memref<16x16xf16>
// CHECK-NEXT:    %[[Q:.*]] = memref.alloc() {name = "pong"} : memref<16x16xf16>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    memref.copy %[[P]], %[[Q]] : memref<16x16xf16> to memref<16x16xf16>
// CHECK-NEXT:    return
func.func @imported() {
  %p = dsaplan.alloc {name = "ping", alignment = 64 : i64, live = #dsaplan.live<3 to 5>, offset = 0 : i64} : memref<16x16xf16, #dsaplan.space<l1>>
  %q = dsaplan.alloc {name = "pong"} : memref<16x16xf16, #dsaplan.space<l1>>
  %r = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  %s = dsaplan.alloc : memref<16xf32, #dsaplan.space<ub>>
  dsaplan.separate %p, %q {reason = "pipeline_stage"} : memref<16x16xf16, #dsaplan.space<l1>>, memref<16x16xf16, #dsaplan.space<l1>>
  dsaplan.colocate %r, %s : memref<16xf32, #dsaplan.space<ub>>, memref<16xf32, #dsaplan.space<ub>>
  memref.copy %p, %q {dsaplan.pipe = #dsaplan.pipe<mte1>} : memref<16x16xf16, #dsaplan.space<l1>> to memref<16x16xf16, #dsaplan.space<l1>>
  return
}

// -----

// Frontend IR: spaces leave the function type, block arguments (the loop's
// iter_args), results and subview layouts; a memory_space_cast into a
// dsaplan space becomes its source; other memory spaces stay.

// CHECK-LABEL: func.func @frontend
// CHECK-SAME:    (%[[ARG:.*]]: memref<8xf32>, %[[N:.*]]: index, %[[GPU:.*]]: memref<8xf32, 1>) -> memref<8xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[A]][4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
// CHECK-NEXT:    memref.copy %[[ARG]], %[[S]] : memref<8xf32> to memref<8xf32, strided<[1], offset: 4>>
// CHECK-NEXT:    %[[L:.*]] = scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[IT:.*]] = %[[ARG]]) -> (memref<8xf32>) {
// CHECK-NEXT:      scf.yield %[[IT]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.copy %[[GPU]], %[[L]] : memref<8xf32, 1> to memref<8xf32>
// CHECK-NEXT:    return %[[L]] : memref<8xf32>
func.func @frontend(%arg: memref<8xf32>, %n: index, %gpu: memref<8xf32, 1>) -> memref<8xf32, #dsaplan.space<ub>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16xf32, #dsaplan.space<ub>>
  %s = memref.subview %a[4] [8] [1] : memref<16xf32, #dsaplan.space<ub>> to memref<8xf32, strided<[1], offset: 4>, #dsaplan.space<ub>>
  memref.copy %arg, %s {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, strided<[1], offset: 4>, #dsaplan.space<ub>>
  %cast = memref.memory_space_cast %arg : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%it = %cast) -> (memref<8xf32, #dsaplan.space<ub>>) {
    scf.yield %it : memref<8xf32, #dsaplan.space<ub>>
  }
  memref.copy %gpu, %l : memref<8xf32, 1> to memref<8xf32, #dsaplan.space<ub>>
  return %l : memref<8xf32, #dsaplan.space<ub>>
}
