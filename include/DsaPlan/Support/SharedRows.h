//===- SharedRows.h - Rows shared by copies until one writes ----*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The path-wise sync checks (the inserter's OrderChecker and the verifier's
// SyncChecker) keep, per pipe or unit q, what q knows has finished of every
// other: a row of interval sets. A walk copies its state at every branch
// and loop iteration, and a step changes a row or two, so the rows are
// shared between the copies and copied only when one of them writes:
//
//   SharedRows<PipeSets, kNumPipes> known;
//   Path copy = path;            // shares every row: pointer copies
//   copy.known.own(q)[p] = ...;  // row q of `copy` becomes its own
//
// A row never written stays unallocated and reads empty.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SUPPORT_SHAREDROWS_H
#define DSAPLAN_SUPPORT_SHAREDROWS_H

#include <array>
#include <cstddef>
#include <memory>

namespace mlir {
namespace dsaplan {

template <typename Row, size_t NumRows> class SharedRows {
public:
  const Row &operator[](size_t i) const { return rows[i] ? *rows[i] : kEmpty; }
  /// Row i, to be changed: a copy of its own if another state shares it.
  Row &own(size_t i) {
    if (!rows[i])
      rows[i] = std::make_shared<Row>();
    else if (rows[i].use_count() > 1)
      rows[i] = std::make_shared<Row>(*rows[i]);
    return *rows[i];
  }
  /// Row i where this state alone holds it (so it may change it in place),
  /// else null.
  Row *sole(size_t i) {
    return rows[i] && rows[i].use_count() == 1 ? rows[i].get() : nullptr;
  }
  /// Takes row i away: this state then reads it empty.
  std::shared_ptr<Row> take(size_t i) { return std::move(rows[i]); }
  /// Makes `row` row i.
  void assign(size_t i, std::shared_ptr<Row> row) { rows[i] = std::move(row); }
  /// Row i of `from`, shared.
  void share(size_t i, const SharedRows &from) { rows[i] = from.rows[i]; }
  /// Whether row i is the same here and in `other` (shared, or both never
  /// written).
  bool shares(size_t i, const SharedRows &other) const {
    return rows[i] == other.rows[i];
  }
  /// Row i as it is now: a later change of the row copies it first.
  std::shared_ptr<const Row> snapshot(size_t i) const { return rows[i]; }

private:
  /// What a row never written reads (a class member, not a function's
  /// static: this is read at every step, and a function's static checks its
  /// guard at each call).
  static inline const Row kEmpty{};
  std::array<std::shared_ptr<Row>, NumRows> rows;
};

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_SUPPORT_SHAREDROWS_H
