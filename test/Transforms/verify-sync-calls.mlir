// RUN: dsa-opt %s -split-input-file -dsaplan-verify-sync -verify-diagnostics
// RUN: not dsa-opt %s -split-input-file -dsaplan-simulate="summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIMULATE

// The verifier does not trust dsaplan.settled: a settled call is an access
// of every pipe to every byte, so whatever the caller ran before must be
// ordered before it and whatever it runs after must wait for it, and no
// flag of the caller may be in flight while the callee's own flags run.
// The simulator runs the callee where it is called, on the caller's bytes,
// and finds the same races by running them.

// A correct settlement: nothing to report.
// SIMULATE-NOT: error
// SIMULATE: remark: @settled_ok: simulated 1 run, {{.*}}; 0 findings
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c4096 = arith.constant 4096 : index
    %s = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    dsaplan.pipe_barrier <v>
    linalg.copy {dsaplan.pipe = #dsaplan.pipe<v>} ins(%s : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @settled_ok(%g: memref<1024xf32> {llvm.noalias}, %h: memref<1024xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.barrier_all
    func.call @helper(%a) {dsaplan.settled} : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    dsaplan.barrier_all
    memref.copy %a, %h {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}

// -----

// No barrier_all before the call: the callee's V ops may read %a before
// MTE2 has written it.
// SIMULATE: error: simulated race, read after write on bytes [0, 4096) of ub: 'linalg.exp' on pipe v is not ordered after 'memref.copy' on pipe mte2
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c4096 = arith.constant 4096 : index
    %s = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%s : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @no_barrier_before(%g: memref<1024xf32> {llvm.noalias}, %h: memref<1024xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    // expected-note @below {{the earlier access}}
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    // expected-error @below {{unordered read after write: 'func.call' on pipe s and 'memref.copy' on pipe mte2 touch bytes [0, 4096) of ub}}
    func.call @helper(%a) {dsaplan.settled} : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    dsaplan.barrier_all
    return
  }
}

// -----

// No barrier_all after the call: MTE3 may store %a while the callee's V op
// still writes it.
// SIMULATE: remark: @no_barrier_before: {{.*}} findings
// SIMULATE: error: simulated race, read after write on bytes [0, 4096) of ub: 'memref.copy' on pipe mte3 is not ordered after 'linalg.exp' on pipe v
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>) {
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @no_barrier_after(%g: memref<1024xf32> {llvm.noalias}, %h: memref<1024xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.barrier_all
    // expected-note @below {{the earlier access}}
    func.call @helper(%a) {dsaplan.settled} : (memref<1024xf32, #dsaplan.space<ub>>) -> ()
    // expected-error @below {{unordered read after write: 'memref.copy' on pipe mte3 and 'func.call' on pipe s touch bytes [0, 4096) of ub}}
    memref.copy %a, %h {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<1024xf32, #dsaplan.space<ub>> to memref<1024xf32>
    return
  }
}

// -----

// A flag of the caller in flight across the call: the callee's wait on
// <mte2 -> v> 0 consumes the caller's set, and the caller's wait hangs.
// SIMULATE: remark: @no_barrier_after: {{.*}} findings
// SIMULATE: error: simulated race, read after write on bytes [0, 4096) of ub: 'linalg.exp' on pipe v is not ordered after 'memref.copy' on pipe mte2
// SIMULATE: remark: @flag_in_flight: {{.*}} findings
module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func private @helper(%x: memref<1024xf32, #dsaplan.space<ub>>, %g: memref<1024xf32>) {
    memref.copy %g, %x {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%x : memref<1024xf32, #dsaplan.space<ub>>) outs(%x : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
  func.func @flag_in_flight(%g: memref<1024xf32> {llvm.noalias}, %h: memref<1024xf32> {llvm.noalias}) {
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
    memref.copy %g, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<1024xf32> to memref<1024xf32, #dsaplan.space<ub>>
    // expected-note @below {{the set_flag}}
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.barrier_all
    // expected-error @below {{settled call with event 0 of <mte2 -> v> in flight: the callee's own flags may consume it}}
    func.call @helper(%a, %h) {dsaplan.settled} : (memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32>) -> ()
    dsaplan.barrier_all
    dsaplan.wait_flag <mte2 -> v>, 0
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%b : memref<1024xf32, #dsaplan.space<ub>>) outs(%b : memref<1024xf32, #dsaplan.space<ub>>)
    return
  }
}
