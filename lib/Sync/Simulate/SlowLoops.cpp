//===- SlowLoops.cpp - Why a simulated loop overlapped little -------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulate/SlowLoops.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

using Kind = ExecutedEntry::Kind;

/// "12:5" of an op, or its name when it has no file location.
std::string where(Operation *op) {
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    return llvm::formatv("{0}:{1}", file.getLine(), file.getColumn()).str();
  return op->getName().getStringRef().str();
}

std::string pipeName(unsigned pipe) {
  return stringifyPipe(static_cast<Pipe>(pipe)).str();
}

/// Cycles the entry at `index` held its pipe: a wait from reaching it to
/// passing it; a barrier from the issue of its pipe's previous entry to
/// passing it (what the pipe's earlier ops still had to finish).
int64_t stallOf(const ExecutedRun &run, size_t index) {
  const ExecutedEntry &entry = run.entries[index];
  if (entry.start < 0 || entry.end < entry.start)
    return 0;
  if (entry.kind == Kind::Wait)
    return entry.end - entry.start;
  if (entry.kind != Kind::Barrier)
    return 0;
  for (size_t i = index; i-- > 0;)
    if (run.entries[i].pipe == entry.pipe && run.entries[i].start >= 0)
      return std::max<int64_t>(0, entry.start - run.entries[i].start - 1);
  return 0;
}

/// The nearest pipe op of `pipe` from `index` in `step` direction.
const ExecutedEntry *nearestOp(const ExecutedRun &run, int64_t index,
                               int64_t step, unsigned pipe) {
  for (int64_t i = index + step; i >= 0 && i < (int64_t)run.entries.size();
       i += step)
    if (run.entries[i].kind == Kind::Op && run.entries[i].pipe == pipe)
      return &run.entries[i];
  return nullptr;
}

/// Whether two executed ops touched a byte in common, one writing it.
bool conflictInRun(const ExecutedEntry &a, const ExecutedEntry &b) {
  for (const ExecutedEntry::Access &x : a.accesses)
    for (const ExecutedEntry::Access &y : b.accesses) {
      if (x.memory != y.memory || (!x.write && !y.write))
        continue;
      for (const ExecutedEntry::Run &r : x.runs)
        for (const ExecutedEntry::Run &s : y.runs)
          if (r.begin < s.end && s.begin < r.end)
            return true;
    }
  return false;
}

/// The function arguments outside the dsaplan spaces (GM) that `op`
/// touches through views, with whether it may write them.
SmallVector<std::pair<BlockArgument, bool>> gmArgumentsOf(Operation *op) {
  SmallVector<std::pair<BlockArgument, bool>> args;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (!isa<BaseMemRefType>(value.getType()) || getMemorySpace(value.getType()))
      continue;
    for (int hops = 0; hops < 64; ++hops) {
      auto view = value.getDefiningOp<ViewLikeOpInterface>();
      if (!view)
        break;
      value = view.getViewSource();
    }
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      continue;
    bool writes = !effects || effects.getEffectOnValue<MemoryEffects::Write>(
                                  operand.get()).has_value();
    args.push_back({arg, writes});
  }
  return args;
}

bool isNoAlias(BlockArgument arg) {
  auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func.getArgAttr(arg.getArgNumber(), "llvm.noalias") != nullptr;
}

/// "GM ordering through arguments #0 and #1, ..." when the ops `before`
/// and `after` (which share no byte in the run) touch two different GM
/// arguments that may alias, one of them writing.
std::string gmAliasCause(const ExecutedEntry &before,
                         const ExecutedEntry &after) {
  for (auto [a, writesA] : gmArgumentsOf(before.op))
    for (auto [b, writesB] : gmArgumentsOf(after.op)) {
      if (a == b || (!writesA && !writesB) || isNoAlias(a) || isNoAlias(b))
        continue;
      return llvm::formatv(
                 "GM ordering through arguments #{0} and #{1}, which may "
                 "alias: '{2}' at {3} ({4}) then '{5}' at {6} ({7}) share no "
                 "byte in this run; mark them llvm.noalias if the caller never "
                 "passes one buffer as both",
                 a.getArgNumber(), b.getArgNumber(), before.op->getName(),
                 where(before.op), pipeName(before.pipe), after.op->getName(),
                 where(after.op), pipeName(after.pipe))
          .str();
    }
  return "";
}

