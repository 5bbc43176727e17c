//===- Interpreter.h - The simulator's scalar unit --------------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Simulate.
//
//===----------------------------------------------------------------------===//
//
// The scalar unit interprets the function in program order, evaluating
// arith and scf on concrete values (unknown conditions and integer
// arguments are seeded choices) and following calls into their callees,
// and appends a trace Entry per pipe op, set_flag, wait_flag and
// pipe_barrier, with the byte runs each op reads and writes, computed here
// from the views it evaluated:
//
//   %v = memref.view %ub[%c4096][] : ... to memref<8x32xf32, ub>
//   memref.copy %gm, %v {pipe = mte2}  -> write ub [4096, 5120)
//
// Interpreter.cpp runs the control flow and emits the entries; the values
// (integers and views) are a ValueEvaluator's (Values.h).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_SIMULATE_INTERPRETER_H
#define DSAPLAN_LIB_SYNC_SIMULATE_INTERPRETER_H

#include "Values.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace dsaplan {
namespace simulator {

/// The scalar unit of one run.
class TraceBuilder {
public:
  TraceBuilder(func::FuncOp func, const TargetDescription &target,
               const SimulationOptions &options, uint64_t seed, Trace &trace,
               std::vector<SimulationFinding> &findings)
      : func(func), target(target), options(options), rng(seed), trace(trace),
        findings(findings), values(func, target, rng, trace, findings) {}
  LogicalResult run();

private:
  LogicalResult runBlock(Block &block, ArrayRef<Val> args,
                         SmallVectorImpl<Val> &yielded);
  LogicalResult runRegion(Operation *op, Region &region, ArrayRef<Val> args);
  LogicalResult runOp(Operation &op);
  LogicalResult runFor(scf::ForOp op);
  LogicalResult runWhile(scf::WhileOp op);
  LogicalResult runIf(scf::IfOp op);
  LogicalResult runSwitch(scf::IndexSwitchOp op);
  LogicalResult runOther(Operation &op);
  LogicalResult runCall(Operation &op, func::FuncOp callee);

  /// Cores (Cores.cpp): whether the function holds ops of both cores; the
  /// cores an op of `pipeCores` runs on (its dsaplan.core, the spaces of
  /// its memref operands); the first unit of each of them.
  bool holdsBothCores();
  unsigned coresOf(Operation &op, unsigned pipeCores);
  SmallVector<unsigned, 2> unitBases(unsigned cores) const;
  LogicalResult emitSyncOp(Operation &op);
  LogicalResult emitCrossCore(Operation &op);

  LogicalResult emitPipeOp(Operation &op, Pipe pipe);
  LogicalResult addAccesses(Entry &entry, Value operand, bool read, bool write);
  void emitSync(Operation &op, EntryKind kind, unsigned pipe, FlagKey flag);
  void emit(Entry entry);

  LogicalResult unsupported(Operation *op, const Twine &why) {
    return reportUnsupported(findings, op, why);
  }
  bool stopped() const { return trace.gaveUp; }

  func::FuncOp func;
  const TargetDescription &target;
  const SimulationOptions &options;
  Random rng;
  Trace &trace;
  std::vector<SimulationFinding> &findings;
  ValueEvaluator values;
  SmallVector<int64_t, 4> iterations;
  int64_t steps = 0;
  unsigned callDepth = 0;
  /// The function holds ops of both cores: the vector core's pipes are the
  /// units from kNumPipes on.
  bool mixed = false;
};

} // namespace simulator
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_SIMULATE_INTERPRETER_H
