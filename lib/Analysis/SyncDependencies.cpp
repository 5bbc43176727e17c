//===- SyncDependencies.cpp - Which accesses must wait for which ----------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// The shadow (DependencyShadow.h): per memory space, segments of bytes,
// each with a cell of the last writers and the readers since; bytes no
// access touched have no cell. An access depends on what the cells of its
// bytes hold, and then (a write) replaces them by one cell of its own or (a
// read) joins their readers. Entries carry an epoch, so that the second
// walk of a loop body (RegionWalk.h) can tell the first walk's accesses
// (the previous iteration) from its own.
//
//===----------------------------------------------------------------------===//

#include "DsaPlan/Analysis/SyncDependencies.h"
#include "DependencyShadow.h"

#include "DsaPlan/Analysis/BufferLifetimes.h"
#include "DsaPlan/Dialect/DsaPlan/Target.h"
#include "DsaPlan/Support/CountingSort.h"
#include "DsaPlan/Support/RegionWalk.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::detail;

namespace {

/// One tile per allocation, however many copies of its view the IR holds.
/// dsaplan-unroll-rotations clones a loop body together with the views of
/// the tiles the body allocates; the clones of one view (same arena, bytes,
/// type and location, which is the allocation's) are one tile, so that the
/// scoped dependencies see iteration 2k+1's `t` as the same tile as
/// iteration 2k's, not as a reuse of its bytes:
///
///   %t = memref.view %ub[%c0][] ... loc("t"(...))     // iteration 2k
///   %t_1 = memref.view %ub[%c0][] ... loc("t"(...))   // iteration 2k+1: %t
///
/// Only the scoped modes ask (DependencyScope::All ignores tiles).
class TileIdentities {
public:
  TileIdentities(ArrayRef<PipeAccess> accesses, DependencyScope scope) {
    if (scope == DependencyScope::All)
      return;
    // Keyed by uniqued pointers for lookup only; the first copy in program
    // order stands for the others.
    using ViewKey = std::tuple<const void *, int64_t, int64_t, const void *,
                               const void *>;
    std::map<ViewKey, Operation *> firstCopy;
    for (const PipeAccess &op : accesses)
      for (const MemoryAccess &access : op.accesses) {
        auto view = dyn_cast_or_null<memref::ViewOp>(access.tile);
        if (!view)
          continue;
        ViewKey key{view.getSource().getAsOpaquePointer(), access.begin,
                    access.end, view.getType().getAsOpaquePointer(),
                    view.getLoc().getAsOpaquePointer()};
        canonical[view] = firstCopy.try_emplace(key, view).first->second;
      }
  }

