//===- Simulator.cpp - Pipe-level execution of a synchronised kernel ------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Three stages per run, each on the output of the one before:
//
//   TraceBuilder   the scalar unit: interprets the function, evaluating arith
//                  and scf on concrete values (unknown conditions and integer
//                  arguments are seeded choices), and appends an Entry per
//                  pipe op, set_flag, wait_flag and pipe_barrier, with the
//                  byte runs each op reads and writes, computed here from
//                  the views it evaluated;
//   PipeSimulator  the pipes: an event-driven timing model of in-order
//                  issue, flags of one bit and barriers; finds overruns
//                  (lost signals), hangs and flags left set, and records the
//                  order in which the entries took effect;
//   RaceChecker    vector clocks over that order, and a shadow of memory
//                  per byte range: conflicting accesses that neither orders.
//
// Nothing here includes or calls the inserter, the pruning, the verifier or
// lib/Analysis: agreement between this and them is evidence, not an echo.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulate/Simulator.h"
#include "DsaPlan/Support/CalledFunction.h"
#include "DsaPlan/Support/SegmentMap.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Sync/Simulate/IdealSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <map>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr unsigned kScalarPipe = static_cast<unsigned>(Pipe::s);
/// Memories: the dsaplan spaces by their enum value, GM buffers from here on.
constexpr int kFirstGm = 16;
/// A byte range standing for "all of an unbounded GM buffer".
constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();
/// More contiguous runs than this and an access counts as the range from
/// its first byte to its last.
constexpr int64_t kMaxRuns = 4096;
/// The scalar unit may interpret this many ops per trace entry allowed,
/// so that a loop without pipe ops cannot spin for ever.
constexpr int64_t kStepsPerEntry = 16;

/// SplitMix64: the same numbers on every machine and standard library
/// (std::uniform_int_distribution is not specified bit for bit).
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool coin() { return next() & 1; }

private:
  uint64_t state;
};

//===----------------------------------------------------------------------===//
// Values of the scalar unit
//===----------------------------------------------------------------------===//

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
APInt makeInt(unsigned width, int64_t value) {
  return APInt(width, static_cast<uint64_t>(value), /*isSigned=*/value < 0,
               /*implicitTrunc=*/true);
}

/// Bits of an integer or index type; 0 for anything else.
unsigned widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

std::optional<int64_t> elementBytesOf(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

SmallVector<int64_t, 4> rowMajorStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t, 4> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

/// The view of a whole buffer of `type` at the start of `memory`: exact when
/// the type has a static shape and strided layout, else every byte.
View viewOfType(MemRefType type, int memory) {
  View view;
  view.memory = memory;
  SmallVector<int64_t> strides;
  int64_t offset;
  std::optional<int64_t> bytes = elementBytesOf(type.getElementType());
  if (!bytes || !type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic)) {
    view.whole = true;
    return view;
  }
  view.elementBytes = *bytes;
  view.offset = offset;
  view.sizes.assign(type.getShape().begin(), type.getShape().end());
  view.strides.assign(strides.begin(), strides.end());
  return view;
}

//===----------------------------------------------------------------------===//
// Byte runs
//===----------------------------------------------------------------------===//

struct ByteRun {
  int64_t begin = 0, end = 0;
};

/// The dims of `view` that matter: dims of one element dropped, and a dim
/// merged into the one outside it when the two are contiguous.
void collapseDims(const View &view, SmallVectorImpl<int64_t> &sizes,
                  SmallVectorImpl<int64_t> &strides) {
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 1)
      continue;
    if (!sizes.empty() && strides.back() == view.sizes[d] * view.strides[d]) {
      sizes.back() *= view.sizes[d];
      strides.back() = view.strides[d];
      continue;
    }
    sizes.push_back(view.sizes[d]);
    strides.push_back(view.strides[d]);
  }
}

/// Sorts runs and merges those that overlap or touch.
SmallVector<ByteRun, 1> mergeRuns(std::vector<int64_t> &starts, int64_t length) {
  llvm::sort(starts);
  SmallVector<ByteRun, 1> runs;
  for (int64_t start : starts) {
    if (!runs.empty() && start <= runs.back().end)
      runs.back().end = std::max(runs.back().end, start + length);
    else
      runs.push_back({start, start + length});
  }
  return runs;
}

/// The contiguous byte runs a view covers, e.g. the 8 rows of 32 bytes of
/// an 8x8xf32 subview of a 64x8xf32 tile at [8, 0].
SmallVector<ByteRun, 1> runsOf(const View &view, int64_t rootBytes) {
  if (view.whole)
    return {{0, rootBytes}};
  if (llvm::is_contained(view.sizes, 0))
    return {};
  SmallVector<int64_t, 4> sizes, strides;
  collapseDims(view, sizes, strides);
  int64_t eb = view.elementBytes;
  int64_t first = view.base + view.offset * eb;
  if (sizes.empty())
    return {{first, first + eb}};
  // Innermost stride 1: whole rows are runs; otherwise single elements.
  bool rows = strides.back() == 1;
  size_t outer = rows ? sizes.size() - 1 : sizes.size();
  int64_t length = (rows ? sizes.back() : 1) * eb;
  int64_t count = 1;
  for (size_t d = 0; d < outer && count <= kMaxRuns; ++d)
    count *= sizes[d];
  if (count > kMaxRuns) {
    int64_t lo = 0, hi = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      lo += std::min<int64_t>(0, (sizes[d] - 1) * strides[d]);
      hi += std::max<int64_t>(0, (sizes[d] - 1) * strides[d]);
    }
    return {{first + lo * eb, first + (hi + 1) * eb}};
  }
  std::vector<int64_t> starts;
  starts.reserve(count);
  SmallVector<int64_t, 4> index(outer, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t at = 0;
    for (size_t d = 0; d < outer; ++d)
      at += index[d] * strides[d];
    starts.push_back(first + at * eb);
    for (size_t d = outer; d-- > 0;) // the next index, last dim fastest
      if (++index[d] < sizes[d])
        break;
      else
        index[d] = 0;
  }
  return mergeRuns(starts, length);
}

