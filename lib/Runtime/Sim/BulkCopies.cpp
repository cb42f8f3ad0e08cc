//===- BulkCopies.cpp - mbarrier ops and the bulk copies they complete ----===//
//
// A block's mbarriers (init, arrive, expect/complete_tx, waits, inval), and
// the cp.async.bulk and TMA tensor copies whose bytes land when a phase of
// one completes, in this block or (multicast) in others of its cluster.
// MBarrier.h holds one mbarrier's phase arithmetic; docs/simulator.md the
// rules.
//
//===----------------------------------------------------------------------===//

#include "BlockExecutor.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace mlir::uop::sim::detail {

int64_t Executor::mbarrierOffset(uintptr_t p, StringRef op, int32_t site) {
  if (!regionOf(sharedRegions, p, 8))
    fault(llvm::formatv("{0} of an mbarrier at {1:x}, not 8 bytes of a shared variable ('{2}')", op,
                        p, this->site(site))
              .str());
  int64_t offset = static_cast<int64_t>(p - sharedBase);
  if (offset % 8)
    fault(llvm::formatv("{0} of an mbarrier at {1}: mbarriers are 8-byte aligned ('{2}')", op,
                        sharedByte(p), this->site(site))
              .str());
  return offset;
}

std::pair<int64_t, MBarrierState *> Executor::mbarrier(uintptr_t p, StringRef op, int32_t site) {
  int64_t offset = mbarrierOffset(p, op, site);
  auto it = mbarriers.find(offset);
  if (it == mbarriers.end())
    fault(llvm::formatv("{0} of an mbarrier at {1}, where no mbarrier.init has made one (or "
                        "mbarrier.inval has ended it) ('{2}')",
                        op, sharedByte(p), this->site(site))
              .str());
  return {offset, &it->second};
}

void Executor::require(const std::string &why, int32_t site) {
  if (!why.empty())
    fault(why + " ('" + this->site(site) + "')");
}

void Executor::refuseWithCopiesInFlight(int64_t offset, StringRef op, int32_t site) {
  for (const BulkCopy &c : bulkInFlight)
    if (c.mbarrier == offset)
      fault((op + " of an mbarrier that a cp.async.bulk in flight completes on ('" +
             this->site(site) + "')")
                .str());
}

void Executor::mbarrierInit(int32_t site, uintptr_t p, int32_t count) {
  int64_t offset = mbarrierOffset(p, "mbarrier.init", site);
  refuseWithCopiesInFlight(offset, "mbarrier.init", site);
  MBarrierState state;
  require(state.init(count), site);
  ++events;
  mbarriers[offset] = state;
  current->unreleasedInits.push_back(offset);
  // Its phases count from 0 again: what threads saw of the old ones, and
  // what landed with them, is history (ordered before this init).
  for (Thread &t : threads)
    t.seenPhases.erase(offset);
  for (BulkLanding &l : landings)
    l.published |= l.mbarrier == offset;
}

