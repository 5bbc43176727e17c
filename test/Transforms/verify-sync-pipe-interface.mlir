// RUN: dsa-opt-test %s -dsaplan-verify-sync -verify-diagnostics

// The verifier reads the same interface: without syncs, the V read and the
// MTE2 write of shared bytes are a race.
func.func @race(%gm: memref<8xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %table = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>
  %row = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  // expected-note @below {{the earlier access}}
  dsatest.exp %table, %out : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32>
  // expected-error @below {{unordered write after read: 'dsatest.load' on pipe mte2 and 'dsatest.exp' on pipe v touch bytes [1024, 1056) of ub}}
  dsatest.load %gm, %row : memref<8xf32>, memref<8xf32, #dsaplan.space<ub>>
  return
}
