//===- Target.cpp - Built-in target tables and overrides ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// ascend910b follows DESIGN.md: capacities from PyPTO's soc.cpp (the top
// 8 KiB of UB reserved), alignments the hardware minimums of the CANN
// "NPU architecture 220x" pages. ascend950 takes its capacities from the
// corpus' architectures/ascend950-v1.json (UB: 253952 physical, 245760
// usable) with the same alignments.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

#include <iterator>
#include <vector>

using namespace mlir;
using namespace mlir::dsaplan;

int64_t SpaceDescription::usableBytes() const {
  int64_t usable = 0;
  for (ByteRange range : usableRanges())
    usable += range.end - range.begin;
  return usable;
}

SmallVector<ByteRange, 2> SpaceDescription::usableRanges() const {
  SmallVector<ByteRange, 2> sorted(reserved.begin(), reserved.end());
  llvm::sort(sorted,
             [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  SmallVector<ByteRange, 2> usable;
  int64_t cursor = 0;
  for (ByteRange range : sorted) {
    if (range.begin > cursor)
      usable.push_back({cursor, std::min(range.begin, capacity)});
    cursor = std::max(cursor, range.end);
    if (cursor >= capacity)
      break;
  }
  if (cursor < capacity)
    usable.push_back({cursor, capacity});
  return usable;
}

std::array<MemorySpace, kNumMemorySpaces> mlir::dsaplan::allMemorySpaces() {
  std::array<MemorySpace, kNumMemorySpaces> spaces;
  for (size_t i = 0; i < kNumMemorySpaces; ++i)
    spaces[i] = static_cast<MemorySpace>(i);
  return spaces;
}

namespace {
/// Reach masks of the pipe table: a bit per space and one for GM.
constexpr unsigned bit(MemorySpace space) {
  return 1u << static_cast<unsigned>(space);
}
constexpr unsigned kGm = 1u << PipeDescription::kGlobalMemoryBit;
constexpr unsigned kUb = bit(MemorySpace::ub), kL1 = bit(MemorySpace::l1),
                   kL0a = bit(MemorySpace::l0a), kL0b = bit(MemorySpace::l0b),
                   kL0c = bit(MemorySpace::l0c), kBt = bit(MemorySpace::bt);

struct BuiltinTable {
  llvm::StringLiteral name;
  // Indexed by MemorySpace: capacity, alignment, reserved [begin, end).
  struct Row {
    int64_t capacity, alignment, reservedBegin, reservedEnd;
  } rows[kNumMemorySpaces];
  // Indexed by Pipe (s, v, m, mte1, mte2, mte3, fix).
  const std::array<PipeDescription, kNumPipes> &pipes;
  // Event ids per (src, dst) pair of pipes.
  int64_t eventIds;
  CrossCoreDescription crossCore;
};

/// ascend910b's cross-core flags (Ascend C CrossCoreSetFlag and
/// CrossCoreWaitFlag for Atlas A2 parts): ids 0-10, a counter per id of at
/// most 15 signals, modes 0, 1 and 2, two vector cores per cube core.
constexpr CrossCoreDescription k910bCrossCore{11, 15, 0b111, 2};
/// ascend950 adds mode 4 (each vector core signals the cube core alone).
constexpr CrossCoreDescription k950CrossCore{11, 15, 0b10111, 2};

/// ascend910b's pipes (DESIGN.md's target table; the Ascend C references of
/// DataCopy, LoadData, Mmad and Fixpipe for "A2" parts): the cube core
/// moves GM into L1 (MTE2), L1 into L0A/L0B/BT (MTE1), multiplies into L0C
/// (M) and writes results out of L0C to GM or L1 (FIX); the vector core
/// moves GM into UB (MTE2), computes in UB (V) and stores UB to GM (MTE3).
constexpr std::array<PipeDescription, kNumPipes> k910bPipes = {{
    // s: runs in order (no barrier) and signals no other core
    {kBothCores, kGm | kUb, kGm | kUb, /*needsBarrier=*/false,
     /*signalsCrossCore=*/false},
    {kVectorCore, kUb, kUb},                     // v
    {kCubeCore, kL0a | kL0b | kBt | kL0c, kL0c}, // m: accumulates in l0c
    {kCubeCore, kL1, kL0a | kL0b | kBt},         // mte1
    {kBothCores, kGm, kL1 | kUb},                // mte2
    {kVectorCore, kUb, kGm},                     // mte3: the cube has none
    {kCubeCore, kL0c, kGm | kL1},                // fix
}};

/// ascend950: as 910b, but MTE3 runs on the cube core as well, and FIX may
/// write L0C results to UB.
constexpr std::array<PipeDescription, kNumPipes> k950Pipes = [] {
  std::array<PipeDescription, kNumPipes> pipes = k910bPipes;
  pipes[static_cast<size_t>(Pipe::mte3)].cores = kBothCores;
  pipes[static_cast<size_t>(Pipe::fix)].writes |= kUb;
  return pipes;
}();

constexpr BuiltinTable kBuiltinTables[] = {
    {llvm::StringLiteral("ascend910b"),
     {{196608, 32, 188416, 196608}, // ub: top 8 KiB reserved
      {524288, 32, 0, 0},           // l1
      {65536, 512, 0, 0},           // l0a
      {65536, 512, 0, 0},           // l0b
      {131072, 64, 0, 0},           // l0c
      {1024, 64, 0, 0}},            // bt
     k910bPipes,
     /*eventIds=*/8,
     k910bCrossCore},
    {llvm::StringLiteral("ascend950"),
     {{253952, 32, 245760, 253952},
      {524288, 32, 0, 0},
      {65536, 512, 0, 0},
      {65536, 512, 0, 0},
      {262144, 64, 0, 0},
      {4096, 64, 0, 0}},
     k950Pipes,
     /*eventIds=*/8,
     k950CrossCore},
};

/// The index in kBuiltinTables of the table called `name`.
std::optional<size_t> lookupTable(StringRef name) {
  for (auto [index, table] : llvm::enumerate(kBuiltinTables))
    if (table.name == name)
      return index;
  return std::nullopt;
}

void applyOverride(SpaceDescription &space, DictionaryAttr fields) {
  if (auto capacity = fields.getAs<IntegerAttr>("capacity"))
    space.capacity = capacity.getInt();
  if (auto alignment = fields.getAs<IntegerAttr>("alignment"))
    space.alignment = alignment.getInt();
  if (auto reserved = fields.getAs<ArrayAttr>("reserved")) {
    space.reserved.clear();
    for (auto pair : reserved.getAsRange<ArrayAttr>())
      space.reserved.push_back({cast<IntegerAttr>(pair[0]).getInt(),
                                cast<IntegerAttr>(pair[1]).getInt()});
  }
}
} // namespace

TargetDescription::TargetDescription() : TargetDescription(0) {}

TargetDescription::TargetDescription(size_t tableIndex) {
  const BuiltinTable &table = kBuiltinTables[tableIndex];
  name = table.name;
  for (size_t i = 0; i < kNumMemorySpaces; ++i) {
    const BuiltinTable::Row &row = table.rows[i];
    spaces[i].capacity = row.capacity;
    spaces[i].alignment = row.alignment;
    if (row.reservedEnd > row.reservedBegin)
      spaces[i].reserved.push_back({row.reservedBegin, row.reservedEnd});
  }
  pipes = table.pipes;
  eventIds = table.eventIds;
  crossCore = table.crossCore;
}

bool TargetDescription::isKnownTarget(StringRef name) {
  return lookupTable(name).has_value();
}

StringRef TargetDescription::knownTargetNames() {
  return "ascend910b, ascend950";
}

TargetDescription TargetDescription::get(TargetAttr attr) {
  // The built-in tables as descriptions, built once: op verifiers ask for
  // the target of every alloc and flag op (getForOp).
  static const std::vector<TargetDescription> builtins = [] {
    std::vector<TargetDescription> descriptions;
    for (size_t index = 0; index < std::size(kBuiltinTables); ++index)
      descriptions.push_back(TargetDescription(index));
    return descriptions;
  }();
  std::optional<size_t> table = lookupTable(attr.getName());
  if (!table) // Unverified attribute: keep the default table.
    return builtins.front();
  DictionaryAttr overrides = attr.getOverrides();
  if (!overrides || overrides.empty())
    return builtins[*table];
  TargetDescription target = builtins[*table];
  for (NamedAttribute entry : overrides)
    applyOverride(target.getSpace(*symbolizeMemorySpace(entry.getName())),
                  cast<DictionaryAttr>(entry.getValue()));
  return target;
}

TargetDescription TargetDescription::getForOp(Operation *op) {
  // A discardable attribute: the op's properties are not looked into.
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (auto attr = dyn_cast_or_null<TargetAttr>(
            scope->getDiscardableAttr(DsaPlanDialect::getTargetAttrName())))
      return get(attr);
  return TargetDescription();
}

//===----------------------------------------------------------------------===//
// Pipes and cores
//===----------------------------------------------------------------------===//

StringRef mlir::dsaplan::stringifyCores(unsigned cores) {
  switch (cores) {
  case kCubeCore:
    return "cube";
  case kVectorCore:
    return "vector";
  case kBothCores:
    return "cube or vector";
  default:
    return "no core";
  }
}

SmallVector<unsigned, 2> mlir::dsaplan::firstUnitsOf(unsigned cores) {
  SmallVector<unsigned, 2> units;
  if (cores & kCubeCore)
    units.push_back(firstUnitOf(Core::cube));
  if (cores & kVectorCore)
    units.push_back(firstUnitOf(Core::vector));
  if (units.empty())
    units.push_back(0);
  return units;
}

CoreMask TargetDescription::getCore(MemorySpace space) const {
  return space == MemorySpace::ub ? kVectorCore : kCubeCore;
}

const PipeDescription &TargetDescription::getPipe(Pipe pipe) const {
  return pipes[static_cast<size_t>(pipe)];
}

bool TargetDescription::canAccess(Pipe pipe, std::optional<MemorySpace> space,
                                  bool isWrite) const {
  const PipeDescription &desc = getPipe(pipe);
  unsigned memory =
      space ? static_cast<unsigned>(*space) : PipeDescription::kGlobalMemoryBit;
  return ((isWrite ? desc.writes : desc.reads) >> memory) & 1;
}

std::string TargetDescription::describeReach(Pipe pipe, bool isWrite) const {
  std::string text;
  auto add = [&](StringRef name) {
    text += (text.empty() ? "" : ", ") + name.str();
  };
  if (canAccess(pipe, std::nullopt, isWrite))
    add("gm");
  for (MemorySpace space : allMemorySpaces())
    if (canAccess(pipe, space, isWrite))
      add(stringifyMemorySpace(space));
  return text.empty() ? "nothing" : text;
}

//===----------------------------------------------------------------------===//
// Cost model
//===----------------------------------------------------------------------===//

/// Estimates, in cycles, per pipe in enum order (s, v, m, mte1, mte2, mte3,
/// fix): a fixed issue cost and the bytes (read plus written) an op moves or
/// computes per cycle. Order of magnitude only: the vector unit handles 256
/// bytes a cycle, the cube about 512 of operands, the GM transfers (MTE2,
/// MTE3) are the slowest and the on-chip moves (MTE1, FIX) in between.
CostModel CostModel::defaults() {
  CostModel model;
  model.fixedCycles = {1, 8, 8, 16, 32, 32, 16};
  model.bytesPerCycle = {64, 256, 512, 256, 128, 128, 256};
  model.syncLatency = 1;
  model.jitterPercent = 50;
  return model;
}

int64_t CostModel::baseCycles(Pipe pipe, int64_t bytes) const {
  size_t p = static_cast<size_t>(pipe);
  int64_t rate = std::max<int64_t>(1, bytesPerCycle[p]);
  return std::max<int64_t>(1, fixedCycles[p] + (bytes + rate - 1) / rate);
}

bool CostModel::applyOverrides(StringRef text, std::string &error) {
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, valueText] = item.trim().split('=');
    key = key.trim();
    int64_t value;
    if (valueText.trim().getAsInteger(10, value) || value < 0) {
      error = ("cost '" + key + "' needs a non-negative integer, got '" +
               valueText.trim() + "'")
                  .str();
      return false;
    }
    if (key == "sync-latency") {
      if (value < 1) {
        error = "cost 'sync-latency' must be at least 1 cycle";
        return false;
      }
      syncLatency = value;
      continue;
    }
    if (key == "pipe-overlap") {
      if (value > 1) {
        error = "cost 'pipe-overlap' is 0 or 1";
        return false;
      }
      pipeOverlap = value == 1;
      continue;
    }
    if (key == "jitter") {
      if (value > 99) {
        error = "cost 'jitter' is a percentage below 100";
        return false;
      }
      jitterPercent = value;
      continue;
    }
    auto [pipeName, field] = key.split('.');
    std::optional<Pipe> pipe = symbolizePipe(pipeName);
    if (!pipe || (field != "fixed" && field != "bytes-per-cycle")) {
      error = ("unknown cost '" + key +
               "' (expected <pipe>.fixed, <pipe>.bytes-per-cycle, "
               "sync-latency, jitter or pipe-overlap)")
                  .str();
      return false;
    }
    size_t p = static_cast<size_t>(*pipe);
    if (field == "fixed") {
      fixedCycles[p] = value;
    } else if (value == 0) {
      error = ("cost '" + key + "' must be at least 1").str();
      return false;
    } else {
      bytesPerCycle[p] = value;
    }
  }
  return true;
}
