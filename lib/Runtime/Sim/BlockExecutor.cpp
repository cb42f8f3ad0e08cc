//===- BlockExecutor.cpp - a block's fibers, warp ops and deadlocks -------===//
//
// A block's threads as fibers: started, run until each waits, exits or
// faults, resumed when their mbarrier phase completes or the whole block
// reaches its barrier; the warp-collective ops (mma.sync, ldmatrix,
// wgmma) completed once every lane has reached one; and what a block that
// cannot go on is stuck on.
//
//===----------------------------------------------------------------------===//

#include "BlockExecutor.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace mlir::uop::sim::detail {

void Executor::fiberMain() {
  Executor &e = *active;
  e.spec.entry(const_cast<void **>(e.spec.args.data()));
  e.current->state = State::Done;
  switchFiber(e.current->fiber, e.scheduler, /*exiting=*/true);
}

/// Completes each warp whose lanes all wait at one warp-collective op
/// (mma.sync, ldmatrix), and each warpgroup all of whose threads wait at
/// one wgmma.mma_async. Fails if they wait at different ones, or the op
/// is not one the simulator implements.
bool Executor::completeWarps() {
  int32_t n = static_cast<int32_t>(threads.size());
  // wgmma: the 128 threads of a warpgroup.
  for (int32_t first = 0; first + kWarpgroupSize <= n; first += kWarpgroupSize) {
    const Thread &lead = threads[first];
    bool all = true;
    for (int32_t i = first; i < first + kWarpgroupSize; ++i)
      all &= threads[i].state == State::AtWarp && threads[i].warpOp == WarpOp::Wgmma;
    if (!all)
      continue;
    for (int32_t i = first; i < first + kWarpgroupSize; ++i) {
      const Thread &t = threads[i];
      if (t.waitSite != lead.waitSite || !(t.wg == lead.wg)) {
        current = &threads[i];
        error = where(t) + ": threads of warpgroup " + std::to_string(first / kWarpgroupSize) +
                " wait at different wgmma.mma_async instructions (or descriptors): '" +
                site(t.waitSite) + "' here and '" + site(lead.waitSite) + "' in its thread 0";
        return false;
      }
    }
    if (!completeWgmma(first))
      return false;
    for (int32_t i = first; i < first + kWarpgroupSize; ++i)
      threads[i].state = State::Ready;
  }
  for (int32_t w = 0; w * kWarpSize < n; ++w) {
    int32_t first = w * kWarpSize, end = std::min(n, first + kWarpSize);
    bool all = end - first == kWarpSize;
    for (int32_t i = first; i < end; ++i)
      all &= threads[i].state == State::AtWarp && threads[i].warpOp != WarpOp::Wgmma;
    if (!all)
      continue;
    Thread &lead = threads[first];
    for (int32_t i = first; i < end; ++i) {
      const Thread &t = threads[i];
      bool same =
          t.waitSite == lead.waitSite && t.warpOp == lead.warpOp &&
          (t.warpOp == WarpOp::Mma ? t.mma == lead.mma
                                   : t.ldmCount == lead.ldmCount && t.ldmTrans == lead.ldmTrans);
      if (!same) {
        current = &threads[i];
        error = where(t) + ": lanes of warp " + std::to_string(w) + " wait at different " +
                warpOpName(lead.warpOp) + " instructions: '" + site(t.waitSite) + "' here and '" +
                site(lead.waitSite) + "' in lane 0";
        return false;
      }
    }
    if (lead.warpOp == WarpOp::LdMatrix) {
      if (!completeLdMatrix(first))
        return false;
    } else {
      std::array<MmaLane, 32> lanes;
      for (int32_t i = 0; i < kWarpSize; ++i)
        lanes[i] = threads[first + i].regs;
      computeMma(lead.mma, lanes);
      counters.mmaFlops(2 * int64_t(lead.mma.m) * lead.mma.n * lead.mma.k);
      int32_t words = mmaRegisters(lead.mma, 'd');
      for (int32_t i = 0; i < kWarpSize; ++i)
        std::memcpy(threads[first + i].mmaResult, lanes[i].d.data(), 4 * words);
    }
    for (int32_t i = first; i < end; ++i)
      threads[i].state = State::Ready;
  }
  return true;
}

