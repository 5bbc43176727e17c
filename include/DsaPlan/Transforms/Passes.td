//===- Passes.td - dsaplan passes --------------------------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PASSES_TD
#define DSAPLAN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DsaPlanImport : Pass<"dsaplan-import", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.alloc/alloca in a dsaplan space into dsaplan.alloc";
  let description = [{
    Every `memref.alloc` or `memref.alloca` whose memory space is a
    `#dsaplan.space<...>` becomes a `dsaplan.alloc`, keeping its alignment
    and its name (a `name` attribute, else the name of its location):

    ```mlir
    %a = memref.alloc() {alignment = 64 : i64, name = "x"}
        : memref<32xf32, #dsaplan.space<ub>>
    // becomes
    %x = dsaplan.alloc {alignment = 64 : i64, name = "x"}
        : memref<32xf32, #dsaplan.space<ub>>
    ```

    Allocations with dynamic sizes cannot be placed statically: they are an
    error naming the op. The matching `memref.dealloc` ops are erased (the
    placed tile is never freed: its bytes return to the pool when its live
    range ends).
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let statistics = [
    Statistic<"numImported", "imported-allocs", "Allocations imported">
  ];
}

#endif // DSAPLAN_TRANSFORMS_PASSES_TD
