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
// Interpreter.cpp runs the control flow and emits the entries; Values.cpp
// evaluates integers (arith) and views.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_SIMULATE_INTERPRETER_H
#define DSAPLAN_LIB_SYNC_SIMULATE_INTERPRETER_H

#include "Trace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/APInt.h"

namespace mlir {
namespace dsaplan {
namespace simulator {

/// Where a memref's elements are: a root memory (a space, or a GM buffer),
/// the byte address in it of the descriptor's base pointer, and a strided
/// layout in elements. Element (i, j) is at
/// base + (offset + i * strides[0] + j * strides[1]) * elementBytes.
struct View {
  int memory = -1;
  bool whole = false; // layout unknown: every byte of the root
  int64_t base = 0;
  int64_t offset = 0;
  int64_t elementBytes = 1;
  SmallVector<int64_t, 4> sizes, strides;
};

struct Val {
  enum Kind { Unknown, Int, MemRef } kind = Unknown;
  APInt integer;
  View view;
  static Val ofInt(APInt value) {
    Val v;
    v.kind = Int;
    v.integer = std::move(value);
    return v;
  }
  static Val ofView(View view) {
    Val v;
    v.kind = MemRef;
    v.view = std::move(view);
    return v;
  }
};


/// An integer of `width` bits holding `value` (truncated to fit).
APInt makeInt(unsigned width, int64_t value);

/// Bits of an integer or index type; 0 for anything else.
unsigned widthOf(Type type);

/// Bytes of one element of `type`, when it is an integer, index or float.
std::optional<int64_t> elementBytesOf(Type type);

/// The strides, in elements, of a contiguous row-major array of `sizes`.
SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> sizes);

/// The view of a whole buffer of `type` at the start of `memory`: exact when
/// the type has a static shape and strided layout, else every byte.
View viewOfType(MemRefType type, int memory);

/// The contiguous byte runs a view covers, e.g. the 8 rows of 32 bytes of
/// an 8x8xf32 subview of a 64x8xf32 tile at [8, 0]; all `rootBytes` bytes
/// of the root when the layout is unknown.
SmallVector<ByteRun, 1> runsOf(const View &view, int64_t rootBytes);

/// The scalar unit of one run.
class TraceBuilder {
public:
  TraceBuilder(func::FuncOp func, const TargetDescription &target,
               const SimulationOptions &options, uint64_t seed, Trace &trace,
               std::vector<SimulationFinding> &findings)
      : func(func), target(target), options(options), rng(seed),
        trace(trace), findings(findings) {}
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

  bool evalArith(Operation &op);
  std::optional<APInt> evalBinary(Operation &op, const APInt &a, const APInt &b);
  LogicalResult evalView(Operation &op);
  LogicalResult evalTranspose(memref::TransposeOp op);
  LogicalResult evalSubView(memref::SubViewOp op, const View &source);
  LogicalResult evalRoot(Operation &op);

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

  const Val &get(Value value);
  void set(Value value, Val val) { values[value] = std::move(val); }
  int64_t intOf(Value value);
  int64_t intOf(OpFoldResult value);
  bool condOf(Value value);
  int gmMemory(Value root);
  LogicalResult unsupported(Operation *op, const Twine &why);
  bool stopped() const { return trace.gaveUp; }

  func::FuncOp func;
  const TargetDescription &target;
  const SimulationOptions &options;
  Random rng;
  Trace &trace;
  std::vector<SimulationFinding> &findings;
  DenseMap<Value, Val> values;
  DenseMap<Value, int> gmIds;
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
