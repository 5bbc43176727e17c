//===- Validate.cpp - Independent checks of problems and placements -------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Shares nothing with the algorithms: no item merging, no conflict graph, no
// placement routine. Overlaps are found by a sweep over the live intervals
// of each pool, in time order, comparing each interval with those still
// open.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Validate.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

using namespace dsaplan::solver;

namespace {

std::string nameOf(const Problem &problem, size_t b) {
  const Buffer &buffer = problem.buffers[b];
  return "buffer " + buffer.id +
         (buffer.name.empty() || buffer.name == buffer.id
              ? std::string()
              : " ('" + buffer.name + "')");
}

/// Whether buffer `b` has an offset the checks may add sizes to: placed,
/// and within the byte limit of Problem.h (checkSingleBuffers reports the
/// others).
bool placedWithinLimit(const Placement &placement, size_t b) {
  return b < placement.size() && placement[b] >= 0 && placement[b] <= kMaxBytes;
}

std::string rangeText(int64_t begin, int64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

/// Per buffer, the bytes it occupies from its offset: the size of the
/// largest member of its colocation group (itself when not colocated).
std::vector<int64_t> extentsOf(const Problem &problem) {
  size_t n = problem.buffers.size();
  std::vector<size_t> group(n);
  for (size_t b = 0; b < n; ++b)
    group[b] = b;
  // Relabel until stable: simple and independent of the solver's merging.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Colocation &c : problem.colocations) {
      if (c.first >= n || c.second >= n)
        continue;
      size_t low = std::min(group[c.first], group[c.second]);
      for (size_t b : {c.first, c.second})
        if (group[b] != low) {
          size_t old = group[b];
          for (size_t x = 0; x < n; ++x)
            if (group[x] == old)
              group[x] = low;
          changed = true;
        }
    }
  }
  std::vector<int64_t> groupSize(n, 0), extent(n, 0);
  for (size_t b = 0; b < n; ++b)
    groupSize[group[b]] = std::max(groupSize[group[b]], problem.buffers[b].size);
  for (size_t b = 0; b < n; ++b)
    extent[b] = groupSize[group[b]];
  return extent;
}

/// Whether the two buffers are colocated, directly or through others.
bool sameGroup(const Problem &problem, size_t a, size_t b) {
  std::vector<size_t> reached = {a};
  std::set<size_t> seen = {a};
  while (!reached.empty()) {
    size_t x = reached.back();
    reached.pop_back();
    if (x == b)
      return true;
    for (const Colocation &c : problem.colocations)
      for (auto [from, to] : {std::pair{c.first, c.second}, {c.second, c.first}})
        if (from == x && seen.insert(to).second)
          reached.push_back(to);
  }
  return false;
}

bool temporallyExcluded(const Problem &problem, size_t a, size_t b) {
  for (const TemporalExclusion &e : problem.temporalExclusions)
    if ((e.first == a && e.second == b) || (e.first == b && e.second == a))
      return true;
  return false;
}

void checkSingleBuffers(const Problem &problem, const Placement &placement,
                        std::vector<Violation> &out) {
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    if (buffer.pool >= problem.pools.size())
      continue; // malformed; checkProblem says so
    const Pool &pool = problem.pools[buffer.pool];
    int64_t offset = b < placement.size() ? placement[b] : kUnplaced;
    if (offset == kUnplaced || offset < 0) {
      out.push_back({Violation::Kind::Unplaced, {b},
                     nameOf(problem, b) + " has no offset"});
      continue;
    }
    // Beyond any capacity checkProblem accepts; no sum with it is formed.
    if (offset > kMaxBytes) {
      out.push_back({Violation::Kind::OutOfCapacity, {b},
                     nameOf(problem, b) + " at offset " +
                         std::to_string(offset) + " is beyond the capacity " +
                         std::to_string(pool.capacity) + " of pool " +
                         pool.id});
      continue;
    }
    int64_t alignment = std::max(buffer.alignment, pool.alignment);
    if (alignment > 0 && offset % alignment != 0)
      out.push_back({Violation::Kind::Misaligned, {b},
                     nameOf(problem, b) + " at offset " +
                         std::to_string(offset) +
                         " is not a multiple of its alignment " +
                         std::to_string(alignment)});
    int64_t end = offset + buffer.size;
    if (end > pool.capacity)
      out.push_back({Violation::Kind::OutOfCapacity, {b},
                     nameOf(problem, b) + " occupies " +
                         rangeText(offset, end) + ", beyond the capacity " +
                         std::to_string(pool.capacity) + " of pool " +
                         pool.id});
    for (const AddressRange &reserved : pool.reserved)
      if (offset < reserved.end && reserved.begin < end)
        out.push_back({Violation::Kind::InReservedRange, {b},
                       nameOf(problem, b) + " occupies " +
                           rangeText(offset, end) + ", which meets the reserved " +
                           rangeText(reserved.begin, reserved.end) +
                           " of pool " + pool.id});
    if (buffer.pinnedOffset && *buffer.pinnedOffset != offset)
      out.push_back({Violation::Kind::Pin, {b},
                     nameOf(problem, b) + " is pinned at " +
                         std::to_string(*buffer.pinnedOffset) +
                         " but placed at " + std::to_string(offset)});
  }
}

