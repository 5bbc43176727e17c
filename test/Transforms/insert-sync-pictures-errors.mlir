// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="report-dir=%t/file/dir" -verify-diagnostics
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="report-dir=%t/reports" -o /dev/null
// RUN: ls %t/reports | FileCheck %s --check-prefix=FILES --implicit-check-not=.svg

// The sync pictures need nothing but the IR: no placement report, no marks
// on the ops. A function with tiles gets a picture per space; one without
// tiles (GM only) gets its syncs report and no picture.
// FILES: no_tiles.syncs.json
// FILES: tiles.syncs.json
// FILES: tiles.ub.svg

// A directory that cannot be made: the error names it.
// expected-error-re @below {{cannot create the directory '{{.*}}file/dir': }}
func.func @tiles(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}

// -----

// expected-error-re @below {{cannot create the directory '{{.*}}file/dir': }}
func.func @no_tiles(%gm: memref<8xf32>, %out: memref<8xf32>) {
  memref.copy %gm, %out {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32>
  return
}
