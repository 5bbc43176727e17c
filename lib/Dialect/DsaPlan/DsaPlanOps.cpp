//===- DsaPlanOps.cpp - dsaplan operations --------------------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::dsaplan;

#include "DsaPlan/Dialect/DsaPlan/DsaPlanInterfaces.cpp.inc"

std::optional<Pipe> mlir::dsaplan::getOpPipe(Operation *op) {
  if (auto attr =
          op->getAttrOfType<PipeAttr>(DsaPlanDialect::getPipeAttrName()))
    return attr.getValue();
  if (auto iface = dyn_cast<PipeOpInterface>(op))
    return iface.getPipe();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Custom directives: `<src -> dst>` and `<pipe>`
//===----------------------------------------------------------------------===//

namespace {
/// "s, v, m, mte1, mte2, mte3 or fix": every pipe of the enum.
std::string pipeNames() {
  std::string names;
  for (size_t pipe = 0; pipe < kNumPipes; ++pipe) {
    if (pipe)
      names += pipe + 1 == kNumPipes ? " or " : ", ";
    names += stringifyPipe(static_cast<Pipe>(pipe)).str();
  }
  return names;
}

ParseResult parsePipeKeyword(OpAsmParser &parser, PipeAttr &pipe) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<Pipe> value = symbolizePipe(keyword);
  if (!value)
    return parser.emitError(loc)
           << "unknown pipe '" << keyword
           << "' (expected " << pipeNames() << ")";
  pipe = PipeAttr::get(parser.getContext(), *value);
  return success();
}
} // namespace

static ParseResult parsePipePair(OpAsmParser &parser, PipeAttr &src,
                                 PipeAttr &dst) {
  return failure(parser.parseLess() || parsePipeKeyword(parser, src) ||
                 parser.parseArrow() || parsePipeKeyword(parser, dst) ||
                 parser.parseGreater());
}

static void printPipePair(OpAsmPrinter &printer, Operation *, PipeAttr src,
                          PipeAttr dst) {
  printer << '<' << stringifyPipe(src.getValue()) << " -> "
          << stringifyPipe(dst.getValue()) << '>';
}

static ParseResult parsePipe(OpAsmParser &parser, PipeAttr &pipe) {
  return failure(parser.parseLess() || parsePipeKeyword(parser, pipe) ||
                 parser.parseGreater());
}

static void printPipe(OpAsmPrinter &printer, Operation *, PipeAttr pipe) {
  printer << '<' << stringifyPipe(pipe.getValue()) << '>';
}

static ParseResult parseCoreKeyword(OpAsmParser &parser, CoreAttr &core) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<Core> value = symbolizeCore(keyword);
  if (!value)
    return parser.emitError(loc) << "unknown core '" << keyword
                                 << "' (expected cube or vector)";
  core = CoreAttr::get(parser.getContext(), *value);
  return success();
}

static void printCoreKeyword(OpAsmPrinter &printer, Operation *,
                             CoreAttr core) {
  printer << stringifyCore(core.getValue());
}

#define GET_OP_CLASSES
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

void AllocOp::getAsmResultNames(function_ref<void(Value, StringRef)> setName) {
  if (std::optional<StringRef> name = getName())
    setName(getResult(), *name);
}

MemorySpace AllocOp::getSpace() { return *getMemorySpace(getType()); }

namespace {
/// The most bytes a tile, an alignment or an offset may have: the byte
/// limit of the solver (kMaxBytes in Solver/Problem.h, 1 TiB), far beyond
/// any on-chip memory, so that sizes and ends never overflow.
constexpr uint64_t kMaxTileBytes = uint64_t(1) << 40;

/// The bytes of a static `type`, or nullopt beyond kMaxTileBytes (the
/// element count alone may overflow 64 bits).
std::optional<uint64_t> checkedSizeInBytes(MemRefType type) {
  uint64_t bits = type.getElementTypeBitWidth();
  for (int64_t dim : type.getShape())
    if (dim < 0 || __builtin_mul_overflow(bits, static_cast<uint64_t>(dim),
                                          &bits))
      return std::nullopt;
  uint64_t bytes = bits / 8 + (bits % 8 != 0);
  if (bytes > kMaxTileBytes)
    return std::nullopt;
  return bytes;
}
} // namespace

int64_t AllocOp::getSizeInBytes() {
  // The verifier has bounded it; an unverified op gets the limit, never an
  // overflowed product.
  return static_cast<int64_t>(
      checkedSizeInBytes(getType()).value_or(kMaxTileBytes));
}

int64_t AllocOp::getEffectiveAlignment() {
  int64_t minimum =
      TargetDescription::getForOp(*this).getSpace(getSpace()).alignment;
  return std::max<int64_t>(minimum, getAlignment().value_or(minimum));
}