/// Whether the extents of `a` and `b` (see extentsOf) share bytes.
bool addressesOverlap(const std::vector<int64_t> &extent,
                      const Placement &placement, size_t a, size_t b) {
  return placement[a] < placement[b] + extent[b] &&
         placement[b] < placement[a] + extent[a];
}

/// Pairs of placed buffers of one pool that are live at the same time and
/// share bytes, by a sweep over intervals in time order.
void checkOverlaps(const Problem &problem, const Placement &placement,
                   const std::vector<int64_t> &extent,
                   std::vector<Violation> &out) {
  struct Event {
    int64_t lower, upper;
    size_t buffer;
  };
  std::vector<Event> events;
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (placedWithinLimit(placement, b))
      for (const Interval &interval : problem.buffers[b].live)
        events.push_back({interval.lower, interval.upper, b});
  std::sort(events.begin(), events.end(), [](const Event &x, const Event &y) {
    return x.lower != y.lower ? x.lower < y.lower : x.buffer < y.buffer;
  });
  std::vector<Event> open;
  std::set<std::pair<size_t, size_t>> reported;
  for (const Event &event : events) {
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](const Event &o) {
                                return o.upper <= event.lower;
                              }),
               open.end());
    for (const Event &other : open) {
      size_t a = std::min(other.buffer, event.buffer);
      size_t b = std::max(other.buffer, event.buffer);
      if (a == b || problem.buffers[a].pool != problem.buffers[b].pool ||
          !addressesOverlap(extent, placement, a, b) ||
          temporallyExcluded(problem, a, b) || sameGroup(problem, a, b) ||
          !reported.insert({a, b}).second)
        continue;
      out.push_back({Violation::Kind::Overlap, {a, b},
                     nameOf(problem, a) + " " +
                         rangeText(placement[a],
                                   placement[a] + problem.buffers[a].size) +
                         " and " + nameOf(problem, b) + " " +
                         rangeText(placement[b],
                                   placement[b] + problem.buffers[b].size) +
                         " share bytes while both are live at point " +
                         std::to_string(event.lower)});
    }
    open.push_back(event);
  }
}

void checkConstraints(const Problem &problem, const Placement &placement,
                      const std::vector<int64_t> &extent,
                      std::vector<Violation> &out) {
  auto placed = [&](size_t b) { return placedWithinLimit(placement, b); };
  // Pools are separate address spaces: a separation across pools holds.
  for (const Separation &s : problem.separations)
    if (placed(s.first) && placed(s.second) &&
        problem.buffers[s.first].pool == problem.buffers[s.second].pool &&
        addressesOverlap(extent, placement, s.first, s.second))
      out.push_back({Violation::Kind::Separation, {s.first, s.second},
                     nameOf(problem, s.first) + " and " +
                         nameOf(problem, s.second) +
                         " must be separated but share bytes"});
  for (size_t a = 0; a < problem.buffers.size(); ++a) {
    if (!problem.buffers[a].exclusivePin || !placed(a))
      continue;
    for (size_t b = 0; b < problem.buffers.size(); ++b)
      if (b != a && placed(b) &&
          problem.buffers[a].pool == problem.buffers[b].pool &&
          !sameGroup(problem, a, b) &&
          addressesOverlap(extent, placement, a, b))
        out.push_back({Violation::Kind::ExclusivePin, {a, b},
                       nameOf(problem, b) + " uses bytes of " +
                           nameOf(problem, a) +
                           ", which is pinned exclusively for all time"});
  }
  for (const Colocation &c : problem.colocations)
    if (placed(c.first) && placed(c.second) &&
        placement[c.first] != placement[c.second])
      out.push_back({Violation::Kind::Colocation, {c.first, c.second},
                     nameOf(problem, c.first) + " at " +
                         std::to_string(placement[c.first]) + " and " +
                         nameOf(problem, c.second) + " at " +
                         std::to_string(placement[c.second]) +
                         " must be colocated"});
}

