// The memory map and the JSON report agree with each other and with the IR:
// one rectangle per live interval at the coordinates the placement gives,
// partial reuses marked. objective=peak: the row tiles reuse the table's
// bytes (objective=waits keeps them apart, and nothing is partial).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %examples/gather.mlir --dsaplan-import --dsaplan-compute-lifetimes --dsaplan-assign-offsets="objective=peak report-dir=%t" -o %t/placed.mlir
// RUN: %python %S/Inputs/check_report.py %t gather_scale %t/placed.mlir | FileCheck %s
// RUN: %python %S/Inputs/check_schemas.py %t
// RUN: FileCheck %s --check-prefix=JSON < %t/gather_scale.json
// RUN: FileCheck %s --check-prefix=SVG < %t/gather_scale.ub.svg

// CHECK: ub: 6 buffers, 6 rectangles, peak 4128, lower bound 4128: ok
// The 32-byte row tiles take bytes of the expired 4 KiB table.
// JSON: "name": "table_ub"
// JSON: "partial_reuse": false
// JSON-NEXT: "location": "{{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}}"
// JSON: "name": "row0"
// JSON: "partial_reuse": true
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// The UB capacity is far above what is used: the chart zooms and says so.
// SVG: capacity 192 KiB, optimal (capacity above the chart)
// SVG: class="tick-label" {{.*}}>4 KiB</text>
// SVG: class="buffer partial-reuse{{( min-size)?}}" data-buffer="2" data-name="row0"
// SVG-SAME: <title>row0: 32 B at [{{[0-9]+}}, {{[0-9]+}}), live [{{.*}})
// SVG-NEXT: {{.*}}gather.mlir:{{[0-9]+}}:{{[0-9]+}}
// SVG: class="peak"
// SVG: class="legend"
