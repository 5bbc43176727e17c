//===- DsaPlanDialect.h - dsaplan dialect, enums, attributes ----*- C++ -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLAN_DSAPLANDIALECT_H
#define DSAPLAN_DIALECT_DSAPLAN_DSAPLANDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h.inc"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "DsaPlan/Dialect/DsaPlan/DsaPlanAttrs.h.inc"

namespace mlir {
class MemRefType;
namespace dsaplan {

/// The dsaplan memory space of `type`, if its memory space is a
/// `#dsaplan.space<...>`.
std::optional<MemorySpace> getMemorySpace(Type type);

} // namespace dsaplan
} // namespace mlir

#endif // DSAPLAN_DIALECT_DSAPLAN_DSAPLANDIALECT_H
