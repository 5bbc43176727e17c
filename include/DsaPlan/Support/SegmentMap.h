//===- SegmentMap.h - A value per byte range, in disjoint segments -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The simulator's shadow of each memory (who touched which bytes) and the
// ideal schedule's byte times (when they were last written and read) both
// keep one value per byte range: disjoint segments [begin, end) in a map
// by begin, split where an access starts or ends.
//
//   update(0, 64, f)     -> [0, 64): f(v)
//   update(32, 96, g)    -> [0, 32): f(v), [32, 64): g(f(v)), [64, 96): g(v)
//
// Bytes no access touched have no segment; `update` creates them with a
// default value.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_SEGMENTMAP_H
#define DSAPLAN_SUPPORT_SEGMENTMAP_H

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

namespace mlir {
namespace dsaplan {

template <typename Value>
class SegmentMap {
public:
  /// Calls `fn(begin, end, value)` on every segment that overlaps
  /// [begin, end), clipped to it.
  template <typename Fn>
  void visit(int64_t begin, int64_t end, Fn fn) const {
    auto it = segments.upper_bound(begin);
    if (it != segments.begin() && std::prev(it)->second.end > begin)
      --it;
    for (; it != segments.end() && it->first < end; ++it)
      fn(std::max(begin, it->first), std::min(end, it->second.end),
         it->second.value);
  }

  /// Calls `fn(value)` on every piece of [begin, end), creating the pieces
  /// no access touched yet with a default value.
  template <typename Fn>
  void update(int64_t begin, int64_t end, Fn fn) {
    splitAt(begin);
    splitAt(end);
    int64_t at = begin;
    auto it = segments.lower_bound(begin);
    while (at < end) {
      if (it == segments.end() || it->first > at) {
        int64_t gapEnd = it == segments.end() ? end : std::min(end, it->first);
        it = segments.emplace_hint(it, at, Segment{gapEnd, Value()});
      }
      fn(it->second.value);
      at = it->second.end;
      ++it;
    }
  }

  /// Around [begin, end]: drops the segments whose value `isEmpty` says is
  /// empty and merges neighbours of equal value.
  template <typename IsEmpty>
  void coalesce(int64_t begin, int64_t end, IsEmpty isEmpty) {
    auto it = segments.lower_bound(begin);
    if (it != segments.begin())
      --it;
    while (it != segments.end() && it->first <= end) {
      auto next = std::next(it);
      if (isEmpty(it->second.value)) {
        segments.erase(it);
      } else if (next != segments.end() && next->first == it->second.end &&
                 next->second.value == it->second.value) {
        it->second.end = next->second.end;
        segments.erase(next);
        continue;
      }
      it = next;
    }
  }

  bool empty() const { return segments.empty(); }
  /// The first byte of the first segment and the end of the last: the
  /// bytes some segment covers lie in between. Not for an empty map.
  int64_t firstByte() const { return segments.begin()->first; }
  int64_t endByte() const { return std::prev(segments.end())->second.end; }

  /// The map with every segment moved by `by` bytes.
  SegmentMap shifted(int64_t by) const {
    SegmentMap moved;
    for (const auto &[begin, segment] : segments)
      moved.segments.emplace_hint(moved.segments.end(), begin + by,
                                  Segment{segment.end + by, segment.value});
    return moved;
  }

private:
  struct Segment {
    int64_t end;
    Value value;
  };

  void splitAt(int64_t x) {
    auto it = segments.upper_bound(x);
    if (it == segments.begin())
      return;
    --it;
    if (it->first < x && x < it->second.end) {
      Segment tail = it->second;
      it->second.end = x;
      segments.emplace_hint(std::next(it), x, std::move(tail));
    }
  }

  std::map<int64_t, Segment> segments;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_SEGMENTMAP_H