  /// The tile `tile` is a copy of (itself when it is no copy).
  Operation *of(Operation *tile) const {
    return canonical.lookup_or(tile, tile);
  }

private:
  DenseMap<Operation *, Operation *> canonical;
};

/// A memory space, or what has bytes of its own: an unplaced alloc, each
/// tile when dependencies are decided by buffer identity, or a GM root
/// buffer (kGlobalRegion, the root's opaque pointer, and the offset terms
/// its positions are counted with: one shadow per way of indexing it).
struct RegionKey {
  int kind;
  const void *pointer;
  std::vector<std::pair<const void *, int64_t>> terms;
  bool operator<(const RegionKey &o) const {
    return std::tie(kind, pointer, terms) < std::tie(o.kind, o.pointer, o.terms);
  }
  bool operator==(const RegionKey &o) const {
    return std::tie(kind, pointer, terms) == std::tie(o.kind, o.pointer, o.terms);
  }
};
constexpr int kGlobalRegion = -1;

/// The shadow an access is recorded in.
RegionKey regionKeyOf(const MemoryAccess &access, DependencyScope scope,
                      const TileIdentities &tiles) {
  if (access.region.isGlobal()) {
    RegionKey key{kGlobalRegion, access.region.global.getAsOpaquePointer(), {}};
    for (auto [value, coefficient] : access.region.terms)
      key.terms.push_back({value.getAsOpaquePointer(), coefficient});
    return key;
  }
  RegionKey key{static_cast<int>(access.region.space),
                access.region.unplacedAlloc, {}};
  // Identity-only: each tile has bytes of its own, so only accesses of one
  // tile meet (the baseline a buffer-identity inserter would give).
  if (scope == DependencyScope::IdentityOnly)
    key.pointer =
        access.tile ? tiles.of(access.tile) : access.region.unplacedAlloc;
  return key;
}

/// The GM root of a global region key.
Value globalRootOf(const RegionKey &key) {
  return Value::getFromOpaquePointer(key.pointer);
}

/// Whether accesses recorded under two different keys may share bytes
/// whatever their positions: GM roots that may alias, or one GM root
/// indexed two different ways (their offsets differ by an unknown amount).
bool mayMeetAnywhere(const RegionKey &a, const RegionKey &b) {
  if (a.kind != kGlobalRegion || b.kind != kGlobalRegion || a == b)
    return false;
  if (a.pointer == b.pointer)
    return true;
  return mayAliasGlobalRoots(globalRootOf(a), globalRootOf(b));
}

/// The key of each access of `accesses`, in order.
std::vector<RegionKey> regionKeysOf(ArrayRef<PipeAccess> accesses,
                                    DependencyScope scope,
                                    const TileIdentities &tiles) {
  std::vector<RegionKey> keys;
  for (const PipeAccess &op : accesses)
    for (const MemoryAccess &access : op.accesses)
      keys.push_back(regionKeyOf(access, scope, tiles));
  return keys;
}

/// `keys` with repeats of those with offset terms only: a key without terms
/// (a space, a tile, a GM root) is listed once, so that RegionIds sorts a
/// few keys rather than one per access.
std::vector<RegionKey> distinctKeys(ArrayRef<RegionKey> all) {
  std::vector<RegionKey> keys;
  llvm::DenseSet<std::pair<int, const void *>> plainKeys;
  for (const RegionKey &key : all) {
    if (key.terms.empty() ? !plainKeys.insert({key.kind, key.pointer}).second
                          : !keys.empty() && keys.back() == key)
      continue;
    keys.push_back(key);
  }
  return keys;
}

/// The regions of a walk's accesses, numbered in RegionKey order: ids in
/// increasing order visit the regions as a std::map of their keys would.
/// Each GM key with offset terms brings its root's plain key (no terms),
/// where its history goes once its positions are unknown; and for each GM
/// key, the keys it may meet anywhere (mayMeetAnywhere) are listed once.
class RegionIds {
public:
  /// Numbers `keys`, each once however often it comes.
  explicit RegionIds(std::vector<RegionKey> keys);

