//===- IO.h - schema-v1 JSON and MiniMalloc CSV -----------------*- C++ -*-===//
//
// Part of dsaplan. The only part of the solver that uses nlohmann_json, and
// only in its implementation: this header is standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Readers return false and fill `error` with where (file line, or JSON path
// such as `problem.buffers[3].size`) and what is wrong. Writers are
// deterministic: the same problem/solution gives the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_SOLVER_IO_H
#define DSAPLAN_SOLVER_IO_H

#include "DsaPlan/Solver/Problem.h"
#include "DsaPlan/Solver/Solve.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dsaplan::solver {

struct ReadResult {
  bool ok = false;
  std::string error; // "problem.buffers[3].size: must be positive"
  /// Fields that were read but are not honoured by the solver (reported,
  /// never silently dropped), e.g. "constraints.temporal_exclusions (2)".
  std::vector<std::string> unsupported;
};

/// schema-v1 problem document (the format of shared/corpus/pypto).
ReadResult readSchemaV1Problem(const std::string &text, Problem &problem);
/// Deterministic schema-v1 problem document for `problem`.
std::string writeSchemaV1Problem(const Problem &problem,
                                 const std::string &instance);

/// FNV-1a-64 fingerprint of the canonical problem document (the one
/// writeSchemaV1Problem produces for the problem), as 16 lower-case hex digits.
std::string problemFingerprint(const Problem &problem);

/// schema-v1 solution in the reference format: {"schema_version":1,
/// "profile", "instance", "problem_fingerprint", "metadata", "placements":
/// [{"buffer":id,"pool":id,"offset":n}, ...]}; each placement names the
/// buffer's `pool` (withPools gives a problem where it is the chosen one).
std::string writeSchemaV1Solution(const Problem &problem,
                                  const Placement &placement);
/// Reads a solution for `problem`; fails on unknown buffers or pools, on a
/// buffer placed twice, and on a fingerprint that does not match. With
/// `poolOf`, the pool each placement names is returned there (indexed like
/// Problem::buffers; validate(problem, placement, *poolOf) checks that the
/// buffer allows it); without, it must be the buffer's pool.
ReadResult readSchemaV1Solution(const std::string &text,
                                const Problem &problem, Placement &placement,
                                std::vector<size_t> *poolOf = nullptr);

/// MiniMalloc CSV: header `id,lower,upper,size[,alignment][,offset]` in any
/// column order. One pool with `capacity`. Offsets present in the file are
/// returned in `offsets` (kUnplaced where absent).
ReadResult readMiniMallocCsv(const std::string &text, int64_t capacity,
                             Problem &problem, Placement &offsets);
/// The input columns plus `offset`.
std::string writeMiniMallocCsv(const Problem &problem,
                               const Placement &placement);
/// Reads a MiniMalloc CSV solution (the problem's rows with an `offset`
/// column, as writeMiniMallocCsv writes it) for the one-pool `problem`;
/// fails on a buffer the problem does not have, on a row whose lifetime,
/// size or alignment differ from the problem's, and on a row without an
/// offset. Buffers without a row stay kUnplaced (the validator names them).
ReadResult readMiniMallocSolution(const std::string &text,
                                  const Problem &problem, Placement &placement);

} // namespace dsaplan::solver

#endif // DSAPLAN_SOLVER_IO_H
