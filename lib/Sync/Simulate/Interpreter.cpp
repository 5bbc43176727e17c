//===- Interpreter.cpp - The simulator's scalar unit ----------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Runs the function in program order: scf.for, scf.while, scf.if,
// scf.index_switch, scf.execute_region and calls to functions with a body
// are followed; a pipe op, set_flag, wait_flag, pipe_barrier, barrier_all,
// cross_core_set or cross_core_wait becomes a trace entry (a pipe op is one
// instruction: its regions are not the scalar unit's), on the pipe of the
// core that runs it (Cores.cpp). Values.cpp evaluates the integers and
// views.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Support/CalledFunction.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

namespace {

/// The scalar unit may interpret this many ops per trace entry allowed,
/// so that a loop without pipe ops cannot spin for ever.
constexpr int64_t kStepsPerEntry = 16;

} // namespace

LogicalResult simulator::buildTrace(func::FuncOp func,
                                    const TargetDescription &target,
                                    const SimulationOptions &options,
                                    uint64_t seed, Trace &trace,
                                    std::vector<SimulationFinding> &findings) {
  return TraceBuilder(func, target, options, seed, trace, findings).run();
}

LogicalResult TraceBuilder::unsupported(Operation *op, const Twine &why) {
  SimulationFinding finding;
  finding.kind = FindingKind::Unsupported;
  finding.op = op;
  finding.message = ("cannot simulate '" + op->getName().getStringRef() +
                     "': " + why).str();
  findings.push_back(std::move(finding));
  return failure();
}

const Val &TraceBuilder::get(Value value) {
  static const Val unknown;
  auto it = values.find(value);
  return it == values.end() ? unknown : it->second;
}

/// An integer the scalar unit needs: its value, or a choice in [0, 4) that
/// the value then keeps (until its op runs again).
int64_t TraceBuilder::intOf(Value value) {
  const Val &val = get(value);
  if (val.kind == Val::Int)
    return val.integer.getSExtValue();
  int64_t chosen = rng.uniform(0, 3);
  unsigned width = widthOf(value.getType());
  set(value, Val::ofInt(makeInt(width ? width : 64, chosen)));
  return chosen;
}

int64_t TraceBuilder::intOf(OpFoldResult value) {
  if (auto attr = dyn_cast<Attribute>(value))
    return cast<IntegerAttr>(attr).getInt();
  return intOf(cast<Value>(value));
}

/// A condition: its value, or a fresh choice at every evaluation (the syncs
/// must be right on every path, as the static passes assume).
bool TraceBuilder::condOf(Value value) {
  const Val &val = get(value);
  if (val.kind == Val::Int)
    return !val.integer.isZero();
  return rng.coin();
}

int TraceBuilder::gmMemory(Value root) {
  auto [it, inserted] =
      gmIds.try_emplace(root, kFirstGm + static_cast<int>(gmIds.size()));
  if (inserted) {
    std::string name;
    if (auto arg = dyn_cast<BlockArgument>(root);
        arg && arg.getOwner()->getParentOp() == func)
      name = "gm argument #" + std::to_string(arg.getArgNumber());
    else
      name = "the gm buffer of '" +
             (root.getDefiningOp()
                  ? root.getDefiningOp()->getName().getStringRef().str()
                  : std::string("a block argument")) +
             "'";
    trace.memoryNames[it->second] = name;
  }
  return it->second;
}

