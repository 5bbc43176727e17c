//===- History.cpp - The verifier's accesses, filed by page ---------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//
//
// Pages are shared (std::shared_ptr) between the copies of the history a
// branch or a loop makes, and copied only when one copy changes one of
// them: a path changes a few pages of the many its entry state holds.
//
//===----------------------------------------------------------------------===//

#include "History.h"

#include "llvm/ADT/DenseMap.h"

#include <array>

using namespace mlir;
using namespace mlir::dsaplan;
using namespace mlir::dsaplan::verify;

void History::cut(const Bytes &bytes,
                  llvm::function_ref<bool(const Access &)> shadowed) {
  auto hit = [&](const Access &earlier) {
    return overlap(earlier.touch.bytes, bytes) && shadowed(earlier);
  };
  // Where the first hit of a page is: what lies before it is kept as it is.
  auto firstHit = [&](const std::vector<Access> &accesses) {
    return static_cast<size_t>(llvm::find_if(accesses, hit) -
                               accesses.begin());
  };
  const Maps &maps = view();
  if (bytes.space == kGlobalSpace) {
    auto it = maps.gmPages.find(bytes.gm.getAsOpaquePointer());
    if (it == maps.gmPages.end())
      return;
    size_t first = firstHit(it->second->accesses);
    if (first != it->second->accesses.size())
      cutPage(ownGmPage(bytes.gm), first, bytes, hit);
    return;
  }
  for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
    // Looked up in the maps as they are now: owning them may copy them.
    const Page *found = view().pages.find({bytes.space, page});
    if (!found)
      continue;
    size_t first = firstHit((*found)->accesses);
    if (first != (*found)->accesses.size())
      cutPage(ownPage({bytes.space, page}), first, bytes, hit);
  }
}

void History::add(const Access &access) {
  const Bytes &bytes = access.touch.bytes;
  if (bytes.space == kGlobalSpace) {
    Page &slot = own().gmPages[bytes.gm.getAsOpaquePointer()];
    unshare(slot).push_back(access);
    slot->note(access);
    return;
  }
  for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
    // Copied once, into the page, then trimmed to it.
    Page &slot = own().pages[{bytes.space, page}];
    std::vector<Access> &accesses = unshare(slot);
    accesses.push_back(access);
    slot->note(access);
    Bytes &part = accesses.back().touch.bytes;
    part.begin = std::max(bytes.begin, page << kPageShift);
    part.end = std::min(bytes.end, (page + 1) << kPageShift);
  }
}

void History::uniteInto(Page &slot, const Page &accesses) {
  if (!slot) {
    slot = accesses;
    return;
  }
  if (slot == accesses)
    return;
  // The paths mostly share what ran before they parted: the accesses of
  // that common start are the page's already.
  const std::vector<Access> &before = slot->accesses;
  ArrayRef<Access> mine = accesses->accesses;
  size_t common =
      std::mismatch(before.begin(), before.end(), mine.begin(), mine.end())
          .first -
      before.begin();
  if (common == mine.size())
    return;
  ArrayRef<Access> fresh = mine.drop_front(common);
  std::vector<Access> &page = unshare(slot);
  SmallVector<bool> present = presentAfter(page, common, fresh);
  for (auto [i, access] : llvm::enumerate(fresh))
    if (!present[i]) {
      page.push_back(access);
      slot->note(access);
    }
}

