// RUN: dsa-opt %s -split-input-file -dsaplan-import -dsaplan-compute-lifetimes \
// RUN:   -dsaplan-assign-offsets -verify-diagnostics | FileCheck %s

// A core has one UB: every function's tiles share it. Callers are placed
// first; a callee's tiles go above every tile a caller keeps live across
// one of its calls (and above that caller's own frame). memref<1024xf32> is
// 4 KiB.

// Two call sites with different live sets: at the first only %a and %b
// (both passed) are live, [0, 8192); at the second %c [8192, 12288) is
// live too (it is stored after the call). The frame is the higher: 12288.
//
//   @kernel  %a [0, 4096)  %b [4096, 8192)  %c [8192, 12288)
//   @helper  %scratch [12288, 16384)
// CHECK-LABEL: func.func private @helper
// CHECK: name = "scratch", offset = 12288 : i64
// CHECK-LABEL: func.func @two_sites
// CHECK-DAG: name = "a", offset = 0 : i64
// CHECK-DAG: name = "b", offset = 4096 : i64
// CHECK-DAG: name = "c", offset = 8192 : i64
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>, %out: memref<1024xf32, #dsaplan.space<ub>>) {
    %s = memref.alloc() {name = "scratch"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s, %x : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%out : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @two_sites(%gx: memref<1024xf32>, %gy: memref<1024xf32>, %gz: memref<1024xf32>) {
    %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
    %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %gx, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @helper(%a, %b) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
    %c = memref.alloc() {name = "c"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %gz, %c {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    func.call @helper(%b, %a) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
    memref.copy %a, %gy {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    memref.copy %c, %gz {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}

// -----

// Nested calls in a loop: @outer's frame starts above the loop's %a and %b
// (live across the call in every iteration), and @inner's above @outer's
// %t, which @outer keeps live across its call of @inner.
//
//   @kernel %a [0, 4096)  %b [4096, 8192)
//   @outer  %t [8192, 12288)
//   @inner  %u [12288, 16384)
// CHECK-LABEL: func.func private @inner
// CHECK: name = "u", offset = 12288 : i64
// CHECK-LABEL: func.func private @outer
// CHECK: name = "t", offset = 8192 : i64
// CHECK-LABEL: func.func @nested
// CHECK-DAG: name = "a", offset = 0 : i64
// CHECK-DAG: name = "b", offset = 4096 : i64
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @inner(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    %u = memref.alloc() {name = "u"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%u : memref<1024xf32, #dsaplan.space<ub>>)
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%u : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func private @outer(%x: memref<1024xf32, #dsaplan.space<ub>>, %y: memref<1024xf32, #dsaplan.space<ub>>) {
    %t = memref.alloc() {name = "t"} : memref<1024xf32, #dsaplan.space<ub>>
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%t : memref<1024xf32, #dsaplan.space<ub>>)
    func.call @inner(%t) : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    linalg.add {dsaplan.pipe = #dsaplan.pipe<v>} ins(%t, %x : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) outs(%y : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @nested(%gx: memref<4x1024xf32>, %gy: memref<4x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %xs = memref.subview %gx[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %ys = memref.subview %gy[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %a = memref.alloc() {name = "a"} : memref<1024xf32, #dsaplan.space<ub>>
      memref.copy %xs, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32, strided<[1], offset: ?>> to memref<1024xf32, #dsaplan.space<ub>>
      %b = memref.alloc() {name = "b"} : memref<1024xf32, #dsaplan.space<ub>>
      func.call @outer(%a, %b) : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32, #dsaplan.space<ub>>) -> ()
      memref.copy %b, %ys {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32, strided<[1], offset: ?>>
    }
    return
  }
}

// -----

// A tile dead at the call does not raise the frame: %early died before it,
// so @helper's scratch may take its bytes.
// CHECK-LABEL: func.func private @scratch_only
// CHECK: name = "scratch", offset = 0 : i64
// CHECK-LABEL: func.func @dead_before_call
// CHECK: name = "early", offset = 0 : i64
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @scratch_only(%g: memref<1024xf32>) {
    %s = memref.alloc() {name = "scratch"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %s {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %s, %g {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
  func.func @dead_before_call(%g: memref<1024xf32>) {
    %e = memref.alloc() {name = "early"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %e {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %e, %g {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    func.call @scratch_only(%g) : (memref<1024xf32>) -> ()
    return
  }
}

// -----

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @ping(%g: memref<1024xf32>) {
    %s = memref.alloc() {name = "s"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %s {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    // expected-error @below {{recursive call: @pong -> @ping -> @pong; dsaplan places a callee's tiles above the tiles its callers keep live across the call, which a cycle makes unbounded}}
    func.call @pong(%g) : (memref<1024xf32>) -> ()
    return
  }
  func.func private @pong(%g: memref<1024xf32>) {
    func.call @ping(%g) : (memref<1024xf32>) -> ()
    return
  }
}

// -----

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @indirect(%f: (memref<1024xf32>) -> (), %g: memref<1024xf32>) {
    %s = memref.alloc() {name = "s"} : memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %s {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    // expected-error @below {{indirect call in a module with dsaplan tiles: its callee, and so which tiles it must keep clear of, is unknown (call the function by name)}}
    func.call_indirect %f(%g) : (memref<1024xf32>) -> ()
    memref.copy %s, %g {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}
