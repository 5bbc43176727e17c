//===- IO.cpp - schema-v1 JSON and MiniMalloc CSV -------------------------===//
//
// Part of dsaplan. The only solver file that uses nlohmann_json.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Solver/IO.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

using namespace dsaplan::solver;
using json = nlohmann::json;

namespace {

/// Reading fails by throwing this, with the JSON path or file line.
struct InputError {
  std::string message;
};

[[noreturn]] void fail(const std::string &where, const std::string &what) {
  throw InputError{where + ": " + what};
}

std::string idText(const json &value, const std::string &where) {
  if (value.is_number_integer())
    return std::to_string(value.get<int64_t>());
  if (value.is_string())
    return value.get<std::string>();
  fail(where, "must be an integer or a string");
}

json idValue(const std::string &id) {
  bool digits = !id.empty() && id.size() < 18 &&
                std::all_of(id.begin(), id.end(),
                            [](char c) { return std::isdigit(c); });
  return digits ? json(std::stoll(id)) : json(id);
}

const json &member(const json &object, const char *key,
                   const std::string &where) {
  if (!object.is_object() || !object.contains(key))
    fail(where, std::string("missing '") + key + "'");
  return object.at(key);
}

int64_t integer(const json &value, const std::string &where) {
  if (!value.is_number_integer())
    fail(where, "must be an integer");
  return value.get<int64_t>();
}

const json &array(const json &value, const std::string &where) {
  if (!value.is_array())
    fail(where, "must be an array");
  return value;
}

bool isPowerOfTwo(int64_t value) { return value > 0 && !(value & (value - 1)); }

/// Fails unless `object` has every field of `keys` (the fields schema-v1
/// marks as required), naming the first missing one by its path.
void requireFields(const json &object, std::initializer_list<const char *> keys,
                   const std::string &where) {
  if (!object.is_object())
    fail(where, "must be an object");
  for (const char *key : keys)
    if (!object.contains(key))
      fail(where == "$" ? key : where + "." + key,
           "missing (schema-v1 requires it)");
}


void readPools(const json &pools, Problem &problem,
               std::map<std::string, size_t> &poolIndex, ReadResult &result) {
  array(pools, "problem.pools");
  for (size_t p = 0; p < pools.size(); ++p) {
    std::string where = "problem.pools[" + std::to_string(p) + "]";
    const json &entry = pools[p];
    requireFields(entry, {"id", "name", "capacity", "reserved_ranges"}, where);
    Pool pool;
    pool.id = idText(member(entry, "id", where), where + ".id");
    pool.name = entry.value("name", pool.id);
    const json &capacity = entry.contains("capacity") ? entry["capacity"] : json();
    // No capacity: the pool is unbounded (placement only minimises the peak).
    pool.capacity = capacity.is_null() ? (int64_t(1) << 60)
                                       : integer(capacity, where + ".capacity");
    if (pool.capacity <= 0)
      fail(where + ".capacity", "must be positive");
    if (entry.contains("reserved_ranges"))
      for (size_t r = 0; r < array(entry["reserved_ranges"], where + ".reserved_ranges").size(); ++r) {
        std::string at = where + ".reserved_ranges[" + std::to_string(r) + "]";
        const json &range = entry["reserved_ranges"][r];
        AddressRange reserved{integer(member(range, "begin", at), at + ".begin"),
                              integer(member(range, "end", at), at + ".end")};
        if (reserved.end <= reserved.begin || reserved.begin < 0)
          fail(at, "must be a non-empty range with 0 <= begin < end");
        pool.reserved.push_back(reserved);
      }
    if (entry.contains("bank_geometry") && !entry["bank_geometry"].is_null())
      result.unsupported.push_back(where + ".bank_geometry (bank conflicts are not modelled)");
    if (!poolIndex.emplace(pool.id, problem.pools.size()).second)
      fail(where + ".id", "pool id " + pool.id + " appears twice");
    problem.pools.push_back(std::move(pool));
  }
}

void readBuffers(const json &buffers, Problem &problem,
                 const std::map<std::string, size_t> &poolIndex,
                 std::map<std::string, size_t> &bufferIndex) {
  array(buffers, "problem.buffers");
  for (size_t b = 0; b < buffers.size(); ++b) {
    std::string where = "problem.buffers[" + std::to_string(b) + "]";
    const json &entry = buffers[b];
    requireFields(entry, {"id", "name", "size", "alignment", "live_intervals",
                          "allowed_pools"},
                  where);
    Buffer buffer;
    buffer.id = idText(member(entry, "id", where), where + ".id");
    buffer.name = entry.value("name", std::string());
    buffer.size = integer(member(entry, "size", where), where + ".size");
    if (buffer.size <= 0)
      fail(where + ".size", "must be positive, got " + std::to_string(buffer.size));
    buffer.alignment = entry.contains("alignment")
                           ? integer(entry["alignment"], where + ".alignment")
                           : 1;
    if (buffer.alignment <= 0)
      fail(where + ".alignment",
           "must be positive, got " + std::to_string(buffer.alignment));
    const json &live = array(member(entry, "live_intervals", where), where + ".live_intervals");
    if (live.empty())
      fail(where + ".live_intervals", "must not be empty");
    for (size_t i = 0; i < live.size(); ++i) {
      std::string at = where + ".live_intervals[" + std::to_string(i) + "]";
      Interval interval{integer(member(live[i], "lower", at), at + ".lower"),
                        integer(member(live[i], "upper", at), at + ".upper")};
      if (interval.upper <= interval.lower)
        fail(at, "upper " + std::to_string(interval.upper) + " <= lower " +
                     std::to_string(interval.lower));
      buffer.live.push_back(interval);
    }
    buffer.live = unionOfIntervals(std::move(buffer.live));
    const json &allowed = array(member(entry, "allowed_pools", where), where + ".allowed_pools");
    if (allowed.empty())
      fail(where + ".allowed_pools", "must name a pool");
    for (size_t p = 0; p < allowed.size(); ++p) {
      std::string at = where + ".allowed_pools[" + std::to_string(p) + "]";
      std::string pool = idText(allowed[p], at);
      auto it = poolIndex.find(pool);
      if (it == poolIndex.end())
        fail(at, "unknown pool " + pool);
      if (std::find(buffer.allowedPools.begin(), buffer.allowedPools.end(),
                    it->second) != buffer.allowedPools.end())
        fail(at, "pool " + pool + " is listed twice");
      buffer.allowedPools.push_back(it->second);
    }
    // The solver chooses among several pools; one is just the buffer's pool.
    buffer.pool = buffer.allowedPools.front();
    if (buffer.allowedPools.size() == 1)
      buffer.allowedPools.clear();
    if (!bufferIndex.emplace(buffer.id, problem.buffers.size()).second)
      fail(where + ".id", "buffer id " + buffer.id + " appears twice");
    problem.buffers.push_back(std::move(buffer));
  }
}

size_t bufferRef(const json &value, const std::string &where,
                 const std::map<std::string, size_t> &bufferIndex) {
  std::string id = idText(value, where);
  auto it = bufferIndex.find(id);
  if (it == bufferIndex.end())
    fail(where, "unknown buffer id " + id);
  return it->second;
}

void readConstraints(const json &constraints, Problem &problem,
                     const std::map<std::string, size_t> &bufferIndex) {
  const std::string where = "problem.constraints";
  requireFields(constraints, {"colocations", "separations",
                              "temporal_exclusions", "pinned_allocations"},
                where);
  if (constraints.contains("colocations"))
    for (size_t i = 0; i < array(constraints["colocations"], where + ".colocations").size(); ++i) {
      std::string at = where + ".colocations[" + std::to_string(i) + "]";
      const json &c = constraints["colocations"][i];
      problem.colocations.push_back(
          {bufferRef(member(c, "first", at), at + ".first", bufferIndex),
           bufferRef(member(c, "second", at), at + ".second", bufferIndex)});
    }
  if (constraints.contains("separations"))
    for (size_t i = 0; i < array(constraints["separations"], where + ".separations").size(); ++i) {
      std::string at = where + ".separations[" + std::to_string(i) + "]";
      const json &s = constraints["separations"][i];
      Separation separation{bufferRef(member(s, "first", at), at + ".first", bufferIndex),
                            bufferRef(member(s, "second", at), at + ".second", bufferIndex),
                            "generic"};
      if (s.contains("reasons") && s["reasons"].is_array() && !s["reasons"].empty() &&
          s["reasons"][0].is_string())
        separation.reason = s["reasons"][0].get<std::string>();
      problem.separations.push_back(separation);
    }
  if (constraints.contains("pinned_allocations"))
    for (size_t i = 0; i < array(constraints["pinned_allocations"], where + ".pinned_allocations").size(); ++i) {
      std::string at = where + ".pinned_allocations[" + std::to_string(i) + "]";
      const json &p = constraints["pinned_allocations"][i];
      requireFields(p, {"buffer", "pool", "offset", "exclusive_for_all_time"}, at);
      size_t b = bufferRef(member(p, "buffer", at), at + ".buffer", bufferIndex);
      int64_t offset = integer(member(p, "offset", at), at + ".offset");
      if (offset < 0)
        fail(at + ".offset", "must not be negative");
      problem.buffers[b].pinnedOffset = offset;
      const json &exclusive = p["exclusive_for_all_time"];
      if (!exclusive.is_boolean())
        fail(at + ".exclusive_for_all_time", "must be true or false");
      problem.buffers[b].exclusivePin = exclusive.get<bool>();
    }
  const json &exclusions =
      array(constraints["temporal_exclusions"], where + ".temporal_exclusions");
  for (size_t i = 0; i < exclusions.size(); ++i) {
    std::string at = where + ".temporal_exclusions[" + std::to_string(i) + "]";
    problem.temporalExclusions.push_back(
        {bufferRef(member(exclusions[i], "first", at), at + ".first", bufferIndex),
         bufferRef(member(exclusions[i], "second", at), at + ".second", bufferIndex)});
  }
}

void readCostModel(const json &costModel, Problem &problem,
                   const std::map<std::string, size_t> &bufferIndex) {
  const std::string where = "problem.cost_model";
  requireFields(costModel, {"reuse_penalties"}, where);
  const json &penalties =
      array(costModel["reuse_penalties"], where + ".reuse_penalties");
  for (size_t i = 0; i < penalties.size(); ++i) {
    std::string at = where + ".reuse_penalties[" + std::to_string(i) + "]";
    const json &p = penalties[i];
    requireFields(p, {"first", "second", "cost", "reason"}, at);
    ReusePenalty penalty{bufferRef(p["first"], at + ".first", bufferIndex),
                         bufferRef(p["second"], at + ".second", bufferIndex),
                         integer(p["cost"], at + ".cost"), ""};
    if (penalty.cost < 0)
      fail(at + ".cost", "must not be negative");
    if (!p["reason"].is_string())
      fail(at + ".reason", "must be a string");
    penalty.reason = p["reason"].get<std::string>();
    problem.reusePenalties.push_back(penalty);
  }
}

/// The objective: fit then reuse cost when `reuse_cost` is the first term
/// after `capacity_overflow`; the peak otherwise (a reuse cost that only
/// breaks ties between equal peaks is reported as not optimised).
void readObjective(const json &objective, Problem &problem,
                   ReadResult &result) {
  const std::string where = "problem.objective";
  requireFields(objective, {"aggregation", "terms"}, where);
  if (objective["aggregation"] != "lexicographic")
    fail(where + ".aggregation", "must be \"lexicographic\"");
  const json &terms = array(objective["terms"], where + ".terms");
  if (terms.empty())
    fail(where + ".terms", "must name at least one term");
  bool decided = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    std::string at = where + ".terms[" + std::to_string(i) + "]";
    if (!terms[i].is_string())
      fail(at, "must be a string");
    std::string term = terms[i].get<std::string>();
    if (term == "capacity_overflow")
      continue;
    if (term == "reuse_cost" && !decided)
      problem.objective = Objective::ReuseCost;
    else if (term == "reuse_cost" || term == "bank_cost")
      result.unsupported.push_back(where + ".terms: " + term +
                                   " (only the first term after "
                                   "capacity_overflow is optimised)");
    else if (term != "max_peak" && term != "total_peak")
      fail(at, "unknown term " + term);
    decided = true;
  }
}

