//===- ModuleCalls.cpp - The calls between a module's functions -----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/ModuleCalls.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"


using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// The calling chain from `cycle.front()` back to it, for the diagnostic:
/// "@a -> @b -> @a".
std::string describeCycle(ArrayRef<func::FuncOp> cycle) {
  std::string text;
  for (func::FuncOp func : cycle)
    text += "@" + func.getSymName().str() + " -> ";
  func::FuncOp first = cycle.front();
  return text + "@" + first.getSymName().str();
}

/// Orders functions callers first (a depth-first post-order over the calls,
/// reversed), stopping at the first cycle.
class CallOrder {
public:
  CallOrder(const llvm::DenseMap<Operation *, SmallVector<CallOpInterface>> &calls)
      : calls(calls) {}

  /// Visits `func` and its callees; fails with an error on a cycle.
  LogicalResult visit(func::FuncOp func) {
    auto [it, inserted] = state.try_emplace(func, State::Active);
    if (!inserted) {
      if (it->second == State::Done)
        return success();
      return failure(); // the caller reports the cycle
    }
    stack.push_back(func);
    for (CallOpInterface call : calls.lookup(func)) {
      func::FuncOp callee = getCalledFunction(call);
      if (!callee)
        continue;
      if (failed(visit(callee))) {
        if (!reported) {
          reported = true;
          auto start = llvm::find(stack, callee);
          call->emitError()
              << "recursive call: "
              << describeCycle(ArrayRef<func::FuncOp>(&*start, stack.end()))
              << "; dsaplan places a callee's tiles above the tiles its "
                 "callers keep live across the call, which a cycle makes "
                 "unbounded";
        }
        return failure();
      }
    }
    stack.pop_back();
    state[func] = State::Done;
    postOrder.push_back(func);
    return success();
  }

  SmallVector<func::FuncOp> takeCallersFirst() {
    return SmallVector<func::FuncOp>(llvm::reverse(postOrder));
  }

private:
  enum class State { Active, Done };
  const llvm::DenseMap<Operation *, SmallVector<CallOpInterface>> &calls;
  llvm::DenseMap<Operation *, State> state;
  SmallVector<func::FuncOp> stack;
  SmallVector<func::FuncOp> postOrder;
  bool reported = false;
};

} // namespace

FailureOr<ModuleCalls> ModuleCalls::build(ModuleOp module) {
  llvm::DenseMap<Operation *, SmallVector<CallOpInterface>> calls;
  SmallVector<func::FuncOp> functions;
  bool holdsTiles = false;
  CallOpInterface indirect;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    functions.push_back(func);
    func.walk([&](Operation *op) {
      holdsTiles |= isa<AllocOp>(op);
      auto call = dyn_cast<CallOpInterface>(op);
      if (!call)
        return;
      if (getCalledFunction(call))
        calls[func].push_back(call);
      else if (!isa<SymbolRefAttr>(call.getCallableForCallee()) && !indirect)
        indirect = call;
    });
  }
  if (indirect && holdsTiles)
    return indirect->emitError()
           << "indirect call in a module with dsaplan tiles: its callee, and "
              "so which tiles it must keep clear of, is unknown (call the "
              "function by name)";

  // Reverse post-order from every function in module order: a caller
  // precedes its callees; ties stay in module order.
  CallOrder order(calls);
  for (func::FuncOp func : llvm::reverse(functions))
    if (failed(order.visit(func)))
      return failure();

  ModuleCalls result;
  result.callersFirst = order.takeCallersFirst();
  for (func::FuncOp caller : functions)
    for (CallOpInterface call : calls.lookup(caller))
      result.callSites[getCalledFunction(call)].push_back({call, caller});
  return result;
}

ArrayRef<CallSite> ModuleCalls::getCallSites(func::FuncOp callee) const {
  auto it = callSites.find(callee);
  if (it == callSites.end())
    return {};
  return it->second;
}
