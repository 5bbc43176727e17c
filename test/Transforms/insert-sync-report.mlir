// The sync report lists every sync with the location of its access; in the
// gather example the V -> MTE2 pair orders the table's last read before the
// row loads that reuse its bytes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: dsa-opt %examples/gather.mlir --dsa-plan="report-dir=%t" -o /dev/null
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