/// FNV-1a-64 of `text` as 16 lower-case hex digits.
std::string fnv1a64(const std::string &text);

/// The fingerprint the reference tooling gives the document: FNV-1a-64 of
/// its canonical serialisation (keys sorted, two-space indent, a final
/// newline, `metadata` always present).
std::string referenceFingerprint(json document) {
  if (!document.contains("metadata"))
    document["metadata"] = json::object();
  return fnv1a64(document.dump(2) + "\n");
}

std::string hex64(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx",
                static_cast<unsigned long long>(value));
  return buffer;
}

std::string fnv1a64(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hex64(hash);
}

json problemJson(const Problem &problem) {
  json pools = json::array();
  for (const Pool &pool : problem.pools) {
    json reserved = json::array();
    for (const AddressRange &range : pool.reserved)
      reserved.push_back({{"begin", range.begin}, {"end", range.end}});
    pools.push_back({{"id", idValue(pool.id)},
                     {"name", pool.name},
                     {"capacity", pool.capacity},
                     {"reserved_ranges", reserved}});
  }
  json buffers = json::array();
  for (const Buffer &buffer : problem.buffers) {
    json live = json::array();
    for (const Interval &interval : buffer.live)
      live.push_back({{"lower", interval.lower}, {"upper", interval.upper}});
    // The document has no pool alignment: each buffer carries the strictest
    // of the pools it may go in.
    json allowed = json::array();
    int64_t alignment = buffer.alignment;
    for (size_t pool : buffer.allowedPools.empty()
                           ? std::vector<size_t>{buffer.pool}
                           : buffer.allowedPools) {
      allowed.push_back(idValue(problem.pools[pool].id));
      alignment = std::max(alignment, problem.pools[pool].alignment);
    }
    buffers.push_back({{"id", idValue(buffer.id)},
                       {"name", buffer.name},
                       {"size", buffer.size},
                       {"alignment", alignment},
                       {"live_intervals", live},
                       {"allowed_pools", allowed}});
  }
  json colocations = json::array(), separations = json::array(),
       pins = json::array();
  for (const Colocation &c : problem.colocations)
    colocations.push_back({{"first", idValue(problem.buffers[c.first].id)},
                           {"second", idValue(problem.buffers[c.second].id)}});
  for (const Separation &s : problem.separations)
    separations.push_back({{"first", idValue(problem.buffers[s.first].id)},
                           {"second", idValue(problem.buffers[s.second].id)},
                           {"reasons", json::array({s.reason.empty() ? "generic" : s.reason})}});
  for (const Buffer &buffer : problem.buffers)
    if (buffer.pinnedOffset)
      pins.push_back({{"buffer", idValue(buffer.id)},
                      {"pool", idValue(problem.pools[buffer.pool].id)},
                      {"offset", *buffer.pinnedOffset},
                      {"exclusive_for_all_time", buffer.exclusivePin}});
  json exclusions = json::array();
  for (const TemporalExclusion &e : problem.temporalExclusions)
    exclusions.push_back({{"first", idValue(problem.buffers[e.first].id)},
                          {"second", idValue(problem.buffers[e.second].id)}});
  json body = {{"pools", pools},
               {"buffers", buffers},
               {"constraints",
                {{"colocations", colocations},
                 {"separations", separations},
                 {"pinned_allocations", pins},
                 {"temporal_exclusions", exclusions}}}};
  if (!problem.reusePenalties.empty()) {
    json penalties = json::array();
    for (const ReusePenalty &p : problem.reusePenalties)
      penalties.push_back({{"first", idValue(problem.buffers[p.first].id)},
                           {"second", idValue(problem.buffers[p.second].id)},
                           {"cost", p.cost},
                           {"reason", p.reason.empty() ? "generic" : p.reason}});
    body["cost_model"] = {{"reuse_penalties", penalties}};
  }
  body["objective"] = {
      {"aggregation", "lexicographic"},
      {"terms", problem.objective == Objective::ReuseCost
                    ? json::array({"capacity_overflow", "reuse_cost"})
                    : json::array({"capacity_overflow", "max_peak"})}};
  return body;
}

