//===- DsaPlanBase.td - dsaplan dialect definition ---------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLANBASE_TD
#define DSAPLAN_DIALECT_DSAPLANBASE_TD

include "mlir/IR/OpBase.td"

def DsaPlan_Dialect : Dialect {
  let name = "dsaplan";
  let cppNamespace = "::mlir::dsaplan";
  let summary = "Static buffer placement and pipe synchronisation for Ascend NPUs";
  let description = [{
    The `dsaplan` dialect places every on-chip tile of an Ascend kernel (UB,
    L1, L0A, L0B, L0C, BT) at a fixed byte offset. Its allocations carry live
    ranges and offsets, its constraint ops say which buffers must never share
    bytes or must share an offset, and its sync ops mirror the hardware's
    set_flag/wait_flag/pipe_barrier between pipes.

    Discardable attributes understood on other ops:
    - `dsaplan.pipe = #dsaplan.pipe<...>`: the pipe an op runs on;
    - `dsaplan.target = #dsaplan.target<...>`: on a module, the target;
    - `dsaplan.core = #dsaplan.core<cube|vector>`: on an op, the core that
      runs it, where its pipe and spaces leave that open in a function
      holding ops of both cores;
    - `dsaplan.buffers = N : i64` (1 to 4) or `"auto"`: on an allocation in
      a loop body, its number of rotating slots (`dsaplan-multi-buffer`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute giving an op's pipe.
    static constexpr ::llvm::StringLiteral getPipeAttrName() {
      return ::llvm::StringLiteral("dsaplan.pipe");
    }
    /// Name of the discardable attribute giving the core an op runs on.
    static constexpr ::llvm::StringLiteral getCoreAttrName() {
      return ::llvm::StringLiteral("dsaplan.core");
    }
    /// Name of the discardable module attribute giving the target.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("dsaplan.target");
    }
    /// Name of the unit attribute an op carries when its outputs may reuse
    /// its inputs' bytes (the op reads each element before writing it).
    static constexpr ::llvm::StringLiteral getInPlaceAttrName() {
      return ::llvm::StringLiteral("dsaplan.in_place");
    }
    /// Name of the unit attribute on a call that dsaplan-settle-calls
    /// drained on both sides: the callee is synchronised on its own.
    static constexpr ::llvm::StringLiteral getSettledAttrName() {
      return ::llvm::StringLiteral("dsaplan.settled");
    }
    /// Name of the attribute giving an allocation's number of slots.
    static constexpr ::llvm::StringLiteral getBuffersAttrName() {
      return ::llvm::StringLiteral("dsaplan.buffers");
    }
    /// Largest explicit number of slots.
    static constexpr int64_t kMaxBuffers = 4;
  }];
}

class DsaPlan_Op<string mnemonic, list<Trait> traits = []>
    : Op<DsaPlan_Dialect, mnemonic, traits>;

#endif // DSAPLAN_DIALECT_DSAPLANBASE_TD
