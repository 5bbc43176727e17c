//===- DsaTestDialect.cpp - A foreign dialect for the sync tests ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The dsatest ops carry no dsaplan attribute: their pipes come from external
// models of dsaplan's PipeOpInterface, attached when the dialect loads.
//
//   dsatest.load %gm, %tile : memref<8xf32>, memref<8xf32, #dsaplan.space<ub>>
//   // runs on MTE2 for dsaplan-insert-sync and dsaplan-verify-sync
//
//===----------------------------------------------------------------------===//

#include "DsaTestDialect.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::dsaplan::test;

#include "DsaTestDialect.cpp.inc"

#define GET_OP_CLASSES
#include "DsaTestOps.cpp.inc"

void DsaTestDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "DsaTestOps.cpp.inc"
      >();
}

namespace {

/// Every instance of `OpTy` runs on `kPipe`.
template <typename OpTy, mlir::dsaplan::Pipe kPipe>
struct FixedPipeModel
    : public mlir::dsaplan::PipeOpInterface::ExternalModel<
          FixedPipeModel<OpTy, kPipe>, OpTy> {
  mlir::dsaplan::Pipe getPipe(Operation *) const { return kPipe; }
};

} // namespace

namespace mlir::dsaplan::test {

void registerTestDialect(DialectRegistry &registry) {
  registry.insert<DsaTestDialect>();
  registry.addExtension(+[](MLIRContext *context, DsaTestDialect *) {
    LoadOp::attachInterface<FixedPipeModel<LoadOp, Pipe::mte2>>(*context);
    ExpOp::attachInterface<FixedPipeModel<ExpOp, Pipe::v>>(*context);
    StoreOp::attachInterface<FixedPipeModel<StoreOp, Pipe::mte3>>(*context);
  });
}

} // namespace mlir::dsaplan::test