/// ldmatrix m8n8 .b16 for the warp starting at thread `first`: lane 8j + r
/// gives the address of row r of matrix j; lane l receives, per matrix,
/// row l/4's elements 2(l%4) and 2(l%4)+1 (trans: column l/4's elements of
/// rows 2(l%4) and 2(l%4)+1), the first in the low half of the register.
bool Executor::completeLdMatrix(int32_t first) {
  const Thread &lead = threads[first];
  int32_t count = lead.ldmCount;
  for (int32_t l = 0; l < 8 * count; ++l) {
    Thread &t = threads[first + l];
    current = &t;
    const MemRegion *r = regionOf(sharedRegions, t.ldmRow, 16);
    if (!r || (t.ldmRow - sharedBase) % 16 != 0) {
      error = where(t) + ": ldmatrix row address " +
              (r ? sharedByte(t.ldmRow) + " is not 16-byte aligned"
                 : llvm::formatv("{0:x} is not 16 bytes inside shared memory", t.ldmRow).str()) +
              " ('" + site(t.waitSite) + "')";
      return false;
    }
    // (a fault here longjmps or switches away like any other)
    uintptr_t p = t.ldmRow;
    std::string why;
    for (int64_t i = 0; i < 16 && why.empty(); ++i)
      why = unpublishedCopy(p - sharedBase + i, t.linear);
    if (!why.empty()) {
      error = where(t) + ": ldmatrix reads " + sharedByte(p) + ", " + why + " ('" +
              site(t.waitSite) + "')";
      return false;
    }
  }
  if (counters.countsMemory()) {
    std::vector<uint64_t> rows;
    for (int32_t l = 0; l < 8 * count; ++l)
      rows.push_back(threads[first + l].ldmRow - sharedBase);
    counters.matrixRows(rows);
  }
  auto element = [&](int32_t rowLane, int32_t col) {
    uint16_t v;
    std::memcpy(&v, reinterpret_cast<const void *>(threads[first + rowLane].ldmRow + 2 * col), 2);
    return static_cast<uint32_t>(v);
  };
  for (int32_t l = 0; l < kWarpSize; ++l)
    for (int32_t j = 0; j < count; ++j) {
      uint32_t half[2];
      for (int32_t h = 0; h < 2; ++h)
        half[h] = lead.ldmTrans ? element(8 * j + 2 * (l % 4) + h, l / 4)
                                : element(8 * j + l / 4, 2 * (l % 4) + h);
      threads[first + l].ldmResult[j] = half[0] | (half[1] << 16);
    }
  return true;
}

