// RUN: dsa-opt %s -split-input-file -dsaplan-settle-calls | FileCheck %s

// A call to a function of the module that touches memory is drained on both
// sides and marked settled; insert-sync then plans each side on its own.
// CHECK-LABEL: func.func @caller
// CHECK:      memref.copy
// CHECK-NEXT: dsaplan.barrier_all
// CHECK-NEXT: call @helper(%{{.*}}) {dsaplan.settled}
// CHECK-NEXT: dsaplan.barrier_all
// CHECK-NEXT: memref.copy
// A callee that touches no memory (scalar only) is not settled, nor is a
// call to a declaration (its dsaplan.pipe orders it).
// CHECK:      call @scalar_only(%{{.*}}) : (index) -> index
// CHECK-NEXT: call @declared(%{{.*}}) {dsaplan.pipe = #dsaplan.pipe<v>}
// CHECK-NEXT: return
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func private @scalar_only(%n: index) -> index {
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    return %m : index
  }
  func.func private @declared(memref<1024xf32, #dsaplan.space<ub>>)
  func.func @caller(%g: memref<1024xf32>, %n: index) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @helper(%a) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    memref.copy %a, %g {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    %m = func.call @scalar_only(%n) : (index) -> index
    func.call @declared(%a) {dsaplan.pipe = #dsaplan.pipe<v>} : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    return
  }
}

// -----

// Nested: @outer touches memory only through @inner, so both calls settle.
// CHECK-LABEL: func.func private @outer
// CHECK:      dsaplan.barrier_all
// CHECK-NEXT: call @inner(%{{.*}}) {dsaplan.settled}
// CHECK-NEXT: dsaplan.barrier_all
// CHECK-LABEL: func.func @top
// CHECK:      dsaplan.barrier_all
// CHECK-NEXT: call @outer(%{{.*}}) {dsaplan.settled}
// CHECK-NEXT: dsaplan.barrier_all
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @inner(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func private @outer(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    func.call @inner(%x) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    return
  }
  func.func @top(%g: memref<1024xf32>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @outer(%a) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    return
  }
}