/// Which of `fresh` the page holds after its first `common` accesses, or
/// repeats earlier in `fresh`. What it holds of `fresh` is there: an access
/// of `fresh` is none of the common start (keys are unique in a page) unless
/// a cut made its bytes equal to another's, and a second copy of an access
/// changes no report, cut or unite (History.h). The page's accesses after the
/// start are many (all the first path ran), `fresh` few: only those whose
/// (sequence number, unit) hash into `fresh`'s bit mask are compared.
SmallVector<bool> History::presentAfter(ArrayRef<Access> page, size_t common,
                                        ArrayRef<Access> fresh) {
  // A 1024-bit filter: selective for the hundreds of accesses a loop body
  // may leave on one page.
  std::array<uint64_t, 16> mask{};
  auto bitOf = [](const Access &a) {
    return static_cast<unsigned>(
        (static_cast<uint64_t>(std::get<0>(a.key())) * 0x9E3779B97F4A7C15ull) >>
        54);
  };
  auto maybeFresh = [&](const Access &a) {
    unsigned bit = bitOf(a);
    return (mask[bit / 64] >> (bit % 64)) & 1;
  };
  for (const Access &access : fresh) {
    unsigned bit = bitOf(access);
    mask[bit / 64] |= uint64_t(1) << (bit % 64);
  }
  SmallVector<bool> present(fresh.size(), false);
  auto markAll = [&](const Access &access, size_t from) {
    for (size_t i = from; i < fresh.size(); ++i)
      if (!present[i] && fresh[i] == access)
        present[i] = true;
  };
  // Beyond kLinearUnite, `fresh` is indexed by the first part of the key
  // (one execution of an op on a unit, and its kind; an integer, cheap to
  // hash), each index chained to the next with the same part, in order: the
  // first of a chain equal to an access is the first of `fresh` with its key.
  constexpr unsigned kNone = ~0u;
  bool linear = fresh.size() <= kLinearUnite;
  llvm::DenseMap<int64_t, unsigned> headOf;
  SmallVector<unsigned> nextOf;
  auto firstEqual = [&](const Access &access) {
    auto head = headOf.find(std::get<0>(access.key()));
    unsigned i = head == headOf.end() ? kNone : head->second;
    while (i != kNone && !(fresh[i] == access))
      i = nextOf[i];
    return i;
  };
  if (!linear) {
    nextOf.assign(fresh.size(), kNone);
    SmallVector<unsigned> tailOf(fresh.size(), kNone);
    for (auto [i, access] : llvm::enumerate(fresh)) {
      auto [head, inserted] =
          headOf.try_emplace(std::get<0>(access.key()), i);
      unsigned tail = inserted ? kNone : tailOf[head->second];
      if (tail != kNone)
        nextOf[tail] = i;
      tailOf[head->second] = i;
    }
  }
  for (const Access &access : page.drop_front(common)) {
    if (!maybeFresh(access))
      continue;
    if (linear) {
      markAll(access, 0);
      continue;
    }
    unsigned found = firstEqual(access);
    if (found != kNone)
      present[found] = true;
  }
  // Repeats within `fresh`: each key once, at its first place.
  for (auto [i, access] : llvm::enumerate(fresh)) {
    if (!linear)
      present[i] = present[i] || firstEqual(access) != i;
    else if (!present[i])
      markAll(access, i + 1);
  }
  return present;
}

History History::unite(ArrayRef<const History *> histories) {
  History united = *histories.front();
  for (const History *history : histories.drop_front()) {
    if (history->maps == united.maps)
      continue;
    Maps &maps = united.own();
    history->view().pages.forEach([&](PageKey key, const Page &accesses) {
      uniteInto(maps.pages[key], accesses);
    });
    for (const auto &[key, accesses] : history->view().gmPages)
      uniteInto(maps.gmPages[key], accesses);
  }
  return united;
}

namespace {

/// Whether each access of `page` that `live` selects is covered by one of
/// `before` (FixedPoint.cpp). The start the two pages share holds the same
/// accesses, which count as covered as a shared page does. After it, only
/// an access of the same op can cover one, and a page mostly holds the
/// accesses of `before` at the same places followed by the new
/// iteration's: each is tried against the access at its own place first,
/// then against the accesses of its op, indexed when first needed. Linear
/// in the two pages, however large.
bool pageCovered(
    ArrayRef<Access> page, ArrayRef<Access> before,
    llvm::function_ref<bool(const Access &)> live,
    llvm::function_ref<bool(const Access &, const Access &)> covers) {
  size_t common =
      std::mismatch(page.begin(), page.end(), before.begin(), before.end())
          .first -
      page.begin();
  llvm::DenseMap<Operation *, SmallVector<unsigned, 2>> ofOp;
  for (auto [i, access] : llvm::enumerate(page.drop_front(common))) {
    i += common;
    if (!live(access))
      continue;
    if (i < before.size() && covers(access, before[i]))
      continue;
    if (ofOp.empty())
      for (auto [j, earlier] : llvm::enumerate(before))
        ofOp[earlier.op].push_back(j);
    auto it = ofOp.find(access.op);
    if (it == ofOp.end() || llvm::none_of(it->second, [&](unsigned j) {
          return covers(access, before[j]);
        }))
      return false;
  }
  return true;
}

} // namespace

