//===- History.h - The verifier's accesses, filed by page -------*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Sync/Verify.
//
//===----------------------------------------------------------------------===//
//
// The accesses that ran on a path and that a later access may conflict
// with. An access is one execution of an op on a pipe (its sequence number
// there) touching one range of bytes; the history files each by 4 KiB page
// of its memory, so that a new access is checked against those that share
// a page with it and not against all that ever ran:
//
//   copy -> ub [4096, 12288) on mte2    // filed under ub pages 1 and 2
//   exp  ub [8192, 9216) on v           // checked against page 2 only
//
// It is an index of records, not a third interval type beside IntervalSet
// (a set of integers) and SegmentMap (one value per byte): many accesses
// cover one byte at once, each is reported with its own op, pipe, sequence
// number and bytes, and only whole records are added, trimmed (cut) or
// united; no operation here computes on ranges as sets. Filed as a
// SegmentMap of access lists, an access would be split at every boundary
// of every other, and a branch or loop copy of the state would copy every
// segment, where here it shares the pages it does not change.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_SYNC_VERIFY_HISTORY_H
#define DSAPLAN_LIB_SYNC_VERIFY_HISTORY_H

#include "Bytes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/bit.h"

#include <array>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace mlir {
namespace dsaplan {
namespace verify {

/// One execution of an op on a pipe, touching one range of bytes.
struct Access {
  Operation *op;
  Pipe pipe;
  int64_t seq;
  Touch touch;
  /// The cores the op may run on (a CoreMask).
  unsigned cores = kBothCores;
  /// The pipe of the core that runs it (SyncChecker.h, kNumUnits).
  unsigned unit = 0;
  /// What tells two accesses apart: one execution of an op (its pipe and
  /// sequence number), the kind, and the bytes.
  using Key = std::tuple<int64_t, int, Operation *, int64_t, int64_t>;
  Key key() const {
    return {(seq * static_cast<int64_t>(kNumUnits) +
             static_cast<int64_t>(unit)) * 2 + touch.write,
            touch.bytes.space, touch.bytes.alloc, touch.bytes.begin,
            touch.bytes.end};
  }
  /// key() == o.key(), field by field: the first part of a key is one
  /// number per (seq, unit, write), so the fields compare alike. Pages are
  /// compared by the thousand at each merge: the bytes first, which mostly
  /// differ.
  bool operator==(const Access &o) const {
    const Bytes &a = touch.bytes, &b = o.touch.bytes;
    return a.begin == b.begin && a.end == b.end && seq == o.seq &&
           unit == o.unit && touch.write == o.touch.write &&
           a.space == b.space && a.alloc == b.alloc;
  }
};
/// Pages are copied, trimmed and merged by the thousand: as plain data
/// they move as bytes.
static_assert(std::is_trivially_copyable_v<Access>);

/// The accesses a later one may conflict with, filed by 4 KiB page of
/// memory: each page holds the part of each access inside it, so that an
/// access is checked against those that share a page with it and not
/// against all that ever ran. Pages are shared between the copies a branch
/// or a loop makes of the state and copied when one of them changes, since
/// most pages do not.
class History {
public:
  /// Calls `fn(access, begin, end)` on every access that overlaps `bytes`
  /// (only the writes if `writesOnly`), once per page, with the overlap
  /// inside that page; `aliasing` says which other GM buffers may be the
  /// one of `bytes`. A template: the walk calls it once per touch, and `fn`
  /// on most accesses of the pages it touches.
  ///
  /// Except on the pages `knows` vouches for: a page is skipped when
  /// `knows(unit, lo, hi)` holds for each unit filed there, `lo` and `hi`
  /// bounding that unit's sequence numbers on the page. A caller whose
  /// `knows` says that every access of those numbers is ordered, and that
  /// looks for unordered ones, finds the same.
  template <typename Knows, typename Fn>
  void forEachOverlapping(const Bytes &bytes, bool writesOnly,
                          GmAliasing &aliasing, Knows knows, Fn fn) const;
  /// Cuts `bytes` out of the accesses for which `shadowed` holds.
  void cut(const Bytes &bytes,
           llvm::function_ref<bool(const Access &)> shadowed);
  /// Files `access` under every page it touches.
  void add(const Access &access);
  /// Drops from the pages `bytes` touches the accesses `settled` selects
  /// (accesses no later one can race: FixedPoint.cpp, settledForAll), once
  /// a page holds half again what the last drop left: a tile that is only read
  /// keeps every read of every iteration, since only a write cuts.
  void forgetSettled(const Bytes &bytes,
                     llvm::function_ref<bool(const Access &)> settled);
  /// Every access that ran on one of `histories`, once. The histories share
  /// the entry state's accesses and mostly differ on a few pages.
  static History unite(ArrayRef<const History *> histories);
  /// Whether each access of this history that `live` selects has one on
  /// the same page of `earlier` that `covers(access, earlierAccess)`; a
  /// page the two share counts as covered (FixedPoint.cpp: the same
  /// accesses, known to no fewer units later on the path). `covers` holds
  /// only for two accesses of one op.
  bool
  coveredBy(const History &earlier,
            llvm::function_ref<bool(const Access &)> live,
            llvm::function_ref<bool(const Access &, const Access &)> covers)
      const;

private:
  using PageKey = std::pair<int, int64_t>; // space (-1: unplaced), page
  /// A page's accesses, and the size at which forgetSettled next looks
  /// through them (copied with the page).
  struct PageData {
    std::vector<Access> accesses;
    size_t sweepAt = kFirstSweep;
    /// Per unit, the least and greatest sequence number of its accesses
    /// filed here since the page was last swept (a cut may have dropped
    /// some: the bounds hold all that are left), and the units filed.
    std::array<std::pair<int64_t, int64_t>, kNumUnits> seqs;
    unsigned units = 0;
    static_assert(kNumUnits <= 32, "a unit per bit of `units`");
    /// Files `access` in the bounds (not in the accesses).
    void note(const Access &access) {
      auto &[lo, hi] = seqs[access.unit];
      if (!(units >> access.unit & 1)) {
        units |= 1u << access.unit;
        lo = hi = access.seq;
        return;
      }
      lo = std::min(lo, access.seq);
      hi = std::max(hi, access.seq);
    }
    /// Whether `knows` holds for every unit's bounds.
    template <typename Knows> bool knownBy(Knows knows) const {
      for (unsigned rest = units; rest; rest &= rest - 1) {
        unsigned unit = llvm::countr_zero(rest);
        if (!knows(unit, seqs[unit].first, seqs[unit].second))
          return false;
      }
      return true;
    }
  };
  using Page = std::shared_ptr<PageData>;
  /// The on-chip pages: per placed space a vector indexed by page number
  /// (a look-up is an index, where a hash map hashed the pair at every
  /// one, several times per access), and a map for the rest (unplaced
  /// allocs, numbers beyond kDirectPages). Which pages there are is all
  /// that is asked of it: no order of its pages reaches a diagnostic.
  class PageTable {
  public:
    /// The page, or null when there is none.
    const Page *find(PageKey key) const {
      if (const std::vector<Page> *row = direct(key))
        return key.second < static_cast<int64_t>(row->size()) &&
                       (*row)[key.second]
                   ? &(*row)[key.second]
                   : nullptr;
      auto it = others.find(key);
      return it == others.end() ? nullptr : &it->second;
    }
    /// The page's slot, null when new; valid until the next call.
    Page &operator[](PageKey key) {
      if (direct(key)) {
        std::vector<Page> &row = placed[key.first];
        if (key.second >= static_cast<int64_t>(row.size()))
          row.resize(key.second + 1);
        return row[key.second];
      }
      return others[key];
    }
    /// Calls `fn(key, page)` on every page.
    template <typename Fn> void forEach(Fn fn) const {
      for (auto [space, row] : llvm::enumerate(placed))
        for (auto [number, page] : llvm::enumerate(row))
          if (page)
            fn(PageKey(space, number), page);
      for (const auto &[key, page] : others)
        fn(key, page);
    }

