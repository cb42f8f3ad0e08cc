//===- SharedAsync.cpp - cp.async and wgmma's hold on shared memory -------===//
//
// What a block tracks of its shared bytes for the asynchronous ops that are
// not bulk copies: cp.async's copies in flight and landed (published by a
// barrier), and the bytes an unretired wgmma reads or that a thread wrote
// without fence.proxy.async. docs/simulator.md, "Semantics".
//
//===----------------------------------------------------------------------===//

#include "BlockExecutor.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace mlir::uop::sim::detail {

void Executor::cpAsync(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes,
                       int32_t srcBytes) {
  std::string at = " ('" + this->site(site) + "')";
  if (bytes != 4 && bytes != 8 && bytes != 16)
    fault("cp.async copies 4, 8 or 16 bytes, not " + std::to_string(bytes) + at);
  if (srcBytes < 0 || srcBytes > bytes)
    fault("cp.async reads " + std::to_string(srcBytes) + " of " + std::to_string(bytes) + " bytes" +
          at);
  const MemRegion *to = regionOf(sharedRegions, dst, bytes);
  const MemRegion *from = regionOf(spec.globals, src, srcBytes ? srcBytes : 1);
  if (!to)
    fault(llvm::formatv("cp.async writes {0} bytes at {1:x}, outside shared memory{2}", bytes, dst,
                        at)
              .str());
  if (srcBytes && !from)
    fault(llvm::formatv("cp.async reads {0} bytes at {1:x}, in no buffer{2}", srcBytes, src, at)
              .str());
  if ((dst - sharedBase) % bytes != 0 || (srcBytes && (src - from->begin) % bytes != 0))
    fault(llvm::formatv("cp.async of {0} bytes from byte {1} of {2} to {3}: both must be "
                        "{0}-byte aligned{4}",
                        bytes, srcBytes ? src - from->begin : 0, srcBytes ? from->name : "nothing",
                        sharedByte(dst), at)
              .str());
  Thread &t = *current;
  auto what = [] { return std::string("cp.async writes"); };
  checkShared(dst, bytes, t.linear, what, site);
  checkNoWgmmaReads(dst, bytes, what, site);
  uint32_t n = occurrence(site);
  if (srcBytes)
    counters.global(counterId(t), site, n, Counters::Kind::AsyncLoad, src, srcBytes,
                    static_cast<int32_t>(from - spec.globals.data()));
  counters.shared(counterId(t), site, n, /*store=*/true, dst - sharedBase, bytes);
  AsyncCopy c;
  c.dst = dst;
  c.bytes = bytes;
  std::memcpy(c.data.data(), reinterpret_cast<const void *>(src), srcBytes);
  for (int64_t i = 0; i < bytes; ++i)
    sharedState[dst - sharedBase + i] = kPending | static_cast<uint32_t>(t.linear);
  t.openGroup.push_back(c);
}

void Executor::cpAsyncWait(int32_t pending) {
  Thread &t = *current;
  while (static_cast<int64_t>(t.groups.size()) > std::max<int32_t>(pending, 0)) {
    for (const AsyncCopy &c : t.groups.front()) {
      sharedWritten(c.dst, c.bytes, [] { return std::string("a cp.async lands at"); });
      std::memcpy(reinterpret_cast<void *>(c.dst), c.data.data(), c.bytes);
      for (int64_t i = 0; i < c.bytes; ++i)
        sharedState[c.dst - sharedBase + i] = kLanded | static_cast<uint32_t>(t.linear);
      overwritten(c.dst - sharedBase, c.bytes);
      landed.push_back({static_cast<int64_t>(c.dst - sharedBase), c.bytes});
    }
    t.groups.pop_front();
  }
}

void Executor::checkNoWgmmaReads(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                                 int32_t writer) {
  if (!spec.usesWgmma || p < sharedBase || p - sharedBase + bytes > wgmmaReaders.size())
    return;
  for (int64_t i = 0; i < bytes; ++i)
    if (wgmmaReaders[p - sharedBase + i])
      fault(llvm::formatv("{0} {1}, which a wgmma.mma_async in flight reads: no "
                          "wgmma.wait_group has retired it{2}",
                          what(), sharedByte(p + i),
                          writer >= 0 ? " ('" + site(writer) + "')" : std::string())
                .str());
}

void Executor::sharedWritten(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                             int32_t writer) {
  if (!spec.usesWgmma || p < sharedBase || p - sharedBase + bytes > unfencedBy.size())
    return;
  checkNoWgmmaReads(p, bytes, what, writer);
  int64_t offset = static_cast<int64_t>(p - sharedBase);
  for (int64_t i = 0; i < bytes; ++i)
    unfencedBy[offset + i] = current->linear;
  current->unfenced.push_back({offset, bytes});
}

void Executor::fenceProxyAsync() {
  Thread &t = *current;
  for (auto [offset, bytes] : t.unfenced)
    for (int64_t i = 0; i < bytes; ++i)
      if (unfencedBy[offset + i] == t.linear)
        unfencedBy[offset + i] = -1;
  t.unfenced.clear();
}

void Executor::wgmmaWait(int32_t pending) {
  Thread &t = *current;
  while (static_cast<int64_t>(t.wgGroups.size()) > std::max<int32_t>(pending, 0)) {
    for (const std::shared_ptr<WgmmaIssue> &issue : t.wgGroups.front())
      if (!issue->retired) {
        issue->retired = true;
        for (auto [offset, bytes] : issue->reads)
          for (int64_t i = 0; i < bytes; ++i)
            --wgmmaReaders[offset + i];
      }
    t.wgGroups.pop_front();
  }
  t.wgFenced = false; // registers may be touched again: fence before the next
}

std::string Executor::unpublishedCopy(int64_t offset, int32_t reader) const {
  uint32_t st = sharedState[offset];
  int32_t owner = static_cast<int32_t>(st & kOwnerMask);
  if (st & kPending)
    return "the target of a cp.async of thread " + std::to_string(owner) +
           " that no cp.async.wait_group has completed";
  if ((st & kLanded) && owner != reader)
    return "written by a cp.async of thread " + std::to_string(owner) +
           " that no barrier has published";
  if (st & kBulk)
    return "the target of a cp.async.bulk of thread " + std::to_string(owner) +
           " whose mbarrier phase has not completed";
  if (int32_t l = bulkLanding[offset]; l >= 0 && !bulkVisible(l, reader))
    return llvm::formatv("landed by a cp.async.bulk when phase {0} of the mbarrier at {1} "
                         "completed, which {2}",
                         landings[l].phase, sharedByte(sharedBase + landings[l].mbarrier),
                         reader == kCollective ? "no thread has waited for"
                         : reader == kRemote
                             ? "no barrier.cluster has published to the other blocks"
                             : "this thread has not waited for, and no barrier has published")
        .str();
  return "";
}

void Executor::overwritten(int64_t offset, int64_t bytes) {
  std::fill_n(bulkLanding.begin() + offset, bytes, -1);
}

void Executor::publishLanded() {
  for (auto [offset, bytes] : landed)
    for (int64_t i = 0; i < bytes; ++i)
      if (sharedState[offset + i] & kLanded)
        sharedState[offset + i] = 0;
  landed.clear();
  // A thread that saw a bulk copy's phase complete reached the barrier:
  // its bytes are ordered before every thread's next access.
  for (BulkLanding &l : landings)
    l.published |= l.seenByAny;
}

} // namespace mlir::uop::sim::detail