bool History::coveredBy(
    const History &earlier, llvm::function_ref<bool(const Access &)> live,
    llvm::function_ref<bool(const Access &, const Access &)> covers) const {
  // Whether `page` is covered by `theirs` (null: no page there).
  auto pageCoveredBy = [&](const Page &page, const Page *theirs) {
    if (theirs && *theirs == page)
      return true;
    ArrayRef<Access> before;
    if (theirs)
      before = (*theirs)->accesses;
    return pageCovered(page->accesses, before, live, covers);
  };
  if (maps == earlier.maps)
    return true;
  bool covered = true;
  view().pages.forEach([&](PageKey key, const Page &page) {
    covered = covered && pageCoveredBy(page, earlier.view().pages.find(key));
  });
  if (!covered)
    return false;
  const auto &theirs = earlier.view().gmPages;
  for (const auto &[key, page] : view().gmPages) {
    auto it = theirs.find(key);
    if (!pageCoveredBy(page, it == theirs.end() ? nullptr : &it->second))
      return false;
  }
  return true;
}

void History::cutPage(std::vector<Access> &accesses, size_t first,
                      const Bytes &bytes,
                      llvm::function_ref<bool(const Access &)> hit) {
  // Mostly the bytes cover what they hit at one end or whole: trim or drop
  // in place. Only an access they split in two needs a new page.
  auto splits = [&](const Access &earlier) {
    const Bytes &a = earlier.touch.bytes;
    return a.begin < bytes.begin && bytes.end < a.end && hit(earlier);
  };
  auto from = accesses.begin() + first;
  if (std::none_of(from, accesses.end(), splits)) {
    accesses.erase(std::remove_if(from, accesses.end(),
                                  [&](Access &earlier) {
                                    if (!hit(earlier))
                                      return false;
                                    Bytes &a = earlier.touch.bytes;
                                    if (a.begin < bytes.begin)
                                      a.end = bytes.begin;
                                    else if (bytes.end < a.end)
                                      a.begin = bytes.end;
                                    else
                                      return true;
                                    return false;
                                  }),
                   accesses.end());
    return;
  }
  std::vector<Access> kept(accesses.begin(), from);
  kept.reserve(accesses.size() + 1);
  for (const Access &earlier : llvm::make_range(from, accesses.end())) {
    if (!hit(earlier)) {
      kept.push_back(earlier);
      continue;
    }
    const Bytes &a = earlier.touch.bytes;
    if (a.begin < bytes.begin) {
      kept.push_back(earlier);
      kept.back().touch.bytes.end = bytes.begin;
    }
    if (bytes.end < a.end) {
      kept.push_back(earlier);
      kept.back().touch.bytes.begin = bytes.end;
    }
  }
  accesses = std::move(kept);
}

void History::forgetSettled(
    const Bytes &bytes, llvm::function_ref<bool(const Access &)> settled) {
  // Mostly no page is due: the maps are owned only for one that is.
  auto due = [](const Page &page) {
    return page->accesses.size() >= page->sweepAt;
  };
  if (bytes.space == kGlobalSpace) {
    const void *key = bytes.gm.getAsOpaquePointer();
    auto it = view().gmPages.find(key);
    if (it != view().gmPages.end() && due(it->second))
      sweep(own().gmPages.find(key)->second, settled);
    return;
  }
  for (int64_t page = firstPage(bytes); page <= lastPage(bytes); ++page) {
    const Page *found = view().pages.find({bytes.space, page});
    if (found && due(*found))
      sweep(own().pages[{bytes.space, page}], settled);
  }
}

void History::sweep(Page &page,
                    llvm::function_ref<bool(const Access &)> settled) {
  std::vector<Access> &accesses = unshare(page);
  llvm::erase_if(accesses, settled);
  page->units = 0;
  for (const Access &access : accesses)
    page->note(access);
  page->sweepAt = std::max(kFirstSweep, accesses.size() + accesses.size() / 2);
}

/// With room for the access the caller is about to add (a copy exactly
/// full would be copied again by that add).
std::vector<Access> &History::unshare(Page &page) {
  if (!page) {
    page = std::make_shared<PageData>();
  } else if (page.use_count() > 1) {
    auto copy = std::make_shared<PageData>();
    const std::vector<Access> &accesses = page->accesses;
    copy->accesses.reserve(accesses.size() + accesses.size() / 4 + 2);
    copy->accesses.assign(accesses.begin(), accesses.end());
    copy->sweepAt = page->sweepAt;
    copy->seqs = page->seqs;
    copy->units = page->units;
    page = std::move(copy);
  }
  return page->accesses;
}

History::Maps &History::own() {
  if (!maps)
    maps = std::make_shared<Maps>();
  else if (maps.use_count() > 1)
    maps = std::make_shared<Maps>(*maps);
  return *maps;
}

std::vector<Access> &History::ownGmPage(Value gm) {
  return unshare(own().gmPages[gm.getAsOpaquePointer()]);
}

std::vector<Access> &History::ownPage(PageKey key) {
  return unshare(own().pages[key]);
}
