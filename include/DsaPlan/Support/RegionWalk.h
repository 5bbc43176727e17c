//===- RegionWalk.h - One walk over structured control flow -----*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The one walker the analyses and the sync checks share (the live ranges,
// the sync dependencies, the inserter's cover, OrderChecker and the flags
// in flight at settled calls, and the verifier's SyncChecker). A client
// keeps its own state and says what an op does to it; the walker follows
// the regions the way RegionBranchOpInterface says control flows through
// them, and hands the states of the paths that leave an op to the client
// to merge:
//
//   getControlKind(op)   how control runs the op's regions
//     OneOf              exactly one region runs, or none where the op may
//                        leave without one (scf.if, scf.index_switch): each
//                        from the state before the op
//     Loop               the region graph has a cycle (scf.for, scf.while):
//                        the regions in the order control flows through
//                        them, for the client's number of iterations; the
//                        state is kept wherever control may leave the op
//     Sequence           the regions in order, once (scf.execute_region)
//     Leaf               no control flow (a linalg body is part of its op)
//
//   %r = scf.if %c { A } else { B }    -> merge(s A, s B)
//   scf.if %c { A }                    -> merge(s A, s)
//   scf.for ... { C }    (2 iterations) -> merge(s, s C, s C C)
//   scf.while { B } do { D }  (2)      -> merge(s B, s B D B), D run twice
//
// The client (deriving from RegionWalkClient for the hooks it leaves alone):
//
//   WalkStep step(Operation &, State &);    // Done, Stop or Enter
//   std::optional<State> merge(ArrayRef<State> exits, Operation *at);
//                                           // (or MutableArrayRef: the
//                                           // exits are dropped after it,
//                                           // and it may take from them)
//   bool walksInto(Operation &);            // a Leaf op with regions: walk
//                                           // them in order (else leaf())
//   bool leaf(Operation &, State &);        // a Leaf op entered, not walked
//   bool enterBlock(Block &, State &, Block::iterator &begin,
//                   Block::iterator &end);  // narrow the ops walked, or
//                                           // skip the block (false)
//   void leaveBlock(Block &, State &);      // after the last op walked of
//                                           // a block entered (not when
//                                           // the walk stopped in it)
//   void beginIteration(Operation &loop, unsigned iteration, State &);
//   bool repeatsIteration(Operation &loop, unsigned iteration,
//                         const State &);   // opt-in: end the loop early
//   void endLoop(Operation &loop);          // before the loop's merge
//   static constexpr bool kMovesLastExit;   // opt-in: see below
//   static constexpr unsigned kInlineExits; // exits kept on the stack
//
// A Stop (or a failed merge or leaf) ends the walk: walkBlock and walkOp
// return false. OneOf and Loop run a region's entry block (the project
// lifts unstructured control flow first, SupportedStructure.h); Sequence
// and walksInto run every block in order.
// The loop policy is the number of iterations (the path-wise checks unroll
// three, the dependencies two: enough for iteration i+1 to meet iteration
// i); a client that needs a loop only as a whole (a buffer live across it)
// says so in step() and does not Enter it. A client that can tell the
// iterations left would find nothing new (the verifier's fixed point,
// lib/Sync/Verify/FixedPoint.cpp) answers repeatsIteration: asked before
// each iteration after the first, true leaves the loop there, as if that
// were its last. The default (false) unrolls every iteration.
// A client that sums up each block on its own (the cover: every block
// runs from its own clock, lib/Sync/Insert/Cover.cpp) reads a block's end
// in leaveBlock, called after its last op, inner blocks before the block
// holding them.
// A client that never reads its state after a walk that stopped sets
// kMovesLastExit: the state itself becomes an op's last exit (the merge
// replaces it) instead of a copy of it; a walk that stops may leave it
// moved from.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_REGIONWALK_H
#define DSAPLAN_SUPPORT_REGIONWALK_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace dsaplan {

/// How control runs the regions of an op.
enum class ControlKind { Leaf, Sequence, OneOf, Loop };

/// Asks RegionBranchOpInterface (and LoopLikeOpInterface) how `op` runs its
/// regions; an op with neither interface is a Leaf.
ControlKind getControlKind(Operation *op);

/// Whether `op` repeats its regions: a LoopLikeOpInterface, or a
/// RegionBranchOpInterface with a loop (scf.for, scf.while).
bool isLoopOp(Operation *op);

/// Whether control may enter `op` and leave it without running any of its
/// regions: an scf.if without else, an scf.for of no iteration, or an op
/// that does not say (no RegionBranchOpInterface). Not an scf.while, whose
/// "before" region always runs.
bool mayRunNoRegion(Operation *op);

/// What the client did with an op.
enum class WalkStep {
  Done,  // stepped over it: go on with the next op
  Stop,  // end the walk
  Enter, // the walker follows the op's regions
};

/// The hooks a client may leave as they are.
template <typename State> struct RegionWalkClient {
  bool walksInto(Operation &) { return true; }
  bool leaf(Operation &, State &) { return true; }
  bool enterBlock(Block &, State &, Block::iterator &, Block::iterator &) {
    return true;
  }
  void leaveBlock(Block &, State &) {}
  void beginIteration(Operation &, unsigned, State &) {}
  bool repeatsIteration(Operation &, unsigned, const State &) { return false; }
  void endLoop(Operation &) {}
  static constexpr bool kMovesLastExit = false;
  static constexpr unsigned kInlineExits = 0;
};