LogicalResult TraceBuilder::run() {
  mixed = holdsBothCores();
  trace.crossCoreLimit = target.getCrossCore().counterLimit;
  SmallVector<Val> args;
  size_t integerArg = 0;
  for (BlockArgument arg : func.getArguments()) {
    Type type = arg.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      // A dsaplan-space argument has no address: an access to it is an
      // error at the op that makes it.
      if (getMemorySpace(memref)) {
        args.push_back(Val());
        continue;
      }
      View view = viewOfType(memref, gmMemory(arg));
      SmallVector<ByteRun, 1> runs = runsOf(view, kUnbounded);
      trace.rootBytes[view.memory] =
          view.whole || runs.empty() ? kUnbounded : runs.back().end;
      args.push_back(Val::ofView(view));
      continue;
    }
    unsigned width = widthOf(type);
    if (!width) {
      args.push_back(Val());
      continue;
    }
    size_t k = integerArg++;
    if (k < options.argValues.size())
      args.push_back(Val::ofInt(makeInt(width, options.argValues[k])));
    else if (width == 1)
      args.push_back(Val()); // a condition: chosen at every use
    else
      args.push_back(Val::ofInt(makeInt(width, rng.uniform(0, 3))));
  }
  SmallVector<Val> yielded;
  return runBlock(func.getBody().front(), args, yielded);
}

LogicalResult TraceBuilder::runBlock(Block &block, ArrayRef<Val> args,
                                     SmallVectorImpl<Val> &yielded) {
  for (auto [arg, val] : llvm::zip(block.getArguments(), args))
    set(arg, val);
  for (Operation &op : block.without_terminator()) {
    if (failed(runOp(op)))
      return failure();
    if (stopped())
      return success();
  }
  yielded.clear();
  if (Operation *terminator = block.getTerminator())
    for (Value operand : terminator->getOperands())
      yielded.push_back(get(operand));
  return success();
}

/// Runs a single-block region of `op` and gives `op` its yielded values.
LogicalResult TraceBuilder::runRegion(Operation *op, Region &region,
                                      ArrayRef<Val> args) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return unsupported(op, "a region with several blocks");
  SmallVector<Val> yielded;
  if (failed(runBlock(region.front(), args, yielded)))
    return failure();
  if (stopped())
    return success();
  for (auto [result, val] : llvm::zip(op->getResults(), yielded))
    set(result, val);
  return success();
}