  unsigned idOf(const RegionKey &key) const {
    return std::lower_bound(keys.begin(), keys.end(), key) - keys.begin();
  }
  const RegionKey &key(unsigned id) const { return keys[id]; }
  size_t size() const { return keys.size(); }
  unsigned plainId(unsigned id) const { return plain[id]; }
  /// The ids of the other keys `id` may share bytes with whatever the
  /// positions, increasing.
  ArrayRef<unsigned> meetingAnywhere(unsigned id) const { return meets[id]; }

private:
  std::vector<RegionKey> keys;
  std::vector<unsigned> plain;
  std::vector<SmallVector<unsigned, 4>> meets;
};

RegionIds::RegionIds(std::vector<RegionKey> all) : keys(std::move(all)) {
  for (size_t i = 0, n = keys.size(); i < n; ++i)
    if (keys[i].kind == kGlobalRegion && !keys[i].terms.empty())
      keys.push_back({kGlobalRegion, keys[i].pointer, {}});
  llvm::sort(keys);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  plain.resize(keys.size());
  meets.resize(keys.size());
  std::vector<unsigned> global;
  for (unsigned id = 0; id < keys.size(); ++id) {
    plain[id] = id;
    if (keys[id].kind != kGlobalRegion)
      continue;
    plain[id] = idOf({kGlobalRegion, keys[id].pointer, {}});
    global.push_back(id);
  }
  // The alias answer of each pair of roots, asked once.
  DenseMap<std::pair<const void *, const void *>, bool> rootsMayAlias;
  for (unsigned a : global)
    for (unsigned b : global) {
      const RegionKey &x = keys[a], &y = keys[b];
      bool meet;
      if (x.pointer == y.pointer) {
        meet = mayMeetAnywhere(x, y);
      } else {
        auto [it, inserted] =
            rootsMayAlias.try_emplace({x.pointer, y.pointer}, false);
        if (inserted)
          it->second = mayMeetAnywhere(x, y);
        meet = it->second;
      }
      if (meet)
        meets[a].push_back(b);
    }
}



/// Whether a dependency between accesses of these tiles counts. Reuse-only
/// leaves GM to the toolchain too: placement creates no GM dependency.
bool inScope(DependencyScope scope, Operation *earlierTile,
             Operation *laterTile, bool global = false) {
  bool sameTile = earlierTile && earlierTile == laterTile;
  if (scope == DependencyScope::ReuseOnly)
    return !sameTile && !global;
  return true;
}

/// `found` ordered by (later, earlier) without repeats, each pair's loop
/// variants in the order first found: a counting sort by `earlier`, then
/// one by `later`, each keeping the order of equals (least significant key
/// first), instead of a comparison sort. A pair the walk meets again (a
/// byte of several cells, a loop body's second walk, another branch) lands
/// next to its first finding, after it: it is dropped there rather than
/// looked up in a set as it is found.
///
///   found:  (3 <- 1) (3 <- 0) (5 <- 2) (3 <- 2, loop) (3 <- 1)
///   sorted: (3 <- 0) (3 <- 1) (3 <- 2, loop) (5 <- 2)
std::vector<SyncDependency> sortedByLater(std::vector<SyncDependency> found,
                                          size_t numAccesses) {
  // Every element is written before it is read: not zeroed first.
  SmallVector<SyncDependency, 0> byEarlier;
  byEarlier.resize_for_overwrite(found.size());
  groupByKey<SyncDependency>(
      found, numAccesses,
      [](const SyncDependency &dep) { return dep.earlier; }, byEarlier);
  std::vector<size_t> starts = groupByKey<SyncDependency>(
      byEarlier, numAccesses,
      [](const SyncDependency &dep) { return dep.later; }, found);
  std::vector<SyncDependency> sorted = std::move(found);
  auto kept = sorted.begin();
  for (size_t i = 0; i < numAccesses; ++i) {
    auto first = sorted.begin() + starts[i], last = sorted.begin() + starts[i + 1];
    // Within a run of one `earlier`, the loop variants kept so far.
    auto run = kept;
    for (auto it = first; it != last; ++it) {
      if (run != kept && run->earlier != it->earlier)
        run = kept;
      if (std::none_of(run, kept, [&](const SyncDependency &dep) {
            return dep.loop == it->loop;
          }))
        *kept++ = *it;
    }
  }
  sorted.erase(kept, sorted.end());
  return sorted;
}

class DependencyFinder : public RegionWalkClient<ShadowState> {
public:
  DependencyFinder(ArrayRef<PipeAccess> accesses,
                   const DenseMap<Operation *, unsigned> &accessIndex,
                   DependencyScope scope)
      : accesses(accesses), scope(scope), tiles(accesses, scope),
        keys(regionKeysOf(accesses, scope, tiles)),
        regions(distinctKeys(keys)), accessIndex(accessIndex),
        foundInStep(accesses.size()) {
    for (unsigned i = 0; i < accesses.size(); ++i) {
      firstPart.push_back(parts.size());
      for (const MemoryAccess &access : accesses[i].accesses)
        parts.push_back(
            {regions.idOf(keys[parts.size()]), tiles.of(access.tile)});
    }
    keys = {};
    findPagedRegions();
  }

