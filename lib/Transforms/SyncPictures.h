//===- SyncPictures.h - Pictures of placed tiles and syncs ----*- C++ -*-===//
//
// Part of dsaplan. Internal to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_LIB_TRANSFORMS_SYNCPICTURES_H
#define DSAPLAN_LIB_TRANSFORMS_SYNCPICTURES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dsaplan {

/// Writes `dir/<function>.<space>.sync.svg` for every space `func` accesses:
/// the tiles as placed (x: program point of the placed IR, from first to
/// last access), an arrow per flag pair from the access before its set to
/// the access after its wait, and a mark per barrier.
LogicalResult writeSyncPictures(func::FuncOp func, StringRef dir);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_LIB_TRANSFORMS_SYNCPICTURES_H
