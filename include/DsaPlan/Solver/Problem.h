//===- Problem.h - The IR-free DSA placement problem ------------*- C++ -*-===//
//
// Part of dsaplan. The solver layer depends on the C++17 standard library only.
//
//===----------------------------------------------------------------------===//
//
// The Dynamic Storage Allocation problem as the solver sees it: pools (memory
// spaces with a capacity, reserved address ranges and a minimum alignment),
// buffers (a size, an alignment and one or more half-open live intervals in a
// pool), and constraints between buffers (separations, colocations, pins).
//
// A placement gives every buffer a byte offset in its pool. It is valid when
//   - every buffer is placed at a multiple of max(buffer, pool) alignment,
//   - [offset, offset + size) lies inside [0, capacity) and outside every
//     reserved range of its pool,
//   - two buffers of one pool whose live intervals intersect do not overlap
//     in address,
//   - separated buffers never overlap in address (whatever their lifetimes),
//   - colocated buffers share one offset,
//   - pinned buffers sit at their pinned offset; an exclusive pin keeps its
//     bytes from every other buffer of the pool, whatever the lifetimes,
//   - a temporal exclusion says two buffers are never live together although
//     their intervals meet (exclusive branches): they may share bytes.
// A colocated group occupies the bytes of its largest member: every member
// extends to [offset, offset + group size) in the rules above.
// A buffer may allow several pools (schema-v1 `allowed_pools`); a solution
// then also chooses one of them for it, and the rules above apply within the
// chosen pools. Colocated buffers allow the same pools and share the choice.
// The peak of a pool is max(offset + size) over its buffers (0 when empty).
//
// Objective. By default the peak is minimised. With Objective::ReuseCost
// (schema-v1 `["capacity_overflow", "reuse_cost"]`) every pool must first fit
// its capacity, and among the placements that fit the one with the lowest
// reuse cost is best: a reuse penalty {first, second, cost} is charged when
// both buffers are in one pool, not colocated, not live together (a temporal
// exclusion counts as never live together) and their byte ranges (a
// colocated group spans its largest member) intersect.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_PROBLEM_H
#define DSAPLAN_SOLVER_PROBLEM_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsaplan::solver {

/// A half-open interval of program points [lower, upper).
struct Interval {
  int64_t lower = 0;
  int64_t upper = 0;
};

/// A half-open byte range [begin, end).
struct AddressRange {
  int64_t begin = 0;
  int64_t end = 0;
};

/// One memory space. Pools are solved independently of each other.
struct Pool {
  std::string id;   // as in the input ("0", "UB", ...)
  std::string name; // human-readable ("Vec", "ub")
  int64_t capacity = 0;
  std::vector<AddressRange> reserved;
  int64_t alignment = 1; // minimum alignment of every buffer in the pool
};

struct Buffer {
  std::string id;   // as in the input; unique within the problem
  std::string name; // for reports and diagnostics; may be empty
  int64_t size = 0;
  int64_t alignment = 1;
  /// Sorted, disjoint, non-empty half-open intervals.
  std::vector<Interval> live;
  size_t pool = 0; // index into Problem::pools
  /// Every pool the buffer may go in, in the input's order, when there are
  /// several (then `pool` is one of them: the first, or the one a solution
  /// chose); empty when `pool` is the only one.
  std::vector<size_t> allowedPools;
  std::optional<int64_t> pinnedOffset;
  /// With a pin: no other buffer of the pool may ever use these bytes.
  bool exclusivePin = false;
  /// Where it comes from (file:line:col), for reports; may be empty. Last, so
  /// that aggregate initialisers written before it still compile.
  std::string location;
};

/// The two buffers must be address-disjoint even when their lifetimes are.
struct Separation {
  size_t first = 0;
  size_t second = 0;
  std::string reason; // generic, pipeline_stage, ...
};

/// The two buffers must be placed at the same offset.
struct Colocation {
  size_t first = 0;
  size_t second = 0;
};

/// The two buffers are never live together, even where their intervals
/// meet (e.g. buffers of mutually exclusive branches): they may share bytes.
struct TemporalExclusion {
  size_t first = 0;
  size_t second = 0;
};

/// Sharing bytes between the two buffers costs `cost` (e.g. a cross-pipe
/// wait between the last access of one and the first write of the other).
struct ReusePenalty {
  size_t first = 0;
  size_t second = 0;
  int64_t cost = 1;
  std::string reason; // cross_pipe, pipeline_serialization, ...
};

enum class Objective {
  Peak,      // minimise each pool's peak
  ReuseCost, // fit every pool, then minimise the reuse cost
};

/// Where a schema-v1 problem came from, so that a solution can name it the
/// way the reference tooling expects (empty for problems built in memory).
struct DocumentInfo {
  std::string profile;  // "pypto_research_v1", "standard_dsa", ...
  std::string instance; // the document's instance name
  /// FNV-1a-64 of the reference serialisation of the document as read.
  std::string referenceFingerprint;
};

struct Problem {
  std::vector<Pool> pools;
  std::vector<Buffer> buffers;
  std::vector<Separation> separations;
  std::vector<Colocation> colocations;
  std::vector<TemporalExclusion> temporalExclusions;
  std::vector<ReusePenalty> reusePenalties;
  Objective objective = Objective::Peak;
  DocumentInfo document;
};

/// The bounds checkProblem holds every number of a problem to: far beyond
/// any memory or program, and small enough that no sum or product the
/// solver forms (a pool's summed sizes, a size times a lifetime, the summed
/// penalties) overflows 64 bits. Byte counts (sizes, capacities,
/// alignments, pinned offsets, reserved-range bounds) lie in [0, kMaxBytes]
/// (1 TiB); program points in [-kMaxPoint, kMaxPoint]; each penalty cost in
/// [0, kMaxCost]; per pool, the sizes plus alignments of the buffers, and
/// over the problem the penalty costs, sum to at most kMaxTotal.
inline constexpr int64_t kMaxBytes = int64_t(1) << 40;
inline constexpr int64_t kMaxPoint = int64_t(1) << 40;
inline constexpr int64_t kMaxCost = int64_t(1) << 32;
inline constexpr int64_t kMaxTotal = int64_t(1) << 60;

/// Offsets indexed like Problem::buffers; kUnplaced where no offset exists.
inline constexpr int64_t kUnplaced = -1;
using Placement = std::vector<int64_t>;

/// Effective alignment of buffer `b`: the least common multiple of its own
/// and its pool's alignment (any positive values).
int64_t effectiveAlignment(const Problem &problem, size_t b);

/// Whether buffer `b` may be placed in `pool`.
bool mayGoIn(const Problem &problem, size_t b, size_t pool);

/// `problem` with every buffer moved to the pool `poolOf` names for it
/// (indexed like Problem::buffers): the problem a pool choice leaves.
Problem withPools(const Problem &problem, const std::vector<size_t> &poolOf);

/// Peak of `pool` under `placement`: max(offset + size) of its placed buffers.
int64_t peakOf(const Problem &problem, const Placement &placement, size_t pool);

/// The same set of points as sorted, disjoint, non-adjacent intervals.
std::vector<Interval> unionOfIntervals(std::vector<Interval> intervals);

/// Whether two sorted interval lists intersect.
bool liveRangesOverlap(const std::vector<Interval> &a,
                       const std::vector<Interval> &b);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_PROBLEM_H
