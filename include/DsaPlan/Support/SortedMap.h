//===- SortedMap.h - A small map kept as a vector sorted by key -*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The path-wise sync checks (the inserter's OrderChecker and the verifier's
// SyncChecker) keep the flags a path holds in flight, and the waits that
// consumed each flag, by flag: a few entries at a time, looked up at every
// set and wait, and copied with the path's state at every branch and loop
// iteration. A std::map allocates each entry of each copy; here a copy is
// one allocation (none while the entries fit inline), a look-up a binary
// search, and iteration is in key order as std::map's:
//
//   SortedMap<FlagKey, Capture, 2> flags;   // (src, dst, id) -> what set it
//   flags[{mte2, v, 0}] = ...;               // sets stay sorted by key
//
// LLVM has no sorted flat map (`SmallMapVector` keeps insertion order).
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_SORTEDMAP_H
#define DSAPLAN_SUPPORT_SORTEDMAP_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <tuple>
#include <utility>

namespace mlir {
namespace dsaplan {

template <typename Key, typename Value, unsigned InlineEntries = 0>
class SortedMap {
public:
  using Entry = std::pair<Key, Value>;
  using iterator = Entry *;
  using const_iterator = const Entry *;

  iterator begin() { return entries.begin(); }
  iterator end() { return entries.end(); }
  const_iterator begin() const { return entries.begin(); }
  const_iterator end() const { return entries.end(); }
  size_t size() const { return entries.size(); }
  bool empty() const { return entries.empty(); }

  const_iterator find(const Key &key) const {
    const_iterator it = lowerBound(key);
    return it != end() && it->first == key ? it : end();
  }
  iterator find(const Key &key) {
    return const_cast<iterator>(std::as_const(*this).find(key));
  }
  size_t count(const Key &key) const { return find(key) != end(); }
  const Value &at(const Key &key) const {
    const_iterator it = find(key);
    assert(it != end() && "no such key");
    return it->second;
  }
  /// The value of `key`, default-constructed when it has no entry yet.
  Value &operator[](const Key &key) {
    // A new last entry (the most common case) is built in place, not built
    // apart and moved in.
    if (entries.empty() || entries.back().first < key)
      return entries
          .emplace_back(std::piecewise_construct, std::forward_as_tuple(key),
                        std::forward_as_tuple())
          .second;
    iterator it = const_cast<iterator>(lowerBound(key));
    if (it->first != key)
      it = entries.insert(it, Entry(key, Value()));
    return it->second;
  }
  /// operator[] without building a default value to assign over.
  void insertOrAssign(const Key &key, Value &&value) {
    iterator it = const_cast<iterator>(lowerBound(key));
    if (it != end() && it->first == key)
      it->second = std::move(value);
    else
      entries.insert(it, Entry(key, std::move(value)));
  }
  void erase(const_iterator it) {
    entries.erase(entries.begin() + (it - entries.begin()));
  }
  void erase(const Key &key) {
    const_iterator it = find(key);
    if (it != end())
      erase(it);
  }
  /// Erases the entries in [first, last), which keep the others in order.
  void erase(iterator first, iterator last) { entries.erase(first, last); }
  void clear() { entries.clear(); }

private:
  const_iterator lowerBound(const Key &key) const {
    // Mostly added in key order: try the end first.
    if (entries.empty() || entries.back().first < key)
      return end();
    return llvm::lower_bound(entries, key, [](const Entry &e, const Key &k) {
      return e.first < k;
    });
  }
  llvm::SmallVector<Entry, InlineEntries> entries;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_SORTEDMAP_H
