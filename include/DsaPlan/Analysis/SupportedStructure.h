//===- SupportedStructure.h - Control flow the analyses model ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The lifetime and sync analyses follow structured control flow: single-block
// regions, scf.if/scf.index_switch branches and the sequential loops scf.for
// and scf.while. What they cannot follow is refused with an error naming the
// op, rather than planned or synced as if it were straight-line code:
//
//   - a region with several blocks (a function body split by cf.br, a
//     cf.cond_br diamond, scf.execute_region with branches);
//   - scf.forall and scf.parallel, whose iterations may run in any order;
//   - other loops (affine.for, ...), which no sync walk models.
//
// `--dsa-plan` first makes the first two shapes structured
// (dsaplan-lift-control-flow) and gives tiles carried across iterations
// rotating slots (dsaplan-rotate-carried); a pass run on its own still
// refuses them.
//
// Only ops and regions that hold dsaplan memory (an operand, result or block
// argument in a dsaplan space, or a view of one) are refused. A function
// declaration (no body) has nothing to check.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_ANALYSIS_SUPPORTEDSTRUCTURE_H
#define DSAPLAN_ANALYSIS_SUPPORTEDSTRUCTURE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace dsaplan {

/// Whether anything in `region` names dsaplan memory: an operand, result or
/// block argument in a dsaplan space, or a view of one.
bool holdsDsaPlanMemory(Region &region);

/// Whether any region of `op` holds dsaplan memory.
bool holdsDsaPlanMemory(Operation *op);

/// Emits one error per op of `function` whose control flow the analyses do
/// not model (see above); fails if there was any.
LogicalResult checkSupportedStructure(Operation *function);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_ANALYSIS_SUPPORTEDSTRUCTURE_H
