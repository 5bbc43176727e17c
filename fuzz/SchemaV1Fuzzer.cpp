//===- SchemaV1Fuzzer.cpp - libFuzzer target: schema-v1 problems ----------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the schema-v1 problem reader, as `dsa-solve` reads
// a .json file, and takes what it accepts through FuzzSolve.h. Seeded with
// the corpus's schema-v1 problems (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "FuzzSolve.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace dsaplan;
  std::string text(reinterpret_cast<const char *>(data), size);
  solver::LoadedProblem loaded =
      solver::loadProblem("fuzz.json", text, solver::DriverOptions{});
  fuzz::solveAndRoundTrip(loaded);
  return 0;
}