int64_t Executor::mbarrierArrive(int32_t site, uintptr_t p, int32_t count, int32_t tx) {
  if (!regionOf(sharedRegions, p, 8))
    if (Executor *owner = remoteOwner(p, 8))
      return owner->remoteArrive(site, p, count, *current);
  auto [offset, mb] = mbarrier(p, tx ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive", site);
  if (tx)
    require(mb->addTx(tx), site);
  int64_t token = mb->phase;
  require(mb->arrive(count), site);
  ++events;
  completePhase(offset, *mb);
  return token;
}

int64_t Executor::remoteArrive(int32_t site, uintptr_t p, int32_t count, const Thread &by) {
  std::string at = " ('" + this->site(site) + "')";
  if (exited())
    fault("a remote mbarrier.arrive on " + sharedByte(p) + ", whose threads have all exited" + at);
  auto [offset, mb] = mbarrier(p, "a remote mbarrier.arrive", site);
  if (!mb->releasedTo(by.clusterWaits))
    fault("a remote mbarrier.arrive on the mbarrier at " + sharedByte(p) +
          " before a barrier.cluster has ordered its mbarrier.init before it (the "
          "initializing thread's next cluster arrive, with a fence.mbarrier_init if it is "
          "relaxed, then this thread's cluster wait)" +
          at);
  return mbarrierArrive(site, p, count, 0);
}

void Executor::mbarrierTx(int32_t site, uintptr_t p, int32_t tx) {
  auto [offset, mb] = mbarrier(p, tx > 0 ? "mbarrier.expect_tx" : "mbarrier.complete_tx", site);
  require(mb->addTx(tx), site);
  ++events;
  completePhase(offset, *mb);
}

void Executor::seePhases(int64_t offset, uint32_t phases) {
  uint32_t &seen = current->seenPhases[offset];
  seen = std::max(seen, phases);
  for (BulkLanding &l : landings)
    l.seenByAny |= l.mbarrier == offset && l.phase < phases;
}

uint32_t Executor::phaseEnd(const MBarrierState &mb, int64_t stateOrParity, bool parity) {
  if (!parity)
    return static_cast<uint32_t>(stateOrParity) + 1;
  return mb.parityDone(stateOrParity) ? mb.phase : mb.phase + 1;
}

int32_t Executor::mbarrierTest(int32_t site, uintptr_t p, int64_t stateOrParity, int32_t parity) {
  auto [offset, mb] = mbarrier(p, "mbarrier.test_wait", site);
  uint32_t end = phaseEnd(*mb, stateOrParity, parity);
  if (mb->phase < end) {
    current->mbarrierWait = offset;
    current->waitUntil = end;
    current->polling = true;
    wait(State::AtMbarrier, site);
    current->polling = false;
    std::tie(offset, mb) = mbarrier(p, "mbarrier.test_wait", site);
  }
  if (mb->phase < end)
    return 0;
  seePhases(offset, end);
  return 1;
}

void Executor::mbarrierWait(int32_t site, uintptr_t p, int32_t parity) {
  while (true) {
    auto [offset, mb] = mbarrier(p, "mbarrier.try_wait.parity", site);
    uint32_t end = phaseEnd(*mb, parity, /*parity=*/true);
    if (mb->phase >= end) {
      seePhases(offset, end);
      return;
    }
    current->mbarrierWait = offset;
    current->waitUntil = end;
    wait(State::AtMbarrier, site);
  }
}

void Executor::mbarrierInval(int32_t site, uintptr_t p) {
  int64_t offset = mbarrier(p, "mbarrier.inval", site).first;
  refuseWithCopiesInFlight(offset, "mbarrier.inval", site);
  mbarriers.erase(offset);
  ++events;
}

void Executor::completePhase(int64_t offset, MBarrierState &mb) {
  if (!mb.completeIfDone())
    return;
  auto lands = [&](const BulkCopy &c) { return c.mbarrier == offset; };
  for (const BulkCopy &c : bulkInFlight) {
    if (!lands(c))
      continue;
    std::memcpy(reinterpret_cast<void *>(c.dst), c.data.data(), c.data.size());
    int64_t at = static_cast<int64_t>(c.dst - sharedBase);
    std::fill_n(sharedState.begin() + at, c.data.size(), 0u);
    std::fill_n(bulkLanding.begin() + at, c.data.size(), static_cast<int32_t>(landings.size()));
    landings.push_back({offset, mb.phase - 1});
  }
  llvm::erase_if(bulkInFlight, lands);
}

void Executor::bulkCopy(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes, uintptr_t mbar,
                        int32_t mask) {
  std::string at = " ('" + this->site(site) + "')";
  if (bytes <= 0 || bytes % 16)
    fault("cp.async.bulk copies a positive multiple of 16 bytes, not " + std::to_string(bytes) +
          at);
  const MemRegion *to = regionOf(sharedRegions, dst, bytes);
  const MemRegion *from = regionOf(spec.globals, src, bytes);
  if (!to)
    fault(llvm::formatv("cp.async.bulk writes {0} bytes at {1:x}, outside every shared "
                        "variable{2}",
                        bytes, dst, at)
              .str());
  if (!from)
    fault(llvm::formatv("cp.async.bulk reads {0} bytes at {1:x}, outside every buffer{2}", bytes,
                        src, at)
              .str());
  if ((dst - sharedBase) % 16 || (src - from->begin) % 16)
    fault(llvm::formatv("cp.async.bulk from byte {0} of {1} to {2}: both must be 16-byte "
                        "aligned{3}",
                        src - from->begin, from->name, sharedByte(dst), at)
              .str());
  counters.global(counterId(*current), site, occurrence(site), Counters::Kind::AsyncLoad, src,
                  bytes, static_cast<int32_t>(from - spec.globals.data()));
  deliverBulk("cp.async.bulk", site, dst, mbar, mask,
              std::vector<uint8_t>(reinterpret_cast<const uint8_t *>(src),
                                   reinterpret_cast<const uint8_t *>(src) + bytes));
}

void Executor::tensorCopy(int32_t site, uintptr_t dst, uintptr_t mapAddress, uintptr_t mbar,
                          int32_t mask, int32_t rank, std::array<int32_t, 5> coords) {
  std::string at = " ('" + this->site(site) + "')";
  auto arg = llvm::find_if(spec.tensorMaps,
                           [&](const TensorMapArg &m) { return m.address == mapAddress; });
  if (arg == spec.tensorMaps.end())
    fault(llvm::formatv("cp.async.bulk.tensor with a tensor map at {0:x}, which is none of the "
                        "{1} the runtime made for the kernel (its last parameters){2}",
                        mapAddress, spec.tensorMaps.size(), at)
              .str());
  const TensorMapSpec &map = arg->map;
  if (rank != static_cast<int32_t>(map.sizes.size()))
    fault(llvm::formatv("a {0}d cp.async.bulk.tensor with tensor map {1}, which has {2} "
                        "dimensions{3}",
                        rank, arg - spec.tensorMaps.begin(), map.sizes.size(), at)
              .str());
  const MemRegion *to = regionOf(sharedRegions, dst, map.boxBytes);
  if (!to)
    fault(llvm::formatv("cp.async.bulk.tensor writes its {0}-byte box at {1:x}, outside every "
                        "shared variable{2}",
                        map.boxBytes, dst, at)
              .str());
  // The CUDA Programming Guide's alignment ("Using the Tensor Memory
  // Accelerator"); the swizzle, of the address, then stays in the box.
  if ((dst - sharedBase) % 128)
    fault(llvm::formatv("cp.async.bulk.tensor writes its box at {0}, which is not 128-byte "
                        "aligned{1}",
                        sharedByte(dst), at)
              .str());
  TensorBox box =
      gatherTensorBox(map, reinterpret_cast<const uint8_t *>(arg->buffer),
                      llvm::ArrayRef<int32_t>(coords).take_front(rank), dst - sharedBase);
  // One request, however many rows it reads.
  uint32_t n = occurrence(site);
  int32_t buffer = static_cast<int32_t>(map.buffer);
  for (auto [byte, bytes] : box.reads)
    counters.global(counterId(*current), site, n, Counters::Kind::AsyncLoad, arg->buffer + byte,
                    static_cast<int32_t>(bytes), buffer);
  deliverBulk("cp.async.bulk.tensor", site, dst, mbar, mask, std::move(box.data));
}

void Executor::checkBulkTarget(StringRef op, uintptr_t dst, int64_t bytes, int32_t site) {
  int64_t first = static_cast<int64_t>(dst - sharedBase);
  for (int64_t i = 0; i < bytes; ++i)
    if (sharedState[first + i] & (kPending | kBulk))
      fault(llvm::formatv("{0} writes {1}, the target of a {2} of thread {3} still "
                          "in flight ('{4}')",
                          op, sharedByte(dst + i),
                          sharedState[first + i] & kBulk ? "cp.async.bulk" : "cp.async",
                          sharedState[first + i] & kOwnerMask, this->site(site))
                .str());
  checkNotMBarrier(dst, bytes, site);
  checkNoWgmmaReads(
      dst, bytes, [&] { return (op + " writes").str(); }, site);
}

void Executor::startBulk(int32_t site, uintptr_t dst, std::vector<uint8_t> data, int64_t offset,
                         MBarrierState &mb, int32_t issuer) {
  int64_t bytes = static_cast<int64_t>(data.size());
  counters.sharedBulkStore(bytes);
  std::fill_n(sharedState.begin() + static_cast<int64_t>(dst - sharedBase), bytes,
              kBulk | static_cast<uint32_t>(issuer));
  bulkInFlight.push_back({offset, dst, std::move(data)});
  require(mb.addTx(-bytes), site);
  ++events;
  completePhase(offset, mb);
}

} // namespace mlir::uop::sim::detail