LogicalResult TraceBuilder::runOp(Operation &op) {
  if (++steps > options.maxTraceLength * kStepsPerEntry) {
    trace.gaveUp = true;
    return success();
  }
  if (isa<SetFlagOp, WaitFlagOp, PipeBarrierOp, BarrierAllOp>(op))
    return emitSyncOp(op);
  if (isa<CrossCoreSetOp, CrossCoreWaitOp>(op))
    return emitCrossCore(op);
  // A pipe op is one instruction: its regions (a linalg body) are not the
  // scalar unit's.
  if (std::optional<Pipe> pipe = getOpPipe(&op))
    return emitPipeOp(op, *pipe);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return runFor(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return runWhile(whileOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return runIf(ifOp);
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return runSwitch(switchOp);
  if (auto execute = dyn_cast<scf::ExecuteRegionOp>(op))
    return runRegion(&op, execute.getRegion(), {});
  if (evalArith(op))
    return success();
  if (isa<ViewLikeOpInterface>(op))
    return evalView(op);
  if (auto transpose = dyn_cast<memref::TransposeOp>(op))
    return evalTranspose(transpose);
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (func::FuncOp callee = getCalledFunction(call);
        callee && !callee.isExternal())
      return runCall(op, callee);
  return runOther(op);
}

/// Runs `callee`'s body in place of the call, its arguments bound to the
/// call's operands: the callee's accesses through them reach the caller's
/// bytes, its own tiles the one arena of each space that all functions
/// share. (A call with a `dsaplan.pipe` is one instruction instead.)
LogicalResult TraceBuilder::runCall(Operation &op, func::FuncOp callee) {
  constexpr unsigned kMaxCallDepth = 64;
  if (callDepth >= kMaxCallDepth)
    return unsupported(&op, "calls nested deeper than " +
                                Twine(kMaxCallDepth) + " (recursion?)");
  SmallVector<Val> args;
  for (Value operand : op.getOperands())
    args.push_back(get(operand));
  ++callDepth;
  LogicalResult result = runRegion(&op, callee.getBody(), args);
  --callDepth;
  return result;
}

LogicalResult TraceBuilder::runFor(scf::ForOp op) {
  int64_t lb = intOf(op.getLowerBound()), ub = intOf(op.getUpperBound());
  int64_t step = intOf(op.getStep());
  if (step <= 0)
    return unsupported(op, "a step of " + Twine(step));
  unsigned width = widthOf(op.getInductionVar().getType());
  SmallVector<Val> carried;
  for (Value init : op.getInitArgs())
    carried.push_back(get(init));
  auto below = [&](int64_t iv) {
    return op.getUnsignedCmp() ? static_cast<uint64_t>(iv) < static_cast<uint64_t>(ub)
                               : iv < ub;
  };
  iterations.push_back(0);
  for (int64_t iv = lb; below(iv) && !stopped(); iv += step) {
    SmallVector<Val> args = {Val::ofInt(makeInt(width, iv))};
    args.append(carried.begin(), carried.end());
    SmallVector<Val> yielded;
    if (failed(runBlock(*op.getBody(), args, yielded)))
      return failure();
    carried = std::move(yielded);
    ++iterations.back();
  }
  iterations.pop_back();
  for (auto [result, val] : llvm::zip(op.getResults(), carried))
    set(result, val);
  return success();
}

/// An scf.while whose condition the scalar unit cannot evaluate is a
/// choice at every test, and leaves after `maxWhileIterations`.
LogicalResult TraceBuilder::runWhile(scf::WhileOp op) {
  SmallVector<Val> args;
  for (Value init : op.getInits())
    args.push_back(get(init));
  iterations.push_back(0);
  while (!stopped()) {
    SmallVector<Val> forwarded;
    if (failed(runBlock(op.getBefore().front(), args, forwarded)))
      return failure();
    if (stopped())
      break;
    auto condition = cast<scf::ConditionOp>(op.getBefore().front().getTerminator());
    bool known = get(condition.getCondition()).kind == Val::Int;
    bool stay = condOf(condition.getCondition());
    if (!known && iterations.back() >= options.maxWhileIterations)
      stay = false;
    forwarded.erase(forwarded.begin()); // the condition itself
    if (!stay) {
      for (auto [result, val] : llvm::zip(op.getResults(), forwarded))
        set(result, val);
      break;
    }
    if (failed(runBlock(op.getAfter().front(), forwarded, args)))
      return failure();
    ++iterations.back();
  }
  iterations.pop_back();
  return success();
}

LogicalResult TraceBuilder::runIf(scf::IfOp op) {
  Region &region = condOf(op.getCondition()) ? op.getThenRegion()
                                             : op.getElseRegion();
  return runRegion(op, region, {});
}

LogicalResult TraceBuilder::runSwitch(scf::IndexSwitchOp op) {
  int64_t value = intOf(op.getArg());
  for (auto [k, caseValue] : llvm::enumerate(op.getCases()))
    if (caseValue == value)
      return runRegion(op, op.getCaseRegions()[k], {});
  return runRegion(op, op.getDefaultRegion(), {});
}

/// Ops the scalar unit has no semantics for: harmless unless they have
/// regions or touch a dsaplan space (then no pipe would run them).
LogicalResult TraceBuilder::runOther(Operation &op) {
  if (isa<ArenaOp, AllocOp, memref::AllocOp, memref::AllocaOp>(op))
    return evalRoot(op);
  if (op.getNumRegions())
    return unsupported(&op, "an op with regions and no pipe");
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  bool touchesSpace = llvm::any_of(op.getOperandTypes(), [](Type type) {
    return getMemorySpace(type).has_value();
  });
  if (touchesSpace && (!effects || effects.hasEffect<MemoryEffects::Read>() ||
                       effects.hasEffect<MemoryEffects::Write>()))
    return unsupported(&op, "it touches a dsaplan memory space but has no pipe");
  for (Value result : op.getResults()) {
    auto memref = dyn_cast<MemRefType>(result.getType());
    if (memref && !getMemorySpace(memref))
      set(result, Val::ofView(viewOfType(memref, gmMemory(result))));
    else
      set(result, Val());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Trace entries
//===----------------------------------------------------------------------===//

void TraceBuilder::emit(Entry entry) {
  if (static_cast<int64_t>(trace.entries.size()) >= options.maxTraceLength) {
    trace.gaveUp = true;
    return;
  }
  entry.iterations.assign(iterations.begin(), iterations.end());
  trace.entries.push_back(std::move(entry));
}

void TraceBuilder::emitSync(Operation &op, EntryKind kind, unsigned pipe,
                            FlagKey flag) {
  Entry entry{kind, &op, pipe};
  entry.flag = flag;
  emit(std::move(entry));
}

/// An op on a pipe: a trace entry with the bytes of every memref operand it
/// reads or writes (MemoryEffectOpInterface on that operand; an op without
/// the interface, or with effects on no value, reads and writes them all).
LogicalResult TraceBuilder::emitPipeOp(Operation &op, Pipe pipe) {
  unsigned cores = coresOf(op, target.getPipe(pipe).cores);
  SmallVector<unsigned, 2> bases = unitBases(cores);
  if (bases.size() > 1)
    return unsupported(&op, "on pipe " + stringifyPipe(pipe) +
                                " it may run on the cube or the vector core "
                                "(say which with dsaplan.core)");
  Entry entry{EntryKind::Op, &op, bases.front() + static_cast<unsigned>(pipe)};
  SmallVector<MemoryEffects::EffectInstance> effects;
  auto interface = dyn_cast<MemoryEffectOpInterface>(op);
  if (interface)
    interface.getEffects(effects);
  bool everything =
      !interface || llvm::any_of(effects, [](const auto &effect) {
        return !effect.getValue() &&
               isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect());
      });
  SmallVector<Value> done;
  for (Value operand : op.getOperands()) {
    if (!isa<MemRefType>(operand.getType()) || llvm::is_contained(done, operand))
      continue;
    done.push_back(operand);
    bool read = everything, write = everything;
    for (const MemoryEffects::EffectInstance &effect : effects)
      if (effect.getValue() == operand) {
        read |= isa<MemoryEffects::Read>(effect.getEffect());
        write |= isa<MemoryEffects::Write>(effect.getEffect());
      }
    if ((read || write) && failed(addAccesses(entry, operand, read, write)))
      return failure();
  }
  emit(std::move(entry));
  return success();
}

LogicalResult TraceBuilder::addAccesses(Entry &entry, Value operand, bool read,
                                        bool write) {
  const Val &val = get(operand);
  bool inSpace = getMemorySpace(operand.getType()).has_value();
  if (val.kind != Val::MemRef && inSpace)
    return unsupported(entry.op, "the bytes of an operand cannot be "
                                 "followed to an arena");
  View view = val.kind == Val::MemRef
                  ? val.view
                  : viewOfType(cast<MemRefType>(operand.getType()),
                               gmMemory(operand));
  auto it = trace.rootBytes.find(view.memory);
  int64_t rootBytes = it == trace.rootBytes.end() ? kUnbounded : it->second;
  SmallVector<ByteRun, 1> runs = runsOf(view, rootBytes);
  for (const ByteRun &run : runs) {
    entry.bytes += std::min<int64_t>(run.end - run.begin, 1 << 20);
    if (run.begin < 0 || run.end > rootBytes)
      return unsupported(entry.op,
                         "it touches bytes [" + Twine(run.begin) + ", " +
                             Twine(run.end) + ") outside the " +
                             Twine(rootBytes) + " bytes of " +
                             trace.memoryNames[view.memory]);
  }
  if (!inSpace && !options.checkGm)
    return success();
  if (read)
    entry.accesses.push_back({view.memory, false, runs});
  if (write)
    entry.accesses.push_back({view.memory, true, runs});
  return success();
}
