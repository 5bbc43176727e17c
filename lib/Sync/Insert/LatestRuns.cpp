//===- LatestRuns.cpp - The latest runs of each dependency source ---------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "LatestRuns.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::sync;

std::shared_ptr<const LatestRuns::Layer> LatestRuns::share() const {
  if (own.empty())
    return layers;
  auto layer = std::make_shared<Layer>();
  unsigned written = own.size();
  layer->entries = std::move(own);
  // The filter of what this state wrote, and of the layers flattened in.
  uint64_t filter = ownFilter;
  if (layers && layers->depth >= kMaxDepth) {
    // Flattens the layers above the last fold's (or the bottom one) into
    // this one.
    const std::shared_ptr<const Layer> *bottom = &layers;
    for (; !(*bottom)->fold && (*bottom)->parent;
         bottom = &(*bottom)->parent) {
      for (const auto &[op, seqs] : (*bottom)->entries)
        layer->entries.try_emplace(op, seqs);
      filter |= (*bottom)->filter;
    }
    layer->parent = *bottom;
  } else {
    layer->parent = std::move(layers);
  }
  // The next table is made for as many entries as this one got (a loop's
  // next iteration writes the sources this one wrote), not grown from 64
  // buckets: a merge walks every bucket of the tables it reads (the seed-1
  // 1k kernel: OrderChecker::ordered 341.1 -> 338.4 M instructions).
  own = Map(written);
  ownFilter = 0;
  layer->seal(filter);
  layers = std::move(layer);
  return layers;
}

LatestRuns LatestRuns::merge(ArrayRef<const LatestRuns *> paths) {
  // The deepest layer every path reads: below it, all read the same.
  const Layer *common = paths.front()->layers.get();
  std::shared_ptr<const Layer> commonOwner = paths.front()->layers;
  for (const LatestRuns *path : paths.drop_front()) {
    const Layer *other = path->layers.get();
    while (common != other && common && other) {
      unsigned depthA = common->depth, depthB = other->depth;
      if (depthA >= depthB)
        common = common->parent.get();
      if (depthB >= depthA)
        other = other->parent.get();
    }
    if (common != other)
      common = nullptr;
  }
  LatestRuns merged;
  // The layer's owner: a path's pointer to it (its top or a parent link).
  for (const Layer *layer = paths.front()->layers.get(); layer != common;
       layer = layer->parent.get())
    if (layer->parent.get() == common)
      commonOwner = layer->parent;
  merged.layers = common ? std::move(commonOwner) : nullptr;
  // A path's numbers have no repeats; those of a path that reads the same
  // entry as the path before it are all in already. Numbers grow along the
  // walk, so one above all those in already is new.
  SmallVector<const Seqs *, 4> found(paths.size());
  auto unite = [&](SourceId op, Seqs &into) {
    // The paths' numbers to unite (none where a path repeats the one
    // before), and room for them all at once: growing as it went, `into`
    // spilled more than once.
    const Seqs *previous = nullptr;
    size_t most = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
      const Seqs *seqs = paths[i]->find(op);
      bool repeats = !seqs || seqs == previous ||
                     (previous && sameRuns(*seqs, *previous));
      found[i] = repeats ? nullptr : seqs;
      if (!repeats) {
        most += seqs->size();
        previous = seqs;
      }
    }
    into.reserve(most);
    int64_t highest = std::numeric_limits<int64_t>::min();
    for (const Seqs *seqs : found) {
      if (!seqs)
        continue;
      // Mostly a path's numbers are those in already and more (a loop's
      // exits: each is the one before it and an iteration). That prefix is
      // skipped, not looked for number by number (1k: LatestRuns::merge
      // 45.1 -> 40.0 M instructions).
      size_t same = 0;
      while (same < into.size() && same < seqs->size() &&
             into[same] == (*seqs)[same])
        ++same;
      for (int64_t seq : ArrayRef(*seqs).drop_front(same)) {
        if (seq > highest)
          highest = seq;
        else if (llvm::is_contained(into, seq))
          continue;
        into.push_back(seq);
      }
    }
  };
  auto visit = [&](const Map &entries) {
    for (const auto &entry : entries) {
      auto [it, inserted] = merged.own.try_emplace(entry.first);
      if (inserted) {
        unite(entry.first, it->second);
        merged.ownFilter |= filterBit(entry.first);
      }
    }
  };
  // Room for the largest table it unites, which it holds all of: reserving
  // the sum of them all overshot (the paths write the same sources) and
  // growing as it went moved every entry at each doubling. Made so, not
  // reserved: a reserve makes 64 buckets at least, and the table is walked
  // whole when it is copied, folded or merged again.
  size_t largest = 0;
  for (const LatestRuns *path : paths) {
    largest = std::max<size_t>(largest, path->own.size());
    for (const Layer *layer = path->layers.get(); layer != common;
         layer = layer->parent.get())
      largest = std::max<size_t>(largest, layer->entries.size());
  }
  merged.own = Map(largest);
  // Paths share layers above `common` too (a loop's exits: the later read
  // the earlier's): each is visited once, and so are the layers below it.
  SmallPtrSet<const Layer *, 8> visited;
  for (const LatestRuns *path : paths) {
    visit(path->own);
    for (const Layer *layer = path->layers.get();
         layer != common && visited.insert(layer).second;
         layer = layer->parent.get())
      visit(layer->entries);
  }
  return merged;
}