std::vector<std::string> splitCsvLine(const std::string &line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, ',')) {
    size_t begin = field.find_first_not_of(" \t\r");
    size_t end = field.find_last_not_of(" \t\r");
    fields.push_back(begin == std::string::npos ? "" : field.substr(begin, end - begin + 1));
  }
  if (!line.empty() && line.back() == ',')
    fields.push_back("");
  return fields;
}

int64_t csvInteger(const std::string &text, const std::string &where,
                   const std::string &column) {
  size_t used = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (...) {
    used = 0;
  }
  if (text.empty() || used != text.size())
    fail(where, column + " '" + text + "' is not an integer");
  return value;
}

} // namespace

ReadResult dsaplan::solver::readSchemaV1Problem(const std::string &text,
                                                Problem &problem) {
  ReadResult result;
  problem = Problem();
  try {
    json document = json::parse(text);
    if (!document.is_object())
      fail("$", "the document must be a JSON object");
    requireFields(document, {"schema_version", "profile", "instance", "problem"},
                  "$");
    if (integer(document["schema_version"], "schema_version") != 1)
      fail("schema_version", "only version 1 is supported");
    if (!document["profile"].is_string())
      fail("profile", "must be a string");
    if (!document["instance"].is_string() || document["instance"] == "")
      fail("instance", "must be a non-empty string");
    const json &body = document["problem"];
    requireFields(body, {"pools", "buffers", "constraints", "objective"},
                  "problem");
    std::map<std::string, size_t> poolIndex, bufferIndex;
    readPools(body["pools"], problem, poolIndex, result);
    readBuffers(body["buffers"], problem, poolIndex, bufferIndex);
    readConstraints(body["constraints"], problem, bufferIndex);
    if (body.contains("cost_model"))
      readCostModel(body["cost_model"], problem, bufferIndex);
    readObjective(body["objective"], problem, result);
    // Each pool's alignment: what all of its buffers' alignments share.
    for (size_t p = 0; p < problem.pools.size(); ++p) {
      int64_t alignment = 0;
      for (const Buffer &buffer : problem.buffers)
        if (buffer.pool == p)
          alignment = std::gcd(alignment, buffer.alignment);
      problem.pools[p].alignment = alignment ? alignment : 1;
    }
    problem.document = {document["profile"].get<std::string>(),
                        document["instance"].get<std::string>(),
                        referenceFingerprint(document)};
    result.ok = true;
  } catch (const json::exception &error) {
    result.error = std::string("malformed JSON: ") + error.what();
  } catch (const InputError &error) {
    result.error = error.message;
  }
  return result;
}

