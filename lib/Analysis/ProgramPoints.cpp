//===- ProgramPoints.cpp - The one numbering of a function's ops ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/ProgramPoints.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;
using namespace mlir::dsaplan;

ProgramPoints::ProgramPoints(Operation *root) {
  for (Region &region : root->getRegions())
    numberRegion(region);
}

void ProgramPoints::numberRegion(Region &region) {
  for (Block &block : region)
    for (Operation &op : block) {
      int64_t index = numOps++;
      // Only control flow is looked into: the body of a linalg op (scalar
      // code) is part of the op.
      if (isa<RegionBranchOpInterface>(op))
        for (Region &nested : op.getRegions())
          numberRegion(nested);
      numbers[&op] = {index, numOps - 1};
    }
}

bool ProgramPoints::contains(Operation *op) const {
  if (numbers.count(op))
    return true;
  // Nested in an op that is not control flow (a linalg body): it shares
  // that op's points. Nested in control flow: it would have been numbered.
  Operation *parent = op->getParentOp();
  return parent && !isa<RegionBranchOpInterface>(parent) && contains(parent);
}

const ProgramPoints::Numbers &ProgramPoints::numbered(Operation *op) const {
  for (;; op = op->getParentOp()) {
    assert(op && "op is not nested in the numbered root");
    auto it = numbers.find(op);
    if (it != numbers.end())
      return it->second;
  }
}