  std::vector<SyncDependency> run(func::FuncOp func) {
    ShadowState state;
    RegionWalker<DependencyFinder, ShadowState>(*this, kLoopIterations)
        .walkBlock(func.getBody().front(), state);
    return sortedByLater(std::move(dependencies), accesses.size());
  }

private:
  friend class RegionWalker<DependencyFinder, ShadowState>;
  /// A loop body is walked twice: the second walk meets the first walk's
  /// accesses as those of the previous iteration.
  static constexpr unsigned kLoopIterations = 2;
  /// The state becomes a branch's or loop's last exit rather than a copy
  /// of it (the merge replaces it): the shadows the last path writes are
  /// then shared with one holder less, so fewer are copied on write. The
  /// exits (two branches, or a loop's three) stay inline.
  static constexpr bool kMovesLastExit = true;
  static constexpr unsigned kInlineExits = kLoopIterations + 1;

  WalkStep step(Operation &op, ShadowState &state);
  std::optional<ShadowState> merge(ArrayRef<ShadowState> exits,
                                   Operation *at);
  void beginIteration(Operation &loop, unsigned iteration,
                      ShadowState &state);
  void endLoop(Operation &loop);
  void shiftToNextIteration(scf::ForOp loop, ShadowState &state);
  void forgetInductionVariable(scf::ForOp loop, ShadowState &state);
  void findPagedRegions();
  void recordAccess(unsigned op, unsigned part, ShadowState &state);
  void recordIn(ShadowKey key, int64_t begin, int64_t end, unsigned op,
                const MemoryAccess &access, CellRef written, ShadowEntry self,
                ShadowState &state);
  void dependOnOtherGlobalKeys(unsigned op, const MemoryAccess &access,
                               unsigned own, const ShadowState &state);
  void forgetPositions(ShadowState &state, unsigned id);
  /// Both inlined where the cells are met: a large kernel meets 222,000
  /// cells holding 890,000 candidates, a third of them repeats within
  /// their step.
  LLVM_ATTRIBUTE_ALWAYS_INLINE void
  dependOnCell(CellRef cell, unsigned later, const MemoryAccess &laterAccess);
  LLVM_ATTRIBUTE_ALWAYS_INLINE void
  addDependency(const ShadowEntry &earlier, unsigned later,
                const MemoryAccess &laterAccess);

