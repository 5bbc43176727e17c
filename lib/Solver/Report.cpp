//===- Report.cpp - Memory-map pictures and JSON reports ------------------===//
//
// Part of dsaplan. Standard C++ and nlohmann_json (for the JSON report).
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Validate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

using namespace dsaplan::solver;

namespace {

//===----------------------------------------------------------------------===//
// Formatting helpers
//===----------------------------------------------------------------------===//

/// Fixed three decimals: the same bytes on every machine.
std::string fmt(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.3f", value);
  return buffer;
}

/// Scales keep their precision, so that a checker recomputes coordinates.
std::string fmtScale(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.12g", value);
  return buffer;
}

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string displayName(const Buffer &buffer) {
  return buffer.name.empty() ? buffer.id : buffer.name;
}

std::string liveText(const std::vector<Interval> &live) {
  std::string text;
  for (const Interval &interval : live) {
    if (!text.empty())
      text += ", ";
    text += "[" + std::to_string(interval.lower) + ", " +
            std::to_string(interval.upper) + ")";
  }
  return text;
}

/// Tile colours; no grey, which is the reserved bytes'.
const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                          "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                          "#a6cee3", "#bc80bd", "#ccebc5", "#ffed6f"};

//===----------------------------------------------------------------------===//
// The picture's coordinate system
//===----------------------------------------------------------------------===//

/// Maps (point, address) to pixels: x grows with the program point, y with
/// the address (address 0 at the bottom).
struct Canvas {
  static constexpr double kWidth = 1200, kHeight = 640;
  static constexpr double kLeft = 90, kRight = 250, kTop = 70, kBottom = 40;
  /// Nothing is drawn smaller than this (pixels), so that every tile shows.
  static constexpr double kMinSize = 3;
  int64_t firstPoint = 0, lastPoint = 1;
  double topAddress = 1;