//===----------------------------------------------------------------------===//
// The trace
//===----------------------------------------------------------------------===//

/// In the order of ExecutedEntry::Kind. A BarrierAll entry is issued by the
/// scalar unit and queued on every pipe.
enum class EntryKind { Op, Set, Wait, Barrier, BarrierAll };

/// (src pipe, dst pipe, event id).
using FlagKey = std::tuple<unsigned, unsigned, int64_t>;

struct Access {
  int memory;
  bool write;
  SmallVector<ByteRun, 1> runs;
};

struct Entry {
  EntryKind kind;
  Operation *op;
  unsigned pipe;
  FlagKey flag{};
  SmallVector<Access, 2> accesses;
  /// Iteration numbers of the enclosing loops, outermost first.
  SmallVector<int64_t, 2> iterations;
  int64_t bytes = 0;
};

struct Trace {
  std::vector<Entry> entries;
  bool gaveUp = false;
  DenseMap<int, int64_t> rootBytes;
  DenseMap<int, std::string> memoryNames;
};

std::string pipeName(unsigned pipe) {
  return stringifyPipe(static_cast<Pipe>(pipe)).str();
}

std::string flagName(const FlagKey &key) {
  return "event " + std::to_string(std::get<2>(key)) + " of <" +
         pipeName(std::get<0>(key)) + " -> " + pipeName(std::get<1>(key)) +
         ">";
}

/// " in iteration 3", " in iterations 1, 0" (outermost loop first), or "".
std::string iterationText(const Entry &entry) {
  if (entry.iterations.empty())
    return "";
  std::string text =
      entry.iterations.size() == 1 ? " in iteration " : " in iterations ";
  for (size_t i = 0; i < entry.iterations.size(); ++i)
    text += (i ? ", " : "") + std::to_string(entry.iterations[i]);
  return text;
}

/// "'linalg.exp' on pipe v in iteration 2".
std::string describe(const Entry &entry) {
  return "'" + entry.op->getName().getStringRef().str() + "' on pipe " +
         pipeName(entry.pipe) + iterationText(entry);
}

//===----------------------------------------------------------------------===//
// The scalar unit: interpret the function, emit the trace
//===----------------------------------------------------------------------===//

class TraceBuilder {
public:
  TraceBuilder(func::FuncOp func, const SimulationOptions &options,
               uint64_t seed, Trace &trace,
               std::vector<SimulationFinding> &findings)
      : func(func), options(options), rng(seed), trace(trace),
        findings(findings) {}
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
  const SimulationOptions &options;
  Random rng;
  Trace &trace;
  std::vector<SimulationFinding> &findings;
  DenseMap<Value, Val> values;
  DenseMap<Value, int> gmIds;
  SmallVector<int64_t, 4> iterations;
  int64_t steps = 0;
  unsigned callDepth = 0;
};

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
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    emitSync(op, EntryKind::Set, static_cast<unsigned>(set.getSrc()),
             {static_cast<unsigned>(set.getSrc()),
              static_cast<unsigned>(set.getDst()), set.getEvent()});
    return success();
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    emitSync(op, EntryKind::Wait, static_cast<unsigned>(wait.getDst()),
             {static_cast<unsigned>(wait.getSrc()),
              static_cast<unsigned>(wait.getDst()), wait.getEvent()});
    return success();
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    emitSync(op, EntryKind::Barrier, static_cast<unsigned>(barrier.getPipe()),
             {});
    return success();
  }
  if (isa<BarrierAllOp>(op)) {
    emitSync(op, EntryKind::BarrierAll, kScalarPipe, {});
    return success();
  }
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
// Arith
//===----------------------------------------------------------------------===//

std::optional<APInt> TraceBuilder::evalBinary(Operation &op, const APInt &a,
                                              const APInt &b) {
  using R = std::optional<APInt>;
  bool divByZero = b.isZero();
  bool overflows = a.isMinSignedValue() && b.isAllOnes();
  return TypeSwitch<Operation *, R>(&op)
      .Case([&](arith::AddIOp) -> R { return a + b; })
      .Case([&](arith::SubIOp) -> R { return a - b; })
      .Case([&](arith::MulIOp) -> R { return a * b; })
      .Case([&](arith::DivUIOp) -> R { return divByZero ? R() : a.udiv(b); })
      .Case([&](arith::RemUIOp) -> R { return divByZero ? R() : a.urem(b); })
      .Case([&](arith::DivSIOp) -> R {
        return divByZero || overflows ? R() : a.sdiv(b);
      })
      .Case([&](arith::RemSIOp) -> R {
        return divByZero || overflows ? R() : a.srem(b);
      })
      .Case([&](arith::CeilDivSIOp) -> R {
        return divByZero || overflows
                   ? R()
                   : llvm::APIntOps::RoundingSDiv(a, b, APInt::Rounding::UP);
      })
      .Case([&](arith::FloorDivSIOp) -> R {
        return divByZero || overflows
                   ? R()
                   : llvm::APIntOps::RoundingSDiv(a, b, APInt::Rounding::DOWN);
      })
      .Case([&](arith::CeilDivUIOp) -> R {
        return divByZero ? R()
                         : llvm::APIntOps::RoundingUDiv(a, b, APInt::Rounding::UP);
      })
      .Case([&](arith::MinSIOp) -> R { return llvm::APIntOps::smin(a, b); })
      .Case([&](arith::MaxSIOp) -> R { return llvm::APIntOps::smax(a, b); })
      .Case([&](arith::MinUIOp) -> R { return llvm::APIntOps::umin(a, b); })
      .Case([&](arith::MaxUIOp) -> R { return llvm::APIntOps::umax(a, b); })
      .Case([&](arith::AndIOp) -> R { return a & b; })
      .Case([&](arith::OrIOp) -> R { return a | b; })
      .Case([&](arith::XOrIOp) -> R { return a ^ b; })
      .Case([&](arith::ShLIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.shl(b);
      })
      .Case([&](arith::ShRSIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.ashr(b);
      })
      .Case([&](arith::ShRUIOp) -> R {
        return b.uge(a.getBitWidth()) ? R() : a.lshr(b);
      })
      .Case([&](arith::CmpIOp cmp) -> R {
        return APInt(1, arith::applyCmpPredicate(cmp.getPredicate(), a, b));
      })
      .Default([](Operation *) { return R(); });
}

