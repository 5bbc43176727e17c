// RUN: dsa-opt %s -split-input-file -dsaplan-materialize | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-materialize=keep-allocs=true | FileCheck %s --check-prefix=KEEP

// One arena per used space, at the top of the function; each placed alloc
// becomes a view of its arena at the alloc's offset.

// CHECK-LABEL: func.func @two_spaces
// CHECK-NEXT:    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
// CHECK-NEXT:    %l1 = dsaplan.arena <l1> : memref<524288xi8, #dsaplan.space<l1>>
// CHECK-NEXT:    %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %ub[%[[C4096]]][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32x32xf32, #dsaplan.space<ub>>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %l1[%[[C0]]][] : memref<524288xi8, #dsaplan.space<l1>> to memref<64x64xf16, #dsaplan.space<l1>>
// CHECK-NEXT:    %[[C8192:.*]] = arith.constant 8192 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %ub[%[[C8192]]][] : memref<196608xi8, #dsaplan.space<ub>> to memref<32x32xf32, #dsaplan.space<ub>>
// CHECK-NOT:     dsaplan.separate
// CHECK-NEXT:    memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT:    memref.copy %[[A]], %[[C]]

// KEEP-LABEL: func.func @two_spaces
// KEEP-NOT:     dsaplan.arena
// KEEP:         %a = dsaplan.alloc {name = "a", offset = 4096 : i64}
// KEEP-NOT:     dsaplan.separate
func.func @two_spaces(%gm: memref<32x32xf32>) {
  %a = dsaplan.alloc {name = "a", offset = 4096 : i64} : memref<32x32xf32, #dsaplan.space<ub>>   // [4096, 8192) of UB
  %b = dsaplan.alloc {name = "b", offset = 0 : i64} : memref<64x64xf16, #dsaplan.space<l1>>      // [0, 8192) of L1
  %c = dsaplan.alloc {name = "c", offset = 8192 : i64} : memref<32x32xf32, #dsaplan.space<ub>>   // [8192, 12288) of UB
  dsaplan.separate %a, %c : memref<32x32xf32, #dsaplan.space<ub>>, memref<32x32xf32, #dsaplan.space<ub>>
  memref.copy %gm, %a : memref<32x32xf32> to memref<32x32xf32, #dsaplan.space<ub>>
  memref.copy %a, %c : memref<32x32xf32, #dsaplan.space<ub>> to memref<32x32xf32, #dsaplan.space<ub>>
  return
}

// -----

// The arena has the capacity of the target's space, overrides included.
// CHECK-LABEL: func.func @overridden_capacity
// CHECK: dsaplan.arena <ub> : memref<65536xi8, #dsaplan.space<ub>>
module attributes {dsaplan.target = #dsaplan.target<"ascend910b", {ub = {capacity = 65536}}>} {
  func.func @overridden_capacity() {
    %a = dsaplan.alloc {offset = 1024 : i64} : memref<256xf32, #dsaplan.space<ub>>
    return
  }
}

// -----

// Allocs inside regions become views where they stand; the arena is at the
// top of the function.
// CHECK-LABEL: func.func @inside_loop
// CHECK-NEXT:    %ub = dsaplan.arena <ub>
// CHECK:         scf.for
// CHECK-NEXT:      %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:      memref.view %ub[%[[C512]]][]
func.func @inside_loop(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    %t = dsaplan.alloc {offset = 512 : i64} : memref<128xf32, #dsaplan.space<ub>>
  }
  return
}