/// The pools buffer `b` may go in, sorted.
std::vector<size_t> poolsAllowed(const Problem &problem, size_t b) {
  const Buffer &buffer = problem.buffers[b];
  std::vector<size_t> pools = buffer.allowedPools;
  if (pools.empty())
    pools.push_back(buffer.pool);
  std::sort(pools.begin(), pools.end());
  return pools;
}

/// A buffer's pools exist, its current pool is one of them, and it fits in
/// at least one.
void checkAllowedPools(const Problem &problem, size_t b,
                       std::vector<std::string> &errors) {
  const Buffer &buffer = problem.buffers[b];
  auto who = [&] { return nameOf(problem, b); };
  std::vector<size_t> pools = poolsAllowed(problem, b);
  if (std::adjacent_find(pools.begin(), pools.end()) != pools.end())
    errors.push_back(who() + ": a pool is allowed twice");
  if (pools.back() >= problem.pools.size()) {
    errors.push_back(who() + ": unknown allowed pool");
    return;
  }
  if (!buffer.allowedPools.empty() &&
      !std::binary_search(pools.begin(), pools.end(), buffer.pool))
    errors.push_back(who() + ": pool " + problem.pools[buffer.pool].id +
                     " is not among its allowed pools");
  int64_t largest = 0;
  for (size_t p : pools)
    largest = std::max(largest, problem.pools[p].capacity);
  if (buffer.size <= largest)
    return;
  std::string names;
  for (size_t p : pools)
    names += (names.empty() ? "" : ", ") + problem.pools[p].id;
  errors.push_back(who() + ": size " + std::to_string(buffer.size) +
                     " is larger than " +
                     (pools.size() == 1 ? "pool " : "each of the pools ") +
                     names + " (" + std::to_string(largest) + " bytes" +
                     (pools.size() == 1 ? ")" : " at most)"));
}

} // namespace

std::vector<Violation>
dsaplan::solver::validate(const Problem &problem, const Placement &placement,
                          const std::vector<size_t> &poolOf) {
  std::vector<Violation> violations;
  Problem chosen = problem;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    std::vector<size_t> allowed = poolsAllowed(problem, b);
    if (b >= poolOf.size() ||
        !std::binary_search(allowed.begin(), allowed.end(), poolOf[b])) {
      std::string pool = b < poolOf.size() && poolOf[b] < problem.pools.size()
                             ? "pool " + problem.pools[poolOf[b]].id
                             : "no pool";
      violations.push_back({Violation::Kind::PoolNotAllowed,
                            {b},
                            nameOf(problem, b) + " is placed in " + pool +
                                ", which it does not allow"});
      continue;
    }
    chosen.buffers[b].pool = poolOf[b];
  }
  if (!violations.empty())
    return violations;
  return validate(chosen, placement);
}

std::vector<Violation> dsaplan::solver::validate(const Problem &problem,
                                                 const Placement &placement) {
  std::vector<Violation> violations;
  checkSingleBuffers(problem, placement, violations);
  std::vector<int64_t> extent = extentsOf(problem);
  checkOverlaps(problem, placement, extent, violations);
  checkConstraints(problem, placement, extent, violations);
  return violations;
}

ReuseCostCount dsaplan::solver::reuseCostOf(const Problem &problem,
                                            const Placement &placement,
                                            size_t pool) {
  ReuseCostCount count;
  size_t n = problem.buffers.size();
  std::vector<int64_t> extent = extentsOf(problem);
  for (const ReusePenalty &penalty : problem.reusePenalties) {
    size_t a = penalty.first, b = penalty.second;
    if (a >= n || b >= n || a == b || problem.buffers[a].pool != pool ||
        problem.buffers[b].pool != pool || !placedWithinLimit(placement, a) ||
        !placedWithinLimit(placement, b))
      continue;
    bool liveTogether =
        liveRangesOverlap(problem.buffers[a].live, problem.buffers[b].live) &&
        !temporallyExcluded(problem, a, b);
    if (liveTogether || sameGroup(problem, a, b) ||
        !addressesOverlap(extent, placement, a, b))
      continue;
    count.cost += penalty.cost;
    ++count.sharedPairs;
  }
  return count;
}