/// Evaluates an arith op on integers; false when `op` is not one. A result
/// whose operands are unknown stays unknown.
bool TraceBuilder::evalArith(Operation &op) {
  if (!isa_and_nonnull<arith::ArithDialect>(op.getDialect()))
    return false;
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Value chosen = condOf(select.getCondition()) ? select.getTrueValue()
                                                 : select.getFalseValue();
    set(select.getResult(), get(chosen));
    return true;
  }
  if (op.getNumResults() != 1)
    return false;
  Value result = op.getResult(0);
  unsigned width = widthOf(result.getType());
  set(result, Val());
  if (!width)
    return true; // floats and vectors: nothing the scalar unit needs
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
      set(result, Val::ofInt(attr.getValue().zextOrTrunc(width)));
    return true;
  }
  SmallVector<APInt, 2> operands;
  for (Value operand : op.getOperands()) {
    const Val &val = get(operand);
    if (val.kind != Val::Int)
      return true;
    operands.push_back(val.integer);
  }
  std::optional<APInt> value;
  if (operands.size() == 1) {
    const APInt &a = operands[0];
    value = TypeSwitch<Operation *, std::optional<APInt>>(&op)
                .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
                    [&](Operation *) { return a.sextOrTrunc(width); })
                .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
                    [&](Operation *) { return a.zextOrTrunc(width); })
                .Default([](Operation *) { return std::nullopt; });
  } else if (operands.size() == 2 &&
             operands[0].getBitWidth() == operands[1].getBitWidth()) {
    value = evalBinary(op, operands[0], operands[1]);
  }
  if (value)
    set(result, Val::ofInt(*value));
  return true;
}

//===----------------------------------------------------------------------===//
// Views, evaluated with the values of this execution
//===----------------------------------------------------------------------===//

/// The roots: an arena is a whole space; a placed dsaplan.alloc (kept by
/// `keep-allocs`) is its bytes of the space; a GM alloc is a buffer of its
/// own.
LogicalResult TraceBuilder::evalRoot(Operation &op) {
  auto type = cast<MemRefType>(op.getResult(0).getType());
  if (auto arena = dyn_cast<ArenaOp>(op)) {
    int memory = static_cast<int>(arena.getSpace());
    trace.rootBytes[memory] = type.getNumElements();
    trace.memoryNames[memory] = stringifyMemorySpace(arena.getSpace()).str();
    set(arena.getResult(), Val::ofView(viewOfType(type, memory)));
    return success();
  }
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    if (!alloc.getOffset())
      return unsupported(&op, "the tile has no offset (run "
                              "dsaplan-assign-offsets first)");
    MemorySpace space = alloc.getSpace();
    int memory = static_cast<int>(space);
    trace.rootBytes[memory] =
        TargetDescription::getForOp(func).getSpace(space).capacity;
    trace.memoryNames[memory] = stringifyMemorySpace(space).str();
    View view = viewOfType(type, memory);
    view.base = static_cast<int64_t>(*alloc.getOffset());
    set(alloc.getResult(), Val::ofView(view));
    return success();
  }
  if (getMemorySpace(type))
    return unsupported(&op, "the tile has no address (run "
                            "dsaplan-materialize first)");
  set(op.getResult(0), Val::ofView(viewOfType(type, gmMemory(op.getResult(0)))));
  return success();
}

LogicalResult TraceBuilder::evalSubView(memref::SubViewOp op,
                                        const View &source) {
  View view = source;
  view.sizes.clear();
  view.strides.clear();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  SmallVector<OpFoldResult> strides = op.getMixedStrides();
  for (size_t d = 0; d < offsets.size(); ++d) {
    view.offset += intOf(offsets[d]) * source.strides[d];
    if (dropped.test(d))
      continue;
    view.sizes.push_back(intOf(sizes[d]));
    view.strides.push_back(intOf(strides[d]) * source.strides[d]);
  }
  set(op.getResult(), Val::ofView(view));
  return success();
}

