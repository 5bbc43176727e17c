//===- ModuleCalls.h - The calls between a module's functions --*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A core has one UB, one L1, ...: every function of a module shares them. So
// a callee's tiles must stay clear of every tile its callers keep live across
// a call to it, and the passes that plan that (placement, the settling of
// syncs at calls) need the module's calls: who calls whom, from where, and an
// order with every caller before its callees.
//
//   func.func @kernel() {                 // placed first
//     %a = dsaplan.alloc ...              // live across the call
//     func.call @helper(%a)               // a call site of @helper
//   }
//   func.func private @helper(...) {      // placed above %a
//     %scratch = dsaplan.alloc ...
//   }
//
// Recursion is refused (a frame per function above its callers' live tiles
// is unbounded along a cycle), and so is an indirect call in a module with
// tiles (its callee, and so what it keeps clear of, is unknown).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_MODULECALLS_H
#define DSAPLAN_ANALYSIS_MODULECALLS_H

#include "DsaPlan/Support/CalledFunction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace dsaplan {

/// One call of a function defined in the module.
struct CallSite {
  CallOpInterface call;
  func::FuncOp caller;
};

class ModuleCalls {
public:
  /// The calls of `module`; an error naming the call on recursion or on an
  /// indirect call while the module holds dsaplan tiles.
  static FailureOr<ModuleCalls> build(ModuleOp module);

  /// Every function of the module, callers before their callees, otherwise
  /// in module order.
  ArrayRef<func::FuncOp> getCallersFirst() const { return callersFirst; }
  /// The calls of `callee` in the module, in module order; empty for a
  /// function no one calls.
  ArrayRef<CallSite> getCallSites(func::FuncOp callee) const;

private:
  SmallVector<func::FuncOp> callersFirst;
  llvm::DenseMap<Operation *, SmallVector<CallSite, 2>> callSites;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_MODULECALLS_H