std::string dsaplan::solver::writeSchemaV1Problem(const Problem &problem,
                                                  const std::string &instance) {
  // pypto_structured: several pools, reserved ranges, alignments and
  // constraints; dsaplan numbers an op's reads before its writes, as PyPTO.
  json document = {
      {"schema_version", 1},
      {"profile", problem.document.profile.empty() ? "pypto_structured"
                                                   : problem.document.profile},
      {"instance", instance},
      {"metadata",
       {{"producer", "dsaplan"},
        {"lifetime_ordering", "pypto_read_before_write"},
        {"solver_input", "pre_memory_reuse"},
        {"problem_fingerprint_fnv1a64", problemFingerprint(problem)}}},
      {"problem", problemJson(problem)}};
  return document.dump(1) + "\n";
}

std::string dsaplan::solver::problemFingerprint(const Problem &problem) {
  return fnv1a64(problemJson(problem).dump());
}

namespace {

std::string instanceOf(const Problem &problem) {
  return problem.document.instance.empty() ? "dsaplan"
                                           : problem.document.instance;
}

/// The fingerprint the reference tooling computes for the problem's
/// document: the one read, or else the one writeSchemaV1Problem writes.
std::string documentFingerprint(const Problem &problem) {
  if (!problem.document.referenceFingerprint.empty())
    return problem.document.referenceFingerprint;
  return referenceFingerprint(
      json::parse(writeSchemaV1Problem(problem, instanceOf(problem))));
}

} // namespace

