//===- PathWalk.h - Walk structured control flow path by path ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The walk the happens-before checks share (the inserter's OrderChecker and
// the verifier's SyncChecker): a state flows through the ops of a block in
// order; at a region op the walk follows every path the op can take and
// merges the states at its end:
//
//   scf.if, scf.index_switch  exactly one region runs: each from the state
//                             before the op (an empty region runs nothing)
//   scf.for                   the body unrolled kIterations times; the loop
//                             is left before the first iteration or after
//                             any of them
//   scf.while                 "before" then "do", kIterations times; the
//                             loop is left after any "before"
//   any other region op the client walks into: its regions in order.
//
//   %r = scf.if %c { A } else { B }    -> merge(state after A, after B)
//   scf.for ... { C }                  -> merge(s, s C, s C C, s C C C)
//
// The client keeps its own state and says what an op does to it:
//
//   PathStep visit(Operation &, State &);   // Done, Stop or Structure
//   bool walksInto(Operation &);            // a Structure op not listed above
//   bool leaf(Operation &, State &);        // a Structure op it does not walk
//   std::optional<State> merge(ArrayRef<State>, Operation *at);
//
// A Stop (or a failed merge or leaf) ends the walk: walk() returns false.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_PATHWALK_H
#define DSAPLAN_SUPPORT_PATHWALK_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>
#include <vector>

namespace mlir {
namespace dsaplan {

/// What the client did with an op.
enum class PathStep {
  Done,     // stepped over it: go on with the next op
  Stop,     // end the walk
  Structure // not its business: the walker follows the op's regions
};

template <typename Client, typename State> class PathWalker {
public:
  /// Iterations a loop is unrolled to.
  static constexpr int kIterations = 3;

  explicit PathWalker(Client &client) : client(client) {}

  /// Walks the ops of `block` from `state`; false when the walk stopped.
  bool walkBlock(Block &block, State &state) {
    for (Operation &op : block)
      if (!walkOp(op, state))
        return false;
    return true;
  }

  bool walkOp(Operation &op, State &state) {
    PathStep step = client.visit(op, state);
    if (step != PathStep::Structure)
      return step == PathStep::Done;
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
      return walkOneOf(op, state);
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return walkFor(forOp, state);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return walkWhile(whileOp, state);
    if (op.getNumRegions() && client.walksInto(op)) {
      for (Region &region : op.getRegions())
        for (Block &block : region)
          if (!walkBlock(block, state))
            return false;
      return true;
    }
    return client.leaf(op, state);
  }

private:
  bool mergeInto(ArrayRef<State> exits, Operation &op, State &state) {
    std::optional<State> merged = client.merge(exits, &op);
    if (!merged)
      return false;
    state = std::move(*merged);
    return true;
  }

  bool walkOneOf(Operation &op, State &state) {
    std::vector<State> exits;
    exits.reserve(op.getNumRegions());
    for (Region &region : op.getRegions()) {
      exits.push_back(state);
      if (!region.empty() && !walkBlock(region.front(), exits.back()))
        return false;
    }
    return mergeInto(exits, op, state);
  }

  bool walkFor(scf::ForOp forOp, State &state) {
    std::vector<State> exits;
    exits.reserve(kIterations + 1);
    exits.push_back(state);
    for (int i = 0; i < kIterations; ++i) {
      if (!walkBlock(*forOp.getBody(), state))
        return false;
      exits.push_back(state);
    }
    return mergeInto(exits, *forOp, state);
  }

  bool walkWhile(scf::WhileOp whileOp, State &state) {
    std::vector<State> exits;
    exits.reserve(kIterations);
    for (int i = 0; i < kIterations; ++i) {
      if (!walkBlock(whileOp.getBefore().front(), state))
        return false;
      exits.push_back(state);
      if (!walkBlock(whileOp.getAfter().front(), state))
        return false;
    }
    return mergeInto(exits, *whileOp, state);
  }

  Client &client;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_PATHWALK_H
