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
  llvm::sort(sorted, [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
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
  return {MemorySpace::ub,  MemorySpace::l1,  MemorySpace::l0a,
          MemorySpace::l0b, MemorySpace::l0c, MemorySpace::bt};
}

namespace {
struct BuiltinTable {
  llvm::StringLiteral name;
  // Indexed by MemorySpace: capacity, alignment, reserved [begin, end).
  struct Row {
    int64_t capacity, alignment, reservedBegin, reservedEnd;
  } rows[kNumMemorySpaces];
};

constexpr BuiltinTable kBuiltinTables[] = {
    {llvm::StringLiteral("ascend910b"),
     {{196608, 32, 188416, 196608}, // ub: top 8 KiB reserved
      {524288, 32, 0, 0},           // l1
      {65536, 512, 0, 0},           // l0a
      {65536, 512, 0, 0},           // l0b
      {131072, 64, 0, 0},           // l0c
      {1024, 64, 0, 0}}},           // bt
    {llvm::StringLiteral("ascend950"),
     {{253952, 32, 245760, 253952},
      {524288, 32, 0, 0},
      {65536, 512, 0, 0},
      {65536, 512, 0, 0},
      {262144, 64, 0, 0},
      {4096, 64, 0, 0}}},
};

const BuiltinTable *lookupTable(StringRef name) {
  for (const BuiltinTable &table : kBuiltinTables)
    if (table.name == name)
      return &table;
  return nullptr;
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

TargetDescription::TargetDescription() {
  const BuiltinTable &table = kBuiltinTables[0];
  name = table.name;
  for (size_t i = 0; i < kNumMemorySpaces; ++i) {
    const BuiltinTable::Row &row = table.rows[i];
    spaces[i].capacity = row.capacity;
    spaces[i].alignment = row.alignment;
    if (row.reservedEnd > row.reservedBegin)
      spaces[i].reserved.push_back({row.reservedBegin, row.reservedEnd});
  }
}

bool TargetDescription::isKnownTarget(StringRef name) {
  return lookupTable(name) != nullptr;
}

StringRef TargetDescription::knownTargetNames() {
  return "ascend910b, ascend950";
}

TargetDescription TargetDescription::get(TargetAttr attr) {
  TargetDescription target;
  const BuiltinTable *table = lookupTable(attr.getName());
  if (!table) // Unverified attribute: keep the default table.
    return target;
  target.name = table->name;
  for (size_t i = 0; i < kNumMemorySpaces; ++i) {
    const BuiltinTable::Row &row = table->rows[i];
    SpaceDescription &space = target.spaces[i];
    space.capacity = row.capacity;
    space.alignment = row.alignment;
    space.reserved.clear();
    if (row.reservedEnd > row.reservedBegin)
      space.reserved.push_back({row.reservedBegin, row.reservedEnd});
  }
  if (DictionaryAttr overrides = attr.getOverrides())
    for (NamedAttribute entry : overrides)
      applyOverride(target.getSpace(*symbolizeMemorySpace(entry.getName())),
                    cast<DictionaryAttr>(entry.getValue()));
  return target;
}

TargetDescription TargetDescription::getForOp(Operation *op) {
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (auto attr = scope->getAttrOfType<TargetAttr>(
            DsaPlanDialect::getTargetAttrName()))
      return get(attr);
  return TargetDescription();
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
