//===- Report.cpp - Memory-map pictures and JSON reports ------------------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/Report.h"
#include "DsaPlan/Solver/Validate.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

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

std::string escapeJson(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
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

const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                          "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                          "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

//===----------------------------------------------------------------------===//
// The picture's coordinate system
//===----------------------------------------------------------------------===//

/// Maps (point, address) to pixels: x grows with the program point, y with
/// the address (address 0 at the bottom).
struct Canvas {
  static constexpr double kWidth = 1200, kHeight = 640;
  static constexpr double kLeft = 90, kRight = 30, kTop = 70, kBottom = 40;
  int64_t firstPoint = 0, lastPoint = 1;
  double topAddress = 1;

  double x0() const { return kLeft; }
  double y0() const { return kHeight - kBottom; }
  double xScale() const {
    return (kWidth - kLeft - kRight) /
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
// SVG pieces
//===----------------------------------------------------------------------===//

void writeAxes(std::ostringstream &os, const Canvas &c) {
  os << "<g class=\"axes\">\n";
  os << "<line x1=\"" << fmt(c.x0()) << "\" y1=\"" << fmt(c.y0()) << "\" x2=\""
     << fmt(Canvas::kWidth - Canvas::kRight) << "\" y2=\"" << fmt(c.y0())
     << "\" stroke=\"#000\"/>\n";
  os << "<line x1=\"" << fmt(c.x0()) << "\" y1=\"" << fmt(c.y0()) << "\" x2=\""
     << fmt(c.x0()) << "\" y2=\"" << fmt(Canvas::kTop) << "\" stroke=\"#000\"/>\n";
  const int ticks = 10;
  for (int i = 0; i <= ticks; ++i) {
    int64_t point =
        c.firstPoint + (c.lastPoint - c.firstPoint) * i / ticks;
    os << "<text x=\"" << fmt(c.x(point)) << "\" y=\"" << fmt(c.y0() + 14)
       << "\" text-anchor=\"middle\">" << point << "</text>\n";
    double address = c.topAddress * i / ticks;
    os << "<text x=\"" << fmt(c.x0() - 4) << "\" y=\"" << fmt(c.y(address) + 3)
       << "\" text-anchor=\"end\">" << static_cast<int64_t>(address)
       << "</text>\n";
  }
  os << "<text x=\"" << fmt(Canvas::kWidth / 2) << "\" y=\""
     << fmt(Canvas::kHeight - 6)
     << "\" text-anchor=\"middle\">program point</text>\n";
  os << "<text x=\"14\" y=\"" << fmt(Canvas::kTop - 8)
     << "\">address (B)</text>\n</g>\n";
}

/// A horizontal line across the plot with a label at its right end (or its
/// left end, so that two levels at the same address stay readable).
void writeLevel(std::ostringstream &os, const Canvas &c, const char *cls,
                double address, const std::string &label,
                bool labelLeft = false) {
  if (address > c.topAddress)
    return;
  double y = c.y(address);
  os << "<line class=\"" << cls << "\" x1=\"" << fmt(c.x0()) << "\" y1=\""
     << fmt(y) << "\" x2=\"" << fmt(Canvas::kWidth - Canvas::kRight)
     << "\" y2=\"" << fmt(y) << "\"/>\n";
  os << "<text class=\"" << cls << "-label\" x=\""
     << fmt(labelLeft ? c.x0() + 4 : Canvas::kWidth - Canvas::kRight - 2)
     << "\" y=\"" << fmt(std::strcmp(cls, "capacity") ? y - 3 : y + 11)
     << "\" text-anchor=\""
     << (labelLeft ? "start" : "end") << "\">" << escapeXml(label)
     << "</text>\n";
}

void writeReserved(std::ostringstream &os, const Canvas &c, const Pool &pool) {
  for (const AddressRange &range : pool.reserved) {
    double top = std::min<double>(range.end, c.topAddress);
    if (range.begin >= top)
      continue;
    os << "<rect class=\"reserved\" x=\"" << fmt(c.x0()) << "\" y=\""
       << fmt(c.y(top)) << "\" width=\""
       << fmt(Canvas::kWidth - Canvas::kRight - c.x0()) << "\" height=\""
       << fmt((top - range.begin) * c.yScale()) << "\"><title>reserved ["
       << range.begin << ", " << range.end << ")</title></rect>\n";
  }
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
    std::string tip = name + ": " + std::to_string(buffer.size) +
                      " B at offset " + std::to_string(offset) + ", live " +
                      liveText(buffer.live) +
                      (partial[b] ? " (reuses part of an expired buffer)" : "");
    for (const Interval &interval : buffer.live) {
      double x = c.x(interval.lower), width = c.x(interval.upper) - x;
      double y = c.y(static_cast<double>(offset + buffer.size));
      double height = static_cast<double>(buffer.size) * c.yScale();
      os << "<rect class=\"buffer" << (partial[b] ? " partial-reuse" : "")
         << "\" data-buffer=\"" << escapeXml(buffer.id) << "\" data-offset=\""
         << offset << "\" data-size=\"" << buffer.size << "\" data-lower=\""
         << interval.lower << "\" data-upper=\"" << interval.upper
         << "\" x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" width=\""
         << fmt(width) << "\" height=\"" << fmt(height) << "\" fill=\""
         << kPalette[b % (sizeof(kPalette) / sizeof(kPalette[0]))]
         << "\"><title>" << tip << "</title></rect>\n";
      // A label only where it fits, so 500 buffers stay legible.
      if (width >= 6.5 * static_cast<double>(name.size()) && height >= 11)
        os << "<text class=\"label\" x=\"" << fmt(x + 2) << "\" y=\""
           << fmt(y + std::min(height, 22.0) / 2 + 4) << "\">" << name
           << "</text>\n";
    }
  }
}

void writeSyncs(std::ostringstream &os, const Canvas &c,
                const std::vector<SyncArrow> &syncs) {
  for (const SyncArrow &sync : syncs)
    os << "<line class=\"sync\" x1=\"" << fmt(c.x(sync.fromPoint)) << "\" y1=\""
       << fmt(c.y(static_cast<double>(sync.fromAddress))) << "\" x2=\""
       << fmt(c.x(sync.toPoint)) << "\" y2=\""
       << fmt(c.y(static_cast<double>(sync.toAddress)))
       << "\" marker-end=\"url(#arrow)\"><title>" << escapeXml(sync.label)
       << "</title></line>\n";
}

const char *kStyle =
    "<style>\n"
    "text{font-family:monospace;font-size:10px}\n"
    ".buffer{stroke:#333;stroke-width:0.5}\n"
    ".buffer.partial-reuse{stroke:#d7191c;stroke-width:2;"
    "stroke-dasharray:4 2}\n"
    ".reserved{fill:#999;fill-opacity:0.35}\n"
    ".capacity{stroke:#d7191c;stroke-width:1.5}\n"
    ".peak{stroke:#2b83ba;stroke-dasharray:6 3}\n"
    ".lower-bound{stroke:#1a9641;stroke-dasharray:2 2}\n"
    ".sync{stroke:#7b3294;stroke-width:1.5}\n"
    "</style>\n"
    "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" "
    "refX=\"7\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" "
    "fill=\"#7b3294\"/></marker></defs>\n";

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
    const std::vector<SyncArrow> &syncs) {
  const Pool &pool = problem.pools[result.pool];
  Canvas c = makeCanvas(problem, result);
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
     << fmt(Canvas::kWidth) << "\" height=\"" << fmt(Canvas::kHeight)
     << "\" viewBox=\"0 0 " << fmt(Canvas::kWidth) << " "
     << fmt(Canvas::kHeight) << "\" data-pool=\"" << escapeXml(pool.id)
     << "\" data-first-point=\"" << c.firstPoint << "\" data-x0=\""
     << fmt(c.x0()) << "\" data-x-scale=\"" << fmtScale(c.xScale())
     << "\" data-y0=\"" << fmt(c.y0()) << "\" data-y-scale=\""
     << fmtScale(c.yScale()) << "\">\n";
  os << "<title>" << escapeXml(title) << "</title>\n" << kStyle;
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  os << "<text x=\"" << fmt(Canvas::kLeft) << "\" y=\"22\" font-size=\"14\">"
     << escapeXml(title) << "</text>\n";
  os << "<text x=\"" << fmt(Canvas::kLeft) << "\" y=\"40\">" << result.buffers
     << " buffers, peak " << result.peak << " B, lower bound "
     << result.lowerBound << " B, capacity " << pool.capacity << " B, "
     << poolStatusName(result.status)
     << (pool.capacity > c.topAddress ? " (capacity above the chart)" : "")
     << "</text>\n";
  writeAxes(os, c);
  writeReserved(os, c, pool);
  writeBuffers(os, c, problem, placement, result.pool,
               findPartialReuses(problem, placement, result.pool));
  writeLevel(os, c, "capacity", static_cast<double>(pool.capacity),
             "capacity " + std::to_string(pool.capacity));
  writeLevel(os, c, "peak", static_cast<double>(result.peak),
             "peak " + std::to_string(result.peak));
  writeLevel(os, c, "lower-bound", static_cast<double>(result.lowerBound),
             "lower bound " + std::to_string(result.lowerBound),
             /*labelLeft=*/true);
  writeSyncs(os, c, syncs);
  os << "</svg>\n";
  return os.str();
}

std::string dsaplan::solver::writeReportJson(
    const Problem &problem, const Placement &placement,
    const std::vector<PoolResult> &results, const std::string &instance) {
  std::ostringstream os;
  os << "{\n  \"instance\": \"" << escapeJson(instance)
     << "\",\n  \"pools\": [";
  for (size_t r = 0; r < results.size(); ++r) {
    const PoolResult &result = results[r];
    const Pool &pool = problem.pools[result.pool];
    std::vector<bool> partial =
        findPartialReuses(problem, placement, result.pool);
    os << (r ? ",\n" : "\n") << "    {\"id\": \"" << escapeJson(pool.id)
       << "\", \"name\": \"" << escapeJson(pool.name)
       << "\", \"capacity\": " << pool.capacity
       << ", \"peak\": " << result.peak
       << ", \"lower_bound\": " << result.lowerBound << ", \"status\": \""
       << poolStatusName(result.status) << "\", \"nodes\": " << result.nodes;
    if (problem.objective == Objective::ReuseCost) {
      ReuseCostCount count = reuseCostOf(problem, placement, result.pool);
      os << ", \"reuse_cost\": " << count.cost
         << ", \"reuse_cost_bound\": " << result.reuseCostBound
         << ", \"shared_penalised_pairs\": " << count.sharedPairs;
    }
    os << ", \"buffers\": [";
    bool first = true;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      const Buffer &buffer = problem.buffers[b];
      if (buffer.pool != result.pool)
        continue;
      os << (first ? "\n" : ",\n") << "      {\"id\": \""
         << escapeJson(buffer.id) << "\", \"name\": \""
         << escapeJson(displayName(buffer)) << "\", \"size\": " << buffer.size
         << ", \"alignment\": " << buffer.alignment
         << ", \"offset\": " << placement[b] << ", \"live\": [";
      for (size_t i = 0; i < buffer.live.size(); ++i)
        os << (i ? ", " : "") << "[" << buffer.live[i].lower << ", "
           << buffer.live[i].upper << "]";
      os << "], \"partial_reuse\": " << (partial[b] ? "true" : "false")
         << "}";
      first = false;
    }
    os << "\n    ]}";
  }
  os << "\n  ]\n}\n";
  return os.str();
}