std::string dsaplan::solver::writeSchemaV1Solution(const Problem &problem,
                                                   const Placement &placement) {
  json placements = json::array();
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    if (b < placement.size() && placement[b] != kUnplaced)
      placements.push_back({{"buffer", idValue(problem.buffers[b].id)},
                            {"pool", idValue(problem.pools[problem.buffers[b].pool].id)},
                            {"offset", placement[b]}});
  // The reference tooling checks profile, instance and the fingerprint of
  // the document it read; for a problem built in memory, the document
  // writeSchemaV1Problem writes stands in.
  const DocumentInfo &info = problem.document;
  json document = {
      {"schema_version", 1},
      {"profile", info.profile.empty() ? "pypto_structured" : info.profile},
      {"instance", instanceOf(problem)},
      {"problem_fingerprint", documentFingerprint(problem)},
      {"metadata",
       {{"producer", "dsaplan"},
        {"dsaplan_problem_fingerprint_fnv1a64", problemFingerprint(problem)}}},
      {"placements", placements}};
  return document.dump(2) + "\n";
}

ReadResult dsaplan::solver::readSchemaV1Solution(const std::string &text,
                                                 const Problem &problem,
                                                 Placement &placement,
                                                 std::vector<size_t> *poolOf) {
  ReadResult result;
  placement.assign(problem.buffers.size(), kUnplaced);
  if (poolOf) {
    poolOf->clear();
    for (const Buffer &buffer : problem.buffers)
      poolOf->push_back(buffer.pool);
  }
  std::map<std::string, size_t> poolIndex;
  for (size_t p = 0; p < problem.pools.size(); ++p)
    poolIndex[problem.pools[p].id] = p;
  try {
    json document = json::parse(text);
    requireFields(document, {"schema_version", "profile", "instance",
                             "problem_fingerprint", "metadata", "placements"},
                  "$");
    if (integer(document["schema_version"], "schema_version") != 1)
      fail("schema_version", "only version 1 is supported");
    if (!document["metadata"].is_object())
      fail("metadata", "must be an object");
    const DocumentInfo &info = problem.document;
    for (auto [key, expected] : {std::pair<const char *, std::string>{"profile", info.profile},
                                 {"instance", info.instance}})
      if (!document[key].is_string())
        fail(key, "must be a string");
      else if (!expected.empty() && document[key] != expected)
        fail(key, "the solution is for " + document[key].get<std::string>() +
                      ", the problem is " + expected);
    if (!document["problem_fingerprint"].is_string())
      fail("problem_fingerprint", "must be a string");
    std::string found = document["problem_fingerprint"].get<std::string>();
    std::string expected = documentFingerprint(problem);
    if (found != expected)
      fail("problem_fingerprint",
           "the solution is for problem " + found + ", not " + expected);
    std::map<std::string, size_t> bufferIndex;
    for (size_t b = 0; b < problem.buffers.size(); ++b)
      bufferIndex[problem.buffers[b].id] = b;
    const json &placements = array(member(document, "placements", "$"), "placements");
    for (size_t i = 0; i < placements.size(); ++i) {
      std::string at = "placements[" + std::to_string(i) + "]";
      size_t b = bufferRef(member(placements[i], "buffer", at), at + ".buffer", bufferIndex);
      std::string pool = idText(member(placements[i], "pool", at), at + ".pool");
      auto known = poolIndex.find(pool);
      if (known == poolIndex.end())
        fail(at + ".pool", "unknown pool " + pool);
      // A pool the buffer does not allow is the validator's to report (it
      // names the buffer and the pool); one that is not the buffer's pool
      // can only be represented with `poolOf`.
      if (poolOf)
        (*poolOf)[b] = known->second;
      else if (known->second != problem.buffers[b].pool)
        fail(at + ".pool", "buffer " + problem.buffers[b].id + " is in pool " +
                               problem.pools[problem.buffers[b].pool].id + ", not " + pool);
      if (placement[b] != kUnplaced)
        fail(at + ".buffer", "buffer " + problem.buffers[b].id + " is placed twice");
      placement[b] = integer(member(placements[i], "offset", at), at + ".offset");
      if (placement[b] < 0)
        fail(at + ".offset", "must not be negative");
      if (placement[b] > kMaxBytes)
        fail(at + ".offset", "must be at most 2^40 (" +
                                 std::to_string(kMaxBytes) + "), got " +
                                 std::to_string(placement[b]));
    }
    result.ok = true;
  } catch (const json::exception &error) {
    result.error = std::string("malformed JSON: ") + error.what();
  } catch (const InputError &error) {
    result.error = error.message;
  }
  return result;
}

