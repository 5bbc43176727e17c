//===- PipeReach.cpp - Which pipe reaches which memory, on which core -----===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The machine's side of the sync analyses (SyncDependencies.h): whether a
// pipe may read or write the memory an access touches, and on which core
// (cube or vector) an access runs, so that the dependencies between the
// cores are ordered by cross-core flags and the rest by flags of one core.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SyncDependencies.h"

#include "DsaPlan/Dialect/DsaPlan/Target.h"

using namespace mlir;
using namespace mlir::dsaplan;

namespace {
/// The space of an on-chip access, none for global memory.
std::optional<MemorySpace> spaceOf(const MemoryAccess &access) {
  if (access.region.isGlobal())
    return std::nullopt;
  return access.region.space;
}

StringRef memoryName(std::optional<MemorySpace> space) {
  return space ? stringifyMemorySpace(*space) : StringRef("gm");
}
} // namespace

LogicalResult mlir::dsaplan::verifyPipeReach(const PipeAccess &access,
                                             const TargetDescription &target) {
  for (const MemoryAccess &a : access.accesses) {
    std::optional<MemorySpace> space = spaceOf(a);
    // GM reach is not enforced yet (kernels in the tests write GM from V).
    if (!space || target.canAccess(access.pipe, space, a.isWrite))
      continue;
    return access.op->emitError()
           << "'" << access.op->getName() << "' on pipe "
           << stringifyPipe(access.pipe) << " "
           << (a.isWrite ? "writes " : "reads ") << memoryName(space)
           << ", which " << target.getName() << " pipe "
           << stringifyPipe(access.pipe) << " cannot "
           << (a.isWrite ? "write" : "read") << " (it "
           << (a.isWrite ? "writes " : "reads ")
           << target.describeReach(access.pipe, a.isWrite) << ")";
  }
  return success();
}

unsigned mlir::dsaplan::getAccessCores(const PipeAccess &access,
                                       const TargetDescription &target) {
  unsigned cores = target.getPipe(access.pipe).cores;
  if (auto core = access.op->getAttrOfType<CoreAttr>(
          DsaPlanDialect::getCoreAttrName()))
    cores &= maskOfCore(core.getValue());
  for (const MemoryAccess &a : access.accesses)
    if (std::optional<MemorySpace> space = spaceOf(a))
      cores &= target.getCore(*space);
  return cores;
}

FailureOr<std::vector<SyncDependency>> mlir::dsaplan::splitCrossCore(
    ArrayRef<PipeAccess> accesses, std::vector<SyncDependency> &dependencies,
    const TargetDescription &target) {
  SmallVector<unsigned> cores;
  unsigned seen = kNoCore;
  for (const PipeAccess &access : accesses) {
    cores.push_back(getAccessCores(access, target));
    if (cores.back() != kBothCores)
      seen |= cores.back();
  }
  // Accesses of one core (and of either): no dependency crosses, and none
  // is in question. A vector-only kernel has hundreds of thousands.
  if (seen != kBothCores)
    return std::vector<SyncDependency>();
  // One program holds both cores' ops: an op either core could run must
  // say which.
  bool ok = true;
  for (auto [access, core] : llvm::zip(accesses, cores)) {
    if (core != kBothCores)
      continue;
    ok = false;
    access.op->emitError()
        << "'" << access.op->getName() << "' on pipe "
        << stringifyPipe(access.pipe)
        << " may run on the cube or the vector core, and this function "
           "holds ops of both: say which with dsaplan.core = "
           "#dsaplan.core<cube> or #dsaplan.core<vector>";
  }
  if (!ok)
    return failure();
  // The same-core ones are kept in place, in order (a large kernel has
  // hundreds of thousands of them and a few cross-core ones, if any).
  std::vector<SyncDependency> crossCore;
  auto kept = dependencies.begin();
  for (const SyncDependency &dep : dependencies) {
    unsigned from = cores[dep.earlier], to = cores[dep.later];
    // An op whose core is not decided (GM only, on a pipe of both cores, in
    // a function of one core) runs where its partner runs.
    if ((from & to) != 0 || from == kNoCore || to == kNoCore)
      *kept++ = dep;
    else
      crossCore.push_back(dep);
  }
  dependencies.erase(kept, dependencies.end());
  return crossCore;
}