  double x0() const { return kLeft; }
  double xEnd() const { return kWidth - kRight; }
  double y0() const { return kHeight - kBottom; }
  double xScale() const {
    return (xEnd() - kLeft) /
           static_cast<double>(std::max<int64_t>(1, lastPoint - firstPoint));
  }
  double yScale() const { return (kHeight - kTop - kBottom) / topAddress; }
  double x(int64_t point) const {
    return x0() + static_cast<double>(point - firstPoint) * xScale();
  }
  double y(double address) const { return y0() - address * yScale(); }
};

Canvas makeCanvas(const Problem &problem, const PoolResult &result) {
  Canvas canvas;
  bool any = false;
  for (const Buffer &buffer : problem.buffers) {
    if (buffer.pool != result.pool || buffer.live.empty())
      continue;
    canvas.firstPoint =
        any ? std::min(canvas.firstPoint, buffer.live.front().lower)
            : buffer.live.front().lower;
    canvas.lastPoint = any ? std::max(canvas.lastPoint, buffer.live.back().upper)
                           : buffer.live.back().upper;
    any = true;
  }
  if (canvas.lastPoint <= canvas.firstPoint)
    canvas.lastPoint = canvas.firstPoint + 1;
  // Show the capacity when it is not far above what is used; otherwise zoom
  // on the used bytes and say where the capacity is.
  double used = static_cast<double>(
      std::max<int64_t>({result.peak, result.lowerBound, 1}));
  int64_t capacity = problem.pools[result.pool].capacity;
  canvas.topAddress = capacity > 0 && capacity <= 2 * used
                          ? std::max<double>(capacity, used) * 1.02
                          : used * 1.15;
  return canvas;
}

//===----------------------------------------------------------------------===//
// Axes with round ticks
//===----------------------------------------------------------------------===//

/// The smallest of 1, 2, 5 times a power of ten that cuts `range` into at
/// most `ticks` steps.
int64_t decimalStep(int64_t range, int64_t ticks) {
  for (int64_t power = 1;; power *= 10)
    for (int64_t m : {1, 2, 5})
      if (m * power * ticks >= range)
        return m * power;
}

/// The smallest power of two that cuts `range` into at most `ticks` steps:
/// addresses read best in powers of two (4 KiB, 16 KiB, ...).
int64_t binaryStep(double range, int64_t ticks) {
  int64_t step = 1;
  while (static_cast<double>(step * ticks) < range)
    step *= 2;
  return step;
}

/// "0", "512 B", "16 KiB", "1.5 KiB".
std::string bytesText(int64_t bytes) {
  if (bytes == 0)
    return "0";
  if (bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KiB";
  if (bytes >= 1024 && bytes % 512 == 0)
    return std::to_string(bytes / 1024) + ".5 KiB";
  return std::to_string(bytes) + " B";
}

void writeAxes(std::ostringstream &os, const Canvas &c) {
  os << "<g class=\"axes\">\n";
  os << "<line x1=\"" << fmt(c.x0()) << "\" y1=\"" << fmt(c.y0()) << "\" x2=\""
     << fmt(c.xEnd()) << "\" y2=\"" << fmt(c.y0()) << "\" stroke=\"#000\"/>\n";
  os << "<line x1=\"" << fmt(c.x0()) << "\" y1=\"" << fmt(c.y0()) << "\" x2=\""
     << fmt(c.x0()) << "\" y2=\"" << fmt(Canvas::kTop) << "\" stroke=\"#000\"/>\n";
  int64_t xStep = decimalStep(c.lastPoint - c.firstPoint, 10);
  int64_t first = (c.firstPoint + xStep - 1) / xStep * xStep;
  for (int64_t point = first; point <= c.lastPoint; point += xStep)
    os << "<line class=\"tick x-tick\" data-value=\"" << point << "\" x1=\""
       << fmt(c.x(point)) << "\" y1=\"" << fmt(c.y0()) << "\" x2=\""
       << fmt(c.x(point)) << "\" y2=\"" << fmt(c.y0() + 4) << "\"/>\n"
       << "<text class=\"tick-label\" x=\"" << fmt(c.x(point)) << "\" y=\""
       << fmt(c.y0() + 14) << "\" text-anchor=\"middle\">" << point
       << "</text>\n";
  int64_t yStep = binaryStep(c.topAddress, 8);
  for (int64_t address = 0; static_cast<double>(address) <= c.topAddress;
       address += yStep)
    os << "<line class=\"tick y-tick\" data-value=\"" << address << "\" x1=\""
       << fmt(c.x0() - 4) << "\" y1=\"" << fmt(c.y(address)) << "\" x2=\""
       << fmt(c.xEnd()) << "\" y2=\"" << fmt(c.y(address)) << "\"/>\n"
       << "<text class=\"tick-label\" x=\"" << fmt(c.x0() - 6) << "\" y=\""
       << fmt(c.y(address) + 3) << "\" text-anchor=\"end\">"
       << bytesText(address) << "</text>\n";
  os << "<text x=\"" << fmt((c.x0() + c.xEnd()) / 2) << "\" y=\""
     << fmt(Canvas::kHeight - 6)
     << "\" text-anchor=\"middle\">program point</text>\n";
  os << "<text x=\"14\" y=\"" << fmt(Canvas::kTop - 8)
     << "\">address</text>\n</g>\n";
}

//===----------------------------------------------------------------------===//
// SVG pieces
//===----------------------------------------------------------------------===//

/// A horizontal line across the plot with a label at its right end (or its
/// left end, so that two levels at the same address stay readable).
void writeLevel(std::ostringstream &os, const Canvas &c, const char *cls,
                double address, const std::string &label,
                bool labelLeft = false) {
  if (address > c.topAddress)
    return;
  double y = c.y(address);
  os << "<line class=\"" << cls << "\" data-value=\""
     << static_cast<int64_t>(address) << "\" x1=\"" << fmt(c.x0())
     << "\" y1=\"" << fmt(y) << "\" x2=\"" << fmt(c.xEnd()) << "\" y2=\""
     << fmt(y) << "\"/>\n";
  os << "<text class=\"" << cls << "-label\" x=\""
     << fmt(labelLeft ? c.x0() + 4 : c.xEnd() - 2) << "\" y=\""
     << fmt(std::strcmp(cls, "capacity") ? y - 3 : y + 11)
     << "\" text-anchor=\"" << (labelLeft ? "start" : "end") << "\">"
     << escapeXml(label) << "</text>\n";
}

void writeReserved(std::ostringstream &os, const Canvas &c, const Pool &pool) {
  for (const AddressRange &range : pool.reserved) {
    double top = std::min<double>(range.end, c.topAddress);
    if (range.begin >= top)
      continue;
    os << "<rect class=\"reserved\" x=\"" << fmt(c.x0()) << "\" y=\""
       << fmt(c.y(top)) << "\" width=\"" << fmt(c.xEnd() - c.x0())
       << "\" height=\"" << fmt((top - range.begin) * c.yScale())
       << "\"><title>reserved [" << range.begin << ", " << range.end
       << ")</title></rect>\n";
  }
}

/// What the reader sees on hover: name, bytes, placement, live range, where
/// it comes from.
std::string tooltip(const Buffer &buffer, int64_t offset, bool partial,
                    bool enlarged) {
  std::string tip = displayName(buffer) + ": " + std::to_string(buffer.size) +
                    " B at [" + std::to_string(offset) + ", " +
                    std::to_string(offset + buffer.size) + "), live " +
                    liveText(buffer.live);
  if (!buffer.location.empty())
    tip += "\n" + buffer.location;
  if (partial)
    tip += "\nreuses part of an expired buffer";
  if (enlarged)
    tip += "\ndrawn at the minimum size: too small to see to scale";
  return escapeXml(tip);
}

void writeBuffers(std::ostringstream &os, const Canvas &c,
                  const Problem &problem, const Placement &placement,
                  size_t pool, const std::vector<bool> &partial) {
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    if (buffer.pool != pool || placement[b] == kUnplaced)
      continue;
    int64_t offset = placement[b];
    std::string name = escapeXml(displayName(buffer));
    for (const Interval &interval : buffer.live) {
      double x = c.x(interval.lower), width = c.x(interval.upper) - x;
      double height = static_cast<double>(buffer.size) * c.yScale();
      bool enlarged = width < Canvas::kMinSize || height < Canvas::kMinSize;
      width = std::max(width, Canvas::kMinSize);
      height = std::max(height, Canvas::kMinSize);
      // Grown upwards from the buffer's offset.
      double y = c.y(static_cast<double>(offset)) - height;
      os << "<rect class=\"buffer" << (partial[b] ? " partial-reuse" : "")
         << (enlarged ? " min-size" : "") << "\" data-buffer=\""
         << escapeXml(buffer.id) << "\" data-name=\"" << name
         << "\" data-offset=\"" << offset << "\" data-size=\"" << buffer.size
         << "\" data-lower=\"" << interval.lower << "\" data-upper=\""
         << interval.upper << "\" x=\"" << fmt(x) << "\" y=\"" << fmt(y)
         << "\" width=\"" << fmt(width) << "\" height=\"" << fmt(height)
         << "\" fill=\""
         << kPalette[b % (sizeof(kPalette) / sizeof(kPalette[0]))]
         << "\"><title>"
         << tooltip(buffer, offset, partial[b], enlarged)
         << "</title></rect>\n";
      // A label only where it fits, so 500 buffers stay legible.
      if (width >= 6.5 * static_cast<double>(name.size()) && height >= 11)
        os << "<text class=\"label\" x=\"" << fmt(x + 2) << "\" y=\""
           << fmt(y + std::min(height, 22.0) / 2 + 4) << "\">" << name
           << "</text>\n";
    }
  }
}

/// A colour per pipe, as the legend lists them.
const char *pipeColour(const std::string &pipe) {
  static const std::map<std::string, const char *> colours = {
      {"mte2", "#1b9e77"}, {"mte1", "#d95f02"}, {"m", "#7570b3"},
      {"v", "#e7298a"},    {"fix", "#66a61e"},  {"mte3", "#e6ab02"},
      {"s", "#a6761d"}};
  auto it = colours.find(pipe);
  return it == colours.end() ? "#666" : it->second;
}

/// Arrows from the access a flag is set after to the access its wait
/// guards: a square where it is set, the arrow head where it is waited for;
/// dashed when the wait is in the next iteration of a loop.
///
///   <g class="sync" data-pipe="v" data-from-name="table_ub"
///      data-to-name="row0" ...><title>set/wait <v -> mte2>, 0: ...</title>
void writeSyncs(std::ostringstream &os, const Canvas &c,
                const std::vector<SyncArrow> &syncs) {
  for (const SyncArrow &sync : syncs) {
    double x1 = c.x(sync.fromPoint), y1 = c.y(double(sync.fromAddress));
    double x2 = c.x(sync.toPoint), y2 = c.y(double(sync.toAddress));
    const char *colour = pipeColour(sync.pipe);
    os << "<g class=\"sync" << (sync.nextIteration ? " next-iteration" : "")
       << "\" data-pipe=\"" << escapeXml(sync.pipe) << "\" data-from=\""
       << sync.fromPoint << "\" data-to=\"" << sync.toPoint
       << "\" data-from-name=\"" << escapeXml(sync.fromName)
       << "\" data-to-name=\"" << escapeXml(sync.toName) << "\"><title>"
       << escapeXml(sync.label) << "</title>"
       << "<rect class=\"set\" x=\"" << fmt(x1 - 3) << "\" y=\"" << fmt(y1 - 3)
       << "\" width=\"6\" height=\"6\" fill=\"" << colour << "\"/>"
       << "<line class=\"wait\" x1=\"" << fmt(x1) << "\" y1=\"" << fmt(y1)
       << "\" x2=\"" << fmt(x2) << "\" y2=\"" << fmt(y2) << "\" stroke=\""
       << colour << "\" marker-end=\"url(#arrow)\"/></g>\n";
  }
}

/// A vertical line per pipe_barrier, labelled |pipe| at the top, the labels
/// on three rows in turn so that close barriers stay legible.
void writeBarriers(std::ostringstream &os, const Canvas &c,
                   const std::vector<BarrierMark> &barriers) {
  for (size_t index = 0; index < barriers.size(); ++index) {
    const BarrierMark &barrier = barriers[index];
    double x = c.x(barrier.point);
    double labelY = Canvas::kTop + 10 + 10 * static_cast<double>(index % 3);
    // Left of the line near the legend.
    bool labelLeft = x > c.xEnd() - 40;
    os << "<g class=\"barrier\" data-pipe=\"" << escapeXml(barrier.pipe)
       << "\" data-point=\"" << barrier.point << "\"><title>"
       << escapeXml(barrier.label) << "</title><line x1=\"" << fmt(x)
       << "\" y1=\"" << fmt(c.y0()) << "\" x2=\"" << fmt(x) << "\" y2=\""
       << fmt(Canvas::kTop) << "\" stroke=\"" << pipeColour(barrier.pipe)
       << "\"/><text x=\"" << fmt(labelLeft ? x - 2 : x + 2) << "\" y=\""
       << fmt(labelY) << "\" text-anchor=\"" << (labelLeft ? "end" : "start")
       << "\">|" << escapeXml(barrier.pipe) << "|</text></g>\n";
  }
}

/// One legend entry: a swatch drawn by `swatch` and its text.
void writeLegendEntry(std::ostringstream &os, double &y,
                      const std::string &swatch, const std::string &text) {
  os << "<g class=\"legend-entry\" transform=\"translate("
     << fmt(Canvas::kWidth - Canvas::kRight + 12) << "," << fmt(y) << ")\">"
     << swatch << "<text x=\"26\" y=\"4\">" << escapeXml(text)
     << "</text></g>\n";
  y += 16;
}

void writeLegend(std::ostringstream &os, const MemoryMapExtras &extras) {
  double y = Canvas::kTop + 4;
  os << "<g class=\"legend\">\n";
  writeLegendEntry(os, y,
                   "<rect class=\"swatch\" x=\"0\" y=\"-5\" width=\"20\" "
                   "height=\"10\" fill=\"#8dd3c7\"/>",
                   "tile, while live");
  writeLegendEntry(os, y,
                   "<rect class=\"swatch partial-reuse\" x=\"0\" y=\"-5\" "
                   "width=\"20\" height=\"10\" fill=\"#fff\"/>",
                   "reuses part of an expired tile");
  writeLegendEntry(os, y,
                   "<rect class=\"swatch min-size\" x=\"0\" y=\"-5\" "
                   "width=\"20\" height=\"10\" fill=\"#fff\"/>",
                   "drawn at the minimum size");
  writeLegendEntry(os, y,
                   "<rect class=\"reserved\" x=\"0\" y=\"-5\" width=\"20\" "
                   "height=\"10\"/>",
                   "reserved");
  writeLegendEntry(os, y, "<line class=\"capacity\" x1=\"0\" x2=\"20\"/>",
                   "capacity");
  writeLegendEntry(os, y, "<line class=\"peak\" x1=\"0\" x2=\"20\"/>",
                   "peak");
  writeLegendEntry(os, y, "<line class=\"lower-bound\" x1=\"0\" x2=\"20\"/>",
                   "lower bound");
  std::vector<std::string> pipes;
  for (const SyncArrow &sync : extras.syncs)
    pipes.push_back(sync.pipe);
  for (const BarrierMark &barrier : extras.barriers)
    pipes.push_back(barrier.pipe);
  std::sort(pipes.begin(), pipes.end());
  pipes.erase(std::unique(pipes.begin(), pipes.end()), pipes.end());
  if (!extras.syncs.empty())
    writeLegendEntry(os, y,
                     "<rect x=\"0\" y=\"-3\" width=\"6\" height=\"6\" "
                     "fill=\"#666\"/><line x1=\"3\" x2=\"20\" stroke=\"#666\" "
                     "marker-end=\"url(#arrow)\"/>",
                     "set_flag -> wait_flag");
  if (std::any_of(extras.syncs.begin(), extras.syncs.end(),
                  [](const SyncArrow &sync) { return sync.nextIteration; }))
    writeLegendEntry(os, y,
                     "<line class=\"next-iteration\" x1=\"0\" x2=\"20\" "
                     "stroke=\"#666\" marker-end=\"url(#arrow)\"/>",
                     "waited in the next iteration");
  if (!extras.barriers.empty())
    writeLegendEntry(os, y,
                     "<line x1=\"10\" y1=\"-6\" x2=\"10\" y2=\"6\" "
                     "stroke=\"#666\"/>",
                     "pipe_barrier");
  for (const std::string &pipe : pipes)
    writeLegendEntry(os, y,
                     std::string("<rect x=\"0\" y=\"-5\" width=\"20\" "
                                 "height=\"10\" fill=\"") +
                         pipeColour(pipe) + "\"/>",
                     pipe == "all" ? "barrier_all (every pipe)"
                                   : "pipe " + pipe);
  os << "</g>\n";
}

const char *kStyle =
    "<style>\n"
    "text{font-family:monospace;font-size:10px}\n"
    ".buffer,.swatch{stroke:#333;stroke-width:0.5}\n"
    ".partial-reuse{stroke:#d7191c;stroke-width:2;stroke-dasharray:4 2}\n"
    ".min-size{stroke:#000;stroke-width:1;stroke-dasharray:1 1}\n"
    ".reserved{fill:#999;fill-opacity:0.35}\n"
    ".tick{stroke:#ccc;stroke-width:0.5}\n"
    ".x-tick{stroke:#000}\n"
    ".capacity{stroke:#d7191c;stroke-width:1.5}\n"
    ".peak{stroke:#2b83ba;stroke-dasharray:6 3}\n"
    ".lower-bound{stroke:#1a9641;stroke-dasharray:2 2}\n"
    ".sync line{stroke-width:1.5}\n"
    ".next-iteration line,line.next-iteration{stroke-dasharray:5 3}\n"
    "</style>\n"
    "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" "
    "refX=\"7\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" "
    "fill=\"#333\"/></marker></defs>\n";

} // namespace