  ArrayRef<PipeAccess> accesses;
  DependencyScope scope;
  TileIdentities tiles;
  /// The key of each access of each op, until the regions are numbered.
  std::vector<RegionKey> keys;
  RegionIds regions;
  ShadowCells cells;
  /// The index of each access's op in `accesses`.
  const DenseMap<Operation *, unsigned> &accessIndex;
  /// Each access of each op (the op's accesses from firstPart[op] on):
  /// its region and its tile (TileIdentities::of), found once.
  struct Part {
    unsigned region;
    Operation *tile;
  };
  std::vector<Part> parts;
  std::vector<unsigned> firstPart;
  /// Per region: whether its shadow is kept a page of kPageBytes at a time
  /// (on-chip memory, whose positions are fixed), rather than whole (GM,
  /// whose shadows move with loops and merge across roots).
  std::vector<bool> paged;
  /// The tile of the access being recorded.
  Operation *laterTile = nullptr;
  /// The current epoch and, for each loop being walked, the epochs of its
  /// first walk (entries from those, met in the second walk, ran one
  /// iteration earlier).
  unsigned epoch = 0;
  struct LoopWalk {
    Operation *loop;
    unsigned firstBegin, firstEnd;
    bool second;
  };
  SmallVector<LoopWalk> loopWalks;
  std::vector<SyncDependency> dependencies;
  /// Per earlier access: the step (numbered from 1) and loop variant of
  /// its latest dependency found.
  struct FoundInStep {
    unsigned step = 0;
    Operation *loop = nullptr;
  };
  std::vector<FoundInStep> foundInStep;
  unsigned stepCount = 0;
};

WalkStep DependencyFinder::step(Operation &op, ShadowState &state) {
  auto access = accessIndex.find(&op);
  if (access == accessIndex.end())
    return op.getNumRegions() ? WalkStep::Enter : WalkStep::Done;
  ++stepCount;
  // Every access checks against the history before the op's own updates
  // (an op reading and writing one tile does not depend on itself).
  unsigned index = access->second;
  for (unsigned i = 0; i < accesses[index].accesses.size(); ++i)
    recordAccess(index, firstPart[index] + i, state);
  return WalkStep::Done;
}

/// The epochs of the walks of a loop body: entries of the first walk, met
/// in the second, are the previous iteration's.
void DependencyFinder::beginIteration(Operation &loop, unsigned iteration,
                                      ShadowState &state) {
  if (iteration == 0) {
    loopWalks.push_back({&loop, ++epoch, 0, false});
    return;
  }
  loopWalks.back().firstEnd = ++epoch;
  loopWalks.back().second = true;
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    shiftToNextIteration(forOp, state);
}

void DependencyFinder::endLoop(Operation &) {
  loopWalks.pop_back();
  ++epoch;
}

/// The history of any path: after an scf.if, the last writers of a byte
/// are those of both branches. After a loop, the history is that of zero
/// iterations or of the last walk (which holds all of the first walk's that
/// the body did not overwrite); an scf.while leaves from the end of its
/// "before" region, never from its "do" region:
///
///   scf.while {            // runs at least once: no zero-iteration exit
///     write A (s)          // the history at the exit: this write,
///     scf.condition(%c)
///   } do {
///     write A (mte2)       // not this one (the exit skips it on the
///   }                      // last iteration)
std::optional<ShadowState>
DependencyFinder::merge(ArrayRef<ShadowState> exits, Operation *at) {
  ShadowState state;
  if (isLoopOp(at) && mayRunNoRegion(at)) {
    state = exits.back();
    if (auto forOp = dyn_cast<scf::ForOp>(at))
      forgetInductionVariable(forOp, state);
    state.unite(exits.front(), cells);
    return state;
  }
  state = exits.front();
  for (const ShadowState &exit : exits.drop_front())
    state.unite(exit, cells);
  return state;
}

/// A GM access also depends on the history of every other root that may
/// alias its own, and of its own root indexed another way, whatever the
/// bytes (their placement relative to each other is unknown). That history
/// is left as it is: a write through one root hides nothing of another's.
///
///   memref.copy %ub, %x   (mte3)  // writes %x[0:64]
///   memref.copy %y, %ub2  (mte2)  // reads %y[512:576]: depends on the copy
///                                 // when %x and %y may alias
void DependencyFinder::dependOnOtherGlobalKeys(unsigned op,
                                               const MemoryAccess &access,
                                               unsigned own,
                                               const ShadowState &state) {
  // Both lists increase: one pass over the two.
  ArrayRef<ShadowState::Entry> present = state.entries();
  for (unsigned other : regions.meetingAnywhere(own)) {
    while (!present.empty() && present.front().first < shadowKey(other))
      present = present.drop_front();
    if (present.empty())
      return;
    if (present.front().first != shadowKey(other))
      continue;
    present.front().second->visit(
        kFirstByte, kEndByte, [&](int64_t, int64_t, const CellRef &cell) {
          dependOnCell(cell, op, access);
        });
  }
}

namespace {
/// The bytes of a page of an on-chip shadow. A space's shadow holds a
/// segment per stretch of distinct history, thousands in a large kernel:
/// kept whole, every access searched them, and every write split or merged
/// them in one vector, and a branch or loop body that wrote a byte copied
/// them all (and united them all after). By pages, it does so in the pages
/// it touches only; the rest stay shared between the paths.
constexpr int64_t kPageBytes = 8192;
/// Paged regions' bytes lie in [0, kPagedEnd): page numbers fit 32 bits.
constexpr int64_t kPagedEnd = int64_t(1) << 40;

bool isEmptyCell(const CellRef &cell) { return cell.empty(); }
} // namespace

void DependencyFinder::findPagedRegions() {
  paged.assign(regions.size(), true);
  for (unsigned i = 0; i < accesses.size(); ++i)
    for (unsigned j = 0; j < accesses[i].accesses.size(); ++j) {
      const MemoryAccess &access = accesses[i].accesses[j];
      if (access.region.isGlobal() || access.begin < 0 ||
          access.end > kPagedEnd)
        paged[parts[firstPart[i] + j].region] = false;
    }
}

/// Records the access in the shadow `key`, over [begin, end): it depends on
/// the history of those bytes, which it then replaces (a write: `written`
/// is now the only history) or joins (a read). One pass over the pieces of
/// the bytes does both: the pieces update() meets are the segments visit()
/// would, in the same order, and those no access touched have no history.
void DependencyFinder::recordIn(ShadowKey key, int64_t begin, int64_t end,
                                unsigned op, const MemoryAccess &access,
                                CellRef written, ShadowEntry self,
                                ShadowState &state) {
  Shadow &shadow = state.edit(key);
  shadow.update(begin, end, [&](CellRef &cell) {
    dependOnCell(cell, op, access);
    cell = access.isWrite ? written : cells.read(cell, self);
  });
  shadow.coalesce(begin, end, isEmptyCell);
}

void DependencyFinder::recordAccess(unsigned op, unsigned part,
                                    ShadowState &state) {
  const MemoryAccess &access = accesses[op].accesses[part - firstPart[op]];
  unsigned own = parts[part].region;
  laterTile = parts[part].tile;
  if (access.region.isGlobal())
    dependOnOtherGlobalKeys(op, access, own, state);
  ShadowEntry self{op, epoch, parts[part].tile};
  CellRef written = access.isWrite ? cells.written(self) : CellRef();
  if (!paged[own]) {
    recordIn(shadowKey(own), access.begin, access.end, op, access, written,
             self, state);
    return;
  }
  // Page by page, in increasing order: the bytes in the order a whole
  // shadow visits them (a segment cut by a page's end is met again at the
  // next page's start, and its entries again, which are dropped as repeats
  // within the step).
  for (int64_t page = access.begin / kPageBytes;
       page * kPageBytes < access.end; ++page)
    recordIn(shadowKey(own, static_cast<uint32_t>(page)),
             std::max(access.begin, page * kPageBytes),
             std::min(access.end, (page + 1) * kPageBytes), op, access,
             written, self, state);
}

//===----------------------------------------------------------------------===//
// GM offsets that move with a loop
//===----------------------------------------------------------------------===//

namespace {
/// More shifted copies than this of one shadow: its history is taken to be
/// anywhere in its root instead.
constexpr int64_t kMaxShifts = 64;

/// Positions of a GM root's history that is anywhere.
constexpr int64_t kAnywhereBegin = std::numeric_limits<int64_t>::min() / 4;
constexpr int64_t kAnywhereEnd = std::numeric_limits<int64_t>::max() / 4;

/// The coefficient of `iv` in the offset terms of `key` (0: none).
int64_t coefficientOf(const RegionKey &key, Value iv) {
  for (auto [value, coefficient] : key.terms)
    if (value == iv.getAsOpaquePointer())
      return coefficient;
  return 0;
}

} // namespace

/// Moves the history of region `id` to its root's plain shadow (no terms),
/// as if it had touched every byte: where it lies is no longer known.
void DependencyFinder::forgetPositions(ShadowState &state, unsigned id) {
  Shadow smeared = cells.everywhere(*state.slot(shadowKey(id)),
                                    kAnywhereBegin, kAnywhereEnd);
  state.erase(shadowKey(id));
  Shadow &into = state.edit(shadowKey(regions.plainId(id)));
  into = cells.united(into, smeared);
}

/// Between the two walks of `loop`'s body: the first walk's history of a GM
/// root indexed by the loop's induction variable ran at `iv - d * step`
/// for every d >= 1, so each of its positions p lies at p - d * c * step
/// in the frame of the second walk (c the variable's bytes per unit). The
/// shadow becomes the union of those shifted copies, as far as they can
/// reach the positions the body touches. (Every loop is taken to run as
/// many iterations as that needs, as dsaplan-verify-sync takes it to run
/// three, whatever its bounds.)
///
///   scf.for %r = 0 to 64 step 8 {
///     load  %x[%r + 8]   // bytes [32768, 65536) + 4096 * %r
///     store %x[%r]       // bytes [0, 32768) + 4096 * %r
///   }
///   // second walk: the store of iteration d back is at [-32768 d, ...):
///   // the load meets none of them; a load of %x[%r - 8] would meet d = 1
void DependencyFinder::shiftToNextIteration(scf::ForOp loop,
                                            ShadowState &state) {
  Value iv = loop.getInductionVar();
  int64_t step = *getConstantIntValue(loop.getStep());
  // The regions moved, by id: forgetPositions changes the state's entries.
  SmallVector<unsigned> moving;
  for (const auto &[key, shadow] : state.entries())
    if (regions.key(regionOf(key)).kind == kGlobalRegion &&
        coefficientOf(regions.key(regionOf(key)), iv) * step != 0 &&
        !shadow->empty())
      moving.push_back(regionOf(key));
  for (unsigned id : moving) {
    std::shared_ptr<Shadow> &shadow = state.slot(shadowKey(id));
    int64_t delta = coefficientOf(regions.key(id), iv) * step;
    int64_t span = shadow->endByte() - shadow->firstByte();
    int64_t shifts = span / std::abs(delta) + 1;
    if (shifts > kMaxShifts) {
      forgetPositions(state, id);
      continue;
    }
    Shadow earlier;
    for (int64_t d = 1; d <= shifts; ++d)
      earlier = cells.united(earlier, shadow->shifted(-d * delta));
    shadow = std::make_shared<Shadow>(std::move(earlier));
  }
}

/// After `loop`: its induction variable has no value any more, so the
/// history of GM indexed by it may lie anywhere in its root.
void DependencyFinder::forgetInductionVariable(scf::ForOp loop,
                                               ShadowState &state) {
  Value iv = loop.getInductionVar();
  SmallVector<unsigned> moving;
  for (const auto &[key, shadow] : state.entries())
    if (regions.key(regionOf(key)).kind == kGlobalRegion &&
        coefficientOf(regions.key(regionOf(key)), iv) != 0)
      moving.push_back(regionOf(key));
  for (unsigned id : moving)
    forgetPositions(state, id);
}

/// The access `later` depends on the writers of the bytes of `cell`, and
/// when it writes, on their readers too (a read after a read needs no order).
void DependencyFinder::dependOnCell(CellRef cell, unsigned later,
                                    const MemoryAccess &laterAccess) {
  for (const ShadowEntry &writer : cell.writers())
    addDependency(writer, later, laterAccess);
  if (laterAccess.isWrite)
    for (const ShadowEntry &reader : cell.readers())
      addDependency(reader, later, laterAccess);
}

void DependencyFinder::addDependency(const ShadowEntry &earlier,
                                     unsigned later,
                                     const MemoryAccess &laterAccess) {
  if (scope != DependencyScope::All && // every dependency counts
      !inScope(scope, earlier.tile, laterTile, laterAccess.region.isGlobal()))
    return;
  // The innermost loop whose first walk ran the earlier access.
  Operation *loop = nullptr;
  for (const LoopWalk &walk : llvm::reverse(loopWalks))
    if (walk.second && earlier.epoch >= walk.firstBegin &&
        earlier.epoch < walk.firstEnd) {
      loop = walk.loop;
      break;
    }
  if (!loop && earlier.op == later)
    return;
  // A step meets one earlier access in every cell of its bytes that holds
  // it: repeats within the step are dropped here, the rest once sorted
  // (sortedByLater).
  FoundInStep &found = foundInStep[earlier.op];
  if (found.step == stepCount && found.loop == loop)
    return;
  found = {stepCount, loop};
  dependencies.push_back({earlier.op, later, loop});
}

/// Unordered pairs {a, b} (a <= b) of `n` ops as an upper-triangular bit
/// matrix: row a holds b - a and is allocated when its first pair comes.
/// GM arguments that may alias make every store meet every load of the
/// others, tens of millions of pairs in a large kernel: a hash set of them
/// took gigabytes, this takes about n * n / 16 bytes.
class PairMatrix {
public:
  explicit PairMatrix(unsigned n) : rows(n) {}

