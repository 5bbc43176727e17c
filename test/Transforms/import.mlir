// RUN: dsa-opt %s -split-input-file -dsaplan-import | FileCheck %s

// memref.alloc/alloca in a dsaplan space become dsaplan.alloc, keeping the
// name (attribute, else location name) and the alignment; everything else
// is left alone, and deallocs of imported buffers go away.

// CHECK-LABEL: func.func @import
func.func @import(%gm: memref<64xf32>) {
  // CHECK: %x_tile = dsaplan.alloc {name = "x_tile"} : memref<64xf32, #dsaplan.space<ub>>
  %a = memref.alloc() {name = "x_tile"} : memref<64xf32, #dsaplan.space<ub>>
  // CHECK: %acc = dsaplan.alloc {alignment = 1024 : i64, name = "acc"} : memref<16x16xf32, #dsaplan.space<l0c>>
  %b = memref.alloc() {alignment = 1024 : i64} : memref<16x16xf32, #dsaplan.space<l0c>> loc("acc")
  // CHECK: %[[C:.*]] = dsaplan.alloc : memref<16x16xf16, #dsaplan.space<l1>>
  %c = memref.alloca() : memref<16x16xf16, #dsaplan.space<l1>>
  // CHECK: %[[GM:.*]] = memref.alloc() : memref<64xf32>
  %d = memref.alloc() : memref<64xf32>
  // CHECK: memref.copy %{{.*}}, %x_tile
  memref.copy %gm, %a : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
  // CHECK-NOT: memref.dealloc %x_tile
  memref.dealloc %a : memref<64xf32, #dsaplan.space<ub>>
  // CHECK: memref.dealloc %[[GM]]
  memref.dealloc %d : memref<64xf32>
  return
}

// -----

// Names found inside fused and call-site locations.
// CHECK-LABEL: func.func @fused_location
// CHECK: dsaplan.alloc {name = "y_tile"}
func.func @fused_location() {
  %a = memref.alloc() : memref<64xf32, #dsaplan.space<ub>> loc(fused["file.py":3:4, "y_tile"])
  return
}
