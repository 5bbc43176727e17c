// RUN: dsa-opt %s -split-input-file -dsaplan-strip-for-cpu | FileCheck %s

// The pipeline's output: the arena becomes the module's byte buffer of its
// space, the tiles stay views of it at their offsets, the syncs and every
// dsaplan attribute go, and no type keeps a dsaplan space.

// CHECK-LABEL: module {
// CHECK-NEXT:  memref.global "private" @__dsaplan_ub : memref<196608xi8> = dense<0> {alignment = 64 : i64}
// CHECK-LABEL: func.func @placed
// CHECK-SAME:    (%[[GM:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK-NEXT:    %[[UB:.*]] = memref.get_global @__dsaplan_ub : memref<196608xi8>
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

// One buffer per space for the whole module, as on the core: the caller's
// and the callee's arenas of UB are the same bytes (a callee tile placed
// over a caller tile live across the call clobbers it on the CPU too); L1
// gets its own buffer. A symbol of the module already named like the
// buffer keeps its name.

// CHECK-LABEL: module {
// CHECK-NEXT:  memref.global "private" @__dsaplan_l1 : memref<524288xi8> = dense<0> {alignment = 64 : i64}
// CHECK-NEXT:  memref.global "private" @[[UBG:__dsaplan_ub_[0-9]+]] : memref<196608xi8> = dense<0> {alignment = 64 : i64}
// CHECK-NEXT:  func.func private @__dsaplan_ub()
// CHECK-LABEL: func.func private @callee
// CHECK-NEXT:    %[[UB:.*]] = memref.get_global @[[UBG]] : memref<196608xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.view %[[UB]][%[[C0]]][] : memref<196608xi8> to memref<64xf32>
// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    %[[UB2:.*]] = memref.get_global @[[UBG]] : memref<196608xi8>
// CHECK-NEXT:    %[[L1:.*]] = memref.get_global @__dsaplan_l1 : memref<524288xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.view %[[UB2]][%[[C0]]][] : memref<196608xi8> to memref<64xf32>
// CHECK-NEXT:    memref.view %[[L1]][%[[C0]]][] : memref<524288xi8> to memref<64xf32>
// CHECK-NEXT:    call @callee(%{{.*}}) : (memref<64xf32>) -> ()
// CHECK-NOT:   memref.global
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @__dsaplan_ub()
  func.func private @callee(%gm: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    return
  }
  func.func @caller(%gm: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %l1 = dsaplan.arena <l1> : memref<524288xi8, #dsaplan.space<l1>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    %b = memref.view %l1[%c0][] : memref<524288xi8, #dsaplan.space<l1>> to memref<64xf32, #dsaplan.space<l1>>
    func.call @callee(%gm) {dsaplan.pipe = #dsaplan.pipe<mte2>} : (memref<64xf32>) -> ()
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<l1>>
    return
  }
}

// -----

// A function with a target of its own and a smaller UB: its arena is the
// first bytes of the module's buffer, which is as large as the largest.

// CHECK-LABEL: module {
// CHECK-NEXT:  memref.global "private" @__dsaplan_ub : memref<196608xi8> = dense<0> {alignment = 64 : i64}
// CHECK-LABEL: func.func @small
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @__dsaplan_ub : memref<196608xi8>
// CHECK-NEXT:    %[[UB:.*]] = memref.reinterpret_cast %[[G]] to offset: [0], sizes: [65536], strides: [1] : memref<196608xi8> to memref<65536xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.view %[[UB]][%[[C0]]][] : memref<65536xi8> to memref<64xf32>
// CHECK-LABEL: func.func @large
// CHECK-NEXT:    memref.get_global @__dsaplan_ub : memref<196608xi8>
// CHECK-NEXT:    arith.constant
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @small(%gm: memref<64xf32>) attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 65536}}>} {
    %ub = dsaplan.arena <ub> : memref<65536xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %t = memref.view %ub[%c0][] : memref<65536xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    return
  }
  func.func @large(%gm: memref<64xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
    memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
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
