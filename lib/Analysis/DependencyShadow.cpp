//===- DependencyShadow.cpp - Who last touched each byte ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DependencyShadow.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::detail;

namespace {

/// Appends the entries of `from` that `into` lacks. Two paths' entries of a
/// byte usually grew from one history: the prefix they share is in `into`
/// already, and only the rest is looked up (a byte read by many ops holds
/// many readers), among `into`'s own rest only: `from` holds no repeats,
/// so none of its rest is in the prefix, nor among those appended here.
void appendNew(SmallVectorImpl<ShadowEntry> &into, ArrayRef<ShadowEntry> from) {
  size_t shared = 0;
  while (shared < from.size() && shared < into.size() &&
         into[shared] == from[shared])
    ++shared;
  size_t ownEnd = into.size();
  for (const ShadowEntry &entry : from.drop_front(shared))
    if (std::find(into.begin() + shared, into.begin() + ownEnd, entry) ==
        into.begin() + ownEnd)
      into.push_back(entry);
}

bool isEmptyCell(const CellRef &cell) { return cell.empty(); }

} // namespace

//===----------------------------------------------------------------------===//
// ShadowCells
//===----------------------------------------------------------------------===//

CellRef ShadowCells::make(ArrayRef<ShadowEntry> writers,
                          ArrayRef<ShadowEntry> readers) {
  auto *cell = new (arena.Allocate<ShadowCell>()) ShadowCell{writers, readers};
  return CellRef{cell};
}

/// A copy of `entries` in `arena`, for a cell to point to.
static ArrayRef<ShadowEntry> keep(llvm::BumpPtrAllocator &arena,
                                  ArrayRef<ShadowEntry> entries) {
  if (entries.empty())
    return {};
  ShadowEntry *copy = arena.Allocate<ShadowEntry>(entries.size());
  std::uninitialized_copy(entries.begin(), entries.end(), copy);
  return ArrayRef<ShadowEntry>(copy, entries.size());
}

CellRef ShadowCells::written(ShadowEntry writer) {
  return make(keep(arena, writer), {});
}

CellRef ShadowCells::read(CellRef cell, ShadowEntry reader) {
  if (llvm::is_contained(cell.readers(), reader))
    return cell;
  SmallVector<ShadowEntry, 8> readers(cell.readers());
  readers.push_back(reader);
  // The writers are the old cell's, which never changes.
  return make(cell.writers(), keep(arena, readers));
}

CellRef ShadowCells::united(CellRef a, CellRef b) {
  if (a.cell == b.cell || b.empty())
    return a;
  if (a.empty()) // b's lists hold no repeats: appended to none, b's own
    return b;
  SmallVector<ShadowEntry, 8> writers(a.writers()), readers(a.readers());
  appendNew(writers, b.writers());
  appendNew(readers, b.readers());
  bool newWriters = writers.size() != a.writers().size();
  bool newReaders = readers.size() != a.readers().size();
  if (!newWriters && !newReaders)
    return a;
  return make(newWriters ? keep(arena, writers) : a.writers(),
              newReaders ? keep(arena, readers) : a.readers());
}

Shadow ShadowCells::united(const Shadow &a, const Shadow &b) {
  Shadow result = a.overlaid(b, [&](CellRef &into, const CellRef &cell) {
    into = united(into, cell);
  });
  result.coalesce(kFirstByte, kEndByte, isEmptyCell);
  return result;
}

Shadow ShadowCells::everywhere(const Shadow &shadow, int64_t begin,
                               int64_t end) {
  CellRef all;
  shadow.visit(kFirstByte, kEndByte,
               [&](int64_t, int64_t, const CellRef &cell) {
                 all = united(all, cell);
               });
  Shadow smeared;
  smeared.update(begin, end, [&](CellRef &cell) { cell = all; });
  return smeared;
}

//===----------------------------------------------------------------------===//
// ShadowState
//===----------------------------------------------------------------------===//

std::vector<ShadowState::Entry>::iterator ShadowState::find(ShadowKey key) {
  return std::lower_bound(
      shadows.begin(), shadows.end(), key,
      [](const Entry &entry, ShadowKey at) { return entry.first < at; });
}

std::shared_ptr<Shadow> &ShadowState::slot(ShadowKey key) {
  auto it = find(key);
  if (it == shadows.end() || it->first != key)
    it = shadows.insert(it, {key, nullptr});
  return it->second;
}

Shadow &ShadowState::edit(ShadowKey key) {
  std::shared_ptr<Shadow> &shadow = slot(key);
  if (!shadow || shadow.use_count() > 1)
    shadow = std::make_shared<Shadow>(shadow ? *shadow : Shadow());
  return *shadow;
}

void ShadowState::erase(ShadowKey key) {
  auto it = find(key);
  if (it != shadows.end() && it->first == key)
    shadows.erase(it);
}

void ShadowState::unite(const ShadowState &other, ShadowCells &cells) {
  for (const auto &[key, shadow] : other.shadows) {
    std::shared_ptr<Shadow> &into = slot(key);
    if (!into)
      into = shadow;
    else if (into != shadow) // one shadow united with itself is itself
      into = std::make_shared<Shadow>(cells.united(*into, *shadow));
  }
}