ReadResult dsaplan::solver::readMiniMallocCsv(const std::string &text,
                                              int64_t capacity,
                                              Problem &problem,
                                              Placement &offsets) {
  ReadResult result;
  problem = Problem();
  offsets.clear();
  try {
    std::istringstream stream(text);
    std::string line;
    if (!std::getline(stream, line))
      fail("line 1", "missing the header");
    std::vector<std::string> header = splitCsvLine(line);
    std::map<std::string, size_t> column;
    bool inclusiveEnd = false;
    for (size_t c = 0; c < header.size(); ++c) {
      std::string name = header[c];
      if (name == "start" || name == "begin")
        name = "lower";
      else if (name == "buffer" || name == "buffer_id")
        name = "id";
      else if (name == "end") {
        name = "upper";
        inclusiveEnd = true;
      }
      if (name != "id" && name != "lower" && name != "upper" && name != "size" &&
          name != "alignment" && name != "offset") {
        result.unsupported.push_back("column '" + header[c] + "' is ignored");
        continue;
      }
      column[name] = c;
    }
    for (const char *required : {"id", "lower", "upper", "size"})
      if (!column.count(required))
        fail("line 1", std::string("the header has no '") + required + "' column");
    if (capacity <= 0)
      fail("capacity", "must be positive");
    problem.pools.push_back({"0", "memory", capacity, {}, 1});
    std::map<std::string, size_t> seen;
    for (size_t lineNumber = 2; std::getline(stream, line); ++lineNumber) {
      if (line.find_first_not_of(" \t\r") == std::string::npos)
        continue;
      std::string where = "line " + std::to_string(lineNumber);
      std::vector<std::string> fields = splitCsvLine(line);
      if (fields.size() != header.size())
        fail(where, std::to_string(fields.size()) + " fields, the header has " +
                        std::to_string(header.size()));
      Buffer buffer;
      buffer.id = fields[column["id"]];
      buffer.name = buffer.id;
      int64_t lower = csvInteger(fields[column["lower"]], where, "lower");
      int64_t upper = csvInteger(fields[column["upper"]], where, "upper") +
                      (inclusiveEnd ? 1 : 0);
      if (upper <= lower)
        fail(where, "upper " + std::to_string(upper) + " <= lower " + std::to_string(lower));
      buffer.live.push_back({lower, upper});
      buffer.size = csvInteger(fields[column["size"]], where, "size");
      if (buffer.size <= 0)
        fail(where, "size " + std::to_string(buffer.size) + " is not positive");
      if (column.count("alignment") && !fields[column["alignment"]].empty()) {
        buffer.alignment = csvInteger(fields[column["alignment"]], where, "alignment");
        if (!isPowerOfTwo(buffer.alignment))
          fail(where, "alignment " + std::to_string(buffer.alignment) +
                          " is not a positive power of two");
      }
      if (buffer.size > capacity)
        fail(where, "buffer " + buffer.id + " of " + std::to_string(buffer.size) +
                        " bytes is larger than the capacity " + std::to_string(capacity));
      if (!seen.emplace(buffer.id, problem.buffers.size()).second)
        fail(where, "buffer id " + buffer.id + " appears twice");
      int64_t offset = kUnplaced;
      if (column.count("offset") && !fields[column["offset"]].empty())
        offset = csvInteger(fields[column["offset"]], where, "offset");
      // Negative offsets are the validator's to name; past the byte limit
      // no sum with the offset is safe.
      if (offset > kMaxBytes)
        fail(where, "offset " + std::to_string(offset) +
                        " is above the limit 2^40 (" +
                        std::to_string(kMaxBytes) + ")");
      offsets.push_back(offset);
      problem.buffers.push_back(std::move(buffer));
    }
    result.ok = true;
  } catch (const InputError &error) {
    result.error = error.message;
  }
  return result;
}

