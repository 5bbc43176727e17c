//===- LatestRuns.h - The latest runs of each dependency source -*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Insert.
//
//===----------------------------------------------------------------------===//
//
// OrderChecker's (OrderChecker.h) record of each dependency source's latest
// executions along a path: the numbers a later access of a dependent pipe
// must know finished. Its entries are layers shared by the copies a walk
// makes at every branch and loop iteration.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_INSERT_LATESTRUNS_H
#define DSAPLAN_LIB_SYNC_INSERT_LATESTRUNS_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <utility>

namespace mlir {
namespace dsaplan {
namespace sync {

/// A dependency source's number: OrderChecker numbers the sources once, in
/// the order the dependencies name them, so that the walk's maps hash small
/// consecutive integers (few collisions), not op addresses.
using SourceId = unsigned;

/// The sequence numbers of each dependency source's latest executions (one
/// per path that merged here), by source. A walk copies its state at every
/// branch and loop iteration and merges the copies after it, and most
/// entries are of sources run before the branch or loop, which it cannot
/// change. So the entries are layers shared by the copies: a copy makes
/// what was written since the last one a layer (it copies no entry), each
/// copy writes its own, and a merge unites only the entries above the
/// layer all its paths share.
///
///   written: a b | copy | c | copy | d     ->  layers [a b] <- [c], own [d]
///
/// The layers from the last fold on stay a few (a flattening caps them),
/// and each has a 64-bit filter of its sources, so a look-up reads few.
class LatestRuns {
public:
  /// Eight inline: a loop's merge makes four, and a loop nest's more, which
  /// spilled to the heap at every copy with four (the seed-1 1k kernel:
  /// OrderChecker::ordered 673.2 M instructions with four, 670.3 M with
  /// eight; the consumers' numbers, kept apart, did better with four).
  using Seqs = SmallVector<int64_t, 8>;
  using Map = DenseMap<SourceId, Seqs>;

  /// Whether `a` and `b` hold the same numbers in the same order: a few
  /// each, compared here (SmallVector's == called memcmp for them).
  static bool sameRuns(const Seqs &a, const Seqs &b) {
    if (a.size() != b.size())
      return false;
    for (size_t i = 0, e = a.size(); i < e; ++i)
      if (a[i] != b[i])
        return false;
    return true;
  }

  LatestRuns() = default;
  /// Shares the entries of `other`: what `other` wrote since its last copy
  /// becomes a layer both read.
  LatestRuns(const LatestRuns &other) : layers(other.share()) {}
  LatestRuns &operator=(const LatestRuns &other) {
    if (this != &other) {
      layers = other.share();
      own.clear();
      ownFilter = 0;
    }
    return *this;
  }
  LatestRuns(LatestRuns &&) = default;
  LatestRuns &operator=(LatestRuns &&) = default;

  const Seqs *find(SourceId source) const {
    uint64_t bit = filterBit(source);
    if (ownFilter & bit) {
      auto it = own.find(source);
      if (it != own.end())
        return &it->second;
    }
    for (const Layer *layer = layers.get(); layer; layer = layer->parent.get())
      if (layer->filter & bit) {
        auto it = layer->entries.find(source);
        if (it != layer->entries.end())
          return &it->second;
      }
    return nullptr;
  }
  void assign(SourceId source, int64_t seq) {
    own[source].assign(1, seq);
    ownFilter |= filterBit(source);
  }

  /// Makes the entries at most two layers, leaving out the sources `keep`
  /// rejects: what was written since the last full fold, over the entries
  /// that fold made (the bottom layer). Copying the bottom layer at every
  /// fold cost most of the walk where many sources stay live (the 10k
  /// kernel), so it is copied only once what lies above it has grown to a
  /// quarter of it. Until then it keeps the sources `keep` rejects: nothing
  /// looks them up again, and `forEachKept` leaves them out.
  template <typename Keep> void fold(Keep keep) {
    const Layer *bottom = layers.get();
    while (bottom && bottom->parent)
      bottom = bottom->parent.get();
    size_t above = own.size(), most = own.size();
    for (const Layer *layer = layers.get(); layer; layer = layer->parent.get())
      (layer == bottom ? most : above) += layer->entries.size();
    // Folded already, and nothing written since.
    if (own.empty() && layers && layers->fold &&
        (layers.get() == bottom || layers->parent.get() == bottom))
      return;
    bool full = !bottom || above * 4 > bottom->entries.size();
    const Layer *stop = full ? nullptr : bottom;
    auto folded = std::make_shared<Layer>();
    // Made for its entries (a reserve makes 64 buckets at least).
    folded->entries = Map(full ? most + above : above);
    // Its own entries are moved (it clears them), the shared ones copied.
    uint64_t filter = 0;
    for (auto &[op, seqs] : own)
      if (keep(op)) {
        folded->entries.try_emplace(op, std::move(seqs));
        filter |= filterBit(op);
      }
    for (const Layer *layer = layers.get(); layer != stop;
         layer = layer->parent.get())
      for (const auto &[op, seqs] : layer->entries)
        if (keep(op)) {
          folded->entries.try_emplace(op, seqs);
          filter |= filterBit(op);
        }
    if (!full)
      for (const std::shared_ptr<const Layer> *at = &layers;;
           at = &(*at)->parent)
        if (at->get() == bottom) {
          folded->parent = *at;
          break;
        }
    folded->fold = true;
    folded->seal(filter);
    own.clear();
    ownFilter = 0;
    layers = std::move(folded);
  }
  /// Calls `fn(source, seqs)` for each source `keep` accepts, with its
  /// latest runs.
  template <typename Keep, typename Fn>
  void forEachKept(Keep keep, Fn fn) const {
    auto above = [&](SourceId source, const Layer *upTo) {
      if ((ownFilter & filterBit(source)) && own.count(source))
        return true;
      for (const Layer *layer = layers.get(); layer != upTo;
           layer = layer->parent.get())
        if ((layer->filter & filterBit(source)) &&
            layer->entries.count(source))
          return true;
      return false;
    };
    for (const auto &[source, seqs] : own)
      if (keep(source))
        fn(source, seqs);
    for (const Layer *layer = layers.get(); layer; layer = layer->parent.get())
      for (const auto &[source, seqs] : layer->entries)
        if (keep(source) && !above(source, layer))
          fn(source, seqs);
  }

  /// For each source, the sequence numbers of `paths` in path order,
  /// without repeats.
  static LatestRuns merge(ArrayRef<const LatestRuns *> paths);

private:
  struct Layer {
    std::shared_ptr<const Layer> parent;
    Map entries;
    /// Bit s % 64 for each source s of `entries`.
    uint64_t filter = 0;
    /// Layers below this one.
    unsigned depth = 0;
    /// Whether a fold made it.
    bool fold = false;
    /// Sets the filter (that of the entries, which its maker knows
    /// without a pass over the table) and the depth.
    void seal(uint64_t entriesFilter) {
      filter = entriesFilter;
      depth = parent ? parent->depth + 1 : 0;
    }
  };
  /// Layers on a fold's before a copy flattens them into one.
  static constexpr unsigned kMaxDepth = 6;
  static uint64_t filterBit(SourceId source) {
    return uint64_t(1) << (source % 64);
  }
  /// The layers of this state, with what it wrote since its last copy (if
  /// anything) on top: the state reads them too from now on.
  std::shared_ptr<const Layer> share() const;

  mutable std::shared_ptr<const Layer> layers;
  /// What this state wrote since its last copy.
  mutable Map own;
  mutable uint64_t ownFilter = 0;
};

} // namespace sync
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_INSERT_LATESTRUNS_H
