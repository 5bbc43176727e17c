// An out-of-tree dialect `acme` with one op, `acme.load`, that copies GM into
// a tile on MTE2. Its pipe comes from an external PipeOpInterface model, not
// from an attribute on every op. The toolchain's own pipeline,
// `--acme-pipeline`, runs dsaplan's through the public C++ entry
// (buildDsaPlanPipeline) with its options set in code.
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Transforms/Passes.h"
#include "DsaPlan/Transforms/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace acme {

/// `acme.load %src, %dst : type, type`: reads %src, writes %dst.
class LoadOp : public Op<LoadOp, OpTrait::ZeroResults, OpTrait::NOperands<2>::Impl,
                         MemoryEffectOpInterface::Trait> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "acme.load"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
  void getEffects(
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
    effects.emplace_back(MemoryEffects::Read::get(), &getOperation()->getOpOperand(0));
    effects.emplace_back(MemoryEffects::Write::get(), &getOperation()->getOpOperand(1));
  }
  static ParseResult parse(OpAsmParser &parser, OperationState &result) {
    SmallVector<OpAsmParser::UnresolvedOperand, 2> operands;
    SmallVector<Type, 2> types;
    if (parser.parseOperandList(operands, 2) || parser.parseColonTypeList(types) ||
        parser.resolveOperands(operands, types, parser.getNameLoc(), result.operands))
      return failure();
    return success();
  }
  void print(OpAsmPrinter &printer) {
    printer << ' ' << getOperation()->getOperands() << " : "
            << getOperation()->getOperandTypes();
  }
};

class AcmeDialect : public Dialect {
public:
  explicit AcmeDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context, TypeID::get<AcmeDialect>()) {
    addOperations<LoadOp>();
  }
  static StringRef getDialectNamespace() { return "acme"; }
};

/// The external model: every acme.load runs on MTE2.
struct LoadPipeModel
    : public mlir::dsaplan::PipeOpInterface::ExternalModel<LoadPipeModel, LoadOp> {
  mlir::dsaplan::Pipe getPipe(Operation *) const { return mlir::dsaplan::Pipe::mte2; }
};

/// The toolchain's pipeline: dsaplan's, placed exactly and keeping the
/// placed allocs (the toolchain reads their offsets).
void buildAcmePipeline(OpPassManager &pm) {
  mlir::dsaplan::DsaPlanPipelineOptions options;
  options.algorithm = ::dsaplan::solver::Algorithm::Exact;
  options.keepAllocs = true;
  mlir::dsaplan::buildDsaPlanPipeline(pm, options);
}

} // namespace acme

MLIR_DECLARE_EXPLICIT_TYPE_ID(acme::AcmeDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(acme::AcmeDialect)

int main(int argc, char **argv) {
  DialectRegistry registry;
  registry.insert<acme::AcmeDialect, mlir::dsaplan::DsaPlanDialect, arith::ArithDialect,
                  func::FuncDialect, linalg::LinalgDialect, memref::MemRefDialect,
                  scf::SCFDialect>();
  registry.addExtension(+[](MLIRContext *context, acme::AcmeDialect *) {
    acme::LoadOp::attachInterface<acme::LoadPipeModel>(*context);
  });
  mlir::dsaplan::registerDsaPlanPasses();
  mlir::dsaplan::registerDsaPlanPipeline();
  PassPipelineRegistration<>("acme-pipeline",
                             "dsaplan's pipeline as the acme toolchain runs it",
                             acme::buildAcmePipeline);
  return asMainReturnCode(MlirOptMain(argc, argv, "consumer-opt\n", registry));
}