  void insert(unsigned a, unsigned b) {
    if (a > b)
      std::swap(a, b);
    llvm::BitVector &row = rows[a];
    if (row.empty())
      row.resize(rows.size() - a);
    row.set(b - a);
  }
  /// The pairs {a, b} with b > a.
  unsigned countOthers(unsigned a) const {
    const llvm::BitVector &row = rows[a];
    return row.empty() ? 0 : row.count() - (row.test(0) ? 1 : 0);
  }
  bool containsSelf(unsigned a) const {
    return !rows[a].empty() && rows[a].test(0);
  }

private:
  std::vector<llvm::BitVector> rows;
};

} // namespace

std::vector<SyncDependency>
mlir::dsaplan::findSyncDependencies(func::FuncOp func,
                                    ArrayRef<PipeAccess> accesses,
                                    DependencyScope scope) {
  DenseMap<Operation *, unsigned> accessIndex;
  for (auto [index, access] : llvm::enumerate(accesses))
    accessIndex[access.op] = index;
  return findSyncDependencies(func, accesses, accessIndex, scope);
}

std::vector<SyncDependency> mlir::dsaplan::findSyncDependencies(
    func::FuncOp func, ArrayRef<PipeAccess> accesses,
    const DenseMap<Operation *, unsigned> &accessIndex, DependencyScope scope) {
  return DependencyFinder(accesses, accessIndex, scope).run(func);
}