/// A view-like op: the view of its result, from its source's view and the
/// concrete operands of this execution.
LogicalResult TraceBuilder::evalView(Operation &op) {
  auto viewLike = cast<ViewLikeOpInterface>(op);
  const Val &source = get(viewLike.getViewSource());
  Value result = op.getResult(0);
  auto type = dyn_cast<MemRefType>(result.getType());
  if (source.kind != Val::MemRef || !type)
    return unsupported(&op, "its source is not a buffer the simulator can "
                            "follow to an arena or a GM argument");
  View view = source.view;
  if (view.whole) {
    set(result, source);
    return success();
  }
  std::optional<int64_t> element = elementBytesOf(type.getElementType());
  if (!element)
    return unsupported(&op, "an element type of unknown size");
  if (auto sub = dyn_cast<memref::SubViewOp>(op))
    return evalSubView(sub, view);
  if (isa<memref::CastOp, memref::MemorySpaceCastOp>(op)) {
    set(result, source);
    return success();
  }
  auto dynamicSizes = [&](ValueRange operands) {
    SmallVector<int64_t, 4> sizes;
    size_t next = 0;
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size) ? intOf(operands[next++])
                                                  : size);
    return sizes;
  };
  if (auto byteView = dyn_cast<memref::ViewOp>(op)) {
    // memref.view takes a 1-D i8 buffer with the identity layout.
    view.base += view.offset * view.elementBytes + intOf(byteView.getByteShift());
    view.offset = 0;
    view.sizes = dynamicSizes(byteView.getSizes());
    view.strides = rowMajorStrides(view.sizes);
  } else if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(op)) {
    // The source's base pointer, with a layout of its own.
    view.offset = intOf(reinterpret.getMixedOffsets().front());
    view.sizes.clear();
    view.strides.clear();
    for (OpFoldResult size : reinterpret.getMixedSizes())
      view.sizes.push_back(intOf(size));
    for (OpFoldResult stride : reinterpret.getMixedStrides())
      view.strides.push_back(intOf(stride));
  } else if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op)) {
    if (view.strides != rowMajorStrides(view.sizes) || !type.hasStaticShape())
      return unsupported(&op, "a reshape of a non-contiguous or dynamic view");
    view.sizes.assign(type.getShape().begin(), type.getShape().end());
    view.strides = rowMajorStrides(view.sizes);
  } else {
    return unsupported(&op, "a view the simulator cannot follow");
  }
  view.elementBytes = *element;
  set(result, Val::ofView(view));
  return success();
}

