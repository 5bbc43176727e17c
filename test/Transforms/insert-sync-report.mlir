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

// One picture per space: the placement's tiles (names, offsets and sizes
// of the JSON report), drawn by insert-sync from its own input over the
// live ranges in that input's program points, with an arrow per flag pair
// that orders two accesses of UB, from the access the set follows to the
// access the wait guards, and a mark per barrier. The V -> MTE2 pair orders the table's
// last read before the load of row0 into its bytes.
// RUN: FileCheck %s --check-prefix=SVG < %t/gather_scale.ub.svg
// RUN: %python %S/Inputs/check_pictures.py %t gather_scale | FileCheck %s --check-prefix=PICTURE
// SVG: gather_scale - ub
// SVG: class="caption"{{.*}}6 buffers, peak 4128 B, lower bound 4128 B, capacity 192 KiB, optimal; 11 arrows for the function's 11 set_flag ops, 1 barriers
// SVG: class="barrier" data-pipe="v"
// SVG: class="sync" data-pipe="v" {{.*}} data-from-name="table_ub" data-to-name="row0"><title>set_flag &lt;v -&gt; mte2&gt;, {{[0-7]}} at {{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}}, wait_flag at
// SVG-NEXT: table_ub: linalg.generic (v, {{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}})
// SVG-NEXT: before row0: memref.copy (mte2, {{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}})</title>
// PICTURE: ub: 6 tiles, 11 arrows (0 to the next iteration, 0 with an end on no tile), 1 barriers, peak 4128: ok

// The matmul's loop: its pairs around the back edge (MTE1 reads a_l1_ping,
// the next iteration's MTE2 load writes it) are drawn to the next iteration.
// RUN: dsa-opt %examples/matmul.mlir --dsa-plan="report-dir=%t/matmul" -o /dev/null
// RUN: %python %S/Inputs/check_schemas.py %t
// RUN: %python %S/Inputs/check_pictures.py %t/matmul matmul_128x128x256 | FileCheck %s --check-prefix=MATMUL
// MATMUL-DAG: l1: 4 tiles, 8 arrows (4 to the next iteration, 0 with an end on no tile), 0 barriers, peak 65536: ok
// MATMUL-DAG: l0a: 2 tiles, 4 arrows (2 to the next iteration, 0 with an end on no tile), 2 barriers, peak 32768: ok
// MATMUL-DAG: l0b: 2 tiles, 4 arrows (2 to the next iteration, 0 with an end on no tile), 2 barriers, peak 32768: ok
// MATMUL-DAG: l0c: 1 tiles, 1 arrows (0 to the next iteration, 0 with an end on no tile), 2 barriers, peak 65536: ok
