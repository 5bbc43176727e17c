//===- IdealSchedule.cpp - The dataflow ideal of a simulated run ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// A list scheduler over the ops of one simulated run. Per memory, a map of
// disjoint byte segments remembers when the last write of each byte was
// handed over and when the reads since then were; an op may start once
// what it reads was last written, and what it writes was last written and
// read. That is exact for "wait for every earlier conflicting op": an
// earlier write is ordered before the later write over it, and the reads
// before a write before that write, so the latest ones bound the rest.
//
// An op's result is handed over when every op of its pipe up to it has
// finished, not when the op itself has: on a pipe that issues without
// waiting (V, MTE2, ...) whatever orders an op before a later one is a
// pipe_barrier, a set_flag or a cross-core set after it on its pipe, and
// each of those waits for all of the pipe's earlier ops. So in
//
//   linalg.generic ... outs(%sum0)  (v)   [652, 778)
//   linalg.fill    ... outs(%sum1)  (v)   [653, 665)
//   linalg.generic ... outs(%sum1)  (v)   reads %sum1
//
// no synchronised kernel starts the second generic before 778: the barrier
// or flag that hands %sum1's fill over fires after the first generic too.
// Scheduling it at 665 would be a bound no kernel reaches. On an in-order
// pipe an op finishes after its pipe's earlier ones, so there the handover
// is the op's own end.
//
// It shares nothing with the sync passes: the bytes are the simulator's
// concrete ones, and nothing here looks at flags or barriers.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulate/IdealSchedule.h"
#include "DsaPlan/Support/SegmentMap.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

/// When the bytes of one memory were last written and read, per segment.
class ByteTimes {
public:
  /// The earliest start of an access to [begin, end).
  int64_t ready(int64_t begin, int64_t end, bool write) const {
    int64_t time = 0;
    segments.visit(begin, end, [&](int64_t, int64_t, const Times &times) {
      time = std::max(time, write ? std::max(times.written, times.read)
                                  : times.written);
    });
    return time;
  }
  /// An access to [begin, end) was handed over at `handover`.
  void record(int64_t begin, int64_t end, bool write, int64_t handover) {
    segments.update(begin, end, [&](Times &times) {
      if (write) {
        times.written = handover;
        times.read = 0;
      } else {
        times.read = std::max(times.read, handover);
      }
    });
  }

private:
  struct Times {
    int64_t written = 0; // when the last write was handed over
    int64_t read = 0;    // when the reads since it were
  };
  SegmentMap<Times> segments;
};

} // namespace

int64_t mlir::dsaplan::idealMakespan(const ExecutedRun &run) {
  std::vector<ByteTimes> memories(run.memoryNames.size());
  std::array<int64_t, kNumUnits> nextIssue{}, lastEnd{};
  int64_t makespan = 0;
  for (const ExecutedEntry &entry : run.entries) {
    if (entry.kind != ExecutedEntry::Kind::Op || entry.start < 0)
      continue;
    unsigned pipe = entry.pipe;
    bool inOrder = run.inOrder[pipe] || !run.pipeOverlap;
    int64_t start = inOrder ? std::max(nextIssue[pipe], lastEnd[pipe])
                            : nextIssue[pipe];
    for (const ExecutedEntry::Access &access : entry.accesses)
      for (const ExecutedEntry::Run &bytes : access.runs)
        start = std::max(start, memories[access.memory].ready(
                                    bytes.begin, bytes.end, access.write));
    int64_t end = start + (entry.end - entry.start);
    nextIssue[pipe] = start + 1;
    lastEnd[pipe] = std::max(lastEnd[pipe], end);
    // Handed over once the pipe's ops up to this one have finished.
    int64_t handover = lastEnd[pipe];
    // Reads first: an op that reads and writes a byte leaves it written.
    for (bool write : {false, true})
      for (const ExecutedEntry::Access &access : entry.accesses)
        if (access.write == write)
          for (const ExecutedEntry::Run &bytes : access.runs)
            memories[access.memory].record(bytes.begin, bytes.end, write,
                                           handover);
    makespan = std::max(makespan, end);
  }
  return makespan;
}

std::vector<LoopOverlap> mlir::dsaplan::loopOverlaps(const ExecutedRun &run) {
  std::vector<LoopOverlap> loops;
  llvm::DenseMap<Operation *, size_t> index;
  std::vector<std::pair<int64_t, int64_t>> window; // first start, last end
  for (const ExecutedEntry &entry : run.entries) {
    if (entry.kind != ExecutedEntry::Kind::Op || entry.start < 0)
      continue;
    SmallVector<Operation *, 4> enclosing;
    for (Operation *parent = entry.op->getParentOp(); parent;
         parent = parent->getParentOp())
      if (isa<scf::ForOp, scf::WhileOp>(parent))
        enclosing.push_back(parent);
    for (Operation *loop : llvm::reverse(enclosing)) {
      auto [it, inserted] = index.try_emplace(loop, loops.size());
      if (inserted) {
        loops.push_back({loop, 0, 0});
        window.push_back({entry.start, entry.end});
      }
      loops[it->second].serial += entry.end - entry.start;
      auto &[begin, end] = window[it->second];
      begin = std::min(begin, entry.start);
      end = std::max(end, entry.end);
    }
  }
  for (auto [loop, bounds] : llvm::zip(loops, window))
    loop.span = bounds.second - bounds.first;
  return loops;
}
