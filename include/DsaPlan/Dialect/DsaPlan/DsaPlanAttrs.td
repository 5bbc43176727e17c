//===- DsaPlanAttrs.td - dsaplan attributes ----------------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLANATTRS_TD
#define DSAPLAN_DIALECT_DSAPLANATTRS_TD

include "DsaPlan/Dialect/DsaPlan/DsaPlanBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def DsaPlan_MemorySpace : I32EnumAttr<"MemorySpace",
    "on-chip memory space of an Ascend AI core", [
      I32EnumAttrCase<"ub", 0>,
      I32EnumAttrCase<"l1", 1>,
      I32EnumAttrCase<"l0a", 2>,
      I32EnumAttrCase<"l0b", 3>,
      I32EnumAttrCase<"l0c", 4>,
      I32EnumAttrCase<"bt", 5>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dsaplan";
}

def DsaPlan_Pipe : I32EnumAttr<"Pipe", "hardware pipe of an Ascend AI core", [
      I32EnumAttrCase<"s", 0>,
      I32EnumAttrCase<"v", 1>,
      I32EnumAttrCase<"m", 2>,
      I32EnumAttrCase<"mte1", 3>,
      I32EnumAttrCase<"mte2", 4>,
      I32EnumAttrCase<"mte3", 5>,
      I32EnumAttrCase<"fix", 6>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dsaplan";
}

def DsaPlan_Core : I32EnumAttr<"Core",
    "a core of an Ascend AI core group (910B: one cube core, two vector cores)", [
      I32EnumAttrCase<"cube", 0>,
      I32EnumAttrCase<"vector", 1>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dsaplan";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class DsaPlan_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DsaPlan_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def DsaPlan_SpaceAttr : EnumAttr<DsaPlan_Dialect, DsaPlan_MemorySpace, "space"> {
  let summary = "memory space of a tile, usable as a memref memory space";
  let assemblyFormat = "`<` $value `>`";
}

def DsaPlan_PipeAttr : EnumAttr<DsaPlan_Dialect, DsaPlan_Pipe, "pipe"> {
  let summary = "the hardware pipe an op runs on";
  let assemblyFormat = "`<` $value `>`";
}

def DsaPlan_CoreAttr : EnumAttr<DsaPlan_Dialect, DsaPlan_Core, "core"> {
  let summary = "the core an op runs on";
  let description = [{
    `dsaplan.core = #dsaplan.core<vector>` on an op says which core runs it
    where its pipe and the spaces it touches leave that open (a copy
    between two GM buffers on MTE2, a pipe of both cores, in a function
    that holds ops of both cores), and on a `set_flag`/`wait_flag` between
    two such pipes.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def DsaPlan_LiveAttr : DsaPlan_Attr<"Live", "live"> {
  let summary = "live range of a buffer: sorted, disjoint half-open intervals";
  let description = [{
    Half-open intervals over the function's program points, sorted and
    disjoint, none empty. `a to b` is the interval [a, b), as in `scf.for`:

    <!-- fragment -->
    ```mlir
    #dsaplan.live<4 to 9, 12 to 15>   // points 4..8 and 12..14
    ```

    (DESIGN.md writes `[4, 9)`; MLIR's lexer needs balanced brackets inside
    an attribute body, so the IR spells it `4 to 9`.)

    Several intervals appear where the buffer is provably dead in between,
    e.g. when it is used only in mutually exclusive `scf.if` branches.
  }];
  /// Interval bounds flattened as [lower0, upper0, lower1, upper1, ...].
  let parameters = (ins ArrayRefParameter<"int64_t", "interval bounds">:$bounds);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    size_t getNumIntervals() const { return getBounds().size() / 2; }
    int64_t getLower(size_t i) const { return getBounds()[2 * i]; }
    int64_t getUpper(size_t i) const { return getBounds()[2 * i + 1]; }
    /// First point of the range and one past its last point.
    int64_t getStart() const { return getBounds().front(); }
    int64_t getEnd() const { return getBounds().back(); }
  }];
}

def DsaPlan_TargetAttr : DsaPlan_Attr<"Target", "target"> {
  let summary = "target description: a built-in table plus per-space overrides";
  let description = [{
    Selects a built-in target table by name and optionally overrides entries
    of it per memory space:

    <!-- fragment -->
    ```mlir
    #dsaplan.target<"ascend910b">
    #dsaplan.target<"ascend910b", {ub = {capacity = 131072, alignment = 64,
                                         reserved = [[0, 1024]]}}>
    ```

    Override keys are space names; each maps to a dictionary with any of
    `capacity` (bytes), `alignment` (bytes, a power of two) and `reserved`
    (a list of `[begin, end)` byte ranges that nothing may be placed in;
    it replaces the built-in reserved ranges of that space).
  }];
  let parameters = (ins StringRefParameter<"target name">:$name,
                        OptionalParameter<"::mlir::DictionaryAttr">:$overrides);
  let assemblyFormat = "`<` $name (`,` $overrides^)? `>`";
  let genVerifyDecl = 1;
}

#endif // DSAPLAN_DIALECT_DSAPLANATTRS_TD