/// wgmma.mma_async m64nNk16 for the warpgroup starting at thread `first`:
/// A and B read from shared memory where the descriptors say (each byte
/// must hold published data that a fence.proxy.async has made visible to
/// the async proxy), D = A * B (+ C) computed now with f32 fma in k order
/// (the tensor core's order is not documented; exact for exact sums), and
/// the bytes read stay reserved until a wgmma.wait_group retires the op.
bool Executor::completeWgmma(int32_t first) {
  Thread &lead = threads[first];
  current = &lead;
  const WgmmaDesc &d = lead.wg;
  std::string at = " ('" + site(lead.waitSite) + "')";
  WgmmaTile tiles[2] = {decodeWgmmaDescriptor(d.descA, d.flags & kWgmmaTransA),
                        decodeWgmmaDescriptor(d.descB, d.flags & kWgmmaTransB)};
  for (int32_t i = 0; i < 2; ++i)
    if (std::string why = checkWgmmaTile(tiles[i], "AB"[i]); !why.empty()) {
      error = where(lead) + ": " + why + at;
      return false;
    }
  auto issue = std::make_shared<WgmmaIssue>();
  issue->site = lead.waitSite;
  int32_t type = d.types & 0xF;
  // Element (mn, k) of operand `which` (0: A, 1: B), checked.
  std::string why;
  auto read = [&](int32_t which, int32_t mn, int32_t k) -> float {
    uint64_t a = wgmmaElementAddress(tiles[which], mn, k, 2);
    std::string name = llvm::formatv("{0}({1}, {2})", "AB"[which], which ? k : mn, which ? mn : k);
    uintptr_t p = sharedBase + a;
    if (!regionOf(sharedRegions, p, 2)) {
      why = llvm::formatv("wgmma reads {0} at shared byte {1}, outside every shared variable", name,
                          a);
      return 0;
    }
    for (int64_t i = 0; i < 2 && why.empty(); ++i) {
      // The warpgroup reads for all its threads: even the copying thread's
      // own landed bytes need the barrier.
      if (std::string copy = unpublishedCopy(a + i, kCollective); !copy.empty())
        why = llvm::formatv("wgmma reads {0} at {1}, {2}", name, sharedByte(p + i), copy);
      else if (unfencedBy[a + i] >= 0)
        why = llvm::formatv("wgmma reads {0} at {1}, which thread {2} wrote with no "
                            "fence.proxy.async since (wgmma reads through the async proxy)",
                            name, sharedByte(p + i), unfencedBy[a + i]);
    }
    issue->reads.push_back({static_cast<int64_t>(a), 2});
    uint16_t bits;
    std::memcpy(&bits, reinterpret_cast<const void *>(p), 2);
    return wgmmaElement(bits, type);
  };
  int32_t n = d.n;
  std::vector<float> A(64 * 16), B(16 * n), D(64 * n, 0.0f);
  for (int32_t m = 0; m < 64 && why.empty(); ++m)
    for (int32_t k = 0; k < 16 && why.empty(); ++k)
      A[m * 16 + k] = read(0, m, k) * (d.flags & kWgmmaNegA ? -1.0f : 1.0f);
  for (int32_t j = 0; j < n && why.empty(); ++j)
    for (int32_t k = 0; k < 16 && why.empty(); ++k)
      B[k * n + j] = read(1, j, k) * (d.flags & kWgmmaNegB ? -1.0f : 1.0f);
  if (!why.empty()) {
    error = where(lead) + ": " + why + at;
    return false;
  }
  auto bitsOf = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  if (d.flags & kWgmmaScaleD)
    for (int32_t t = 0; t < kWarpgroupSize; ++t)
      for (int32_t i = 0; i < n / 2; ++i) {
        auto [row, col] = wgmmaAccumulator(t, i);
        std::memcpy(&D[row * n + col], &threads[first + t].wgAcc[i], 4);
      }
  for (int32_t m = 0; m < 64; ++m)
    for (int32_t j = 0; j < n; ++j)
      for (int32_t k = 0; k < 16; ++k)
        D[m * n + j] = std::fma(A[m * 16 + k], B[k * n + j], D[m * n + j]);
  for (int32_t t = 0; t < kWarpgroupSize; ++t) {
    Thread &th = threads[first + t];
    for (int32_t i = 0; i < n / 2; ++i) {
      auto [row, col] = wgmmaAccumulator(t, i);
      th.wgResult[i] = bitsOf(D[row * n + col]);
    }
    th.wgOpen.push_back(issue);
    if (th.wgLast.size() <= static_cast<size_t>(th.wgId))
      th.wgLast.resize(th.wgId + 1);
    th.wgLast[th.wgId] = issue;
  }
  for (auto [offset, bytes] : issue->reads)
    for (int64_t i = 0; i < bytes; ++i)
      ++wgmmaReaders[offset + i];
  // Each operand as its 8x8 core matrices (PTX ISA 9.7.15.5.1): 16-byte
  // rows of 8 elements along the tile's contiguous direction, the matrix's
  // 8 rows along the other.
  for (int32_t which = 0; which < 2 && counters.countsMemory(); ++which) {
    const WgmmaTile &tile = tiles[which];
    int32_t extent = which ? n : 64; // A's M or B's N
    std::vector<uint64_t> rows;
    for (int32_t mn = 0; mn < extent; mn += 8)
      for (int32_t k = 0; k < 16; k += 8)
        for (int32_t r = 0; r < 8; ++r)
          rows.push_back(tile.mnMajor ? wgmmaElementAddress(tile, mn, k + r, 2)
                                      : wgmmaElementAddress(tile, mn + r, k, 2));
    counters.matrixRows(rows);
  }
  counters.wgmmaFlops(2 * int64_t(64) * n * 16);
  return true;
}

std::string Executor::describeState(const Executor &e, const Thread &t) {
  switch (t.state) {
  case State::Done:
    return "exited";
  case State::AtBarrier:
  case State::AtWarp:
  case State::AtMbarrier:
  case State::AtClusterWait:
    return "waits at '" + e.site(t.waitSite) + "'";
  default:
    return "is running";
  }
}

