//===- CsvFuzzer.cpp - libFuzzer target: MiniMalloc CSV problems ----------===//
//
// Part of dsaplan. Standard C++ only.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the MiniMalloc CSV reader, as `dsa-solve` reads
// NAME.1048576.csv, and takes what it accepts through FuzzSolve.h. The same
// bytes also go to the CSV solution reader against that problem. Seeded
// with the corpus's MiniMalloc instances and the test inputs (scripts/fuzz.sh).
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
      solver::loadProblem("fuzz.1048576.csv", text, solver::DriverOptions{});
  if (loaded.errors.empty()) {
    solver::Placement offsets;
    (void)solver::readMiniMallocSolution(text, loaded.problem, offsets);
  }
  fuzz::solveAndRoundTrip(loaded);
  return 0;
}
