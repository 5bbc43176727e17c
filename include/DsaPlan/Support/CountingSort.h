//===- CountingSort.h - Grouping items by a small integer key ---*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A counting sort: items grouped by a key in [0, numKeys), in their given
// order within a key, in linear time. The sync analyses file hundreds of
// thousands of dependencies and requirements per large kernel, keyed by
// the later access or op; a comparison sort spent most of its time there.
//
//   keys of items:  2 0 2 1      numKeys = 3
//   grouped:        0 1 2 2      starts: 0 1 2 4
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_COUNTINGSORT_H
#define DSAPLAN_SUPPORT_COUNTINGSORT_H

#include "llvm/ADT/ArrayRef.h"

#include <cassert>
#include <cstddef>
#include <vector>

namespace mlir {
namespace dsaplan {

/// Writes `items` into `grouped` (of the same size) ordered by
/// `keyOf(item)`, stably, and returns where each key's run starts: key k
/// holds `grouped[starts[k], starts[k + 1])`.
template <typename T, typename KeyFn>
std::vector<size_t> groupByKey(llvm::ArrayRef<T> items, size_t numKeys,
                               KeyFn keyOf, llvm::MutableArrayRef<T> grouped) {
  assert(grouped.size() == items.size() && "one place per item");
  std::vector<size_t> starts(numKeys + 1, 0);
  for (const T &item : items)
    ++starts[keyOf(item) + 1];
  for (size_t key = 0; key < numKeys; ++key)
    starts[key + 1] += starts[key];
  std::vector<size_t> next(starts.begin(), starts.end() - 1);
  for (const T &item : items)
    grouped[next[keyOf(item)]++] = item;
  return starts;
}

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_COUNTINGSORT_H
