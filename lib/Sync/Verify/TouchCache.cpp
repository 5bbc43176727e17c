//===- TouchCache.cpp - The verifier's byte ranges, measured once ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// What the walk measures once and asks again at every visit (an op in a
// loop is visited once per unrolled iteration and path): an op's touches
// per iteration of the loops its bytes move with, element sizes per data
// layout, and the runs of each on-chip value (Bytes.h).
//
//===----------------------------------------------------------------------===//

#include "Bytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <limits>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

int64_t ElementSizes::bitsOf(Type element, Operation *at) {
  auto holdsLayout = [](Operation *op) {
    return isa<ModuleOp, DataLayoutOpInterface>(op);
  };
  Operation *scope = at;
  Operation *parent = nullptr;
  if (!holdsLayout(at)) {
    // Mostly the answer for the op before: the ops of a block ask of one
    // element type, and the answer depends on the parent alone here.
    parent = at->getParentOp();
    if (parent && parent == lastParent && element == lastElement)
      return lastBits;
    auto [known, first] = scopes.try_emplace(parent, nullptr);
    for (Operation *up = parent; first && up; up = up->getParentOp())
      if (holdsLayout(up)) {
        known->second = up;
        break;
      }
    scope = known->second;
  }
  auto [it, inserted] = bits.try_emplace({scope, element}, 0);
  if (inserted)
    it->second = DataLayout::closest(at).getTypeSizeInBits(element);
  lastParent = parent;
  lastElement = element;
  lastBits = it->second;
  return it->second;
}

namespace {

/// The scf.for induction variables `op`'s touches can depend on: those its
/// operands are computed from (through plain ops, and a loop's lower bound
/// once its variable is), or none when a value may be one of several (a
/// block argument or an op with regions on the way): then every loop
/// around `op` counts.
///
///   %o = arith.muli %i, %c8       // %i: the induction variable of loop L
///   memref.subview %gm[%o] ...    // depends on L's iteration only
std::optional<SmallVector<Value, 2>> inductionVariablesOf(Operation *op) {
  // Values looked at before giving up: long chains count every loop.
  constexpr unsigned kVisitLimit = 64;
  SmallVector<Value, 2> ivs;
  SmallVector<Value> pending(op->getOperands());
  // At most kVisitLimit + 1 values, mostly a handful: a linear search costs
  // less than a hash set's allocation and hashing.
  SmallVector<Value, 16> seen;
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    if (llvm::is_contained(seen, value))
      continue;
    seen.push_back(value);
    if (seen.size() > kVisitLimit)
      return std::nullopt;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa<func::FuncOp>(owner) && arg.getOwner()->isEntryBlock())
        continue;
      auto loop = dyn_cast<scf::ForOp>(owner);
      if (!loop || value != loop.getInductionVar())
        return std::nullopt;
      ivs.push_back(value);
      pending.push_back(loop.getLowerBound());
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getNumRegions())
      return std::nullopt;
    llvm::append_range(pending, def->getOperands());
  }
  return ivs;
}

/// The induction variables of the scf.for loops around `op`, innermost
/// first.
SmallVector<Value, 2> enclosingInductionVariables(Operation *op) {
  SmallVector<Value, 2> ivs;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      ivs.push_back(loop.getInductionVar());
  return ivs;
}

} // namespace

TouchCache::OpEntries &TouchCache::entriesOf(Operation *op) {
  auto [known, inserted] = byOp.try_emplace(op);
  if (!inserted)
    return known->second;
  // An op in no scf.for depends on none (an induction variable is used
  // inside its loop only): most ops of a kernel, whose operand chains are
  // not followed then.
  SmallVector<Value, 2> enclosing = enclosingInductionVariables(op);
  if (enclosing.empty())
    return known->second;
  std::optional<SmallVector<Value, 2>> ivs = inductionVariablesOf(op);
  known->second.ivs = ivs ? std::move(*ivs) : std::move(enclosing);
  return known->second;
}

ArrayRef<Touch> TouchCache::get(Operation *op,
                                const LoopIterations &iterations) {
  OpEntries &known = entriesOf(op);
  // Mostly an op whose bytes move with no loop: its one entry.
  if (known.ivs.empty() && !known.entries.empty())
    return known.entries.front()->touches;
  // A loop the walk has not entered (a walk of the whole function at once)
  // has no entry.
  constexpr int64_t kNotEntered = std::numeric_limits<int64_t>::min();
  SmallVector<int64_t, 2> key;
  for (Value iv : known.ivs) {
    auto it = iterations.find(iv);
    key.push_back(it == iterations.end() ? kNotEntered : it->second);
  }
  for (const Entry *entry : known.entries)
    if (entry->iterations == key)
      return entry->touches;
  const EffectList *kept = nullptr;
  if (lastOp == op) {
    kept = &lastEffects;
  } else if (auto it = effects.find(op); it != effects.end()) {
    kept = &it->second;
  }
  entries.push_back({std::move(key), touchesOf(op, target, iterations, &sizes,
                                               &onChipRuns, kept, &terms)});
  known.entries.push_back(&entries.back());
  // An op whose bytes move with no loop has one entry: its effects are
  // never asked again.
  if (lastOp == op) {
    if (!known.ivs.empty())
      effects.try_emplace(op, std::move(lastEffects));
    lastOp = nullptr;
  }
  return entries.back().touches;
}

bool TouchCache::isMemoryOp(Operation *op) {
  EffectList kept;
  if (!verify::isMemoryOp(op, &kept))
    return false;
  if (kept.empty())
    return true;
  if (lastOp)
    effects.try_emplace(lastOp, std::move(lastEffects));
  lastOp = op;
  lastEffects = std::move(kept);
  return true;
}
