//===- DsaPlanOps.td - dsaplan operations ------------------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_DIALECT_DSAPLANOPS_TD
#define DSAPLAN_DIALECT_DSAPLANOPS_TD

include "DsaPlan/Dialect/DsaPlan/DsaPlanAttrs.td"
include "DsaPlan/Dialect/DsaPlan/DsaPlanInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def DsaPlan_SpaceMemRef : MemRefOf<[AnyType]>;

//===----------------------------------------------------------------------===//
// Allocation and constraints
//===----------------------------------------------------------------------===//

def DsaPlan_AllocOp : DsaPlan_Op<"alloc", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>,
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a tile in an on-chip memory space, to be placed";
  let description = [{
    A statically shaped tile in a dsaplan memory space. Placement fills in its
    live range (`live`, by `dsaplan-compute-lifetimes`) and its byte offset in
    the space (`offset`, by `dsaplan-assign-offsets`):

    ```mlir
    %a = dsaplan.alloc {name = "x_tile", alignment = 64 : i64,
                        live = #dsaplan.live<4 to 9>, offset = 4096 : i64}
        : memref<32x32xf32, #dsaplan.space<ub>>
    ```

    The alignment defaults to the space's minimum alignment of the target;
    an explicit one must be a power of two and at least that minimum. The
    offset must be a multiple of the effective alignment.
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$name,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$alignment,
                       OptionalAttr<DsaPlan_LiveAttr>:$live,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs DsaPlan_SpaceMemRef:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getType() { return getResult().getType(); }
    /// The memory space of the tile.
    ::mlir::dsaplan::MemorySpace getSpace();
    /// Size of the tile in bytes.
    int64_t getSizeInBytes();
    /// Explicit alignment, or the minimum alignment of the space on the
    /// target of the enclosing module.
    int64_t getEffectiveAlignment();
    /// The name for diagnostics and reports: `name`, else "alloc@<loc>".
    std::string getDisplayName();
  }];
}

class DsaPlan_ConstraintOp<string mnemonic> : DsaPlan_Op<mnemonic> {
  let arguments = (ins Variadic<DsaPlan_SpaceMemRef>:$buffers,
                       OptionalAttr<StrAttr>:$reason);
  let assemblyFormat = "$buffers attr-dict `:` type($buffers)";
  let hasVerifier = 1;
}

def DsaPlan_SeparateOp : DsaPlan_ConstraintOp<"separate"> {
  let summary = "the buffers never share bytes, whatever their lifetimes";
  let description = [{
    Two or more buffers of one space that must be address-disjoint even when
    their live ranges are disjoint, e.g. the ping and pong stages of a
    pipeline, or the input and output of an op that forbids in-place
    aliasing. Not a use of the buffers for liveness.

    <!-- fragment -->
    ```mlir
    dsaplan.separate %ping, %pong {reason = "pipeline_stage"}
        : memref<64x64xf16, #dsaplan.space<l1>>, memref<64x64xf16, #dsaplan.space<l1>>
    ```
  }];
}

def DsaPlan_ColocateOp : DsaPlan_ConstraintOp<"colocate"> {
  let summary = "the buffers share one offset";
  let description = [{
    Two or more buffers of one space that must be placed at the same offset
    (their lifetimes must then not overlap). Not a use of the buffers for
    liveness.
  }];
}

def DsaPlan_ArenaOp : DsaPlan_Op<"arena", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the whole of one memory space, as bytes";
  let description = [{
    One per used space after `dsaplan-materialize`; every placed tile is a
    `memref.view` of it at a constant byte offset.

    ```mlir
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    ```
  }];
  let arguments = (ins DsaPlan_SpaceAttr:$space);
  let results = (outs MemRefRankOf<[I8], [1]>:$result);
  let assemblyFormat = "$space attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