std::vector<bool> dsaplan::solver::findPartialReuses(const Problem &problem,
                                                     const Placement &placement,
                                                     size_t pool) {
  std::vector<bool> partial(problem.buffers.size(), false);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &later = problem.buffers[b];
    if (later.pool != pool || placement[b] == kUnplaced || later.live.empty())
      continue;
    for (size_t a = 0; a < problem.buffers.size() && !partial[b]; ++a) {
      const Buffer &earlier = problem.buffers[a];
      if (a == b || earlier.pool != pool || placement[a] == kUnplaced ||
          earlier.live.empty() ||
          earlier.live.back().upper > later.live.front().lower)
        continue;
      int64_t begin = std::max(placement[a], placement[b]);
      int64_t end = std::min(placement[a] + earlier.size,
                             placement[b] + later.size);
      partial[b] = begin < end && end - begin < earlier.size;
    }
  }
  return partial;
}

std::string dsaplan::solver::writeMemoryMapSvg(
    const Problem &problem, const Placement &placement,
    const PoolResult &result, const std::string &title,
    const MemoryMapExtras &extras) {
  const Pool &pool = problem.pools[result.pool];
  Canvas c = makeCanvas(problem, result);
  // Syncs and barriers outside the tiles' spans widen the picture.
  for (const SyncArrow &sync : extras.syncs) {
    c.firstPoint = std::min({c.firstPoint, sync.fromPoint, sync.toPoint});
    c.lastPoint = std::max({c.lastPoint, sync.fromPoint, sync.toPoint});
  }
  for (const BarrierMark &barrier : extras.barriers) {
    c.firstPoint = std::min(c.firstPoint, barrier.point);
    c.lastPoint = std::max(c.lastPoint, barrier.point + 1);
  }
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << fmt(Canvas::kWidth) << "\" height=\"" << fmt(Canvas::kHeight)
     << "\" viewBox=\"0 0 " << fmt(Canvas::kWidth) << " "
     << fmt(Canvas::kHeight) << "\" data-pool=\"" << escapeXml(pool.id)
     << "\" data-first-point=\"" << c.firstPoint << "\" data-x0=\""
     << fmt(c.x0()) << "\" data-x-scale=\"" << fmtScale(c.xScale())
     << "\" data-y0=\"" << fmt(c.y0()) << "\" data-y-scale=\""
     << fmtScale(c.yScale()) << "\" data-min-size=\"" << fmt(Canvas::kMinSize)
     << "\">\n";
  os << "<title>" << escapeXml(title) << "</title>\n" << kStyle;
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  os << "<text x=\"" << fmt(Canvas::kLeft) << "\" y=\"22\" font-size=\"14\">"
     << escapeXml(title) << "</text>\n";
  os << "<text class=\"caption\" x=\"" << fmt(Canvas::kLeft) << "\" y=\"40\">"
     << result.buffers << " buffers, peak " << bytesText(result.peak)
     << ", lower bound " << bytesText(result.lowerBound) << ", capacity "
     << bytesText(pool.capacity) << ", ";
  // Under the reuse-cost objective the status is the cost's.
  if (problem.objective == Objective::ReuseCost && isPlaced(result.status))
    os << "reuse cost " << reuseCostOf(problem, placement, result.pool).cost
       << " (" << poolStatusName(result.status) << "), peak not minimised";
  else
    os << poolStatusName(result.status);
  if (extras.functionSyncs || !extras.barriers.empty())
    os << "; " << extras.syncs.size() << " arrows for the function's "
       << extras.functionSyncs << " set_flag ops, " << extras.barriers.size()
       << " barriers";
  os << (pool.capacity > c.topAddress ? " (capacity above the chart)" : "")
     << "</text>\n";
  writeAxes(os, c);
  writeReserved(os, c, pool);
  writeBuffers(os, c, problem, placement, result.pool,
               findPartialReuses(problem, placement, result.pool));
  writeLevel(os, c, "capacity", static_cast<double>(pool.capacity),
             "capacity " + bytesText(pool.capacity));
  writeLevel(os, c, "peak", static_cast<double>(result.peak),
             "peak " + bytesText(result.peak));
  writeLevel(os, c, "lower-bound", static_cast<double>(result.lowerBound),
             "lower bound " + bytesText(result.lowerBound),
             /*labelLeft=*/true);
  writeBarriers(os, c, extras.barriers);
  writeSyncs(os, c, extras.syncs);
  writeLegend(os, extras);
  os << "</svg>\n";
  return os.str();
}