template <typename Client, typename State> class RegionWalker {
public:
  RegionWalker(Client &client, unsigned loopIterations)
      : client(client), loopIterations(loopIterations) {}

  /// Walks the ops of `block` (those the client's enterBlock leaves) from
  /// `state`; false when the walk stopped.
  bool walkBlock(Block &block, State &state) {
    Block::iterator begin = block.begin(), end = block.end();
    if (!client.enterBlock(block, state, begin, end))
      return true;
    for (Operation &op : llvm::make_range(begin, end))
      if (!walkOp(op, state))
        return false;
    client.leaveBlock(block, state);
    return true;
  }

  bool walkOp(Operation &op, State &state) {
    WalkStep step = client.step(op, state);
    if (step != WalkStep::Enter)
      return step == WalkStep::Done;
    switch (getControlKind(&op)) {
    case ControlKind::OneOf:
      return walkOneOf(op, state);
    case ControlKind::Loop:
      return walkLoop(op, state);
    case ControlKind::Sequence:
      return walkInOrder(op, state);
    case ControlKind::Leaf:
      break;
    }
    if (op.getNumRegions() && client.walksInto(op))
      return walkInOrder(op, state);
    return client.leaf(op, state);
  }

private:
  /// The states that leave an op: a client whose states are small enough
  /// keeps a few on the stack (each branch and loop allocated them).
  using Exits = SmallVector<State, Client::kInlineExits>;

  bool mergeInto(MutableArrayRef<State> exits, Operation &op, State &state) {
    std::optional<State> merged = client.merge(exits, &op);
    if (!merged)
      return false;
    state = std::move(*merged);
    return true;
  }

  /// Whether the client ends the loop before `iteration` (not the first).
  bool lastIteration(Operation &op, unsigned iteration, const State &state) {
    return iteration && client.repeatsIteration(op, iteration, state);
  }

  /// A region control enters at its first block; an empty one runs nothing.
  bool walkEntryBlock(Region &region, State &state) {
    return region.empty() || walkBlock(region.front(), state);
  }

  bool walkInOrder(Operation &op, State &state) {
    for (Region &region : op.getRegions())
      for (Block &block : region)
        if (!walkBlock(block, state))
          return false;
    return true;
  }

  /// Exactly one region runs, each from the state before the op; the exits
  /// are in region order.
  bool walkOneOf(Operation &op, State &state) {
    Exits exits;
    unsigned count = op.getNumRegions();
    exits.reserve(count);
    for (Region &region : op.getRegions()) {
      addExit(exits, state, exits.size() + 1 == count);
      if (!walkEntryBlock(region, exits.back()))
        return false;
    }
    return mergeInto(exits, op, state);
  }

  /// Adds `state` as an exit: moved when it is the last and the client
  /// allows it, copied otherwise.
  void addExit(Exits &exits, State &state, bool last) {
    if (last && Client::kMovesLastExit)
      exits.push_back(std::move(state));
    else
      exits.push_back(state);
  }

  /// Follows control from region to region as the interface says, until the
  /// first region it entered (the loop's header) would run for the
  /// (loopIterations + 1)-th time; keeps the state wherever control may
  /// leave, in the order it could.
  bool walkLoop(Operation &op, State &state) {
    // One exit before each iteration and one after the last, reserved: the
    // states are not moved as the exits grow.
    Exits exits;
    exits.reserve(loopIterations + 1);
    auto branch = dyn_cast<RegionBranchOpInterface>(op);
    SmallVector<RegionSuccessor> next;
    if (branch)
      branch.getSuccessorRegions(RegionBranchPoint::parent(), next);
    Region *header = nullptr;
    for (unsigned iteration = 0;;) {
      Region *region = nullptr;
      if (!branch) {
        // A LoopLikeOpInterface that does not say how: all its regions in
        // order, left before any iteration or after one.
        bool last =
            iteration == loopIterations || lastIteration(op, iteration, state);
        addExit(exits, state, last);
        if (last)
          break;
        client.beginIteration(op, iteration++, state);
        for (Region &r : op.getRegions())
          if (!walkEntryBlock(r, state))
            return false;
        continue;
      }
      unsigned parentExits = 0;
      for (const RegionSuccessor &successor : next) {
        if (successor.isParent())
          ++parentExits;
        else if (!region)
          region = successor.getSuccessor();
      }
      if (region && !header)
        header = region;
      // Whether control leaves here for good: then these exits are the last.
      bool last = !region || (region == header &&
                              (iteration == loopIterations ||
                               lastIteration(op, iteration, state)));
      for (unsigned i = 0; i < parentExits; ++i)
        addExit(exits, state, last && i + 1 == parentExits);
      if (last)
        break;
      if (region == header)
        client.beginIteration(op, iteration++, state);
      if (!walkEntryBlock(*region, state))
        return false;
      next.clear();
      branch.getSuccessorRegions(*region, next);
    }
    client.endLoop(op);
    return mergeInto(exits, op, state);
  }

  Client &client;
  unsigned loopIterations;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_REGIONWALK_H