/// memref.transpose (no view-like op, but a view): the source's elements,
/// its dimensions permuted, result dimension i being source dimension
/// permutation(i).
LogicalResult TraceBuilder::evalTranspose(memref::TransposeOp op) {
  const Val &source = get(op.getIn());
  if (source.kind != Val::MemRef)
    return unsupported(op, "its source is not a buffer the simulator can "
                           "follow to an arena or a GM argument");
  if (source.view.whole) {
    set(op.getResult(), source);
    return success();
  }
  View view = source.view;
  AffineMap permutation = op.getPermutation();
  for (unsigned d = 0; d < permutation.getNumResults(); ++d) {
    unsigned from = permutation.getDimPosition(d);
    view.sizes[d] = source.view.sizes[from];
    view.strides[d] = source.view.strides[from];
  }
  set(op.getResult(), Val::ofView(view));
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
  Entry entry{EntryKind::Op, &op, static_cast<unsigned>(pipe)};
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

//===----------------------------------------------------------------------===//
// The pipes: timing, flags, hangs
//===----------------------------------------------------------------------===//

/// What the timed run leaves for the race check.
struct Timeline {
  std::vector<int64_t> start, end; // ops: when they ran; -1: never
  std::vector<int64_t> order;      // entries in the order they took effect
  std::vector<int64_t> consumed;   // a wait: the set whose signal it took
  bool hung = false;
};

/// The timing model. Each pipe issues its entries in order:
///  - an op starts at the pipe's issue time and runs for its duration; the
///    next entry may issue a cycle later (V, M, MTE1/2/3 and FIX issue
///    without waiting for the op to finish; S waits, it runs in order);
///  - pipe_barrier holds the pipe until its earlier ops have finished;
///  - set_flag fires once the pipe's earlier ops have finished (without
///    holding the pipe); a flag is one bit, a set that fires while it is
///    still set is an overrun: that signal is lost;
///  - wait_flag holds its pipe until the flag is set, then clears it; a
///    wait that was blocked goes on the cycle after the flag fired.
/// Events are taken in time order.
class PipeSimulator {
public:
  PipeSimulator(const Trace &trace, const CostModel &costs, uint64_t seed,
                uint64_t runSeed, std::vector<SimulationFinding> &findings,
                SimulationRun &stats);
  void run(Timeline &timeline);

private:
  struct PipeState {
    std::vector<int64_t> entries;
    size_t cursor = 0;
    int64_t maxEnd = 0;  // when the ops issued so far have finished
    int64_t busyEnd = 0; // end of the busy time counted so far
  };
  struct Flag {
    int64_t setter = -1; // the set whose signal the bit holds, -1: clear
    int64_t waiter = -1; // the wait blocked on it
  };
  /// A barrier_all being reached: by how many pipes, and when the last of
  /// their earlier ops finishes.
  struct Rendezvous {
    unsigned arrived = 0;
    int64_t ready = 0;
  };
  /// (time, kind, sequence, pipe or entry): at one time, issues first,
  /// then waits waking up, then flags firing.
  using Event = std::tuple<int64_t, int, int64_t, int64_t>;
  enum { kIssue = 0, kWake = 1, kFire = 2 };

  void issue(unsigned pipe, int64_t time);
  void issueOp(PipeState &state, int64_t entry, int64_t time);
  void arrive(PipeState &state, int64_t entry, int64_t time);
  void fire(int64_t set, int64_t time);
  void pass(int64_t wait, int64_t time);
  void schedule(unsigned pipe, int64_t time);
  void finish();

  const Trace &trace;
  int64_t syncLatency;
  bool pipeOverlap;
  uint64_t seed;
  std::vector<SimulationFinding> &findings;
  SimulationRun &stats;
  std::vector<int64_t> durations;
  std::array<PipeState, kNumSimulatedPipes> pipes;
  std::map<FlagKey, Flag> flags;
  DenseMap<int64_t, Rendezvous> rendezvous;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  int64_t sequence = 0;
  Timeline *timeline = nullptr;
};

PipeSimulator::PipeSimulator(const Trace &trace, const CostModel &costs,
                             uint64_t seed, uint64_t runSeed,
                             std::vector<SimulationFinding> &findings,
                             SimulationRun &stats)
    : trace(trace), syncLatency(costs.syncLatency),
      pipeOverlap(costs.pipeOverlap), seed(seed),
      findings(findings), stats(stats) {
  // Durations in trace order, from a stream of their own: the cost model's
  // cycles for the pipe and the bytes, scaled by a factor uniform in
  // [100 - jitter, 100 + jitter] percent.
  Random rng(runSeed);
  int64_t jitter = costs.jitterPercent;
  for (const Entry &entry : trace.entries) {
    int64_t duration = 0;
    if (entry.kind == EntryKind::Op) {
      int64_t base =
          costs.baseCycles(static_cast<Pipe>(entry.pipe), entry.bytes);
      int64_t percent = rng.uniform(100 - jitter, 100 + jitter);
      duration = std::max<int64_t>(1, base * percent / 100);
    }
    durations.push_back(duration);
    stats.serial += duration;
  }
  for (auto [index, entry] : llvm::enumerate(trace.entries)) {
    if (entry.kind != EntryKind::BarrierAll) {
      pipes[entry.pipe].entries.push_back(index);
      continue;
    }
    for (PipeState &state : pipes)
      state.entries.push_back(index);
  }
}

void PipeSimulator::schedule(unsigned pipe, int64_t time) {
  if (pipes[pipe].cursor < pipes[pipe].entries.size())
    events.push({time, kIssue, sequence++, pipe});
}

void PipeSimulator::run(Timeline &out) {
  timeline = &out;
  size_t n = trace.entries.size();
  out.start.assign(n, -1);
  out.end.assign(n, -1);
  out.consumed.assign(n, -1);
  for (unsigned pipe = 0; pipe < kNumSimulatedPipes; ++pipe)
    schedule(pipe, 0);
  while (!events.empty()) {
    auto [time, kind, seq, what] = events.top();
    events.pop();
    if (kind == kIssue)
      issue(static_cast<unsigned>(what), time);
    else if (kind == kWake)
      pass(what, time);
    else
      fire(what, time);
  }
  finish();
}

void PipeSimulator::issueOp(PipeState &state, int64_t entry, int64_t time) {
  unsigned pipe = trace.entries[entry].pipe;
  bool inOrder = pipe == kScalarPipe || !pipeOverlap;
  int64_t start = inOrder ? std::max(time, state.maxEnd) : time;
  int64_t end = start + durations[entry];
  timeline->start[entry] = start;
  timeline->end[entry] = end;
  state.maxEnd = std::max(state.maxEnd, end);
  // Busy time: the union of the pipe's op intervals (starts never go down).
  stats.busy[pipe] += std::max<int64_t>(0, end - std::max(start, state.busyEnd));
  state.busyEnd = std::max(state.busyEnd, end);
  stats.makespan = std::max(stats.makespan, end);
  ++stats.opsExecuted;
  timeline->order.push_back(entry);
  ++state.cursor;
  schedule(pipe, start + 1);
}

/// A pipe reaches a barrier_all and stops; the last pipe to reach it, once
/// every pipe's earlier ops have finished, lets them all go on.
void PipeSimulator::arrive(PipeState &state, int64_t entry, int64_t time) {
  Rendezvous &at = rendezvous[entry];
  at.ready = std::max({at.ready, time, state.maxEnd});
  if (++at.arrived < kNumSimulatedPipes)
    return;
  timeline->start[entry] = timeline->end[entry] = at.ready;
  timeline->order.push_back(entry);
  for (unsigned pipe = 0; pipe < kNumSimulatedPipes; ++pipe) {
    ++pipes[pipe].cursor;
    schedule(pipe, at.ready);
  }
}

void PipeSimulator::issue(unsigned pipe, int64_t time) {
  PipeState &state = pipes[pipe];
  int64_t index = state.entries[state.cursor];
  const Entry &entry = trace.entries[index];
  switch (entry.kind) {
  case EntryKind::Op:
    return issueOp(state, index, time);
  case EntryKind::BarrierAll:
    return arrive(state, index, time);
  case EntryKind::Barrier:
    time = std::max(time, state.maxEnd);
    timeline->start[index] = timeline->end[index] = time;
    timeline->order.push_back(index);
    ++state.cursor;
    return schedule(pipe, time);
  case EntryKind::Set: {
    int64_t fires = std::max(time, state.maxEnd);
    timeline->start[index] = time;
    timeline->end[index] = fires;
    timeline->order.push_back(index);
    events.push({fires, kFire, sequence++, index});
    ++state.cursor;
    return schedule(pipe, time);
  }
  case EntryKind::Wait: {
    Flag &flag = flags[entry.flag];
    timeline->start[index] = time;
    if (flag.setter < 0) {
      flag.waiter = index; // held until the flag fires
      return;
    }
    pass(index, time);
    return;
  }
  }
}

/// `wait` takes its flag's signal at `time` and its pipe goes on.
void PipeSimulator::pass(int64_t wait, int64_t time) {
  const Entry &entry = trace.entries[wait];
  Flag &flag = flags[entry.flag];
  timeline->consumed[wait] = flag.setter;
  flag.setter = -1;
  flag.waiter = -1;
  timeline->end[wait] = time;
  timeline->order.push_back(wait);
  stats.makespan = std::max(stats.makespan, time);
  ++pipes[entry.pipe].cursor;
  schedule(entry.pipe, time);
}

void PipeSimulator::fire(int64_t set, int64_t time) {
  const Entry &entry = trace.entries[set];
  Flag &flag = flags[entry.flag];
  stats.makespan = std::max(stats.makespan, time);
  if (flag.setter >= 0) {
    const Entry &earlier = trace.entries[flag.setter];
    SimulationFinding finding;
    finding.kind = FindingKind::Overrun;
    finding.op = entry.op;
    finding.other = earlier.op;
    finding.message = "simulated overrun: " + flagName(entry.flag) +
                      iterationText(entry) + " fires at cycle " +
                      std::to_string(time) +
                      " while still set by an earlier set_flag that no "
                      "wait_flag has taken: the signal is lost (seed " +
                      std::to_string(seed) + ")";
    finding.note = "the earlier set_flag" + iterationText(earlier) +
                   ", fired at cycle " +
                   std::to_string(timeline->end[flag.setter]);
    findings.push_back(std::move(finding));
    return;
  }
  ++stats.flagsSet;
  flag.setter = set;
  // A blocked wait sees the flag syncLatency (at least one) cycles later: a
  // second set firing in the same cycle finds the bit still set.
  if (flag.waiter >= 0)
    events.push({time + syncLatency, kWake, sequence++, flag.waiter});
}

/// Pipes left with entries are blocked on waits; flags left set are never
/// waited for. Neither is reported when the trace was cut short (the rest
/// of the function would have run them), and flags are not when a pipe hung.
void PipeSimulator::finish() {
  if (trace.gaveUp)
    return;
  llvm::DenseSet<int64_t> reportedBarriers;
  for (unsigned pipe = 0; pipe < kNumSimulatedPipes; ++pipe) {
    PipeState &state = pipes[pipe];
    if (state.cursor == state.entries.size())
      continue;
    timeline->hung = true;
    int64_t blocked = state.entries[state.cursor];
    const Entry &wait = trace.entries[blocked];
    SimulationFinding finding;
    finding.kind = FindingKind::Hang;
    finding.op = wait.op;
    if (wait.kind == EntryKind::BarrierAll) {
      // Once per barrier: the pipes that never reach it are the news.
      if (!reportedBarriers.insert(blocked).second)
        continue;
      std::string missing;
      for (unsigned other = 0; other < kNumSimulatedPipes; ++other) {
        const PipeState &o = pipes[other];
        if (o.cursor == o.entries.size() || o.entries[o.cursor] != blocked)
          missing += (missing.empty() ? "" : ", ") + pipeName(other);
      }
      finding.message = "simulated hang: a barrier_all" + iterationText(wait) +
                        " waits for ever for pipe " + missing +
                        ", blocked before it (seed " + std::to_string(seed) +
                        ")";
    } else {
      finding.message = "simulated hang: pipe " + pipeName(pipe) +
                        " waits for ever for " + flagName(wait.flag) +
                        iterationText(wait) + ", which is never set (seed " +
                        std::to_string(seed) + ")";
    }
    findings.push_back(std::move(finding));
  }
  if (timeline->hung)
    return;
  for (const auto &[key, flag] : flags) {
    if (flag.setter < 0)
      continue;
    const Entry &set = trace.entries[flag.setter];
    SimulationFinding finding;
    finding.kind = FindingKind::Unwaited;
    finding.op = set.op;
    finding.message = "simulated run ends with " + flagName(key) +
                      " still set" + iterationText(set) +
                      ": it is never waited for (seed " +
                      std::to_string(seed) + ")";
    findings.push_back(std::move(finding));
  }
}

//===----------------------------------------------------------------------===//
// Races: happens-before over the execution
//===----------------------------------------------------------------------===//

/// Per pipe, how many of each pipe's ops are known to have finished: what
/// is known finished is always a prefix of a pipe's ops, since a set covers
/// all earlier ops of its pipe and a barrier all earlier ops of its own.
using Clock = std::array<int64_t, kNumSimulatedPipes>;

/// One access in the shadow of memory.
struct Record {
  int64_t entry;
  Operation *op;
  unsigned pipe;
  int64_t index; // among the ops of its pipe
  bool write;
  bool operator==(const Record &o) const {
    return entry == o.entry && write == o.write;
  }
};

/// The accesses that later ones may conflict with, per byte range of one
/// memory: disjoint segments, each with the records still exposed there.
class Shadow {
public:
  using Records = SmallVector<Record, 4>;
  /// Calls `fn(begin, end, records)` on every segment that overlaps
  /// [begin, end), clipped to it.
  template <typename Fn>
  void visit(int64_t begin, int64_t end, Fn fn) const {
    segments.visit(begin, end, fn);
  }
  /// Calls `fn(records)` on every piece of [begin, end), creating the
  /// pieces no access touched yet, then merges equal neighbours.
  template <typename Fn>
  void update(int64_t begin, int64_t end, Fn fn) {
    segments.update(begin, end, fn);
    segments.coalesce(begin, end,
                      [](const Records &records) { return records.empty(); });
  }

private:
  SegmentMap<Records> segments;
};

/// One unordered pair, as found: the bytes are widened over all segments.
struct Race {
  int64_t earlier, later;
  int memory;
  bool earlierWrites, laterWrites;
  int64_t begin, end;
};

class RaceChecker {
public:
  RaceChecker(const Trace &trace, const Timeline &timeline, uint64_t seed,
              std::vector<SimulationFinding> &findings)
      : trace(trace), timeline(timeline), seed(seed), findings(findings) {}
  void run();

private:
  void check(int64_t entry, const Clock &clock);
  void record(int64_t entry, unsigned pipe, int64_t index, const Clock &clock);
  void report(const Race &race);
  bool overlapInTime(int64_t a, int64_t b) const {
    return timeline.start[a] < timeline.end[b] &&
           timeline.start[b] < timeline.end[a];
  }

  const Trace &trace;
  const Timeline &timeline;
  uint64_t seed;
  std::vector<SimulationFinding> &findings;
  std::map<int, Shadow> shadows;
  /// The pipe-local index of each executed op.
  DenseMap<int64_t, int64_t> opIndex;
  llvm::MapVector<std::pair<Operation *, Operation *>, Race> races;
};

/// Walks the entries in the order they took effect (a set before the wait
/// that takes its signal, and each pipe in program order):
///   op on p:      checked against the shadow with what p knows; on S it
///                 first knows all its earlier ops (S runs in order);
///   barrier on p: p knows all its earlier ops;
///   set on p:     captures what p knows plus all p's earlier ops;
///   wait on q:    q learns what the set it took captured.
void RaceChecker::run() {
  std::array<Clock, kNumSimulatedPipes> known{};
  Clock issued{};
  DenseMap<int64_t, Clock> captured;
  for (int64_t entry : timeline.order) {
    const Entry &e = trace.entries[entry];
    unsigned p = e.pipe;
    switch (e.kind) {
    case EntryKind::Op: {
      if (p == kScalarPipe)
        known[p][p] = issued[p];
      int64_t index = issued[p]++;
      opIndex[entry] = index;
      check(entry, known[p]);
      record(entry, p, index, known[p]);
      break;
    }
    case EntryKind::Barrier:
      known[p][p] = issued[p];
      break;
    case EntryKind::BarrierAll:
      for (Clock &clock : known)
        clock = issued;
      break;
    case EntryKind::Set:
      captured[entry] = known[p];
      captured[entry][p] = issued[p];
      break;
    case EntryKind::Wait:
      if (timeline.consumed[entry] >= 0) {
        const Clock &clock = captured[timeline.consumed[entry]];
        for (size_t q = 0; q < kNumSimulatedPipes; ++q)
          known[p][q] = std::max(known[p][q], clock[q]);
      }
      break;
    }
  }
  for (auto &[pair, race] : races)
    report(race);
}

/// Every earlier access in the shadow that conflicts with one of `entry`'s
/// and is not ordered before it (or, which the model should never allow,
/// ran at the same time) is a race.
void RaceChecker::check(int64_t entry, const Clock &clock) {
  const Entry &e = trace.entries[entry];
  for (const Access &access : e.accesses)
    for (const ByteRun &run : access.runs)
      shadows[access.memory].visit(
          run.begin, run.end,
          [&](int64_t begin, int64_t end, ArrayRef<Record> records) {
            for (const Record &r : records) {
              if (r.entry == entry || (!r.write && !access.write))
                continue;
              bool ordered = clock[r.pipe] > r.index;
              if (ordered && !overlapInTime(r.entry, entry))
                continue;
              // Named in program order (the scalar unit's), whichever
              // of the two took effect first.
              Race race{r.entry, entry, access.memory, r.write, access.write,
                        begin, end};
              if (r.entry > entry) {
                std::swap(race.earlier, race.later);
                std::swap(race.earlierWrites, race.laterWrites);
              }
              auto [it, inserted] = races.try_emplace(
                  {trace.entries[race.earlier].op,
                   trace.entries[race.later].op},
                  race);
              if (!inserted && it->second.memory == access.memory) {
                it->second.begin = std::min(it->second.begin, begin);
                it->second.end = std::max(it->second.end, end);
              }
            }
          });
}

/// Adds `entry`'s accesses to the shadow. What is ordered before a write
/// (before a read: the reads) is dropped where it covers them: a later
/// access that conflicts with the dropped one conflicts with this one too,
/// and is ordered after it only if ordered after this one. So is an earlier
/// execution of the same op: what is known finished of a pipe is a prefix,
/// so whatever is unordered with the earlier execution is unordered with
/// this one, and races are reported per pair of ops. The shadow then holds
/// at most one record per op and kind on any byte, however long the run.
void RaceChecker::record(int64_t entry, unsigned pipe, int64_t index,
                         const Clock &clock) {
  const Entry &e = trace.entries[entry];
  for (const Access &access : e.accesses)
    for (const ByteRun &run : access.runs)
      shadows[access.memory].update(
          run.begin, run.end, [&](SmallVector<Record, 4> &records) {
            llvm::erase_if(records, [&](const Record &r) {
              if (r.entry == entry)
                return false;
              return (r.op == e.op && r.write == access.write) ||
                     ((access.write || !r.write) && clock[r.pipe] > r.index);
            });
            Record mine{entry, e.op, pipe, index, access.write};
            if (!llvm::is_contained(records, mine))
              records.push_back(mine);
          });
}

void RaceChecker::report(const Race &race) {
  const Entry &earlier = trace.entries[race.earlier];
  const Entry &later = trace.entries[race.later];
  const char *kind = race.earlierWrites
                         ? (race.laterWrites ? "write after write"
                                             : "read after write")
                         : "write after read";
  std::string when;
  if (overlapInTime(race.earlier, race.later))
    when = "; in this run they overlapped in time, cycles [" +
           std::to_string(timeline.start[race.earlier]) + ", " +
           std::to_string(timeline.end[race.earlier]) + ") and [" +
           std::to_string(timeline.start[race.later]) + ", " +
           std::to_string(timeline.end[race.later]) + ")";
  SimulationFinding finding;
  finding.kind = FindingKind::Race;
  finding.op = later.op;
  finding.other = earlier.op;
  auto name = trace.memoryNames.find(race.memory);
  finding.message =
      std::string("simulated race, ") + kind + " on bytes [" +
      std::to_string(race.begin) + ", " + std::to_string(race.end) + ") of " +
      (name == trace.memoryNames.end() ? std::string("memory") : name->second) +
      ": " + describe(later) + " is not ordered after " + describe(earlier) +
      when + " (seed " + std::to_string(seed) + ")";
  finding.note = "the earlier access, " + describe(earlier);
  findings.push_back(std::move(finding));
}

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

/// The trace and its timeline as the public ExecutedRun.
ExecutedRun toExecutedRun(const Trace &trace, const Timeline &timeline,
                          uint64_t seed) {
  ExecutedRun run;
  run.seed = seed;
  run.hung = timeline.hung;
  run.gaveUp = trace.gaveUp;
  // The trace numbers spaces by their enum and GM buffers from kFirstGm;
  // the public run numbers them densely, in the order first touched.
  DenseMap<int, int> index;
  auto memoryOf = [&](int memory) {
    auto [it, inserted] = index.try_emplace(memory, run.memoryNames.size());
    if (inserted) {
      auto name = trace.memoryNames.find(memory);
      run.memoryNames.push_back(name == trace.memoryNames.end()
                                    ? "memory " + std::to_string(memory)
                                    : name->second);
    }
    return it->second;
  };
  run.entries.reserve(trace.entries.size());
  for (auto [i, entry] : llvm::enumerate(trace.entries)) {
    ExecutedEntry out;
    out.kind = static_cast<ExecutedEntry::Kind>(entry.kind);
    out.op = entry.op;
    out.pipe = entry.pipe;
    std::tie(out.flagSrc, out.flagDst, out.flagId) = entry.flag;
    out.iterations = entry.iterations;
    for (const Access &access : entry.accesses) {
      ExecutedEntry::Access &a = out.accesses.emplace_back();
      a.memory = memoryOf(access.memory);
      a.write = access.write;
      for (const ByteRun &r : access.runs)
        a.runs.push_back({r.begin, r.end});
    }
    out.start = timeline.start[i];
    out.end = timeline.end[i];
    out.consumed = timeline.consumed[i];
    run.entries.push_back(std::move(out));
  }
  return run;
}

SimulationRun simulateOnce(func::FuncOp func, const SimulationOptions &options,
                           uint64_t seed,
                           std::vector<SimulationFinding> &findings,
                           ExecutedRun &executed) {
  SimulationRun stats;
  stats.seed = seed;
  Trace trace;
  if (failed(TraceBuilder(func, options, seed, trace, findings).run())) {
    stats.errors = 1;
    return stats;
  }
  stats.traceLength = static_cast<int64_t>(trace.entries.size());
  stats.gaveUp = trace.gaveUp;
  if (trace.gaveUp) {
    SimulationFinding finding;
    finding.kind = FindingKind::GaveUp;
    finding.op = func;
    finding.message =
        "simulation gave up after " + std::to_string(options.maxTraceLength) +
        " trace entries (max-trace-length): the rest of the function was not "
        "run, and hangs and flags left set are not reported";
    findings.push_back(std::move(finding));
  }
  // Durations come from a stream apart from the scalar unit's choices.
  Timeline timeline;
  PipeSimulator(trace, options.costs, seed, seed ^ 0x5deece66dULL, findings,
                stats)
      .run(timeline);
  RaceChecker(trace, timeline, seed, findings).run();
  executed = toExecutedRun(trace, timeline, seed);
  executed.pipeOverlap = options.costs.pipeOverlap;
  if (!timeline.hung && !trace.gaveUp)
    stats.ideal = idealMakespan(executed);
  stats.errors = llvm::count_if(
      findings, [](const SimulationFinding &f) { return f.isError(); });
  return stats;
}

bool worse(const SimulationRun &a, const SimulationRun &b) {
  return std::make_pair(a.errors, a.makespan) >
         std::make_pair(b.errors, b.makespan);
}

} // namespace