std::string dsaplan::solver::objectiveSummary(const PoolResult &result,
                                              Objective objective,
                                              int64_t reuseCost,
                                              const std::string &costDetail) {
  std::string status = poolStatusName(result.status);
  std::string peak = "peak " + std::to_string(result.peak) + " B (";
  if (objective != Objective::ReuseCost)
    return peak + status + ", least " + std::to_string(result.lowerBound) +
           " B)";
  return "reuse cost " + std::to_string(reuseCost) + " (" + status +
         ", bound " + std::to_string(result.reuseCostBound) +
         (costDetail.empty() ? "" : ", " + costDetail) + "); " + peak +
         "not minimised, least " + std::to_string(result.lowerBound) + " B)";
}

namespace {
/// The ids of the buffers of `result`'s infeasibility certificate.
nlohmann::ordered_json certificateIds(const Problem &problem,
                                      const PoolResult &result) {
  nlohmann::ordered_json ids = nlohmann::ordered_json::array();
  for (size_t b : result.certificate)
    ids.push_back(problem.buffers[b].id);
  return ids;
}
} // namespace

std::string dsaplan::solver::writeReportJson(
    const Problem &problem, const Placement &placement,
    const std::vector<PoolResult> &results, const std::string &instance) {
  using Json = nlohmann::ordered_json;
  Json pools = Json::array();
  for (const PoolResult &result : results) {
    const Pool &pool = problem.pools[result.pool];
    std::vector<bool> partial =
        findPartialReuses(problem, placement, result.pool);
    Json buffers = Json::array();
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      const Buffer &buffer = problem.buffers[b];
      if (buffer.pool != result.pool)
        continue;
      Json live = Json::array();
      for (const Interval &interval : buffer.live)
        live.push_back({interval.lower, interval.upper});
      Json entry = {{"id", buffer.id},
                    {"name", displayName(buffer)},
                    {"size", buffer.size},
                    {"alignment", buffer.alignment},
                    {"offset", placement[b]},
                    {"live", live},
                    {"partial_reuse", bool(partial[b])}};
      if (!buffer.location.empty())
        entry["location"] = buffer.location;
      buffers.push_back(std::move(entry));
    }
    pools.push_back({{"id", pool.id},
                     {"name", pool.name},
                     {"capacity", pool.capacity},
                     {"peak", result.peak},
                     {"lower_bound", result.lowerBound},
                     {"status", poolStatusName(result.status)},
                     {"proof", infeasibilityProofName(result.proof)},
                     {"certificate", certificateIds(problem, result)},
                     {"nodes", result.nodes}});
    if (problem.objective == Objective::ReuseCost) {
      ReuseCostCount count = reuseCostOf(problem, placement, result.pool);
      pools.back()["reuse_cost_status"] = poolStatusName(result.status);
      pools.back()["peak_status"] = "not minimised";
      pools.back()["reuse_cost"] = count.cost;
      pools.back()["reuse_cost_bound"] = result.reuseCostBound;
      pools.back()["shared_penalised_pairs"] = count.sharedPairs;
    }
    pools.back()["buffers"] = std::move(buffers);
  }
  Json report = {{"schema_version", kReportSchemaVersion},
                 {"instance", instance},
                 {"pools", std::move(pools)}};
  return report.dump(2) + "\n";
}

