//===- IntervalSet.h - Sets of integers as disjoint intervals ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A set of integers kept as sorted, disjoint, non-adjacent half-open
// intervals. The happens-before checks (the inserter's pruning and the
// verifier) number each pipe's instructions and keep, per pipe, the numbers
// known to have finished: those grow mostly at the end and stay a few
// intervals, so the intervals live inline and an insert at the end is O(1).
//
//   insert(0, 3); insert(5, 6); insert(3, 5)   -> [0, 6)
//   [0, 6).minus([2, 4))                        -> [0, 2) [4, 6)
//   [0, 2) [4, 6) .intersect([1, 5))            -> [1, 2) [4, 5)
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_INTERVALSET_H
#define DSAPLAN_SUPPORT_INTERVALSET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace mlir {
namespace dsaplan {

class IntervalSet {
public:
  /// [begin, end).
  using Interval = std::pair<int64_t, int64_t>;

  bool empty() const { return intervals.empty(); }
  bool contains(int64_t x) const {
    if (intervals.empty())
      return false;
    // Most lookups are of recent numbers (the last interval) or of old
    // ones long known (the first).
    if (x >= intervals.back().first)
      return x < intervals.back().second;
    if (x < intervals.front().second)
      return x >= intervals.front().first;
    auto it = std::upper_bound(
        intervals.begin(), intervals.end(), x,
        [](int64_t v, const Interval &r) { return v < r.first; });
    return it != intervals.begin() && x < std::prev(it)->second;
  }
  /// Adds [begin, end); nothing when it is empty.
  void insert(int64_t begin, int64_t end) {
    if (begin >= end)
      return;
    // Numbers mostly grow: extend or append at the end.
    if (intervals.empty() || begin > intervals.back().second) {
      intervals.push_back({begin, end});
      return;
    }
    if (begin >= intervals.back().first) {
      intervals.back().second = std::max(intervals.back().second, end);
      return;
    }
    // Or grow the one before the last (numbers of two kinds, each growing
    // at its end: a pipe's accesses and its waits).
    if (intervals.size() >= 2) {
      Interval &before = intervals[intervals.size() - 2];
      if (begin >= before.first && begin <= before.second &&
          end < intervals.back().first) {
        before.second = std::max(before.second, end);
        return;
      }
    }
    // The first interval that ends at or after `begin` and the first that
    // starts after `end` bound the ones the new interval swallows.
    auto first = std::lower_bound(
        intervals.begin(), intervals.end(), begin,
        [](const Interval &r, int64_t v) { return r.second < v; });
    auto last = std::upper_bound(
        first, intervals.end(), end,
        [](int64_t v, const Interval &r) { return v < r.first; });
    if (first == last) {
      intervals.insert(first, {begin, end});
      return;
    }
    first->first = std::min(first->first, begin);
    first->second = std::max(std::prev(last)->second, end);
    intervals.erase(std::next(first), last);
  }
  /// Adds `x`. Inline where it extends the last interval or the one before
  /// it (a pipe's next access or wait number, in the path-wise checks):
  /// else as insert does.
  void insertOne(int64_t x) {
    size_t size = intervals.size();
    if (size && intervals[size - 1].second == x) {
      intervals[size - 1].second = x + 1;
      return;
    }
    if (size >= 2 && intervals[size - 2].second == x &&
        x + 1 < intervals[size - 1].first) {
      intervals[size - 2].second = x + 1;
      return;
    }
    insert(x, x + 1);
  }
  void unite(const IntervalSet &other) {
    if (other.empty())
      return;
    if (empty() || other.intervals.front().first > intervals.back().second) {
      intervals.append(other.intervals.begin(), other.intervals.end());
      return;
    }
    // Knowledge united into a pipe's is mostly known there already (no new
    // storage then), or else mostly a later state of it (a copy then).
    if (includes(other))
      return;
    if (other.includes(*this)) {
      intervals = other.intervals;
      return;
    }
    // Merged apart (on the stack while it fits), then copied back: the sets
    // stay small, and reserving both sizes here spilled to the heap.
    llvm::SmallVector<Interval, 8> merged;
    const Interval *a = intervals.begin(), *b = other.intervals.begin();
    while (a != intervals.end() || b != other.intervals.end()) {
      const Interval &next =
          b == other.intervals.end() ||
                  (a != intervals.end() && a->first <= b->first)
              ? *a++
              : *b++;
      if (!merged.empty() && next.first <= merged.back().second)
        merged.back().second = std::max(merged.back().second, next.second);
      else
        merged.push_back(next);
    }
    intervals.assign(merged.begin(), merged.end());
  }
  IntervalSet intersect(const IntervalSet &other) const {
    IntervalSet out;
    const Interval *a = intervals.begin(), *b = other.intervals.begin();
    while (a != intervals.end() && b != other.intervals.end()) {
      int64_t lo = std::max(a->first, b->first);
      int64_t hi = std::min(a->second, b->second);
      if (lo < hi)
        out.intervals.push_back({lo, hi});
      (a->second < b->second ? a : b)++;
    }
    return out;
  }
  IntervalSet minus(const IntervalSet &other) const {
    IntervalSet out;
    forEachMinus(intervals, other.intervals, [&](int64_t lo, int64_t hi) {
      out.intervals.push_back({lo, hi});
    });
    return out;
  }
  /// Calls `emit(begin, end)` for each interval of the numbers of `from`
  /// that none of `less` holds, in order. `from` is sorted and disjoint;
  /// `less` is sorted by begin and may overlap (a merge's list of what
  /// several paths ran unknown, in lib/Sync/Insert/OrderChecker.cpp).
  template <typename Emit>
  static void forEachMinus(llvm::ArrayRef<Interval> from,
                           llvm::ArrayRef<Interval> less, Emit emit) {
    const Interval *next = less.begin();
    for (auto [lo, hi] : from) {
      int64_t cursor = lo;
      while (next != less.end() && next->second <= cursor)
        ++next;
      for (const Interval *it = next; it != less.end() && it->first < hi;
           ++it) {
        if (it->first > cursor)
          emit(cursor, it->first);
        cursor = std::max(cursor, it->second);
      }
      if (cursor < hi)
        emit(cursor, hi);
    }
  }
  /// Whether every number of `other` is in this set.
  bool includes(const IntervalSet &other) const {
    const Interval *a = intervals.begin();
    for (const Interval &b : other.intervals) {
      // Intervals are disjoint and non-adjacent: b lies within one of ours
      // or it is not included.
      while (a != intervals.end() && a->second < b.second)
        ++a;
      if (a == intervals.end() || a->first > b.first)
        return false;
    }
    return true;
  }
  bool operator==(const IntervalSet &other) const {
    return intervals == other.intervals;
  }
  llvm::ArrayRef<Interval> getIntervals() const { return intervals; }

private:
  /// Eight inline: the pruning's merges leave a few holes in what a pipe
  /// knows, and with one inline those sets grew onto the heap at every
  /// copy (bench/pipeline at 1k allocations: 2.95 G instructions with
  /// one, 2.64 G with four, by callgrind; eight came in with the shared
  /// layers of LatestRuns, 9317243, and was not measured apart).
  using Storage = llvm::SmallVector<Interval, 8>;
  Storage intervals;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_INTERVALSET_H
