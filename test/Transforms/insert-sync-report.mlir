// The sync report lists every sync with the location of its access; in the
// gather example the V -> MTE2 pair orders the table's last read before the
// row loads that reuse its bytes (objective=peak: objective=waits keeps the
// rows off the table, and this pair is not needed).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %examples/gather.mlir --dsa-plan="objective=peak report-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gather_scale.syncs.json
// RUN: test -f %t/gather_scale.ub.svg

// CHECK: "function": "gather_scale"
// CHECK:      "dst": "mte2",
// CHECK-NEXT: "event": {{[0-7]}},
// CHECK-NEXT: "location": "{{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}}",
// CHECK-NEXT: "op": "set_flag",
// CHECK-NEXT: "src": "v"
// CHECK:      "dst": "mte2",
// CHECK-NEXT: "event": {{[0-7]}},
// CHECK-NEXT: "location": "{{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}}",
// CHECK-NEXT: "op": "wait_flag",
// CHECK-NEXT: "src": "v"

// The picture with syncs: an arrow per flag pair, from the access before the
// set to the access after the wait, the V -> MTE2 one among them.
// Its tiles have the placement's names (row0, table_ub), which the views
// of the placed IR keep in their locations, not `%view_N`.
// RUN: FileCheck %s --check-prefix=SVG < %t/gather_scale.ub.sync.svg
// RUN: %python %S/Inputs/check_sync_picture.py %t gather_scale ub | FileCheck %s --check-prefix=PICTURE
// SVG: gather_scale - ub with syncs
// SVG: class="caption"{{.*}}6 buffers, peak 4128 B, capacity 192 KiB; 10 flag pairs, 1 barriers
// SVG: class="barrier" data-pipe="v"
// SVG: class="sync" data-pipe="v"{{.*}}<title>set/wait &lt;v -&gt; mte2&gt;, {{[0-7]}}</title>
// The eleventh set_flag orders GM (MTE3's store to an argument that may be
// the one MTE2 loads from): no UB arrow.
// PICTURE: ub: 10 arrows for 11 set_flags, 1 barriers, 6 tiles named as placed: ok