ReadResult dsaplan::solver::readMiniMallocSolution(const std::string &text,
                                                   const Problem &problem,
                                                   Placement &placement) {
  if (problem.pools.size() != 1) {
    ReadResult result;
    result.error = "a CSV solution is for a one-pool (CSV) problem, this one has " +
                   std::to_string(problem.pools.size()) + " pools";
    return result;
  }
  Problem rows;
  Placement offsets;
  ReadResult result =
      readMiniMallocCsv(text, problem.pools.front().capacity, rows, offsets);
  if (!result.ok)
    return result;
  result.ok = false;
  std::map<std::string, size_t> indexOf;
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    indexOf.emplace(problem.buffers[b].id, b);
  placement.assign(problem.buffers.size(), kUnplaced);
  for (size_t row = 0; row < rows.buffers.size(); ++row) {
    const Buffer &got = rows.buffers[row];
    auto it = indexOf.find(got.id);
    if (it == indexOf.end()) {
      result.error = "buffer " + got.id + ": not in the problem";
      return result;
    }
    const Buffer &want = problem.buffers[it->second];
    if (got.size != want.size || got.alignment != want.alignment ||
        got.live.front().lower != want.live.front().lower ||
        got.live.front().upper != want.live.front().upper) {
      result.error = "buffer " + got.id +
                     ": lower, upper, size or alignment differ from the problem's";
      return result;
    }
    if (offsets[row] == kUnplaced) {
      result.error = "buffer " + got.id + ": no offset";
      return result;
    }
    placement[it->second] = offsets[row];
  }
  result.ok = true;
  return result;
}

std::string dsaplan::solver::writeMiniMallocCsv(const Problem &problem,
                                                const Placement &placement) {
  bool aligned = std::any_of(problem.buffers.begin(), problem.buffers.end(),
                             [](const Buffer &b) { return b.alignment != 1; });
  std::ostringstream os;
  os << "id,lower,upper,size" << (aligned ? ",alignment" : "") << ",offset\n";
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer &buffer = problem.buffers[b];
    os << buffer.id << ',' << buffer.live.front().lower << ','
       << buffer.live.back().upper << ',' << buffer.size;
    if (aligned)
      os << ',' << buffer.alignment;
    os << ',' << placement[b] << '\n';
  }
  return os.str();
}
