//===- DsaPlanDialect.cpp - dsaplan dialect and attributes ----------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.h"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsaplan;

#include "DsaPlan/Dialect/DsaPlan/DsaPlanDialect.cpp.inc"
#include "DsaPlan/Dialect/DsaPlan/DsaPlanEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "DsaPlan/Dialect/DsaPlan/DsaPlanAttrs.cpp.inc"

void DsaPlanDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "DsaPlan/Dialect/DsaPlan/DsaPlanAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "DsaPlan/Dialect/DsaPlan/DsaPlanOps.cpp.inc"
      >();
}

std::optional<MemorySpace> mlir::dsaplan::getMemorySpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref)
    return std::nullopt;
  if (auto space = dyn_cast_or_null<MemorySpaceAttr>(memref.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// LiveAttr
//===----------------------------------------------------------------------===//

/// Parses `<a to b, c to d, ...>`. (`[a, b)` would read better, but MLIR's
/// lexer requires balanced brackets inside a dialect attribute's body.)
Attribute LiveAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> bounds;
  auto parseInterval = [&]() -> ParseResult {
    int64_t lower, upper;
    if (parser.parseInteger(lower) || parser.parseKeyword("to") ||
        parser.parseInteger(upper))
      return failure();
    bounds.append({lower, upper});
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseInterval))
    return {};
  return LiveAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), bounds);
}

void LiveAttr::print(AsmPrinter &printer) const {
  printer << '<';
  for (size_t i = 0, e = getNumIntervals(); i < e; ++i) {
    if (i)
      printer << ", ";
    printer << getLower(i) << " to " << getUpper(i);
  }
  printer << '>';
}

LogicalResult LiveAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> bounds) {
  if (bounds.empty())
    return emitError() << "live range must have at least one interval";
  if (bounds.size() % 2)
    return emitError() << "live range bounds must come in pairs";
  for (size_t i = 0; i < bounds.size(); i += 2) {
    int64_t lower = bounds[i], upper = bounds[i + 1];
    if (lower < 0)
      return emitError() << "live interval [" << lower << ", " << upper
                         << ") starts before point 0";
    if (upper <= lower)
      return emitError() << "live interval [" << lower << ", " << upper
                         << ") is empty";
    if (i && lower < bounds[i - 1])
      return emitError() << "live interval [" << lower << ", " << upper
                         << ") overlaps or precedes [" << bounds[i - 2] << ", "
                         << bounds[i - 1]
                         << "): intervals must be sorted and disjoint";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

namespace {
/// Checks one `space = {capacity = .., alignment = .., reserved = [..]}`.
LogicalResult verifySpaceOverride(function_ref<InFlightDiagnostic()> emitError,
                                  NamedAttribute entry) {
  StringRef spaceName = entry.getName().getValue();
  if (!symbolizeMemorySpace(spaceName))
    return emitError() << "target override names unknown memory space '"
                       << spaceName << "'";
  auto dict = dyn_cast<DictionaryAttr>(entry.getValue());
  if (!dict)
    return emitError() << "target override for '" << spaceName
                       << "' must be a dictionary";
  for (NamedAttribute field : dict) {
    StringRef key = field.getName().getValue();
    if (key == "capacity" || key == "alignment") {
      auto value = dyn_cast<IntegerAttr>(field.getValue());
      if (!value || value.getInt() <= 0)
        return emitError() << "target override " << spaceName << "." << key
                           << " must be a positive integer";
      if (key == "alignment" && !llvm::isPowerOf2_64(value.getInt()))
        return emitError() << "target override " << spaceName
                           << ".alignment = " << value.getInt()
                           << " is not a power of two";
      continue;
    }
    if (key == "reserved") {
      auto ranges = dyn_cast<ArrayAttr>(field.getValue());
      if (!ranges)
        return emitError() << "target override " << spaceName
                           << ".reserved must be a list of [begin, end) pairs";
      for (Attribute range : ranges) {
        auto pair = dyn_cast<ArrayAttr>(range);
        auto begin = pair && pair.size() == 2
                         ? dyn_cast<IntegerAttr>(pair[0])
                         : IntegerAttr();
        auto end = pair && pair.size() == 2 ? dyn_cast<IntegerAttr>(pair[1])
                                            : IntegerAttr();
        if (!begin || !end || begin.getInt() < 0 ||
            end.getInt() <= begin.getInt())
          return emitError() << "target override " << spaceName
                             << ".reserved entry " << range
                             << " is not a non-empty [begin, end) pair";
      }
      continue;
    }
    return emitError() << "target override " << spaceName
                       << " has unknown key '" << key
                       << "' (expected capacity, alignment, reserved)";
  }
  return success();
}
} // namespace

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, DictionaryAttr overrides) {
  if (!TargetDescription::isKnownTarget(name))
    return emitError() << "unknown target '" << name << "' (known: "
                       << TargetDescription::knownTargetNames() << ")";
  if (!overrides)
    return success();
  for (NamedAttribute entry : overrides)
    if (failed(verifySpaceOverride(emitError, entry)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult DsaPlanDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getPipeAttrName()) {
    if (!isa<PipeAttr>(attr.getValue()))
      return op->emitError() << "'" << name
                             << "' must be a #dsaplan.pipe<...> attribute";
    return success();
  }
  if (name == getCoreAttrName()) {
    if (!isa<CoreAttr>(attr.getValue()))
      return op->emitError() << "'" << name
                             << "' must be a #dsaplan.core<...> attribute";
    return success();
  }
  if (name == getTargetAttrName()) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError() << "'" << name
                             << "' must be a #dsaplan.target<...> attribute";
    return success();
  }
  if (name == getInPlaceAttrName() || name == getSettledAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == getBuffersAttrName()) {
    auto word = dyn_cast<StringAttr>(attr.getValue());
    auto depth = dyn_cast<IntegerAttr>(attr.getValue());
    if ((word && word.getValue() == "auto") ||
        (depth && depth.getInt() >= 1 && depth.getInt() <= kMaxBuffers))
      return success();
    return op->emitError() << "'" << name << "' must be an integer from 1 to "
                           << kMaxBuffers << " or \"auto\", not "
                           << attr.getValue();
  }
  return op->emitError() << "unknown dsaplan attribute '" << name << "'";
}