  private:
    /// Page numbers a space's vector holds at most (16 MiB).
    static constexpr int64_t kDirectPages = 4096;
    /// The vector of `key`'s space when it holds the page number.
    const std::vector<Page> *direct(PageKey key) const {
      if (key.first < 0 || key.first >= static_cast<int>(kNumMemorySpaces) ||
          key.second < 0 || key.second >= kDirectPages)
        return nullptr;
      return &placed[key.first];
    }
    std::array<std::vector<Page>, kNumMemorySpaces> placed;
    llvm::DenseMap<PageKey, Page> others;
  };

  /// Global memory's pages, one per buffer, in the order first touched (the
  /// order diagnostics come in). A kernel touches a few buffers (its GM
  /// arguments), and a GM access looks at every page anyway (buffers that
  /// may alias): a search in order, where a MapVector's hash index was
  /// allocated, copied and freed with every copy of the maps.
  class GmPages {
  public:
    using Entry = std::pair<const void *, Page>;
    const Entry *begin() const { return entries.begin(); }
    const Entry *end() const { return entries.end(); }
    const Entry *find(const void *key) const {
      return llvm::find_if(entries,
                           [&](const Entry &e) { return e.first == key; });
    }
    Entry *find(const void *key) {
      return const_cast<Entry *>(std::as_const(*this).find(key));
    }
    /// The page of `key`'s buffer, a null slot when new.
    Page &operator[](const void *key) {
      Entry *it = find(key);
      if (it != entries.end())
        return it->second;
      return entries.emplace_back(key, Page()).second;
    }

  private:
    SmallVector<Entry, 8> entries;
  };

