//===- DsaPlanInterfaces.td - dsaplan op interfaces --------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLANINTERFACES_TD
#define DSAPLAN_DIALECT_DSAPLANINTERFACES_TD

include "mlir/IR/OpBase.td"

def DsaPlan_PipeOpInterface : OpInterface<"PipeOpInterface"> {
  let cppNamespace = "::mlir::dsaplan";
  let description = [{
    An op that runs on one hardware pipe. Other dialects attach it as an
    external model so that their ops take part in placement and sync without
    a `dsaplan.pipe` attribute on every instance:

    ```c++
    struct MyCopyPipeModel
        : dsaplan::PipeOpInterface::ExternalModel<MyCopyPipeModel, MyCopyOp> {
      dsaplan::Pipe getPipe(Operation *op) const { return dsaplan::Pipe::mte2; }
    };
    registry.addExtension(+[](MLIRContext *ctx, MyDialect *) {
      MyCopyOp::attachInterface<MyCopyPipeModel>(*ctx);
    });
    ```

    A `dsaplan.pipe` attribute on an op takes precedence over the interface.
  }];
  let methods = [
    InterfaceMethod<"The pipe this op runs on.", "::mlir::dsaplan::Pipe",
                    "getPipe", (ins)>
  ];
}

#endif // DSAPLAN_DIALECT_DSAPLANINTERFACES_TD