unsigned mlir::dsaplan::countConflictingPairs(func::FuncOp func,
                                              ArrayRef<PipeAccess> ops,
                                              DependencyScope scope) {
  // A sweep per region over ranges sorted by their first byte; two reads
  // never conflict, so a range meets the open writes, and a write also the
  // open reads.
  struct Span {
    int64_t begin, end;
    unsigned op;
    bool isWrite;
    Operation *tile;
    bool global;
  };
  TileIdentities tiles(ops, scope);
  std::map<RegionKey, std::vector<Span>> regions;
  for (unsigned i = 0; i < ops.size(); ++i)
    for (const MemoryAccess &a : ops[i].accesses)
      regions[regionKeyOf(a, scope, tiles)].push_back(
          {a.begin, a.end, i, a.isWrite, tiles.of(a.tile),
           a.region.isGlobal()});
  PairMatrix pairs(ops.size());
  // GM roots that may alias, or one indexed two ways: every conflicting
  // pair across them.
  for (auto &[keyA, spansA] : regions)
    for (auto &[keyB, spansB] : regions) {
      if (!(keyA < keyB) || !mayMeetAnywhere(keyA, keyB))
        continue;
      for (const Span &a : spansA)
        for (const Span &b : spansB)
          if ((a.isWrite || b.isWrite) && a.op != b.op &&
              inScope(scope, a.tile, b.tile, /*global=*/true))
            pairs.insert(a.op, b.op);
    }
  for (auto &[key, spans] : regions) {
    llvm::sort(spans, [](const Span &a, const Span &b) {
      return std::tie(a.begin, a.op) < std::tie(b.begin, b.op);
    });
    std::vector<Span> open;
    for (const Span &span : spans) {
      llvm::erase_if(open, [&](const Span &o) { return o.end <= span.begin; });
      for (const Span &o : open)
        if ((o.isWrite || span.isWrite) &&
            inScope(scope, o.tile, span.tile, span.global))
          pairs.insert(o.op, span.op);
      open.push_back(span);
    }
  }
  // An op meets itself again in a later iteration of a loop, where a write
  // conflicts with its own next execution.
  for (unsigned i = 0; i < ops.size(); ++i) {
    bool writes = llvm::any_of(ops[i].accesses, [&](const MemoryAccess &a) {
      return a.isWrite &&
             inScope(scope, a.tile, a.tile, a.region.isGlobal());
    });
    for (Operation *parent = ops[i].op->getParentOp();
         writes && parent && parent != func; parent = parent->getParentOp())
      if (isLoopOp(parent)) {
        pairs.insert(i, i);
        break;
      }
  }
  unsigned count = 0;
  for (unsigned a = 0; a < ops.size(); ++a) {
    count += pairs.countOthers(a);
    if (!pairs.containsSelf(a))
      continue;
    for (Operation *parent = ops[a].op->getParentOp(); parent && parent != func;
         parent = parent->getParentOp())
      if (isLoopOp(parent)) {
        ++count;
        break;
      }
  }
  return count;
}