namespace {
/// The status a report names, as poolStatusName spells it.
PoolStatus parsePoolStatus(const std::string &name) {
  for (PoolStatus status : {PoolStatus::Optimal, PoolStatus::Feasible,
                            PoolStatus::Infeasible, PoolStatus::GaveUp})
    if (name == poolStatusName(status))
      return status;
  throw std::invalid_argument("unknown status '" + name + "'");
}

/// The proof a report names, as infeasibilityProofName spells it.
InfeasibilityProof parseProof(const std::string &name) {
  for (InfeasibilityProof proof :
       {InfeasibilityProof::None, InfeasibilityProof::Certificate,
        InfeasibilityProof::Search, InfeasibilityProof::Constraints})
    if (name == infeasibilityProofName(proof))
      return proof;
  throw std::invalid_argument("unknown proof '" + name + "'");
}

/// The index of the buffer `id` of `problem`.
size_t bufferIndex(const Problem &problem, const std::string &id) {
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (problem.buffers[b].id == id)
      return b;
  throw std::invalid_argument("the certificate names no buffer '" + id + "'");
}
} // namespace

std::string dsaplan::solver::readReportJson(const std::string &text,
                                            Problem &problem,
                                            Placement &placement,
                                            std::vector<PoolResult> &results) {
  problem = Problem();
  placement.clear();
  results.clear();
  try {
    nlohmann::json report = nlohmann::json::parse(text);
    if (report.value("schema_version", 0) != kReportSchemaVersion)
      return "schema_version: only version " +
             std::to_string(kReportSchemaVersion) + " is supported";
    problem.document.instance = report.at("instance").get<std::string>();
    for (const nlohmann::json &entry : report.at("pools")) {
      Pool pool;
      pool.id = entry.at("id").get<std::string>();
      pool.name = entry.at("name").get<std::string>();
      pool.capacity = entry.at("capacity").get<int64_t>();
      PoolResult result;
      result.pool = problem.pools.size();
      result.peak = entry.at("peak").get<int64_t>();
      result.lowerBound = entry.at("lower_bound").get<int64_t>();
      result.status = parsePoolStatus(entry.at("status").get<std::string>());
      result.nodes = entry.at("nodes").get<uint64_t>();
      for (const nlohmann::json &b : entry.at("buffers")) {
        Buffer buffer;
        buffer.id = b.at("id").get<std::string>();
        buffer.name = b.at("name").get<std::string>();
        buffer.size = b.at("size").get<int64_t>();
        buffer.alignment = b.at("alignment").get<int64_t>();
        buffer.pool = result.pool;
        for (const nlohmann::json &interval : b.at("live"))
          buffer.live.push_back(
              {interval.at(0).get<int64_t>(), interval.at(1).get<int64_t>()});
        if (b.contains("location"))
          buffer.location = b.at("location").get<std::string>();
        placement.push_back(b.at("offset").get<int64_t>());
        problem.buffers.push_back(std::move(buffer));
        ++result.buffers;
      }
      result.proof = parseProof(entry.at("proof").get<std::string>());
      for (const nlohmann::json &id : entry.at("certificate"))
        result.certificate.push_back(
            bufferIndex(problem, id.get<std::string>()));
      problem.pools.push_back(std::move(pool));
      results.push_back(result);
    }
  } catch (const std::exception &error) {
    return error.what();
  }
  return "";
}
