//===- TraceEvents.cpp - A simulated run as Chrome trace-event JSON -------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The pipes issue ops without waiting for the previous one to finish, so
// the ops of one pipe may overlap in time without nesting, which trace
// viewers do not draw on one track. Each pipe therefore gets as many op
// tracks as it needs (ops go to the first whose last op has finished:
// "v", "v (2)", ...) and one sync track for its set_flags (an instant at
// the cycle the flag fired) and wait_flags (from the cycle the pipe reached
// the wait to the cycle it passed). Thread ids: 1000 * pipe + lane for ops,
// 1000 * pipe + 500 + lane for syncs, so tracks sort by pipe.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Sync/Simulate/TraceEvents.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::dsaplan;

namespace {

constexpr int64_t kTidsPerPipe = 1000;
constexpr int64_t kSyncLane = 500;

std::string pipeName(unsigned pipe) { return unitName(pipe); }

bool isCrossCore(const ExecutedEntry &entry) {
  return entry.kind == ExecutedEntry::Kind::CrossSet ||
         entry.kind == ExecutedEntry::Kind::CrossWait;
}

/// "file.mlir:12:7", or "" for an unknown location.
std::string locationText(Operation *op) {
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    return (file.getFilename().strref() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "";
}

/// "ub [0, 1024) [2048, 4096)".
std::string bytesText(const ExecutedRun &run,
                      const ExecutedEntry::Access &access) {
  std::string text = run.memoryNames[access.memory];
  for (const ExecutedEntry::Run &bytes : access.runs)
    text += " [" + std::to_string(bytes.begin) + ", " +
            std::to_string(bytes.end) + ")";
  return text;
}

std::string flagText(const ExecutedEntry &entry) {
  if (isCrossCore(entry))
    return "id " + std::to_string(entry.flagId) + " to " +
           (entry.flagDst < kNumPipes ? "cube" : "vector");
  return "<" + pipeName(entry.flagSrc) + " -> " + pipeName(entry.flagDst) +
         ">, " + std::to_string(entry.flagId);
}

/// Assigns each interval of one track family the first lane free at its
/// start; intervals come in order of start per pipe.
class Lanes {
public:
  int64_t place(unsigned pipe, int64_t start, int64_t end) {
    std::vector<int64_t> &ends = lanes[pipe];
    for (size_t lane = 0; lane < ends.size(); ++lane)
      if (ends[lane] <= start) {
        ends[lane] = end;
        return lane;
      }
    ends.push_back(end);
    return ends.size() - 1;
  }
  const std::map<unsigned, std::vector<int64_t>> &all() const { return lanes; }

private:
  std::map<unsigned, std::vector<int64_t>> lanes;
};

class TraceWriter {
public:
  TraceWriter(const ExecutedRun &run, llvm::json::OStream &json)
      : run(run), json(json) {}
  void writeEvents();

private:
  void writeOp(const ExecutedEntry &entry);
  void writeSync(int64_t index, const ExecutedEntry &entry);
  void writeFlow(const char *phase, int64_t id, int64_t tid, int64_t ts,
                 const ExecutedEntry &entry);
  void writeTrackNames();
  void common(StringRef name, const char *phase, int64_t tid, int64_t ts);

  const ExecutedRun &run;
  llvm::json::OStream &json;
  Lanes opLanes, syncLanes;
};

void TraceWriter::common(StringRef name, const char *phase, int64_t tid,
                         int64_t ts) {
  json.attribute("name", name);
  json.attribute("ph", phase);
  json.attribute("pid", 1);
  json.attribute("tid", tid);
  json.attribute("ts", ts);
}

void TraceWriter::writeEvents() {
  for (auto [index, entry] : llvm::enumerate(run.entries)) {
    if (entry.start < 0 || entry.end < 0)
      continue;
    if (entry.kind == ExecutedEntry::Kind::Op)
      writeOp(entry);
    else if (entry.kind == ExecutedEntry::Kind::Set ||
             entry.kind == ExecutedEntry::Kind::Wait || isCrossCore(entry))
      writeSync(index, entry);
  }
  writeTrackNames();
}

void TraceWriter::writeOp(const ExecutedEntry &entry) {
  int64_t lane = opLanes.place(entry.pipe, entry.start, entry.end);
  json.object([&] {
    common(entry.op->getName().getStringRef(), "X",
           kTidsPerPipe * entry.pipe + lane, entry.start);
    json.attribute("dur", entry.end - entry.start);
    json.attribute("cat", "op");
    json.attributeObject("args", [&] {
      json.attribute("pipe", pipeName(entry.pipe));
      json.attribute("loc", locationText(entry.op));
      if (!entry.iterations.empty())
        json.attributeArray("iterations", [&] {
          for (int64_t i : entry.iterations)
            json.value(i);
        });
      for (bool write : {false, true}) {
        if (llvm::none_of(entry.accesses, [&](const auto &access) {
              return access.write == write;
            }))
          continue;
        json.attributeArray(write ? "writes" : "reads", [&] {
          for (const ExecutedEntry::Access &access : entry.accesses)
            if (access.write == write)
              json.value(bytesText(run, access));
        });
      }
    });
  });
}

/// A set: an instant slice when it fired, where its flow starts. A wait:
/// a slice from reaching it to passing it, where the flow of the set whose
/// signal it took ends.
void TraceWriter::writeSync(int64_t index, const ExecutedEntry &entry) {
  bool isSet = entry.kind == ExecutedEntry::Kind::Set ||
               entry.kind == ExecutedEntry::Kind::CrossSet;
  int64_t begin = isSet ? entry.end : entry.start;
  int64_t lane = syncLanes.place(entry.pipe, begin, entry.end);
  int64_t tid = kTidsPerPipe * entry.pipe + kSyncLane + lane;
  const char *verb = isCrossCore(entry) ? (isSet ? "cross_core_set "
                                                 : "cross_core_wait ")
                                        : (isSet ? "set_flag " : "wait_flag ");
  std::string name = verb + flagText(entry);
  json.object([&] {
    common(name, "X", tid, begin);
    json.attribute("dur", entry.end - begin);
    json.attribute("cat", "sync");
    json.attributeObject("args", [&] {
      json.attribute("pipe", pipeName(entry.pipe));
      json.attribute("loc", locationText(entry.op));
      if (isSet)
        json.attribute("issued", entry.start);
      if (!entry.iterations.empty())
        json.attributeArray("iterations", [&] {
          for (int64_t i : entry.iterations)
            json.value(i);
        });
    });
  });
  if (isSet)
    writeFlow("s", index, tid, entry.end, entry);
  else if (entry.consumed >= 0)
    writeFlow("f", entry.consumed, tid, entry.end, entry);
}

/// Flow ids are the set's index in the run: one id per set/wait pair.
void TraceWriter::writeFlow(const char *phase, int64_t id, int64_t tid,
                            int64_t ts, const ExecutedEntry &entry) {
  json.object([&] {
    common("flag " + flagText(entry), phase, tid, ts);
    json.attribute("cat", "flag");
    json.attribute("id", id);
    json.attribute("bp", "e");
  });
}

void TraceWriter::writeTrackNames() {
  auto name = [&](int64_t tid, const std::string &text) {
    json.object([&] {
      common("thread_name", "M", tid, 0);
      json.attributeObject("args", [&] { json.attribute("name", text); });
    });
    json.object([&] {
      common("thread_sort_index", "M", tid, 0);
      json.attributeObject("args",
                           [&] { json.attribute("sort_index", tid); });
    });
  };
  for (const auto &[pipe, lanes] : opLanes.all())
    for (size_t lane = 0; lane < lanes.size(); ++lane)
      name(kTidsPerPipe * pipe + lane,
           pipeName(pipe) +
               (lane ? " (" + std::to_string(lane + 1) + ")" : std::string()));
  for (const auto &[pipe, lanes] : syncLanes.all())
    for (size_t lane = 0; lane < lanes.size(); ++lane)
      name(kTidsPerPipe * pipe + kSyncLane + lane,
           pipeName(pipe) + " sync" +
               (lane ? " (" + std::to_string(lane + 1) + ")" : std::string()));
}

} // namespace

void mlir::dsaplan::writeChromeTrace(const ExecutedRun &run,
                                     const SimulationRun &stats,
                                     StringRef function, raw_ostream &os) {
  llvm::json::OStream json(os, /*IndentSize=*/0);
  json.object([&] {
    json.attribute("displayTimeUnit", "ns");
    json.attributeObject("otherData", [&] {
      json.attribute("function", function);
      json.attribute("seed", static_cast<int64_t>(run.seed));
      json.attribute("time_unit", "cycles (shown as microseconds)");
      json.attribute("makespan", stats.makespan);
      json.attribute("serial", stats.serial);
      json.attribute("ideal", stats.ideal);
      json.attribute("pipe_overlap", run.pipeOverlap);
      json.attributeObject("busy", [&] {
        for (unsigned pipe = 0; pipe < kNumUnits; ++pipe)
          if (stats.busy[pipe])
            json.attribute(pipeName(pipe), stats.busy[pipe]);
      });
    });
    json.attributeArray("traceEvents", [&] {
      json.object([&] {
        json.attribute("name", "process_name");
        json.attribute("ph", "M");
        json.attribute("pid", 1);
        json.attributeObject("args", [&] {
          json.attribute("name", ("@" + function + " (seed " +
                                  Twine(run.seed) + ")")
                                     .str());
        });
      });
      TraceWriter(run, json).writeEvents();
    });
  });
  os << "\n";
}
