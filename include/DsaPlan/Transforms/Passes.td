//===- Passes.td - dsaplan passes --------------------------*- tablegen -*-===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_TRANSFORMS_PASSES_TD
#define DSAPLAN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DsaPlanImport : Pass<"dsaplan-import", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.alloc/alloca in a dsaplan space into dsaplan.alloc";
  let description = [{
    Every `memref.alloc` or `memref.alloca` whose memory space is a
    `#dsaplan.space<...>` becomes a `dsaplan.alloc`, keeping its alignment
    and its name (a `name` attribute, else the name of its location):

    ```mlir
    %a = memref.alloc() {alignment = 64 : i64, name = "x"}
        : memref<32xf32, #dsaplan.space<ub>>
    // becomes
    %x = dsaplan.alloc {alignment = 64 : i64, name = "x"}
        : memref<32xf32, #dsaplan.space<ub>>
    ```

    Allocations with dynamic sizes cannot be placed statically: they are an
    error naming the op. The matching `memref.dealloc` ops are erased (the
    placed tile is never freed: its bytes return to the pool when its live
    range ends).
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let statistics = [
    Statistic<"numImported", "imported-allocs", "Allocations imported">
  ];
}

def DsaPlanLiftControlFlow
    : Pass<"dsaplan-lift-control-flow", "::mlir::func::FuncOp"> {
  let summary = "Lift multi-block regions to scf and run scf.forall / "
                "scf.parallel iterations in order as scf.for";
  let description = [{
    The lifetime and sync analyses model structured control flow only.
    In every region that holds dsaplan memory, this pass

    - lifts a region with several blocks (a body split by `cf.br`, a
      `cf.cond_br` diamond, what `scf` lowering to `cf` produces) back to
      `scf.if`, `scf.index_switch` and `scf.while`, with MLIR's CFG-to-SCF
      transformation (the one behind `-lift-cf-to-scf`; it may introduce
      `ub.poison` for values undefined on some path);
    - turns `scf.forall` and `scf.parallel` into nested `scf.for` loops.
      dsaplan plans the program of one AI core, and one core runs the
      iterations one after the other, in order; the sync pass then orders
      the accesses of an iteration against those of the next over the back
      edge, as for any `scf.for`:

    <!-- fragment -->
    ```mlir
    scf.forall (%i) in (4) {
      %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      ...
    }
    // becomes
    scf.for %i = %c0 to %c4 step %c1 {
      %a = memref.alloc() : memref<256xf32, #dsaplan.space<ub>>
      ...
    }
    ```

    Regions and loops without dsaplan memory are left alone. A region the
    transformation cannot lift, a `scf.forall` with shared outputs or an
    `scf.parallel` with reductions is an error naming the op. Run on their
    own, compute-lifetimes and insert-sync refuse these shapes and point
    here; `--dsa-plan` runs this pass first.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
  let statistics = [
    Statistic<"numLifted", "lifted-regions",
              "Multi-block regions lifted to scf">,
    Statistic<"numSequentialised", "sequentialised-loops",
              "scf.forall and scf.parallel loops turned into scf.for">
  ];
}

def DsaPlanRotateCarried
    : Pass<"dsaplan-rotate-carried", "::mlir::func::FuncOp"> {
  let summary = "Give a tile carried to later loop iterations one rotating "
                "slot per iteration it is live in";
  let description = [{
    A tile allocated in an `scf.for` or `scf.while` body and carried to the
    next iteration (yielded, then read through the iter_arg: the shape
    one-shot bufferization emits to keep the previous row) is live across
    the back edge. With one offset, the next iteration's allocation would
    sit on the value it still reads. The pass replaces the allocation by
    as many allocations before the loop as iterations the tile is live in,
    rotated through new iter_args (the rotation of `dsaplan-multi-buffer`),
    so iteration i writes slot i mod N:

    <!-- fragment -->
    ```mlir
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (...) {
      %cur = dsaplan.alloc {name = "cur"} : memref<64xf32, #dsaplan.space<ub>>
      ...                 // reads %prev, writes %cur
      scf.yield %cur : ...
    }
    // becomes
    %cur0 = dsaplan.alloc {name = "cur.0"} : memref<64xf32, #dsaplan.space<ub>>
    %cur1 = dsaplan.alloc {name = "cur.1"} : memref<64xf32, #dsaplan.space<ub>>
    %r:3 = scf.for %i = %c0 to %n step %c1
        iter_args(%prev = %init, %s0 = %cur0, %s1 = %cur1) -> (...) {
      ...                 // reads %prev, writes %s0
      scf.yield %s0, %s1, %s0 : ...
    }
    ```

    A tile read two iterations later (carried through two iter_args) gets
    three slots, and so on up to 4; a `dsaplan.buffers = N` on the tile
    asks for more. In `scf.while` the tile may be allocated in either
    region; the slots pass through `scf.condition` unchanged and rotate at
    `scf.yield`. Slots placed in an outer loop's body that the outer loop
    carries in turn rotate there too. `dsaplan-unroll-rotations` later
    unrolls the ring of an `scf.for` so each slot gets its own flags.

    A tile that may stay carried for more than 3 later iterations, or
    without bound (an iter_arg yielded back unchanged on some path, as in
    `scf.yield (scf.if %c -> %cur else -> %prev)`), cannot be kept by a
    fixed number of slots: an error names it.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numRotated", "rotated-tiles",
              "Carried tiles given rotating slots">
  ];
}

def DsaPlanMultiBuffer : Pass<"dsaplan-multi-buffer", "::mlir::func::FuncOp"> {
  let summary = "Give tiles allocated in a loop body several rotating slots";
  let description = [{
    A `dsaplan.alloc` in an `scf.for` body with
    `dsaplan.buffers = N` (1 to 4) becomes N allocations before the loop,
    rotated through new iter_args, so that iteration i uses slot i mod N:

    <!-- fragment -->
    ```mlir
    scf.for %i = %c0 to %c8 step %c1 {
      %t = dsaplan.alloc {name = "t", dsaplan.buffers = 2 : i64} : memref<1024xf32, #dsaplan.space<ub>>
      ...
    }
    // becomes
    %t0 = dsaplan.alloc {name = "t.0"} : memref<1024xf32, #dsaplan.space<ub>>
    %t1 = dsaplan.alloc {name = "t.1"} : memref<1024xf32, #dsaplan.space<ub>>
    %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%s0 = %t0, %s1 = %t1) -> (...) {
      ...                 // %s0 where %t was
      scf.yield %s1, %s0 : ...
    }
    ```

    The slots are live over the whole loop; `dsaplan-unroll-rotations`
    later unrolls the ring so that each slot gets its own flags and MTE2
    fills slot i+1 while V computes on slot i.

    The tile may be allocated in a region of an `scf.if`,
    `scf.index_switch` or `scf.execute_region` nested in the body (a
    branch that runs at most once per iteration, as in FlashAttention's
    causal block skip): its slots are hoisted out of the branch to before
    the loop in the same way, and rotate once per iteration whether or not
    the branch runs. A branch that yields the tile (or a view of it)
    passes it on within the iteration: its result is one more name of the
    slot, and the pipes of the ops that use it count for `"auto"`:

    <!-- fragment -->
    ```mlir
    scf.for %kv = %c0 to %n step %c1 {
      %k = scf.if %visible -> (memref<64x128xf16, #dsaplan.space<ub>>) {
        %t = dsaplan.alloc {name = "k", dsaplan.buffers = 2 : i64} : memref<64x128xf16, #dsaplan.space<ub>>
        ...               // MTE2 loads %t
        scf.yield %t : memref<64x128xf16, #dsaplan.space<ub>>
      } else { ... }
      ...                 // V reads %k
    }
    // becomes
    %k0 = dsaplan.alloc {name = "k.0"} : memref<64x128xf16, #dsaplan.space<ub>>
    %k1 = dsaplan.alloc {name = "k.1"} : memref<64x128xf16, #dsaplan.space<ub>>
    %r:2 = scf.for %kv = %c0 to %n step %c1 iter_args(%s0 = %k0, %s1 = %k1) -> (...) {
      %k = scf.if %visible -> (...) {
        ...               // MTE2 loads %s0
        scf.yield %s0 : memref<64x128xf16, #dsaplan.space<ub>>
      } else { ... }
      ...
      scf.yield %s1, %s0 : ...
    }
    ```

    With `dsaplan.buffers = "auto"` the pass chooses: one slot for a tile
    that a single pipe touches in the loop (a second slot buys no overlap),
    two for the others, as long as every space still fits (tried on a copy
    of the function with the lifetimes and a multi-start placement); when
    it does not, the smallest such tiles go back to one slot first, one at
    a time, until it fits. Three slots are never chosen automatically.

    Under `objective=waits` (the default, as in `dsaplan-assign-offsets`)
    a second slot must also pay for itself in waits. One slot makes the
    next iteration reuse the tile's own bytes: a wait of the cycles
    `dsaplan-assign-offsets` would give that reuse (the tile's penalty
    with itself). Two slots take room that other tiles may then have to
    find on each other's bytes: the placement's reuse cost rises. The
    tiles kept at two go back to one slot, smallest first, wherever that
    lowers the reuse cost of the placement plus the one-slot waits of the
    "auto" tiles (each choice placed under objective=waits by the default
    algorithm, with `costs` as in `dsaplan-assign-offsets`). With
    `objective=peak` only the fit counts.

    With `summary=true` a remark on each "auto" tile gives the choice and
    why.

    A tile cannot rotate when no `scf.for` body holds it (through the
    branches above only: a tile in an `scf.while` body, or in the region
    of another op, stays where it is), or when the loop carries it to the
    next iteration: a value that may hold it reaches the loop's
    `scf.yield` (`dsaplan-rotate-carried`, before this pass in
    `--dsa-plan`, gives such a tile its slots). A depth above one is then
    an error naming the tile, its size and space, and the reason (the op
    in the way, or the iter_arg that carries it); `"auto"` and a depth of
    one keep one slot, and with `summary=true` the remark says why. So
    `"auto"` never refuses a kernel that plans with one slot.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"objective", "objective", "::mlir::dsaplan::PlacementObjective",
           /*default=*/"::mlir::dsaplan::PlacementObjective::Waits",
           "What an \"auto\" tile's second slot must not make worse: "
           "waits (the reuse cost plus the one-slot waits) or peak (the "
           "fit only)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::dsaplan::PlacementObjective::Waits, "waits",
                        "a second slot where it fits and lowers the waits"),
             clEnumValN(::mlir::dsaplan::PlacementObjective::Peak, "peak",
                        "a second slot wherever it fits"))}]>,
    Option<"costs", "costs", "std::string", /*default=*/"\"\"",
           "objective=waits: overrides of the target's cycle estimates, as "
           "in dsaplan-assign-offsets">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Remark on each \"auto\" tile: the slots chosen and why">
  ];
  let statistics = [
    Statistic<"numRotated", "rotated-tiles",
              "Tiles given more than one slot">
  ];
}

def DsaPlanComputeLifetimes
    : Pass<"dsaplan-compute-lifetimes", "::mlir::func::FuncOp"> {
  let summary = "Attach a live range to every dsaplan.alloc";
  let description = [{
    Numbers the ops of each function in pre-order, two points per op (its
    reads at the first, its writes at the second), and attaches to every
    `dsaplan.alloc` the half-open intervals of points where it is live:

    <!-- fragment -->
    ```mlir
    %a = dsaplan.alloc : memref<256xf32, #dsaplan.space<ub>>       // op 0
    %b = dsaplan.alloc : memref<256xf32, #dsaplan.space<ub>>       // op 1
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} ...   // op 2: writes %a at 5
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a) outs(%b)  // op 3: reads %a at 6, writes %b at 7
    // %a: live = #dsaplan.live<5 to 8>   (the read lasts through the op's write)
    // %b: live = #dsaplan.live<7 to 8>   (co-live with %a: never shares its bytes)
    ```

    Rules:
    - Accesses come from `MemoryEffectOpInterface` on the buffer or any of
      its aliases. A read lasts through the op's write point, so an op's
      inputs and outputs never share bytes, unless the op carries the unit
      attribute `dsaplan.in_place` (it reads each element before writing it).
    - Aliases are views and casts (`ViewLikeOpInterface`: subview, view,
      cast, reinterpret_cast, collapse/expand_shape, memory_space_cast) and
      the values that region-branch ops forward (`scf.for` iter_args and
      results, `scf.if` results, `scf.while` before/after arguments), as
      found by MLIR's `BufferViewFlowAnalysis`; and the memref results of
      ops whose `MemoryEffectOpInterface` reports no allocation of them and
      that have one memref operand (`memref.transpose`). A view is never an
      access, even with a `dsaplan.pipe`; `memref.dim` and the metadata ops
      are not accesses either.
    - A buffer accessed inside a loop (`scf.for`, `scf.while`, any
      `LoopLikeOpInterface` or looping `RegionBranchOpInterface`) but
      allocated outside it, or carried by it, is live over the whole loop; a
      buffer allocated and used inside one iteration is live only there.
    - Inside `scf.if`/`scf.index_switch` a branch that does not access a
      buffer is a hole in its range unless the buffer is live both before and
      after the op; so temporaries of different branches share bytes and a
      buffer can have several intervals.
    - A buffer passed to a call, returned, or used by an op with unknown
      memory effects is live over the whole function, with a remark saying
      why.
    - Control flow the analyses cannot follow is an error naming the op: a
      region holding dsaplan memory with several blocks (`cf.br`,
      `cf.cond_br`, `scf.execute_region` with branches; "lift it to scf
      first"), `scf.forall` and `scf.parallel` (their iterations may run in
      any order), and loops other than `scf.for` and `scf.while`.
      `dsaplan-insert-sync` and `dsaplan-verify-sync` refuse the same when
      run alone. Function declarations are skipped.
    - `dsaplan.separate` and `dsaplan.colocate` are not uses.

    Why not MLIR's `Liveness`: it answers per block which SSA values are live
    in and out, without an order inside a block finer than ops, without the
    read/write split, and without knowing that `scf.if` branches exclude
    each other; a placement needs intervals of points. It is used in spirit
    (live from first to last use) and `BufferViewFlowAnalysis` is used as is.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let statistics = [
    Statistic<"numRanges", "live-ranges", "Live ranges attached">,
    Statistic<"numConservative", "conservative-ranges",
              "Live ranges widened to the whole function">
  ];
}

def DsaPlanAssignOffsets
    : Pass<"dsaplan-assign-offsets", "::mlir::ModuleOp"> {
  let summary = "Place every dsaplan.alloc at a byte offset in its space";
  let description = [{
    For each function and each memory space, builds the solver's problem
    (sizes from the memref types, alignment from the op or the target,
    capacity and reserved ranges from the module's `#dsaplan.target`,
    separations and colocations from the constraint ops, an existing
    `offset` as a pin), solves it, checks the placement with the solver's
    independent validator, and attaches `offset`:

    <!-- fragment -->
    ```mlir
    %a = dsaplan.alloc {live = #dsaplan.live<5 to 8>} : memref<256xf32, #dsaplan.space<ub>>
    %b = dsaplan.alloc {live = #dsaplan.live<7 to 8>} : memref<256xf32, #dsaplan.space<ub>>
    // becomes (the two are co-live: 1024 bytes each, side by side)
    %a = dsaplan.alloc {live = ..., offset = 0 : i64} : ...
    %b = dsaplan.alloc {live = ..., offset = 1024 : i64} : ...
    ```

    A space that is not placed within its capacity is an error on the
    function naming the space and the numbers, and saying which of two
    things happened: `infeasible (...)` with the proof (a certificate of
    buffers that may not share bytes and need more than the capacity, a
    note on each; an exhaustive search; or contradicting constraints), or
    `gave up after N nodes` when no placement was found and none was proved
    impossible (a note on each buffer live at the peak point).

    `objective=waits` (the default): once a space fits, tiles that
    different pipes touch keep apart where capacity leaves room. Each pair
    of allocations of a space that are never live together gets a reuse
    penalty from the ops that access them (through views, as the sync pass
    sees them): the cycles a reuse of bytes would make a pipe wait. When
    the later tile is accessed on another pipe than a conflicting access
    of the earlier one (one of the two writes), sharing bytes makes a
    set/wait flag pair, and the penalty is the longest such op of the
    earlier tile in the simulator's cost model (`CostModel` in `Target.h`:
    the pipe's fixed cycles plus the bytes of every memref operand at its
    rate; 1 when an operand has no static size; `costs` overrides the
    estimates as in `dsaplan-simulate`). Otherwise a pipe other
    than the scalar one orders them by a barrier: 1. The earlier tile is
    the one whose live range comes first; when one loop body allocates
    both, either may follow the other and both orders are summed. The
    solver fits first, then minimises the summed penalty of the pairs that
    share bytes (see docs/solver.md, "The penalties of objective=waits").
    Spaces of more than 256 allocations are placed for the peak.
    `objective=peak` minimises each space's peak instead, for users who
    need headroom. With `summary`, the remark of each space gives the
    reuse cost, its bound and the penalised pairs that share bytes (the
    waits the placement implies) beside the peak; the JSON report has them
    as `reuse_cost`, `reuse_cost_bound` and `shared_penalised_pairs`.

    `mode=consult` leaves the IR as it is and emits one remark per function
    and space comparing the peak with `bump` (no reuse) and with the lower
    bound. `export-problem=DIR` writes each function's problem as
    `DIR/<function>.json` (schema-v1, deterministic, fingerprinted), and
    `export-solution=DIR` the placement it attaches, as a schema-v1
    solution of that problem (so any tool can re-validate it).
    `import-solution=FILE` applies an external schema-v1 solution to the
    function whose problem has the solution's fingerprint, after validating
    it; a function without a matching solution is an error. With a
    directory, `DIR/<function>.json` is read for each function.
    `report-dir=DIR` writes a memory map per function and space
    (`DIR/<function>.<space>.svg`: program points across, addresses up, a
    rectangle per live interval, capacity, reserved ranges, peak and lower
    bound marked, partial reuses of expired buffers outlined in red) and a
    JSON report per function (`DIR/<function>.json`), both in the program
    points of this pass's input (ProgramPoints, as the `live` attributes).
    `dsaplan-insert-sync` with the same `report-dir` draws each memory map
    again from its own input, with the syncs.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let options = [
    Option<"algorithm", "algorithm", "::dsaplan::solver::Algorithm",
           /*default=*/"::dsaplan::solver::Algorithm::Auto",
           "Solver algorithm", [{::mlir::dsaplan::algorithmValues()}]>,
    Option<"nodeBudget", "node-budget", "uint64_t", /*default=*/"2000000",
           "Search nodes per space for every algorithm that searches "
           "(exact, auto, multi-start)">,
    Option<"objective", "objective", "::mlir::dsaplan::PlacementObjective",
           /*default=*/"::mlir::dsaplan::PlacementObjective::Waits",
           "What to optimise once every space fits",
           [{::llvm::cl::values(
             clEnumValN(::mlir::dsaplan::PlacementObjective::Waits, "waits",
                        "fewest cross-pipe waits: tiles of different pipes "
                        "keep apart where capacity leaves room"),
             clEnumValN(::mlir::dsaplan::PlacementObjective::Peak, "peak",
                        "smallest peak of each space"))}]>,
    Option<"costs", "costs", "std::string", /*default=*/"\"\"",
           "objective=waits: overrides of the target's cycle estimates the "
           "penalties come from, as in dsaplan-simulate's costs">,
    Option<"mode", "mode", "::mlir::dsaplan::AssignMode",
           /*default=*/"::mlir::dsaplan::AssignMode::Plan",
           "What to do with the placement",
           [{::mlir::dsaplan::assignModeValues()}]>,
    Option<"exportProblem", "export-problem", "std::string", /*default=*/"\"\"",
           "Directory to write each function's schema-v1 problem to">,
    Option<"exportSolution", "export-solution", "std::string",
           /*default=*/"\"\"",
           "Directory to write each function's schema-v1 solution to">,
    Option<"importSolution", "import-solution", "std::string",
           /*default=*/"\"\"",
           "schema-v1 solution file to apply instead of solving">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Emit a remark per function and space: buffers, peak, lower "
           "bound, capacity, status">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"\"\"",
           "Directory to write <function>.<space>.svg memory maps and "
           "<function>.json reports to">
  ];
  let statistics = [
    Statistic<"numBuffers", "buffers", "Buffers placed (all spaces)">,
    Statistic<"ubBuffers", "ub-buffers", "Buffers placed in UB">,
    Statistic<"ubPeak", "ub-peak", "Largest UB peak of a function (bytes)">,
    Statistic<"ubLowerBound", "ub-lower-bound", "Largest UB lower bound of a function (bytes)">,
    Statistic<"l1Buffers", "l1-buffers", "Buffers placed in L1">,
    Statistic<"l1Peak", "l1-peak", "Largest L1 peak of a function (bytes)">,
    Statistic<"l1LowerBound", "l1-lower-bound", "Largest L1 lower bound of a function (bytes)">,
    Statistic<"l0aBuffers", "l0a-buffers", "Buffers placed in L0A">,
    Statistic<"l0aPeak", "l0a-peak", "Largest L0A peak of a function (bytes)">,
    Statistic<"l0aLowerBound", "l0a-lower-bound", "Largest L0A lower bound of a function (bytes)">,
    Statistic<"l0bBuffers", "l0b-buffers", "Buffers placed in L0B">,
    Statistic<"l0bPeak", "l0b-peak", "Largest L0B peak of a function (bytes)">,
    Statistic<"l0bLowerBound", "l0b-lower-bound", "Largest L0B lower bound of a function (bytes)">,
    Statistic<"l0cBuffers", "l0c-buffers", "Buffers placed in L0C">,
    Statistic<"l0cPeak", "l0c-peak", "Largest L0C peak of a function (bytes)">,
    Statistic<"l0cLowerBound", "l0c-lower-bound", "Largest L0C lower bound of a function (bytes)">,
    Statistic<"btBuffers", "bt-buffers", "Buffers placed in BT">,
    Statistic<"btPeak", "bt-peak", "Largest BT peak of a function (bytes)">,
    Statistic<"btLowerBound", "bt-lower-bound", "Largest BT lower bound of a function (bytes)">
  ];
}

def DsaPlanMaterialize : Pass<"dsaplan-materialize", "::mlir::func::FuncOp"> {
  let summary = "Rewrite placed allocs into fixed-offset views of one arena per space";
  let description = [{
    Creates one `dsaplan.arena` per used space at the top of the function
    and replaces each placed `dsaplan.alloc` by a `memref.view` of it at the
    alloc's constant offset; constraint ops are erased:

    <!-- fragment -->
    ```mlir
    %a = dsaplan.alloc {offset = 4096 : i64} : memref<32x32xf32, #dsaplan.space<ub>>
    // becomes
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %c4096 = arith.constant 4096 : index
    %a = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>>
        to memref<32x32xf32, #dsaplan.space<ub>>
    ```

    With `keep-allocs` the placed `dsaplan.alloc {offset}` ops stay, for
    toolchains that read offsets; only the constraint ops are erased.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"keepAllocs", "keep-allocs", "bool", /*default=*/"false",
           "Keep the placed dsaplan.alloc ops instead of arena views">
  ];
  let statistics = [
    Statistic<"numViews", "views", "Allocations rewritten into arena views">,
    Statistic<"numArenas", "arenas", "Arenas created">
  ];
}

def DsaPlanUnrollRotations
    : Pass<"dsaplan-unroll-rotations", "::mlir::func::FuncOp"> {
  let summary = "Unroll loops whose tiles rotate through iter_args by the "
                "rotation period, so each slot is one fixed tile";
  let description = [{
    A double buffer written as a loop that yields its memref iter_args as a
    permutation of themselves holds, in every iteration, a different tile in
    each argument; but an access through the argument may be either tile, so
    the sync pass must order it against both. Unrolling the loop by the
    period of the permutation (the least common multiple of its cycles) makes
    the unrolled body yield every argument unchanged; the arguments are then
    replaced by the tiles they start with, and each access names its tile:

    <!-- fragment -->
    ```mlir
    %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %nxt = %b) {
      memref.copy %gm, %cur {dsaplan.pipe = #dsaplan.pipe<mte2>}
      ...
      scf.yield %nxt, %cur      // a ping-pong: period 2
    }
    // becomes a loop of 4 iterations whose body loads into %a, then into
    // %b; the load into %b waits only for the last reader of %b.
    ```

    The sync pass then gives every slot its own flags (one (src, dst) pair
    per tile and loop), so iteration i+1's load into a slot waits only for
    the last reader of that slot. Event ids are immediates on the hardware;
    unrolling is how a per-slot id is obtained without a dynamic-id op.

    An iter_arg on no ring that takes a ring argument's tile (the
    previous tile of `dsaplan-rotate-carried`, `scf.yield %s0, %s1, %s0`
    for `iter_args(%prev, %s0, %s1)`) follows the ring: after unrolling,
    it is one tile per copy of the body except in the first copy, where it
    is the initial tile or the last slot.

    A trip count that the period does not divide leaves an epilogue loop
    with the remaining iterations (still correct; its accesses fall back to
    the whole space, as before).

    An `scf.while` whose "do" region yields its tile arguments rotated is
    unrolled the same way when its "before" region forwards its arguments
    unchanged and computes the condition without memory effects: the do
    region runs its body, then each further copy in an `scf.if` on the
    condition re-checked (a copy whose check fails is skipped, and the loop
    leaves at its next check, which decides the same), so every entry to
    the do region holds the tiles in their first order and each access
    names one tile. Periods above 8 are left alone (the body would grow more than the
    overlap is worth).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numUnrolled", "unrolled-loops",
              "Loops unrolled by their rotation period">
  ];
}

def DsaPlanSettleCalls : Pass<"dsaplan-settle-calls", "::mlir::ModuleOp"> {
  let summary = "Drain every pipe around calls to functions planned on their own";
  let description = [{
    A core has one set of pipes and one set of event flags for the whole
    module, while `dsaplan-insert-sync` plans each function on its own. So a
    call to a function of the module that touches memory is settled: a
    `dsaplan.barrier_all` before it (every earlier access of the caller has
    finished, so the callee starts on idle pipes) and one after it (every
    access of the callee has finished before the caller goes on), and the
    call is marked `dsaplan.settled`. `dsaplan-insert-sync` then takes the
    call for no access of its own and orders nothing across it, so no flag of
    the caller is in flight while the callee runs, and each function's event
    ids are its own.

    <!-- fragment -->
    ```mlir
    dsaplan.barrier_all
    func.call @helper(%a, %b) {dsaplan.settled} : (...) -> ()
    dsaplan.barrier_all
    ```

    `dsaplan-verify-sync` does not trust the mark: it takes a settled call
    for an access of every pipe to every byte, and checks that no flag is in
    flight at it. Calls to declarations (no body) are left alone: their
    `dsaplan.pipe` says on which pipe the callee's accesses run. Recursion
    is refused, as by `dsaplan-assign-offsets`.

    This is the correct, not the fastest, composition: a call inside a loop
    drains the pipes every iteration. Planning a callee inside its callers
    would keep them overlapped.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let statistics = [
    Statistic<"numSettledCalls", "settled-calls", "Calls drained on both sides">
  ];
}

def DsaPlanInsertSync : Pass<"dsaplan-insert-sync", "::mlir::func::FuncOp"> {
  let summary = "Order conflicting accesses of different pipes by byte ranges";
  let description = [{
    For every pair of accesses to overlapping bytes of one space, at least one
    a write, on different pipes, inserts `dsaplan.set_flag <src -> dst>`
    after the earlier access and `dsaplan.wait_flag <src -> dst>` before the
    later one; on one pipe that needs it, a `dsaplan.pipe_barrier`.
    Dependencies are decided by byte ranges, not by buffer identity, so a
    tile placed over part of an expired tile waits for that tile's last
    reader:

    <!-- fragment -->
    ```mlir
    // bytes [0, 4096) read by V, then bytes [0, 32) written by MTE2
    linalg.generic ... ins(%table) ... {dsaplan.pipe = #dsaplan.pipe<v>}
    dsaplan.set_flag <v -> mte2>, 0
    dsaplan.wait_flag <v -> mte2>, 0
    memref.copy %gm, %row0 {dsaplan.pipe = #dsaplan.pipe<mte2>}
    ```

    Dependencies come from a walk in program order over a shadow of each
    space: every byte range keeps its last writers and the readers since, so
    an access depends on the last writers of its bytes and, when it writes,
    on the readers since. Older accesses are ordered through those, so the
    cost is linear in the accesses rather than in the pairs of them. Loop
    bodies are walked twice; what the second walk meets of the first is a
    dependency around the back edge. An `scf.while` leaves from the end of
    its "before" region: that is the history after it.

    Placement of the pair: both in the innermost block that holds the two
    accesses, the set after the op that holds the earlier one, the wait
    before the op that holds the later one, so both run once per execution
    of that block and balance on every path (an `scf.if` holding an access
    is treated as one op). Around the back edge of an `scf.for` (iteration
    i's late access against iteration i+1's early one), one pair per loop
    and pipe pair: the set after the last earlier access, the wait before the
    first later one, a set before the loop for the first iteration and a wait
    after it for the last. Around an `scf.while`, from its "before" region
    to its "do" region, and anywhere the structured placement does not
    apply, the fallback is a set immediately followed by its wait after the
    earlier access: always correct, at the cost of overlap.

    Each block is walked forward with what every pipe knows to have
    finished (a set hands over its pipe's stream and what it knows, a wait
    receives it, a barrier gives a pipe its own stream; syncs of the input
    count, and so do the pairs of nested loops and what nested blocks order
    on all their paths). A dependency already known gets nothing; the
    others get a pair (or a barrier), the latest producer first, so that one
    set can carry the others. At one gap, the sets of later waits come
    first, then the waits and barriers in the order they were decided.

    Same-pipe dependencies need a barrier on the pipes whose instructions
    are issued without waiting for earlier ones to finish: V, M, MTE1, MTE2,
    MTE3 and FIX. The scalar pipe S executes in order and needs none.

    Event ids: 0-7 per (src, dst) pair. A pair holds its id from its set to
    its wait (a loop's pair over the whole loop); pairs whose spans overlap
    get different ids, and ids used by the input's own flags are never
    reused. When all eight are in flight, the set moves down to just before
    its wait (in flight for no time, like the fallback pairs, so such pairs
    may share an id; the summary counts these). Pairs of one
    block and pipe pair never nest, so that fails only inside eight pairs of
    enclosing blocks or loops, or when the input took the ids.

    A flag is one bit, so a set must run after the wait that consumed the
    previous set of its flag. After the ops exist, every path is walked
    again; a set that may overrun its flag is moved to another id, or
    given a handshake (a flag back from the waiting pipe, waited for at
    once). Where neither settles, and where no id is free at all, the last
    resort is `dsaplan.barrier_all` (the hardware's PIPE_ALL barrier) in
    place of each wait of the pair: every pipe drains there, which orders
    all the pair ordered and needs no id. It costs overlap, so it is rare
    and counted (`barrier-all` statistic, the summary remark); the pass
    never refuses a kernel for want of an event id.

    An access through a view or a cast of a tile (a `memref.memory_space_cast`
    out of the dsaplan space included) is an access of the tile's bytes. A
    call passing a tile is an access of unknown effect: with a
    `dsaplan.pipe` it reads and writes every tile it is given on that pipe
    (a remark says so); without one it is an error, since neither the
    callee's pipes nor its own syncs are known. Unstructured control flow,
    `scf.forall`, `scf.parallel` and other unmodelled loops are refused as
    in `dsaplan-compute-lifetimes`.

    Global memory is ordered the same way: an access to a memref outside
    the dsaplan spaces is one of its root buffer (the function argument or
    GM allocation reached through views), with byte ranges where the views
    are static and the whole buffer where they are not. Two different
    function arguments may be one buffer, so accesses through them are
    ordered whatever their ranges, unless one argument is marked
    `llvm.noalias`; a buffer allocated in the function shares bytes with
    nothing else:

    <!-- fragment -->
    ```mlir
    memref.copy %ub_row, %gm_row {dsaplan.pipe = #dsaplan.pipe<mte3>}
    dsaplan.set_flag <mte3 -> mte2>, 0     // RAW on GM
    dsaplan.wait_flag <mte3 -> mte2>, 0
    memref.copy %gm_row, %ub_b {dsaplan.pipe = #dsaplan.pipe<mte2>}
    ```

    The target's machine description is checked on the way: an op whose pipe
    cannot reach an on-chip space it touches (FIX writing UB on ascend910b)
    is an error naming the op, the pipe and the space.

    A function holding ops of the cube core and of the vector core runs on
    both, each core its own ops. A dependency between an access of one core
    and one of the other (the cube's FIX store of a GM workspace slot, the
    vector core's MTE2 load of it) gets a cross-core flag pair, placed as
    the intra-core pairs are (innermost common block, or around an scf.for
    back edge with a set before the loop and a wait after it), an id per
    pair counted apart per receiving core:

    <!-- fragment -->
    ```mlir
    memref.copy %acc, %ws {dsaplan.pipe = #dsaplan.pipe<fix>}
    dsaplan.cross_core_set cube <fix>, mode 2, id 0
    dsaplan.cross_core_wait vector, mode 2, id 0
    memref.copy %ws, %x {dsaplan.pipe = #dsaplan.pipe<mte2>}
    ```

    An access either core could run (GM only, on MTE2 or S) needs
    `dsaplan.core` in such a function; docs/sync.md, "Cross-core
    synchronisation", has the model.

    `mode=reuse-only` inserts only dependencies between different tiles that
    share bytes, for toolchains that already order accesses to one tile
    (and to global memory).

    `report-dir=DIR` writes `DIR/<function>.syncs.json` (every sync in
    program order with the location of its access) and a memory map per
    space, `DIR/<function>.<space>.svg` (over the placement's map of that
    name, when `dsaplan-assign-offsets` wrote one there), drawn from this
    pass's input alone: a rectangle per live interval of each tile (a
    placed `dsaplan.alloc`, or a `memref.view` of an arena, with the
    offset and size it has and the live range of the placement's lifetime
    rules), partial reuses of expired tiles outlined in red, the peak and
    its lower bound; an arrow per flag pair from the access its `set_flag`
    follows to the access its `wait_flag` guards (coloured by the setting
    pipe, dashed when the wait is in the next iteration of a loop) and a
    vertical mark per `pipe_barrier` at the access it holds back. The x
    axis counts the program points of this pass's input, before its syncs
    go in (ProgramPoints, the placement's numbering, applied to this IR):
    the arenas, offsets and views of `dsaplan-materialize` and the loop
    bodies `dsaplan-unroll-rotations` cloned have points of their own, so
    the points differ from those of the placement's `<function>.json`.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let options = [
    Option<"mode", "mode", "::mlir::dsaplan::DependencyScope",
           /*default=*/"::mlir::dsaplan::DependencyScope::All",
           "Which dependencies to order",
           [{::mlir::dsaplan::dependencyScopeValues()}]>,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Emit a remark per function with the pairs and barriers inserted "
           "and the conflicting pairs they order (counting those costs time "
           "and memory in the number of such pairs)">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"\"\"",
           "Directory to write <function>.syncs.json to (every sync in "
           "program order with the location of its access) and the memory "
           "maps <function>.<space>.svg with the syncs drawn in">,
    Option<"pruneBudget", "prune-budget", "int64_t", /*default=*/"500000",
           "Drop the inserted syncs that the others imply, one at a time, "
           "then move loop pairs out of outer loops and pre-sets up their "
           "blocks, while the checks have walked fewer ops than this (a "
           "count, not a time: the result is the same on every machine); "
           "0 never">,
    Option<"testTagSyncs", "test-tag-syncs", "bool", /*default=*/"false",
           "Testing hook: mark the ops of the N-th sync (pair or barrier, in "
           "creation order, after pruning) with `test.sync = N`, so that a "
           "driver can leave each one out in turn, to check that each one is "
           "needed, without planning the kernel again">
  ];
  let statistics = [
    Statistic<"numFlagPairs", "flag-pairs", "set_flag/wait_flag pairs inserted">,
    Statistic<"numLoopPairs", "loop-pairs", "Pairs around a loop back edge">,
    Statistic<"numEagerPairs", "eager-pairs", "Pairs placed by the fallback">,
    Statistic<"numPruned", "pruned",
              "Inserted syncs dropped because the others imply them">,
    Statistic<"numPruneSteps", "prune-steps",
              "Ops walked by the pruning checks">,
    Statistic<"numLateSets", "late-sets",
              "Pairs whose set moved to their wait for want of an event id">,
    Statistic<"numMovedIds", "moved-event-ids",
              "Pairs moved to another event id so that their set cannot "
              "overrun an earlier set of the flag">,
    Statistic<"numHandshakes", "handshakes",
              "Pairs given a flag back after their wait, so that their next "
              "set cannot overrun it">,
    Statistic<"numRepairRounds", "repair-rounds",
              "Rounds of the event-id repair (each walks the function where "
              "the last one went stale)">,
    Statistic<"numRepairSteps", "repair-steps",
              "Ops walked by the event-id repair's rounds">,
    Statistic<"numEarlyPresets", "early-presets",
              "Loop pre-sets moved ahead of their pipe's work before the loop">,
    Statistic<"numBarriers", "barriers", "pipe_barrier ops inserted">,
    Statistic<"numBarriersAll", "barrier-all",
              "Syncs that became barrier_all for want of a safe event id">,
    Statistic<"numParkedFlags", "parked-flags",
              "Flags in flight at a settled call, consumed before it and "
              "raised again after it">,
    Statistic<"numConflicts", "conflicting-pairs",
              "Ordered pairs of conflicting ops (one flag pair each, naively)">
  ];
}

def DsaPlanVerifySync : Pass<"dsaplan-verify-sync", "::mlir::func::FuncOp"> {
  let summary = "Prove that no two conflicting accesses are left unordered";
  let description = [{
    An independent checker: it shares no code with `dsaplan-insert-sync`.
    It walks the function as the hardware would run it: each pipe in
    program order, `scf.if` along both branches, loops unrolled three times
    (and left after zero, one, two or three iterations), and keeps, per pipe,
    which accesses are known to have finished (`set_flag` takes what its
    pipe has finished and what it knows, the matching `wait_flag` hands it to
    the waiting pipe; `pipe_barrier` orders a pipe's own instructions,
    `barrier_all` every pipe's instructions before it before every pipe's
    after it). Every
    access is checked against the earlier accesses to overlapping bytes
    (its own byte-range computation); a conflicting pair that is not ordered
    is an error naming both ops, their pipes, the space and the overlapping
    bytes. It also reports a wait without a set (a deadlock), a flag set
    twice before its wait, flags that the branches of an `scf.if` or the
    iterations of a loop leave unbalanced, and flags still set at the end.
    It refuses, with an error naming the op, what it cannot walk: regions
    with several blocks, `scf.forall`, `scf.parallel` and loops other than
    `scf.for`/`scf.while` around accesses, and calls passing a tile without
    a pipe.

    Global memory is checked too, by its own reckoning: the buffer at the
    root of a chain of views, the bytes a static subview's type or a
    constant `memref.view` gives, the whole buffer otherwise; two function
    arguments not marked `llvm.noalias`, or a buffer of unknown origin, may
    be one buffer whatever the bytes. Against the target's machine
    description, an op whose pipe cannot reach an on-chip space it touches
    is an error, and so are two conflicting accesses from different cores
    (cube and vector), whatever flags lie between them.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let statistics = [
    Statistic<"numChecked", "checked-accesses", "Accesses checked">
  ];
}

def DsaPlanSimulate : Pass<"dsaplan-simulate", "::mlir::ModuleOp"> {
  let summary = "Run a synchronised kernel pipe by pipe and report races, "
                "lost signals and hangs";
  let description = [{
    The execution-based check of the sync model, independent of the static
    passes (it shares no code with `dsaplan-insert-sync`,
    `dsaplan-verify-sync` or their analyses). Each run has three stages:

    1. The scalar unit interprets the function in program order: `arith` on
       integers, `scf.for` (every iteration), `scf.if`,
       `scf.index_switch`, `scf.while`, and the views (`memref.view`,
       `memref.subview` with static or dynamic operands, `memref.cast`,
       `memref.reinterpret_cast`, contiguous reshapes) back to their
       `dsaplan.arena` or GM argument. Every op with a pipe becomes a trace
       entry with the concrete byte runs it reads and writes (its
       `MemoryEffectOpInterface` per operand; an op without it reads and
       writes every memref operand); so do `set_flag` (on its source pipe),
       `wait_flag` (on its destination pipe) and `pipe_barrier`. A condition
       the scalar unit cannot evaluate (an `i1` argument, a loaded value) is
       a seeded choice at every evaluation, an `scf.while` whose condition is
       a choice leaves after `max-while-iterations`, and integer arguments
       not given by `args` are chosen in [0, 4).
    2. The pipes run their entries in order with seeded durations: the
       target's cost estimates (`CostModel` in `Target.h`: per pipe a fixed
       cost plus the bytes the op reads and writes over a rate, times a
       factor uniform in [50, 150] percent; `costs` overrides them, e.g.
       `costs="mte2.bytes-per-cycle=64,jitter=0"`). V, M, MTE1, MTE2, MTE3 and
       FIX issue an op a cycle after the previous one without waiting for it
       to finish (with `pipe-overlap=0` in `costs`: once it has finished);
       S runs its ops one after the other. `pipe_barrier` holds
       its pipe until the pipe's earlier ops have finished; `barrier_all`
       holds every pipe until all pipes have reached it and finished their
       earlier ops. A flag is one
       bit per (src, dst, id): `set_flag` sets it once its pipe's earlier ops
       have finished, and if it is still set then the signal is lost (an
       overrun, an error naming both sets); `wait_flag` holds its pipe until
       the bit is set and clears it (a blocked wait goes on `sync-latency`
       cycles, by default one, after the flag fires, so two sets firing in
       one cycle lose one). Pipes left blocked are a hang (an error
       on each blocked wait); a flag still set at the end is an error.
    3. Races: happens-before over the execution, with vector clocks. An op
       is ordered after earlier ops of its own pipe only through a
       `pipe_barrier` (S excepted), after every earlier op through a
       `barrier_all`, after the ops of the pipe that set a
       flag it waited for (the set covers everything its pipe issued before
       it) and transitively. Two accesses to overlapping bytes of one space
       (or of one GM argument), at least one a write, that neither orders
       are a race: an error on the later op naming both pipes, the space, the
       overlapping bytes and the loop iterations, with a note on the earlier.

    <!-- fragment -->
    ```mlir
    memref.copy %gm, %a {dsaplan.pipe = #dsaplan.pipe<mte2>} ...  // writes A
    // dsaplan.set_flag <mte2 -> v>, 0 and its wait left out:
    linalg.exp {dsaplan.pipe = #dsaplan.pipe<v>} ins(%a ...) ...
    // error: simulated race, read after write on bytes [0, 1024) of ub:
    //   'linalg.exp' on pipe v is not ordered after 'memref.copy' on pipe mte2
    ```

    `runs=N` simulates seeds `seed` to `seed + N - 1`; each distinct finding
    is reported once, and `summary` reports the worst run (the most errors,
    then the longest makespan): makespan, busy cycles per pipe, ops run and
    flags set; the serial time (the sum of the ops' durations); the dataflow
    ideal (the same ops and durations rescheduled so that each waits only
    for the earlier ops whose bytes it conflicts with, on in-order pipes,
    without flags or barriers: `lib/Sync/Simulate/IdealSchedule.cpp`, independent of
    the sync passes) and the ratios between the three; and per loop, the
    cycles of work its ops did against the cycles it spanned (its overlap).
    `report-dir` writes the same as `<function>.timing.json`, and the worst
    run as a Chrome trace-event file `<function>.trace.json`; `trace-file`
    writes that trace to a given path (`{func}` in it is replaced by the
    function's name; without it the module may hold only one function).
    docs/sync.md says how to read them. The same input and options give the
    same output. A run that
    reaches `max-trace-length` entries stops with a warning; what it ran is
    still checked, but hangs and flags left set are not reported. An op the
    scalar unit cannot run (an unknown op with regions, a view it cannot
    follow, a tile without an address) is an error naming it.
  }];
  let dependentDialects = ["::mlir::dsaplan::DsaPlanDialect"];
  let options = [
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the first run: choices of the scalar unit and durations">,
    Option<"runs", "runs", "unsigned", /*default=*/"1",
           "Runs, with seeds seed, seed + 1, ...; the worst is reported">,
    Option<"maxTraceLength", "max-trace-length", "int64_t",
           /*default=*/"200000",
           "Trace entries a run may generate before it gives up">,
    Option<"maxWhileIterations", "max-while-iterations", "int64_t",
           /*default=*/"4",
           "Iterations after which an scf.while with an unknown condition "
           "leaves">,
    ListOption<"argValues", "args", "int64_t",
               "Values of the function's integer and index arguments, in "
               "order (the others are chosen in [0, 4))">,
    Option<"checkGm", "check-gm", "bool", /*default=*/"true",
           "Report races on GM arguments too (insert-sync orders only the "
           "on-chip spaces)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Emit a remark per function: makespan, busy cycles per pipe, ops "
           "run and flags set, serial time, dataflow ideal and loop overlap, "
           "of the worst run">,
    Option<"costs", "costs", "std::string", /*default=*/"\"\"",
           "Overrides of the target's cycle estimates: <pipe>.fixed=N, "
           "<pipe>.bytes-per-cycle=N, sync-latency=N, jitter=PERCENT, "
           "pipe-overlap=0|1, comma-separated">,
    Option<"reportDir", "report-dir", "std::string", /*default=*/"\"\"",
           "Directory for <function>.timing.json and <function>.trace.json "
           "(Chrome trace events) of the worst run">,
    Option<"traceFile", "trace-file", "std::string", /*default=*/"\"\"",
           "Write the worst run as Chrome trace-event JSON to this path "
           "({func} is replaced by the function name)">
  ];
  let statistics = [
    Statistic<"numOps", "simulated-ops", "Pipe ops run by the worst run of each function">,
    Statistic<"numRaces", "races", "Distinct races found">,
    Statistic<"numOverruns", "overruns", "Distinct lost signals found">,
    Statistic<"numHangs", "hangs", "Waits found blocked for ever">,
    Statistic<"numUnwaited", "unwaited-flags", "Flags found set at the end">,
    Statistic<"numGaveUp", "gave-up", "Functions whose trace was cut short">,
    Statistic<"maxMakespan", "makespan",
              "Largest makespan of a function's worst run (cycles)">
  ];
}

def DsaPlanStripForCpu : Pass<"dsaplan-strip-for-cpu", "::mlir::ModuleOp"> {
  let summary = "Make a dsaplan kernel runnable by MLIR's standard CPU lowering";
  let description = [{
    Removes everything of the dsaplan dialect from a module, so that stock
    `mlir-opt` can parse it and lower it to the LLVM dialect. It is the first
    half of the differential-execution check (`tools/dsa-diff`): the kernel
    before and after `--dsa-plan`, stripped, must compute the same outputs on
    the CPU.

    - `dsaplan.set_flag`, `dsaplan.wait_flag`, `dsaplan.pipe_barrier`,
      `dsaplan.barrier_all`, `dsaplan.separate` and `dsaplan.colocate` are erased (on a CPU running
      the kernel in program order every access is already ordered).
    - Every function's `dsaplan.arena` of a space becomes a
      `memref.get_global` of one module-level buffer of that space: a
      private, mutable `memref.global` of the arena's `i8` type (named
      `@__dsaplan_<space>`, zero-initialised once, 64-byte aligned; the
      largest arena's size if a function has a target of its own, the
      smaller arenas a `memref.reinterpret_cast` of its first bytes). The
      placed tiles stay views of it at their offsets, and every function
      sees the same bytes, as every function on a core shares its one UB,
      L1, ...: a wrong placement clobbers on the CPU as it would on the
      chip, across calls too (a callee tile over a caller tile live across
      the call).
    - `dsaplan.alloc` becomes a `memref.alloc` (keeping its alignment), so
      the pass also accepts the pipeline's input after `dsaplan-import`.
    - Discardable attributes named `dsaplan.*` (`dsaplan.pipe`,
      `dsaplan.in_place`, the module's `dsaplan.target`) are dropped.
    - The `#dsaplan.space<...>` memory space is removed from every memref
      type: results, block arguments, function types; a
      `memref.memory_space_cast` whose two types become equal is replaced by
      its source.

    <!-- fragment -->
    ```mlir
    %ub = dsaplan.arena <ub> : memref<196608xi8, #dsaplan.space<ub>>
    %a = memref.view %ub[%c4096][] : memref<196608xi8, #dsaplan.space<ub>>
        to memref<32x32xf32, #dsaplan.space<ub>>
    dsaplan.wait_flag <mte2 -> v>, 0
    // becomes
    memref.global "private" @__dsaplan_ub : memref<196608xi8> = dense<0> {alignment = 64 : i64}
    ...
    %ub = memref.get_global @__dsaplan_ub : memref<196608xi8>
    %a = memref.view %ub[%c4096][] : memref<196608xi8> to memref<32x32xf32>
    ```

    Any other op of the dsaplan dialect, or an attribute or type of it left
    anywhere, is an error naming the op.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numErasedSyncs", "erased-syncs",
              "set_flag/wait_flag/pipe_barrier/barrier_all ops erased">,
    Statistic<"numAllocs", "allocs",
              "dsaplan.alloc ops turned into memref.alloc">,
    Statistic<"numArenas", "arenas",
              "dsaplan.arena ops turned into memref.get_global">,
    Statistic<"numGlobals", "globals",
              "module-level buffers created (one per space and module)">
  ];
}

#endif // DSAPLAN_TRANSFORMS_PASSES_TD