namespace {

/// "2^40" for the bounds of Problem.h, else the number.
std::string limitText(int64_t limit) {
  for (int bit = 0; bit < 63; ++bit)
    if (limit == int64_t(1) << bit)
      return "2^" + std::to_string(bit) + " (" + std::to_string(limit) + ")";
  return std::to_string(limit);
}

/// Adds "WHO: WHAT VALUE is above LIMIT" when `value` exceeds `limit`.
/// `who` gives the name, built only for a message.
template <typename Who>
void checkAtMost(const Who &who, const char *what, int64_t value,
                 int64_t limit, std::vector<std::string> &errors) {
  if (value > limit)
    errors.push_back(who() + ": " + what + " " + std::to_string(value) +
                     " is above the limit " + limitText(limit));
}

/// The bounds of Problem.h on the pools: capacity, alignment, reserved
/// ranges, and each pool's summed sizes and alignments.
void checkPoolNumbers(const Problem &problem, std::vector<std::string> &errors) {
  std::vector<__int128> total(problem.pools.size(), 0);
  for (const Buffer &buffer : problem.buffers)
    if (buffer.pool < problem.pools.size())
      // Each clamped to the limit: a number beyond it has its own message.
      total[buffer.pool] += std::clamp<int64_t>(buffer.size, 0, kMaxBytes) +
                            std::clamp<int64_t>(buffer.alignment, 0, kMaxBytes);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool &pool = problem.pools[p];
    auto who = [&] { return "pool " + pool.id; };
    checkAtMost(who, "capacity", pool.capacity, kMaxBytes, errors);
    checkAtMost(who, "alignment", pool.alignment, kMaxBytes, errors);
    for (const AddressRange &range : pool.reserved)
      if (range.begin < 0 || range.end > kMaxBytes || range.end <= range.begin)
        errors.push_back(who() + ": reserved range " +
                         rangeText(range.begin, range.end) +
                         " is empty or outside [0, " + limitText(kMaxBytes) +
                         "]");
    if (total[p] > kMaxTotal)
      errors.push_back(who() + ": its buffers' sizes and alignments sum to more "
                             "than the limit " + limitText(kMaxTotal));
  }
}

/// The bounds of Problem.h on one buffer: size, alignment (also together
/// with its pool's), pinned offset and live points.
void checkBufferNumbers(const Problem &problem, size_t b,
                        std::vector<std::string> &errors) {
  const Buffer &buffer = problem.buffers[b];
  auto who = [&] { return nameOf(problem, b); };
  checkAtMost(who, "size", buffer.size, kMaxBytes, errors);
  checkAtMost(who, "alignment", buffer.alignment, kMaxBytes, errors);
  if (buffer.alignment > 0 && buffer.alignment <= kMaxBytes &&
      buffer.pool < problem.pools.size()) {
    int64_t pool = problem.pools[buffer.pool].alignment;
    if (pool > 0 && pool <= kMaxBytes &&
        static_cast<__int128>(buffer.alignment) /
                std::gcd(buffer.alignment, pool) * pool >
            kMaxBytes)
      errors.push_back(who() + ": alignment " + std::to_string(buffer.alignment) +
                       " with the pool's " + std::to_string(pool) +
                       " (their least common multiple) is above the limit " +
                       limitText(kMaxBytes));
  }
  if (buffer.pinnedOffset &&
      (*buffer.pinnedOffset < 0 || *buffer.pinnedOffset > kMaxBytes))
    errors.push_back(who() + ": pinned offset " +
                     std::to_string(*buffer.pinnedOffset) + " is outside [0, " +
                     limitText(kMaxBytes) + "]");
  for (const Interval &interval : buffer.live)
    if (interval.lower < -kMaxPoint || interval.upper > kMaxPoint)
      errors.push_back(who() + ": live interval " +
                       rangeText(interval.lower, interval.upper) +
                       " reaches beyond the points [-" + limitText(kMaxPoint) +
                       ", " + limitText(kMaxPoint) + "]");
}