class DsaPlan_FlagOp<string mnemonic> : DsaPlan_Op<mnemonic,
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let arguments = (ins DsaPlan_PipeAttr:$src, DsaPlan_PipeAttr:$dst,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$event);
  // `<src -> dst>, event attr-dict`, written by hand (DsaPlanOps.cpp) so that
  // printing reads the discardable attributes only.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def DsaPlan_SetFlagOp : DsaPlan_FlagOp<"set_flag"> {
  let summary = "signal event `event` from pipe `src` to pipe `dst`";
  let description = [{
    Issued on `src`: once every earlier instruction of `src` has completed,
    the event is set. Pairs with a `wait_flag` of the same triple. Syntax:
    `dsaplan.set_flag <src -> dst>, event attr-dict`.

    ```mlir
    dsaplan.set_flag <v -> mte2>, 0
    ```
  }];
}

def DsaPlan_WaitFlagOp : DsaPlan_FlagOp<"wait_flag"> {
  let summary = "pipe `dst` waits for event `event` from pipe `src`";
  let description = [{
    Issued on `dst`: later instructions of `dst` do not start before the
    matching `set_flag` has fired; the wait consumes the event. Syntax:
    `dsaplan.wait_flag <src -> dst>, event attr-dict`.

    ```mlir
    dsaplan.wait_flag <v -> mte2>, 0
    ```
  }];
}

class DsaPlan_CrossCoreOp<string mnemonic> : DsaPlan_Op<mnemonic,
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let hasVerifier = 1;
}

def DsaPlan_CrossCoreSetOp : DsaPlan_CrossCoreOp<"cross_core_set"> {
  let summary = "signal the other core(s) of the group through flag `id`";
  let description = [{
    Issued on pipe `pipe` of core `core` (Ascend C's
    `CrossCoreSetFlag<mode, pipe>(id)`): once every earlier instruction of
    that pipe has completed, a signal is added to the counter `id` of the
    cores the mode names. In mode 2 a set of the cube core signals both
    vector cores of its group, and the cube core receives a signal once both
    vector cores have set. Each core holds at most the target's counter
    limit (15 on ascend910b) of unconsumed signals per id; one more is an
    overrun. The pipe cannot be S on ascend910b.

    ```mlir
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    ```
  }];
  let arguments = (ins DsaPlan_CoreAttr:$core, DsaPlan_PipeAttr:$pipe,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$mode,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$id);
  let assemblyFormat = [{
    custom<CoreKeyword>($core) custom<Pipe>($pipe) `,` `mode` $mode `,` `id` $id
    attr-dict
  }];
}

def DsaPlan_CrossCoreWaitOp : DsaPlan_CrossCoreOp<"cross_core_wait"> {
  let summary = "core `core` waits for a signal on flag `id`";
  let description = [{
    Issued by the scalar unit of core `core` (Ascend C's
    `CrossCoreWaitFlag(id)`): while the core's counter `id` is zero, no
    later instruction of the core, on any pipe, is issued; then one signal
    is taken. Instructions issued before it run on.

    ```mlir
    dsaplan.cross_core_wait vector, mode 2, id 0
    ```
  }];
  let arguments = (ins DsaPlan_CoreAttr:$core,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$mode,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$id);
  let assemblyFormat = [{
    custom<CoreKeyword>($core) `,` `mode` $mode `,` `id` $id attr-dict
  }];
}

def DsaPlan_PipeBarrierOp : DsaPlan_Op<"pipe_barrier",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "orders the instructions of one pipe";
  let description = [{
    Instructions of `pipe` after the barrier start only once those before it
    have completed.

    ```mlir
    dsaplan.pipe_barrier <v>
    ```
  }];
  let arguments = (ins DsaPlan_PipeAttr:$pipe);
  let assemblyFormat = "custom<Pipe>($pipe) attr-dict";
}

def DsaPlan_BarrierAllOp : DsaPlan_Op<"barrier_all",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "orders the instructions of every pipe (PIPE_ALL)";
  let description = [{
    No instruction of any pipe after the barrier starts before every
    instruction of every pipe before it has completed: the hardware's
    `pipe_barrier(PIPE_ALL)`. It sets and clears no flag.

    `dsaplan-insert-sync` falls back to it for a flag pair that no event id
    can carry safely (every id's previous wait may still be pending where
    the pair's set runs); it costs a drain of all pipes, so it is the last
    resort, counted in the pass's statistics.

    ```mlir
    dsaplan.barrier_all
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // DSAPLAN_DIALECT_DSAPLANOPS_TD
