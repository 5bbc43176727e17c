//===- Values.h - The simulator's integers, views and byte runs -*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Simulate.
//
//===----------------------------------------------------------------------===//
//
// What the scalar unit computes besides control flow, on concrete values:
// integers (arith on APInt, so that every width wraps as the hardware's
// does), views (the root memory, base address and strided layout of a
// memref value) and the byte runs a view covers.
//
//   %c4096 = arith.constant 4096 : index       -> Int 4096
//   %v = memref.view %ub[%c4096][] : ... to memref<8x32xf32, ub>
//                                              -> View ub, base 4096, 8x32
//   runsOf(view of %v)                         -> ub [4096, 5120)
//
// The interpreter (Interpreter.h) runs the control flow and asks a
// ValueEvaluator for the values; the evaluator knows nothing of control
// flow or of the trace's entries.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_SIMULATE_VALUES_H
#define DSAPLAN_LIB_SYNC_SIMULATE_VALUES_H

#include "Trace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// Files a finding that the simulator cannot follow `op` (because `why`)
/// and fails.
LogicalResult reportUnsupported(std::vector<SimulationFinding> &findings,
                                Operation *op, const Twine &why);

/// The values of one run of the scalar unit: what each SSA value holds at
/// this point of the execution, and the roots (arenas, GM buffers) the
/// views lead to, which it names in the trace.
class ValueEvaluator {
public:
  ValueEvaluator(func::FuncOp func, const TargetDescription &target,
                 Random &rng, Trace &trace,
                 std::vector<SimulationFinding> &findings)
      : func(func), target(target), rng(rng), trace(trace), findings(findings) {
  }

  /// The value `value` holds; Unknown when nothing set it.
  const Val &get(Value value) const;
  void set(Value value, Val val) { values[value] = std::move(val); }
  /// An integer the scalar unit needs: its value, or a choice in [0, 4)
  /// that the value then keeps (until its op runs again).
  int64_t intOf(Value value);
  int64_t intOf(OpFoldResult value);
  /// A condition: its value, or a fresh choice at every evaluation.
  bool condOf(Value value);
  /// The memory number of a GM root, named in the trace when first met.
  int gmMemory(Value root);

  /// Evaluates an arith op on integers; false when `op` is not one.
  bool evalArith(Operation &op);
  /// The view of a view-like op's result.
  LogicalResult evalView(Operation &op);
  LogicalResult evalTranspose(memref::TransposeOp op);
  /// The view of a root: an arena, a placed tile or a GM alloc.
  LogicalResult evalRoot(Operation &op);

private:
  std::optional<APInt> evalBinary(Operation &op, const APInt &a,
                                  const APInt &b);
  LogicalResult evalSubView(memref::SubViewOp op, const View &source);
  LogicalResult unsupported(Operation *op, const Twine &why) {
    return reportUnsupported(findings, op, why);
  }

  func::FuncOp func;
  const TargetDescription &target;
  Random &rng;
  Trace &trace;
  std::vector<SimulationFinding> &findings;
  DenseMap<Value, Val> values;
  DenseMap<Value, int> gmIds;
};

} // namespace simulator
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_SIMULATE_VALUES_H
