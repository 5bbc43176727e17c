//===- DsaTestOps.td - A foreign dialect for the sync tests -*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Three ops of a dialect that knows nothing of dsaplan: they declare their
// memory effects, and get their pipes from PipeOpInterface external models
// (DsaTestDialect.cpp), the way a toolchain's own dialect would.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TEST_DSATESTOPS_TD
#define DSAPLAN_TEST_DSATESTOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DsaTest_Dialect : Dialect {
  let name = "dsatest";
  let cppNamespace = "::mlir::dsaplan::test";
  let summary = "A foreign dialect whose ops run on pipes by external models";
}

class DsaTest_CopyLikeOp<string mnemonic>
    : Op<DsaTest_Dialect, mnemonic, []> {
  let arguments = (ins Arg<AnyMemRef, "read", [MemRead]>:$source,
                       Arg<AnyMemRef, "written", [MemWrite]>:$target);
  let assemblyFormat = [{
    $source `,` $target attr-dict `:` type($source) `,` type($target)
  }];
}

def DsaTest_LoadOp : DsaTest_CopyLikeOp<"load"> {
  let summary = "GM to an on-chip tile (MTE2 by its external model)";
}
def DsaTest_ExpOp : DsaTest_CopyLikeOp<"exp"> {
  let summary = "elementwise exp between tiles (V by its external model)";
}
def DsaTest_StoreOp : DsaTest_CopyLikeOp<"store"> {
  let summary = "an on-chip tile to GM (MTE3 by its external model)";
}

#endif // DSAPLAN_TEST_DSATESTOPS_TD
