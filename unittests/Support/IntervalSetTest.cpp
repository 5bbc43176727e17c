//===- IntervalSetTest.cpp - Sets of integers as disjoint intervals -------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// IntervalSet::insertOne takes shortcuts where a number extends the last
// interval or the one before it: each case must leave the set as insert
// does (sorted, disjoint, non-adjacent intervals).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Support/IntervalSet.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace mlir::dsaplan;

namespace {

using Intervals = std::vector<IntervalSet::Interval>;

Intervals intervalsOf(const IntervalSet &set) {
  return Intervals(set.getIntervals().begin(), set.getIntervals().end());
}

/// A set of [begin, end) intervals, built by insert.
IntervalSet setOf(const Intervals &intervals) {
  IntervalSet set;
  for (auto [begin, end] : intervals)
    set.insert(begin, end);
  return set;
}

TEST(IntervalSetTest, InsertOneExtendsTheLastInterval) {
  IntervalSet set = setOf({{1, 4}, {10, 12}});
  set.insertOne(12);
  EXPECT_EQ(intervalsOf(set), (Intervals{{1, 4}, {10, 13}}));
}

TEST(IntervalSetTest, InsertOneExtendsTheOneBeforeTheLast) {
  IntervalSet set = setOf({{1, 4}, {10, 12}});
  set.insertOne(4);
  EXPECT_EQ(intervalsOf(set), (Intervals{{1, 5}, {10, 12}}));
}

TEST(IntervalSetTest, InsertOneJoinsTheLastTwo) {
  // [1, 4) extended by 4 would touch [5, 8): one interval.
  IntervalSet set = setOf({{1, 4}, {5, 8}});
  set.insertOne(4);
  EXPECT_EQ(intervalsOf(set), (Intervals{{1, 8}}));
}

TEST(IntervalSetTest, InsertOneElsewhere) {
  IntervalSet set = setOf({{1, 4}, {10, 12}, {20, 22}});
  set.insertOne(4); // before the one before the last: insert's way
  set.insertOne(30);
  set.insertOne(11); // in already
  set.insertOne(0);
  EXPECT_EQ(intervalsOf(set),
            (Intervals{{0, 5}, {10, 12}, {20, 22}, {30, 31}}));
}

TEST(IntervalSetTest, InsertOneAsInsert) {
  // Two bands of numbers, each mostly growing at its end (a pipe's access
  // and wait numbers), with some out of order.
  std::mt19937 random(7);
  IntervalSet byOne, byInsert;
  int64_t low = 0, high = 1000;
  for (int i = 0; i < 2000; ++i) {
    int64_t x;
    switch (random() % 4) {
    case 0:
      x = low++;
      break;
    case 1:
      x = high++;
      break;
    case 2:
      x = low + 1 + random() % 3;
      break;
    default:
      x = random() % (high + 3);
      break;
    }
    byOne.insertOne(x);
    byInsert.insert(x, x + 1);
    ASSERT_EQ(intervalsOf(byOne), intervalsOf(byInsert)) << "at " << i;
  }
}

} // namespace
