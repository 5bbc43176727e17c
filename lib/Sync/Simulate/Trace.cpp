//===- Trace.cpp - The simulator's trace: names and the public run --------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// How the findings name pipes, flags and entries, and the conversion of a
// run's trace and timeline to the public ExecutedRun (which numbers the
// memories densely, in the order first touched).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::simulator;

std::string mlir::dsaplan::unitName(unsigned unit) {
  std::string name = stringifyPipe(pipeOfUnit(unit)).str();
  return unit < kNumPipes ? name : "aiv." + name;
}

std::string simulator::pipeName(unsigned pipe) { return unitName(pipe); }

std::string simulator::flagName(const FlagKey &key) {
  if (std::get<0>(key) == kCrossCoreFlag)
    return "cross-core id " + std::to_string(std::get<2>(key)) + " of the " +
           (std::get<1>(key) < kNumPipes ? "cube" : "vector") + " core";
  return "event " + std::to_string(std::get<2>(key)) + " of <" +
         pipeName(std::get<0>(key)) + " -> " + pipeName(std::get<1>(key)) +
         ">";
}

std::string simulator::iterationText(const Entry &entry) {
  if (entry.iterations.empty())
    return "";
  std::string text =
      entry.iterations.size() == 1 ? " in iteration " : " in iterations ";
  for (size_t i = 0; i < entry.iterations.size(); ++i)
    text += (i ? ", " : "") + std::to_string(entry.iterations[i]);
  return text;
}

std::string simulator::describe(const Entry &entry) {
  return "'" + entry.op->getName().getStringRef().str() + "' on pipe " +
         pipeName(entry.pipe) + iterationText(entry);
}

ExecutedRun simulator::toExecutedRun(const Trace &trace,
                                     const Timeline &timeline, uint64_t seed) {
  ExecutedRun run;
  run.seed = seed;
  run.hung = timeline.hung;
  run.gaveUp = trace.gaveUp;
  // The trace numbers spaces by their enum and GM buffers from kFirstGm;
  // the public run numbers them densely, in the order first touched.
  DenseMap<int, int> index;
  auto memoryOf = [&](int memory) {
    auto [it, inserted] = index.try_emplace(memory, run.memoryNames.size());
    if (inserted) {
      auto name = trace.memoryNames.find(memory);
      run.memoryNames.push_back(name == trace.memoryNames.end()
                                    ? "memory " + std::to_string(memory)
                                    : name->second);
    }
    return it->second;
  };
  run.entries.reserve(trace.entries.size());
  for (auto [i, entry] : llvm::enumerate(trace.entries)) {
    ExecutedEntry out;
    out.kind = static_cast<ExecutedEntry::Kind>(entry.kind);
    out.op = entry.op;
    out.pipe = entry.pipe;
    std::tie(out.flagSrc, out.flagDst, out.flagId) = entry.flag;
    out.iterations = entry.iterations;
    for (const Access &access : entry.accesses) {
      ExecutedEntry::Access &a = out.accesses.emplace_back();
      a.memory = memoryOf(access.memory);
      a.write = access.write;
      for (const ByteRun &r : access.runs)
        a.runs.push_back({r.begin, r.end});
    }
    out.start = timeline.start[i];
    out.end = timeline.end[i];
    out.consumed = timeline.consumed[i];
    run.entries.push_back(std::move(out));
  }
  return run;
}
