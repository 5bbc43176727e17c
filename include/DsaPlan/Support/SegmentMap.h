//===- SegmentMap.h - A value per byte range, in disjoint segments -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// One value per byte range: disjoint segments [begin, end) in one vector
// sorted by begin, split where an access starts or ends. The sync
// dependencies' shadows, the simulator's shadow of each memory (who touched
// which bytes) and the ideal schedule's byte times keep one:
//
//   update(0, 64, f)     -> [0, 64): f(v)
//   update(32, 96, g)    -> [0, 32): f(v), [32, 64): g(f(v)), [64, 96): g(v)
//
// Bytes no access touched have no segment; `update` creates them with a
// default value. The maps hold a few dozen segments and are copied and
// merged far more often than they grow (the dependencies' shadows at every
// branch and loop a path writes in): a copy is one allocation, a look-up a
// binary search, and a merge of two maps one pass over both:
//
//   a:                 [0, 64): x        [96, 128): y
//   b:        [32, 112): z
//   a.overlaid(b, f):  [0, 32): x  [32, 64): f(x, z)  [64, 96): f({}, z)
//                      [96, 112): f(y, z)  [112, 128): y
//
// An insertion in the middle moves the segments after it.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_SEGMENTMAP_H
#define DSAPLAN_SUPPORT_SEGMENTMAP_H

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace mlir {
namespace dsaplan {

template <typename Value>
class SegmentMap {
public:
  /// Calls `fn(begin, end, value)` on every segment that overlaps
  /// [begin, end), clipped to it.
  template <typename Fn>
  void visit(int64_t begin, int64_t end, Fn fn) const {
    for (size_t i = firstOverlapping(begin);
         i < segments.size() && segments[i].begin < end; ++i)
      fn(std::max(begin, segments[i].begin), std::min(end, segments[i].end),
         segments[i].value);
  }

  /// Calls `fn(value)` on every piece of [begin, end), creating the pieces
  /// no access touched yet with a default value.
  template <typename Fn>
  void update(int64_t begin, int64_t end, Fn fn) {
    splitAt(begin);
    splitAt(end);
    size_t i = firstOverlapping(begin);
    for (int64_t at = begin; at < end;) {
      if (i == segments.size() || segments[i].begin > at) {
        int64_t gapEnd =
            i == segments.size() ? end : std::min(end, segments[i].begin);
        segments.insert(segments.begin() + i, Segment{at, gapEnd, Value()});
      }
      fn(segments[i].value);
      at = segments[i].end;
      ++i;
    }
  }

  /// This map after `update(begin, end, [&](Value &v) { fn(v, value); })`
  /// for every segment [begin, end): value of `other`, in one pass over
  /// both maps.
  template <typename Fn>
  SegmentMap overlaid(const SegmentMap &other, Fn fn) const {
    SegmentMap result;
    std::vector<Segment> &out = result.segments;
    out.reserve(segments.size() + 2 * other.segments.size());
    size_t i = 0;
    // The part of segments[i] not yet written out starts at `from`.
    int64_t from = i < segments.size() ? segments[0].begin : 0;
    auto next = [&] {
      if (++i < segments.size())
        from = segments[i].begin;
    };
    for (const Segment &piece : other.segments) {
      // Whole segments before the piece, and the part of one it cuts.
      for (; i < segments.size() && from < piece.begin; ) {
        const Segment &seg = segments[i];
        if (seg.end <= piece.begin) {
          out.push_back({from, seg.end, seg.value});
          next();
        } else {
          out.push_back({from, piece.begin, seg.value});
          from = piece.begin;
        }
      }
      for (int64_t at = piece.begin; at < piece.end;) {
        if (i == segments.size() || from > at) {
          int64_t gapEnd =
              i == segments.size() ? piece.end : std::min(piece.end, from);
          out.push_back({at, gapEnd, Value()});
        } else {
          const Segment &seg = segments[i];
          int64_t pieceEnd = std::min(seg.end, piece.end);
          out.push_back({at, pieceEnd, seg.value});
          if (pieceEnd == seg.end)
            next();
          else
            from = pieceEnd;
        }
        fn(out.back().value, piece.value);
        at = out.back().end;
      }
    }
    for (; i < segments.size(); next())
      out.push_back({from, segments[i].end, segments[i].value});
    return result;
  }

  /// Around [begin, end]: drops the segments whose value `isEmpty` says is
  /// empty and merges neighbours of equal value.
  template <typename IsEmpty>
  void coalesce(int64_t begin, int64_t end, IsEmpty isEmpty) {
    size_t i = std::lower_bound(segments.begin(), segments.end(), begin,
                                [](const Segment &segment, int64_t at) {
                                  return segment.begin < at;
                                }) -
               segments.begin();
    if (i > 0)
      --i;
    while (i < segments.size() && segments[i].begin <= end) {
      if (isEmpty(segments[i].value)) {
        segments.erase(segments.begin() + i);
        continue;
      }
      if (i + 1 < segments.size() &&
          segments[i + 1].begin == segments[i].end &&
          segments[i + 1].value == segments[i].value) {
        segments[i].end = segments[i + 1].end;
        segments.erase(segments.begin() + i + 1);
        continue;
      }
      ++i;
    }
  }

  bool empty() const { return segments.empty(); }
  /// The first byte of the first segment and the end of the last: the
  /// bytes some segment covers lie in between. Not for an empty map.
  int64_t firstByte() const { return segments.front().begin; }
  int64_t endByte() const { return segments.back().end; }

  /// The map with every segment moved by `by` bytes.
  SegmentMap shifted(int64_t by) const {
    SegmentMap moved = *this;
    for (Segment &segment : moved.segments) {
      segment.begin += by;
      segment.end += by;
    }
    return moved;
  }

private:
  struct Segment {
    int64_t begin, end;
    Value value;
  };

  /// The first segment that ends after `x`.
  size_t firstOverlapping(int64_t x) const {
    return std::upper_bound(segments.begin(), segments.end(), x,
                            [](int64_t at, const Segment &segment) {
                              return at < segment.end;
                            }) -
           segments.begin();
  }

  void splitAt(int64_t x) {
    size_t i = firstOverlapping(x);
    if (i == segments.size() || segments[i].begin >= x)
      return;
    Segment tail = segments[i];
    tail.begin = x;
    segments[i].end = x;
    segments.insert(segments.begin() + i + 1, std::move(tail));
  }

  std::vector<Segment> segments;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_SEGMENTMAP_H
