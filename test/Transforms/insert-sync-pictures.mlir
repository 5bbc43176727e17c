// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %s -dsaplan-insert-sync="report-dir=%t" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t/partial_reuse.ub.svg
// RUN: %python %S/Inputs/check_schemas.py %t

// The sync picture is drawn from insert-sync's own input, in its program
// points (two an op, in pre-order: op k reads at 2k and writes at 2k+1; the
// syncs inserted are not numbered): each tile at its view's offset and size
// over its live range, each arrow from the write point of the access its
// set_flag follows to the write point of the access its wait_flag guards.
//
// Three flag pairs, one arrow each (from -> to):
//   <mte2 -> mte3>: a's load (7) -> a's store (13), on a
//   <mte3 -> mte2>: a's store (13) -> b's load (15), b reusing a's bytes
//   <mte2 -> mte3>: b's load (15) -> b's store (17), on b
// IR-LABEL: func.func @partial_reuse
// IR: memref.copy %arg0, %[[A:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// IR-NEXT: dsaplan.set_flag <mte2 -> mte3>
// IR: dsaplan.wait_flag <mte2 -> mte3>
// IR-NEXT: memref.copy %[[A]], %arg1 {dsaplan.pipe = #dsaplan.pipe<mte3>}
// IR-NEXT: dsaplan.set_flag <mte3 -> mte2>
// IR: dsaplan.wait_flag <mte3 -> mte2>
// IR-NEXT: memref.copy %arg2, %[[B:.*]] {dsaplan.pipe = #dsaplan.pipe<mte2>}
// IR-NEXT: dsaplan.set_flag <mte2 -> mte3>
// IR: dsaplan.wait_flag <mte2 -> mte3>
// IR-NEXT: memref.copy %[[B]], %arg3 {dsaplan.pipe = #dsaplan.pipe<mte3>}
func.func @partial_reuse(%gm: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias},
                         %gm2: memref<16xf32> {llvm.noalias}, %out2: memref<16xf32> {llvm.noalias}) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>       // op 0: 0, 1
  %c0 = arith.constant 0 : index                                          // op 1: 2, 3
  %a = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<64xf32, #dsaplan.space<ub>> loc("a")  // op 2: 4, 5; [0, 256)
  memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<64xf32> to memref<64xf32, #dsaplan.space<ub>>      // op 3: 6, 7; a live from 7
  %c128 = arith.constant 128 : index                                      // op 4: 8, 9
  %b = memref.view %ub[%c128][] : memref<196608xi8, #dsaplan.space<ub>> to memref<16xf32, #dsaplan.space<ub>> loc("b")  // op 5: 10, 11; [128, 192)
  memref.copy %a, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<64xf32, #dsaplan.space<ub>> to memref<64xf32>     // op 6: 12, 13; a live to 14
  memref.copy %gm2, %b {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<16xf32> to memref<16xf32, #dsaplan.space<ub>>     // op 7: 14, 15; b live from 15
  memref.copy %b, %out2 {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<16xf32, #dsaplan.space<ub>> to memref<16xf32>    // op 8: 16, 17; b live to 18
  return                                                                  // op 9: 18, 19
}

// The tiles: a over [7, 14); b over [15, 18), inside a's expired bytes but
// not all of them (a partial reuse, outlined in red).
// CHECK: 2 buffers, peak 256 B, lower bound 256 B, capacity 192 KiB, optimal; 3 arrows for the function's 3 set_flag ops, 0 barriers
// CHECK: <rect class="buffer" data-buffer="0" data-name="a" data-offset="0" data-size="256" data-lower="7" data-upper="14"
// CHECK: <rect class="buffer partial-reuse" data-buffer="1" data-name="b" data-offset="128" data-size="64" data-lower="15" data-upper="18"
// The arrows, in the order of their set_flag ops.
// CHECK: <g class="sync" data-pipe="mte2" data-from="7" data-to="13" data-from-name="a" data-to-name="a">
// CHECK: <g class="sync" data-pipe="mte3" data-from="13" data-to="15" data-from-name="a" data-to-name="b">
// CHECK: <g class="sync" data-pipe="mte2" data-from="15" data-to="17" data-from-name="b" data-to-name="b">
