// RUN: rm -rf %t && mkdir -p %t/empty && echo '{"schema_version": 1, "instance": "unmarked", "pools": []}' > %t/empty/unmarked.json && echo '{"schema_version": 1, "instance": "stale", "pools": []}' > %t/empty/stale.json
// RUN: dsa-opt %s -split-input-file -dsaplan-insert-sync="report-dir=%t/empty" -verify-diagnostics
// RUN: not dsa-opt %s -split-input-file -dsaplan-insert-sync="report-dir=%t/empty" 2>/dev/null | FileCheck %s
// RUN: %python %S/Inputs/check_schemas.py %t/empty

// The sync pictures draw on the memory maps of the placement: the access ops
// must carry the placement's program points, and the placement report must
// be there to draw again.

// Placed (there is a report) without mark-points: the syncs go in, the
// pictures stay as placed.
// expected-warning @below {{the memory maps of @unmarked are left without syncs: no op carries the placement's program points (dsaplan-assign-offsets mark-points, which --dsa-plan sets with report-dir)}}
func.func @unmarked(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}
// CHECK-LABEL: func.func @unmarked
// CHECK: dsaplan.set_flag <mte2 -> mte3>

// -----

// Marked, but the report directory has no <function>.json to draw again.
// expected-error @below {{cannot read the placement report '}}
func.func @no_report(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c0 = arith.constant 0 : index
  %t = memref.view %ub[%c0][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>, dsaplan.report_point = 6 : i64} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>, dsaplan.report_point = 8 : i64} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}

// -----

// Neither marks nor a placement report (no tiles to place): nothing to draw,
// and nothing to say.
func.func @no_tiles(%gm: memref<8xf32>, %out: memref<8xf32>) {
  memref.copy %gm, %out {dsaplan.pipe = #dsaplan.pipe<mte2>} : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Marked, but the report is of another placement (here: of none): not drawn
// on, whatever an earlier run left in the directory.
func.func @stale(%gm: memref<8xf32>, %out: memref<8xf32>) {
  %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
  %c64 = arith.constant 64 : index
  // expected-error-re @below {{the placement report '{{.*}}stale.json' is not of this IR: its tile at [64, 96) of ub is none of the report's buffers}}
  %t = memref.view %ub[%c64][] : memref<196608xi8, #dsaplan.space<ub>> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %gm, %t {dsaplan.pipe = #dsaplan.pipe<mte2>, dsaplan.report_point = 6 : i64} : memref<8xf32> to memref<8xf32, #dsaplan.space<ub>>
  memref.copy %t, %out {dsaplan.pipe = #dsaplan.pipe<mte3>, dsaplan.report_point = 8 : i64} : memref<8xf32, #dsaplan.space<ub>> to memref<8xf32>
  return
}
