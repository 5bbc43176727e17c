//===- SpacePool.cpp - A memory space as the solver's pool ----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SpacePool.h"

using namespace mlir;
using namespace mlir::dsaplan;

::dsaplan::solver::Pool
mlir::dsaplan::getSpacePool(MemorySpace space,
                            const TargetDescription &target) {
  const SpaceDescription &desc = target.getSpace(space);
  ::dsaplan::solver::Pool pool;
  pool.id = pool.name = stringifyMemorySpace(space).str();
  pool.capacity = desc.capacity;
  pool.alignment = desc.alignment;
  for (ByteRange range : desc.reserved)
    pool.reserved.push_back({range.begin, range.end});
  return pool;
}