/// Why no thread of the block can go on, naming one thread that is stuck.
std::string Executor::describeDeadlock() const {
  auto state = [&](const Thread &t) { return describeState(*this, t); };
  int32_t n = static_cast<int32_t>(threads.size());
  // A warpgroup that cannot complete its wgmma, or a warp its mma.sync or
  // ldmatrix: the group is short, or one of its threads is elsewhere.
  auto incomplete = [&](int32_t size, const char *group, const char *member,
                        function_ref<bool(const Thread &)> waits) -> std::optional<std::string> {
    for (const Thread &t : threads) {
      if (!waits(t))
        continue;
      int32_t first = t.linear / size * size, end = std::min(n, first + size);
      if (end - first < size)
        return llvm::formatv("{0}: '{1}' needs all {2} {3}s of a {4}, but {4} {5} has {6} "
                             "threads (block size {7})",
                             where(t), site(t.waitSite), size, member, group, t.linear / size,
                             end - first, str(spec.block))
            .str();
      for (int32_t i = first; i < end; ++i)
        if (!waits(threads[i]))
          return llvm::formatv("{0}: {1} not reached by all {2}s of {3} {4}: {2} {5} {6}, "
                               "while {2} {7} waits at '{8}'",
                               where(threads[i]), warpOpName(t.warpOp), member, group,
                               t.linear / size, i - first, state(threads[i]), t.linear - first,
                               site(t.waitSite))
              .str();
    }
    return std::nullopt;
  };
  if (auto why = incomplete(kWarpgroupSize, "warpgroup", "thread", [](const Thread &t) {
        return t.state == State::AtWarp && t.warpOp == WarpOp::Wgmma;
      }))
    return *why;
  if (auto why = incomplete(kWarpSize, "warp", "lane",
                            [](const Thread &t) { return t.state == State::AtWarp; }))
    return *why;
  // An mbarrier phase that nothing left can complete.
  for (const Thread &t : threads) {
    if (t.state != State::AtMbarrier)
      continue;
    auto it = mbarriers.find(t.mbarrierWait);
    std::string state = it == mbarriers.end() ? "gone" : it->second.describe();
    return llvm::formatv("{0}: waits at '{1}' for phase {2} of the mbarrier at {3} to "
                         "complete, and no thread can run to complete it ({4})",
                         where(t), site(t.waitSite), t.waitUntil - 1,
                         sharedByte(sharedBase + t.mbarrierWait), state)
        .str();
  }
  // A barrier some threads never reach.
  const Thread *waiting = nullptr;
  for (const Thread &t : threads)
    if (t.state == State::AtBarrier && !waiting)
      waiting = &t;
  if (!waiting)
    return "kernel " + spec.kernel + ", block " + str(ctaid) + ": the block cannot make progress";
  int64_t arrived = 0;
  for (const Thread &t : threads)
    arrived += t.state == State::AtBarrier && t.waitSite == waiting->waitSite;
  for (const Thread &t : threads)
    if (t.state != State::AtBarrier || t.waitSite != waiting->waitSite)
      return llvm::formatv("{0}: barrier not reached by all threads: {1} of {2} threads "
                           "wait at '{3}'; this thread {4}",
                           where(t), arrived, n, site(waiting->waitSite), state(t));
  return where(*waiting) + ": the block cannot make progress";
}

void Executor::startFibers() {
  for (Thread &t : threads) {
    resetThread(t);
    prepareFiber(t.fiber, t.stack, kFiberStack, &Executor::fiberMain);
  }
}

LogicalResult Executor::runReady() {
  for (Thread &t : threads) {
    if (t.state != State::Ready)
      continue;
    current = &t;
    switchFiber(scheduler, t.fiber);
    if (t.state == State::Faulted)
      return failure();
    events += t.state == State::Done;
  }
  return success();
}

void Executor::wakeMbarrierWaiters(bool &polling) {
  for (Thread &t : threads)
    if (t.state == State::AtMbarrier) {
      auto it = mbarriers.find(t.mbarrierWait);
      if (it == mbarriers.end() || it->second.phase >= t.waitUntil)
        t.state = State::Ready;
      polling |= t.polling && t.state == State::AtMbarrier;
    }
}

void Executor::wakePollers() {
  for (Thread &t : threads)
    if (t.state == State::AtMbarrier && t.polling)
      t.state = State::Ready;
}

bool Executor::releaseBarrier() {
  bool release = !threads.empty();
  for (Thread &t : threads)
    release &= t.state == State::AtBarrier && t.waitSite == threads.front().waitSite;
  if (!release)
    return false;
  publishLanded();
  ++events;
  for (Thread &t : threads)
    t.state = State::Ready;
  return true;
}

llvm::Error Executor::allocateStacks() {
  size_t page = getpagesize();
  for (auto [i, t] : llvm::enumerate(threads)) {
    void *mem = mmap(nullptr, kFiberStack + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
      return llvm::createStringError("cannot map a stack for simulated thread " + Twine(i));
    mprotect(mem, page, PROT_NONE); // a stack overflow faults instead of corrupting
    t.stack = static_cast<char *>(mem) + page;
    int32_t linear = static_cast<int32_t>(i);
    t.linear = linear;
    t.tid = {linear % spec.block.x, linear / spec.block.x % spec.block.y,
             linear / (spec.block.x * spec.block.y)};
  }
  return llvm::Error::success();
}

} // namespace mlir::uop::sim::detail
