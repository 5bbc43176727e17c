// RUN: dsa-opt-test %s -split-input-file -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt-test %s -split-input-file -dsaplan-insert-sync | dsa-opt-test -split-input-file -dsaplan-verify-sync

// Ops of a foreign dialect (test/lib/Dialect/Test) get their pipes from
// PipeOpInterface external models: dsatest.load on MTE2, dsatest.exp on V,
// dsatest.store on MTE3. None of them carries a dsaplan.pipe attribute.
//
// The partial-overlap case: a 4 KiB table [0, 4096) read by V, then a 32-byte
// row loaded by MTE2 into [1024, 1056): a V -> MTE2 pair, though the two
// tiles are different buffers. Then the row is read by V: MTE2 -> V.
// CHECK-LABEL: func.func @partial_overlap
// CHECK:      dsatest.exp %{{.*}}, %arg1
// CHECK-NEXT: dsaplan.set_flag <v -> mte2>, 0
// CHECK-NEXT: dsaplan.wait_flag <v -> mte2>, 0
// CHECK-NEXT: dsatest.load %arg0, %[[ROW:view_[0-9]+]] :
// CHECK-NEXT: dsaplan.set_flag <mte2 -> v>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte2 -> v>, 0
// CHECK-NEXT: dsatest.exp %[[ROW]], %arg0
func.func @partial_overlap(%gm: memref<8xf32>, %out: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %table = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<1024xf32, #dsaplan.space<ub>>  // [0, 4096)
  %row = memref.view %ub[%c1024][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>    // [1024, 1056)
  dsatest.exp %table, %out : memref<1024xf32, #dsaplan.space<ub>>, memref<1024xf32>
  dsatest.load %gm, %row : memref<8xf32>, memref<8xf32, #dsaplan.space<ub>>
  dsatest.exp %row, %gm : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32>
  return
}

// -----

// A dsaplan.pipe attribute takes precedence over the interface: this store
// runs on the scalar pipe, so the V -> S pair replaces V -> MTE3.
// CHECK-LABEL: func.func @attribute_wins
// CHECK:      dsatest.exp
// CHECK-NEXT: dsaplan.set_flag <v -> s>, 0
// CHECK-NEXT: dsaplan.wait_flag <v -> s>, 0
// CHECK-NEXT: dsatest.store {{.*}} {dsaplan.pipe = #dsaplan.pipe<s>}
func.func @attribute_wins(%gm: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  dsatest.exp %gm, %t : memref<8xf32>, memref<8xf32, #dsaplan.space<ub>>
  dsatest.store %t, %gm {dsaplan.pipe = #dsaplan.pipe<s>} : memref<8xf32, #dsaplan.space<ub>>, memref<8xf32>
  return
}