  /// Global memory: one page per buffer, in the order first touched (the
  /// order diagnostics come in), since GM ranges may be unbounded and
  /// buffers that may alias are checked against each other whole.
  template <typename Knows, typename Fn>
  void forEachOverlappingGm(const Bytes &bytes, bool writesOnly,
                            GmAliasing &aliasing, Knows knows, Fn fn) const;
  /// Adds to the page in `slot` (of maps owned) the accesses of `accesses`
  /// it lacks; an empty slot takes `accesses`.
  static void uniteInto(Page &slot, const Page &accesses);
  /// Which of `fresh` are in `page` after its first `common` accesses, or
  /// repeat an earlier one of `fresh`.
  static SmallVector<bool> presentAfter(ArrayRef<Access> page, size_t common,
                                        ArrayRef<Access> fresh);
  /// Cuts `bytes` out of the accesses of `accesses` that `hit` selects,
  /// the first of which is at `first`.
  static void cutPage(std::vector<Access> &accesses, size_t first,
                      const Bytes &bytes,
                      llvm::function_ref<bool(const Access &)> hit);
  /// Drops what `settled` selects of `page`, which is due (forgetSettled).
  static void sweep(Page &page,
                    llvm::function_ref<bool(const Access &)> settled);
  /// `page`, unshared: a copy when another history holds it too.
  static std::vector<Access> &unshare(Page &page);
  /// The page of GM buffer `gm`, unshared, to be changed.
  std::vector<Access> &ownGmPage(Value gm);
  /// The page, unshared, to be changed.
  std::vector<Access> &ownPage(PageKey key);

  static constexpr int kPageShift = 12;
  /// The fewest accesses forgetSettled looks through on a page.
  static constexpr size_t kFirstSweep = 8;
  /// Up to this many accesses of a path not in the united page's common
  /// start, unite compares them pairwise rather than hashing them.
  static constexpr size_t kLinearUnite = 16;
  static int64_t firstPage(const Bytes &b) { return b.begin >> kPageShift; }
  static int64_t lastPage(const Bytes &b) { return (b.end - 1) >> kPageShift; }
  /// The ranges first: they mostly decide, and cost less than comparing
  /// the memories.
  static bool overlap(const Bytes &a, const Bytes &b) {
    return a.begin < b.end && b.begin < a.end && a.sameMemory(b);
  }
  struct Maps {
    PageTable pages;
    GmPages gmPages;
  };
  /// The maps, to be read (none yet: empty).
  const Maps &view() const { return maps ? *maps : kNoMaps; }
  /// The maps, to be changed: a copy of their own if another history shares
  /// them (each page then shared by both until one changes it).
  Maps &own();
  static inline const Maps kNoMaps = Maps();
  /// Shared between the copies of the history until one of them changes:
  /// a copy that is only read (a loop's exit or iteration start, kept for
  /// the merge and the fixed-point test) costs a pointer.
  std::shared_ptr<Maps> maps;
};

template <typename Knows, typename Fn>
void History::forEachOverlapping(const Bytes &bytes, bool writesOnly,
                                 GmAliasing &aliasing, Knows knows,
                                 Fn fn) const {
  if (bytes.space == kGlobalSpace)
    return forEachOverlappingGm(bytes, writesOnly, aliasing, knows, fn);
  const PageTable &pages = view().pages;
  for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
    const Page *found = pages.find({bytes.space, page});
    if (!found || (*found)->knownBy(knows))
      continue;
    for (const Access &earlier : (*found)->accesses) {
      if (writesOnly && !earlier.touch.write)
        continue;
      const Bytes &a = earlier.touch.bytes;
      if (overlap(a, bytes))
        fn(earlier, std::max(a.begin, bytes.begin),
           std::min(a.end, bytes.end));
    }
  }
}

template <typename Knows, typename Fn>
void History::forEachOverlappingGm(const Bytes &bytes, bool writesOnly,
                                   GmAliasing &aliasing, Knows knows,
                                   Fn fn) const {
  auto wanted = [&](const Access &earlier) {
    return !writesOnly || earlier.touch.write;
  };
  for (const auto &[key, accesses] : view().gmPages) {
    if (accesses->knownBy(knows))
      continue;
    Value gm = Value::getFromOpaquePointer(key);
    if (gm == bytes.gm) {
      for (const Access &earlier : accesses->accesses) {
        if (!wanted(earlier))
          continue;
        const Bytes &a = earlier.touch.bytes;
        if (a.unknown != bytes.unknown)
          fn(earlier, a.begin, a.end); // offsets differ by an unknown amount
        else if (overlap(a, bytes))
          fn(earlier, std::max(a.begin, bytes.begin),
             std::min(a.end, bytes.end));
      }
    } else if (llvm::any_of(accesses->accesses, wanted) &&
               aliasing.mayBeSame(gm, bytes.gm)) {
      // Another buffer that may be this one: its bytes and ours may be
      // any of each other's.
      for (const Access &earlier : accesses->accesses)
        if (wanted(earlier))
          fn(earlier, earlier.touch.bytes.begin, earlier.touch.bytes.end);
    }
  }
}

} // namespace verify
} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_SYNC_VERIFY_HISTORY_H