/// Colocated buffers merge into one item aligned to the least common
/// multiple of their alignments: it must stay within the limit too.
void checkColocatedAlignments(const Problem &problem,
                              std::vector<std::string> &errors) {
  size_t n = problem.buffers.size();
  std::vector<size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](size_t b) {
    while (parent[b] != b)
      b = parent[b] = parent[parent[b]];
    return b;
  };
  for (const Colocation &c : problem.colocations)
    if (c.first < n && c.second < n)
      parent[root(c.first)] = root(c.second);
  std::vector<int64_t> lcm(n, 1);
  std::vector<bool> reported(n, false);
  for (size_t b = 0; b < n; ++b) {
    int64_t alignment = problem.buffers[b].alignment;
    size_t r = root(b);
    if (alignment <= 0 || alignment > kMaxBytes || reported[r])
      continue;
    __int128 merged = static_cast<__int128>(lcm[r]) /
                      std::gcd(lcm[r], alignment) * alignment;
    if (merged > kMaxBytes) {
      reported[r] = true;
      errors.push_back(nameOf(problem, b) +
                       ": colocated buffers' alignments have a least common "
                       "multiple above the limit " + limitText(kMaxBytes));
      continue;
    }
    lcm[r] = static_cast<int64_t>(merged);
  }
}

} // namespace

std::vector<std::string> dsaplan::solver::checkProblem(const Problem &problem) {
  std::vector<std::string> errors;
  for (const Pool &pool : problem.pools) {
    if (pool.capacity <= 0)
      errors.push_back("pool " + pool.id + ": capacity " +
                       std::to_string(pool.capacity) + " is not positive");
    if (pool.alignment <= 0)
      errors.push_back("pool " + pool.id + ": alignment " +
                       std::to_string(pool.alignment) + " is not positive");
  }
  checkPoolNumbers(problem, errors);
  checkColocatedAlignments(problem, errors);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    // Named only in a message: a well-formed problem (each solve checks
    // its problem) has none, and names cost more than the checks.
    auto who = [&] { return nameOf(problem, b); };
    if (buffer.pool >= problem.pools.size()) {
      errors.push_back(who() + ": unknown pool");
      continue;
    }
    if (buffer.size <= 0)
      errors.push_back(who() + ": size " + std::to_string(buffer.size) +
                       " is not positive");
    if (buffer.alignment <= 0)
      errors.push_back(who() + ": alignment " +
                       std::to_string(buffer.alignment) + " is not positive");
    if (buffer.live.empty())
      errors.push_back(who() + ": no live interval");
    for (size_t i = 0; i < buffer.live.size(); ++i) {
      const Interval &interval = buffer.live[i];
      if (interval.upper <= interval.lower)
        errors.push_back(who() + ": live interval " +
                         rangeText(interval.lower, interval.upper) +
                         " is empty (upper <= lower)");
      else if (i && interval.lower < buffer.live[i - 1].upper)
        errors.push_back(who() + ": live intervals are not sorted and disjoint");
    }
    checkBufferNumbers(problem, b, errors);
    checkAllowedPools(problem, b, errors);
  }
  // A separation across pools always holds (the PyPTO corpus has them); a
  // colocation across pools can never hold.
  auto checkPair = [&](size_t first, size_t second, const char *what,
                       bool acrossPoolsIsFine) {
    if (first >= problem.buffers.size() || second >= problem.buffers.size())
      errors.push_back(std::string(what) + " names an unknown buffer");
    else if (first == second)
      errors.push_back(std::string(what) + " of " + nameOf(problem, first) +
                       " with itself");
    else if (!acrossPoolsIsFine &&
             poolsAllowed(problem, first) != poolsAllowed(problem, second))
      errors.push_back(std::string(what) + " of " + nameOf(problem, first) +
                       " and " + nameOf(problem, second) +
                       " across pools (they must allow the same pools)");
  };
  for (const Separation &s : problem.separations)
    checkPair(s.first, s.second, "separation", true);
  for (const Colocation &c : problem.colocations)
    checkPair(c.first, c.second, "colocation", false);
  for (const TemporalExclusion &e : problem.temporalExclusions)
    checkPair(e.first, e.second, "temporal exclusion", true);
  __int128 totalCost = 0;
  for (size_t i = 0; i < problem.reusePenalties.size(); ++i) {
    const ReusePenalty &p = problem.reusePenalties[i];
    checkPair(p.first, p.second, "reuse penalty", true);
    if (p.cost < 0)
      errors.push_back("reuse penalty of cost " + std::to_string(p.cost) +
                       " is negative");
    checkAtMost([&] { return "reuse penalty " + std::to_string(i); }, "cost",
                p.cost, kMaxCost, errors);
    // Clamped: a cost beyond the limit has its own message.
    totalCost += std::clamp<int64_t>(p.cost, 0, kMaxCost);
  }
  if (totalCost > kMaxTotal)
    errors.push_back("reuse penalties: their costs sum to more than the "
                     "limit " + limitText(kMaxTotal));
  return errors;
}