unsigned SimulationResult::count(FindingKind kind) const {
  return llvm::count_if(
      findings, [&](const SimulationFinding &f) { return f.kind == kind; });
}

bool SimulationResult::failed() const {
  return llvm::any_of(findings,
                      [](const SimulationFinding &f) { return f.isError(); });
}

SimulationResult mlir::dsaplan::simulate(func::FuncOp func,
                                         const SimulationOptions &options) {
  SimulationResult result;
  // Membership only: the findings keep the order in which they were found.
  std::set<std::tuple<int, Operation *, Operation *>> seen;
  for (unsigned k = 0; k < std::max(1u, options.runs); ++k) {
    std::vector<SimulationFinding> findings;
    ExecutedRun executed;
    SimulationRun run =
        simulateOnce(func, options, options.seed + k, findings, executed);
    bool unsupported = false;
    for (SimulationFinding &finding : findings) {
      unsupported |= finding.kind == FindingKind::Unsupported;
      if (seen.insert({static_cast<int>(finding.kind), finding.op,
                       finding.other})
              .second)
        result.findings.push_back(std::move(finding));
    }
    if (k == 0 || worse(run, result.worst)) {
      result.worst = run;
      result.loops = loopOverlaps(executed);
      if (options.keepRun)
        result.executed = std::move(executed);
    }
    ++result.runs;
    if (unsupported)
      break; // every run would stop at the same op
  }
  return result;
}