/// Whether the set_flag of `wait` is the op right before it: nothing ran
/// on the waiting pipe between the two.
bool setRightBefore(const ExecutedEntry &wait) {
  auto set = dyn_cast_or_null<SetFlagOp>(wait.op->getPrevNode());
  return set && static_cast<unsigned>(set.getSrc()) == wait.flagSrc &&
         static_cast<unsigned>(set.getDst()) == wait.flagDst &&
         static_cast<int64_t>(set.getEvent()) == wait.flagId;
}

/// What the wait at `index` ordered: the nearest op of the setting pipe
/// before the set it took, and of its own pipe after it.
std::string waitCause(const ExecutedRun &run, size_t index) {
  const ExecutedEntry &wait = run.entries[index];
  const ExecutedEntry *before =
      wait.consumed < 0 ? nullptr
                        : nearestOp(run, wait.consumed, -1, wait.flagSrc);
  const ExecutedEntry *after = nearestOp(run, index, 1, wait.pipe);
  if (before && after && conflictInRun(*before, *after))
    return llvm::formatv("'{0}' at {1} needs '{2}' at {3}: the kernel's own "
                         "dataflow (more buffers would let them overlap)",
                         after->op->getName(), where(after->op),
                         before->op->getName(), where(before->op))
        .str();
  if (before && after)
    if (std::string gm = gmAliasCause(*before, *after); !gm.empty())
      return gm;
  if (setRightBefore(wait))
    return "its set_flag is right before it and orders no byte the next op "
           "needs: a handshake or a set moved late for want of an event id "
           "(event-id pressure), or the fallback pair of a loop without "
           "pairs around its back edge (scf.while)";
  if (!before || !after)
    return "it holds " + pipeName(wait.pipe) + " until the work " +
           pipeName(wait.flagSrc) + " issued before its set_flag has "
           "finished, and no later " + pipeName(wait.pipe) +
           " op of this run touches it";
  return llvm::formatv("it orders '{0}' at {1} before '{2}' at {3}, which "
                       "share no byte in this run",
                       before->op->getName(), where(before->op),
                       after->op->getName(), where(after->op))
      .str();
}

} // namespace

SlowLoops::SlowLoops(const ExecutedRun &run) : run(run) {
  for (size_t i = 0; i < run.entries.size(); ++i) {
    const ExecutedEntry &entry = run.entries[i];
    if ((entry.kind != Kind::Wait && entry.kind != Kind::Barrier) || !entry.op)
      continue;
    int64_t stall = stallOf(run, i);
    // Charged to every op around it: the loops asked about are among them.
    for (Operation *around = entry.op->getParentOp(); around;
         around = around->getParentOp()) {
      auto &[cycles, longest] =
          stallsAround[around].insert({entry.op, {0, i}}).first->second;
      if (stall > stallOf(run, longest))
        longest = i;
      cycles += stall;
    }
  }
}

std::string SlowLoops::explain(Operation *loop) const {
  static const Stalls none;
  auto found = stallsAround.find(loop);
  const Stalls &stalls = found == stallsAround.end() ? none : found->second;
  Operation *worst = nullptr;
  std::pair<int64_t, size_t> top{0, 0};
  for (auto &[op, stall] : stalls)
    if (stall.first > top.first) {
      worst = op;
      top = stall;
    }
  if (!worst)
    return "no sync in it stalled: its own ops limit it";
  const ExecutedEntry &entry = run.entries[top.second];
  std::string sync =
      entry.kind == Kind::Barrier
          ? "pipe_barrier <" + pipeName(entry.pipe) + ">"
          : "wait_flag <" + pipeName(entry.flagSrc) + " -> " +
                pipeName(entry.flagDst) + ">";
  std::string text = llvm::formatv("held back by {0} at {1}, {2} cycles "
                                   "stalled",
                                   sync, where(worst), top.first)
                         .str();
  std::string cause = entry.kind == Kind::Wait
                          ? waitCause(run, top.second)
                          : "its pipe's earlier ops must finish first";
  return cause.empty() ? text : text + ": " + cause;
}
