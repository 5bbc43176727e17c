// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync | FileCheck %s
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync -dsaplan-verify-sync -o /dev/null
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="mode=reuse-only" | FileCheck %s --check-prefix=REUSE

// Global memory is ordered like the on-chip spaces: per root buffer (a
// function argument reached through views), by byte range where the views
// are static. Each case writes GM from UB on MTE3 and reads it back into
// another UB tile on MTE2; the two tiles are disjoint, so any flag below is
// for GM. The syncs expected are written beside the input.
// Reuse-only mode leaves GM to the toolchain, like same-tile dependencies.
// REUSE-NOT: dsaplan.set_flag

// CHECK-LABEL: func.func @store_then_load
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT: dsaplan.set_flag <mte3 -> mte2>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// CHECK-NEXT: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
func.func @store_then_load(%gm: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %s = memref.subview %gm[128] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: 128>>
  memref.copy %a, %s {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1], offset: 128>>
                                              // writes %gm bytes [512, 768)
                                              // set_flag <mte3 -> mte2>
                                              // wait_flag <mte3 -> mte2>
  memref.copy %s, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 128>> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads them back: RAW
  return
}

// -----

// CHECK-LABEL: func.func @disjoint_ranges
// CHECK-NOT: dsaplan.set_flag
// CHECK: return
func.func @disjoint_ranges(%gm: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %lo = memref.subview %gm[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  %hi = memref.subview %gm[64] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: 64>>
  memref.copy %a, %lo {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
                                              // writes %gm bytes [0, 256)
                                              // (no flag: other bytes)
  memref.copy %hi, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 64>> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads [256, 512)
  return
}

// -----

// Two arguments may be one buffer: the caller may pass it twice.
// CHECK-LABEL: func.func @aliasing_arguments
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT: dsaplan.set_flag <mte3 -> mte2>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// CHECK-NEXT: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
func.func @aliasing_arguments(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %xs = memref.subview %x[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  %ys = memref.subview %y[512] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: 512>>
  memref.copy %a, %xs {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
                                              // writes %x bytes [0, 256)
                                              // set_flag <mte3 -> mte2>
                                              // wait_flag <mte3 -> mte2>
  memref.copy %ys, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: 512>> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads %y [2048, 2304): %y
                                              // may start anywhere in %x
  return
}

// -----

// llvm.noalias: no other argument shares a byte with it.
// CHECK-LABEL: func.func @noalias_arguments
// CHECK-NOT: dsaplan.set_flag
// CHECK: return
func.func @noalias_arguments(%x: memref<1024xf32> {llvm.noalias}, %y: memref<1024xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %xs = memref.subview %x[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  %ys = memref.subview %y[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  memref.copy %a, %xs {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
                                              // writes %x (no flag)
  memref.copy %ys, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1]>> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads %y: another buffer
  return
}

// -----

// A dynamic offset: the subview may be anywhere in %gm.
// CHECK-LABEL: func.func @dynamic_subview
// CHECK:      memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT: dsaplan.set_flag <mte3 -> mte2>, 0
// CHECK-NEXT: dsaplan.wait_flag <mte3 -> mte2>, 0
// CHECK-NEXT: memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
func.func @dynamic_subview(%gm: memref<1024xf32>, %i: index) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %lo = memref.subview %gm[0] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1]>>
  %any = memref.subview %gm[%i] [64] [1] : memref<1024xf32> to memref<64xf32, strided<[1], offset: ?>>
  memref.copy %a, %lo {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32, strided<[1]>>
                                              // writes %gm [0, 256)
                                              // set_flag <mte3 -> mte2>
                                              // wait_flag <mte3 -> mte2>
  memref.copy %any, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads somewhere in %gm
  return
}

// -----

// A GM buffer allocated in the kernel is nobody else's: an argument never
// shares its bytes.
// CHECK-LABEL: func.func @fresh_buffer
// CHECK-NOT: dsaplan.set_flag
// CHECK: return
func.func @fresh_buffer(%x: memref<64xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %scratch = memref.alloc() : memref<64xf32>
  memref.copy %a, %scratch {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
                                              // writes the fresh buffer
  memref.copy %x, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
                                              // reads %x (no flag)
  return
}

// -----

// Around a loop: iteration i+1's load of the row MTE3 stored in iteration
// i needs the store's flag (set before the loop, waited after it).
// CHECK-LABEL: func.func @loop_carried
// CHECK:      scf.for
// CHECK:        dsaplan.wait_flag <mte3 -> mte2>
// CHECK-NEXT:   memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte2>}
// CHECK:        memref.copy {{.*}} {dsaplan.pipe = #dsaplan.pipe<mte3>}
// CHECK-NEXT:   dsaplan.set_flag <mte3 -> mte2>
func.func @loop_carried(%gm: memref<64xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  %b = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a : memref<64xf32, #dsaplan.space<ub>>) outs(%b : memref<64xf32, #dsaplan.space<ub>>)
    memref.copy %b, %gm {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>
  }
  return
}