std::string AllocOp::getDisplayName() {
  if (std::optional<StringRef> name = getName())
    return name->str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "alloc@" << getLoc();
  return text;
}

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  std::optional<MemorySpace> space = getMemorySpace(type);
  if (!space)
    return emitOpError() << "result memory space must be a "
                            "#dsaplan.space<...>, got "
                         << type;
  if (!type.hasStaticShape())
    return emitOpError() << "needs a static shape to be placed, got " << type;
  if (!type.getLayout().isIdentity())
    return emitOpError() << "needs the identity layout, got " << type;
  if (!type.getElementType().isIntOrFloat())
    return emitOpError() << "element type " << type.getElementType()
                         << " has no fixed size in bytes";
  if (!checkedSizeInBytes(type))
    return emitOpError() << "type " << type << " is larger than "
                         << kMaxTileBytes
                         << " bytes (2^40), the most a tile may have";

  TargetDescription target = TargetDescription::getForOp(*this);
  const SpaceDescription &desc = target.getSpace(*space);
  StringRef spaceName = stringifyMemorySpace(*space);
  if (std::optional<uint64_t> alignment = getAlignment()) {
    if (!llvm::isPowerOf2_64(*alignment))
      return emitOpError() << "alignment " << *alignment
                           << " is not a power of two";
    if (*alignment > kMaxTileBytes)
      return emitOpError() << "alignment " << *alignment << " is above "
                           << kMaxTileBytes << " bytes (2^40)";
    if (static_cast<int64_t>(*alignment) < desc.alignment)
      return emitOpError() << "alignment " << *alignment
                           << " is below the minimum alignment "
                           << desc.alignment << " of space " << spaceName;
  }
  if (std::optional<uint64_t> offset = getOffset()) {
    if (*offset > kMaxTileBytes)
      return emitOpError() << "offset " << *offset << " is above "
                           << kMaxTileBytes << " bytes (2^40)";
    int64_t alignment = getEffectiveAlignment();
    if (static_cast<int64_t>(*offset) % alignment)
      return emitOpError() << "offset " << *offset
                           << " is not a multiple of the alignment "
                           << alignment;
    int64_t end = static_cast<int64_t>(*offset) + getSizeInBytes();
    if (end > desc.capacity)
      return emitOpError() << "bytes [" << *offset << ", " << end
                           << ") exceed the " << spaceName << " capacity of "
                           << desc.capacity << " bytes";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SeparateOp / ColocateOp
//===----------------------------------------------------------------------===//

/// Two or more distinct buffers of one dsaplan space.
static LogicalResult verifyConstraintOperands(Operation *op, StringRef verb) {
  if (op->getNumOperands() < 2)
    return op->emitOpError() << "needs at least two buffers, got "
                             << op->getNumOperands();
  std::optional<MemorySpace> firstSpace;
  llvm::DenseMap<Value, unsigned> firstIndex;
  for (auto [index, buffer] : llvm::enumerate(op->getOperands())) {
    std::optional<MemorySpace> space = getMemorySpace(buffer.getType());
    if (!space)
      return op->emitOpError() << "operand " << index
                               << " is not in a dsaplan memory space: "
                               << buffer.getType();
    if (!firstSpace)
      firstSpace = space;
    if (*space != *firstSpace)
      return op->emitOpError()
             << "cannot " << verb << " buffers across spaces: operand 0 is in "
             << stringifyMemorySpace(*firstSpace) << ", operand " << index
             << " in " << stringifyMemorySpace(*space);
    auto [it, inserted] = firstIndex.try_emplace(buffer, index);
    if (!inserted)
      return op->emitOpError() << "cannot " << verb
                               << " a buffer with itself (operands "
                               << it->second << " and " << index << ")";
  }
  return success();
}

LogicalResult SeparateOp::verify() {
  return verifyConstraintOperands(*this, "separate");
}

LogicalResult ColocateOp::verify() {
  return verifyConstraintOperands(*this, "colocate");
}

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

void ArenaOp::getAsmResultNames(function_ref<void(Value, StringRef)> setName) {
  setName(getResult(), stringifyMemorySpace(getSpace()));
}

LogicalResult ArenaOp::verify() {
  MemRefType type = getResult().getType();
  std::optional<MemorySpace> space = getMemorySpace(type);
  if (!space || *space != getSpace())
    return emitOpError() << "result must be in space "
                         << stringifyMemorySpace(getSpace()) << ", got "
                         << type;
  int64_t capacity =
      TargetDescription::getForOp(*this).getSpace(getSpace()).capacity;
  if (!type.hasStaticShape() || type.getNumElements() != capacity)
    return emitOpError() << "arena of " << stringifyMemorySpace(getSpace())
                         << " must have the space's " << capacity
                         << " bytes, got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// SetFlagOp / WaitFlagOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyFlag(Operation *op, Pipe src, Pipe dst,
                                int64_t event) {
  if (src == dst)
    return op->emitOpError() << "flag from pipe " << stringifyPipe(src)
                             << " to itself; use dsaplan.pipe_barrier";
  TargetDescription target = TargetDescription::getForOp(op);
  int64_t eventIds = target.getNumEventIds(src, dst);
  if (event >= eventIds)
    return op->emitOpError() << "event id " << event << " is outside 0-"
                             << eventIds - 1;
  // A flag is a signal inside one core: pipes that never share a core (FIX
  // on the cube core, V on the vector core of 910B) cannot use one.
  unsigned srcCores = target.getPipe(src).cores;
  unsigned dstCores = target.getPipe(dst).cores;
  if ((srcCores & dstCores) == 0)
    return op->emitOpError()
           << "flag <" << stringifyPipe(src) << " -> " << stringifyPipe(dst)
           << "> crosses cores on " << target.getName() << ": "
           << stringifyPipe(src) << " runs on the " << stringifyCores(srcCores)
           << " core, " << stringifyPipe(dst) << " on the "
           << stringifyCores(dstCores)
           << " core; an intra-core flag cannot order them (use a cross-core "
              "sync through GM)";
  return success();
}

namespace {
/// `<src -> dst>, event attr-dict`, as the declarative format spelled it.
/// Written by hand for the printer: the declarative one prints from
/// `getAttrs()`, which for an op with properties builds and uniques a new
/// DictionaryAttr at every print (twice per op: the alias pass, then the
/// print); a large kernel prints ~10^5 flags. The discardable attributes
/// are all a flag can have besides its properties.
template <typename FlagOp>
ParseResult parseFlag(OpAsmParser &parser, OperationState &result) {
  PipeAttr src, dst;
  IntegerAttr event;
  if (parsePipePair(parser, src, dst) || parser.parseComma() ||
      parser.parseCustomAttributeWithFallback(
          event, parser.getBuilder().getIntegerType(64)))
    return failure();
  auto &properties = result.getOrAddProperties<typename FlagOp::Properties>();
  properties.src = src;
  properties.dst = dst;
  properties.event = event;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return FlagOp::verifyInherentAttrs(result.name, result.attributes, [&]() {
    return parser.emitError(loc) << "'" << result.name.getStringRef()
                                 << "' op ";
  });
}

template <typename FlagOp>
void printFlag(FlagOp op, OpAsmPrinter &printer) {
  printer << ' ';
  printPipePair(printer, op, op.getSrcAttr(), op.getDstAttr());
  printer << ", ";
  printer.printAttributeWithoutType(op.getEventAttr());
  printer.printOptionalAttrDict(
      op->getDiscardableAttrDictionary().getValue(),
      {"src", "dst", "event"});
}
} // namespace

ParseResult SetFlagOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFlag<SetFlagOp>(parser, result);
}

void SetFlagOp::print(OpAsmPrinter &printer) { printFlag(*this, printer); }

ParseResult WaitFlagOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFlag<WaitFlagOp>(parser, result);
}

void WaitFlagOp::print(OpAsmPrinter &printer) { printFlag(*this, printer); }

LogicalResult SetFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getEvent());
}

LogicalResult WaitFlagOp::verify() {
  return verifyFlag(*this, getSrc(), getDst(), getEvent());
}

//===----------------------------------------------------------------------===//
// CrossCoreSetOp / CrossCoreWaitOp
//===----------------------------------------------------------------------===//

/// The mode exists on the target, the id is one of its ids, and mode 1
/// (between the vector cores of a group) is not used by the cube core.
static LogicalResult verifyCrossCoreFlag(Operation *op, Core core,
                                         int64_t mode, int64_t id) {
  TargetDescription target = TargetDescription::getForOp(op);
  const CrossCoreDescription &flags = target.getCrossCore();
  if (!flags.hasMode(mode)) {
    std::string modes;
    for (int64_t m = 0; m < 32; ++m)
      if (flags.hasMode(m))
        modes += (modes.empty() ? "" : ", ") + std::to_string(m);
    return op->emitOpError() << "mode " << mode
                             << " is not a cross-core mode of "
                             << target.getName() << " (it has " << modes
                             << ")";
  }
  if (id >= flags.ids)
    return op->emitOpError() << "cross-core id " << id << " is outside 0-"
                             << flags.ids - 1 << " on " << target.getName();
  if (mode == 1 && core == Core::cube)
    return op->emitOpError()
           << "mode 1 orders the vector cores of a group; the cube core "
              "takes no part in it";
  return success();
}

LogicalResult CrossCoreSetOp::verify() {
  if (failed(verifyCrossCoreFlag(*this, getCore(), getMode(), getId())))
    return failure();
  TargetDescription target = TargetDescription::getForOp(*this);
  Pipe pipe = getPipe();
  if (!target.signalsCrossCore(pipe))
    return emitOpError() << "a cross-core set cannot be issued on pipe "
                         << stringifyPipe(pipe) << " on " << target.getName()
                         << " (it fires when its pipe's earlier work is done: "
                            "name the pipe that did it)";
  if (!target.runsOn(pipe, getCore()))
    return emitOpError() << "pipe " << stringifyPipe(pipe)
                         << " does not run on the " << stringifyCore(getCore())
                         << " core of " << target.getName() << " (it runs on "
                         << stringifyCores(target.getPipe(pipe).cores)
                         << ")";
  return success();
}

LogicalResult CrossCoreWaitOp::verify() {
  return verifyCrossCoreFlag(*this, getCore(), getMode(), getId());
}
