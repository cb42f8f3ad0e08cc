//===- BlockExecutor.h - one simulated block, and its cluster ---*- C++ -*-===//
//
// The simulator's state for one block (CTA) of a launch: its threads (each
// a fiber when threads must meet), its shared memory and what is tracked
// of each byte (copies in flight, landed and unpublished, mbarriers,
// wgmma readers), and the simulator ABI's implementation for the thread
// that runs; and the Cluster that runs its blocks together. Private to
// lib/Runtime/Sim: BlockExecutor.cpp runs a block's fibers and completes
// its warp ops, Cluster.cpp runs a cluster, Executor.cpp launches the grid.
// docs/simulator.md describes the design.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_RUNTIME_SIM_BLOCKEXECUTOR_H
#define UOP_LIB_RUNTIME_SIM_BLOCKEXECUTOR_H

#include "Counters.h"
#include "Executor.h"
#include "Fiber.h"
#include "MBarrier.h"
#include "Mma.h"
#include "TensorCopy.h"
#include "Wgmma.h"

#include "uop/Conversion/NVVMToSim/SimABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <csetjmp>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <sys/mman.h>
#include <unistd.h>

namespace mlir::uop::sim::detail {

constexpr int32_t kWarpSize = 32;
constexpr int32_t kWarpgroupSize = 128;
constexpr size_t kFiberStack = 256 << 10;   // virtual; pages are touched on use
constexpr int64_t kPrivateBytes = 64 << 10; // per thread, for llvm.alloca

enum class State { Ready, AtBarrier, AtWarp, AtMbarrier, AtClusterWait, Done, Faulted };

/// Readers unpublishedCopy and bulkVisible take besides a thread of the
/// block: every thread (a warp-collective read), or a thread of another
/// block of the cluster (through a shared::cluster address).
constexpr int32_t kCollective = -1, kRemote = -2;

/// The warp-collective ops: all 32 lanes of a warp must reach one (all 128
/// threads of a warpgroup for wgmma).
enum class WarpOp { Mma, LdMatrix, Wgmma };

/// A warpgroup's wgmma.mma_async, issued: the shared bytes it reads until
/// a wgmma.wait_group of one of its threads retires it.
struct WgmmaIssue {
  int32_t site = -1;
  bool retired = false;
  std::vector<std::pair<int64_t, int64_t>> reads; // (window offset, bytes)
};
using WgmmaGroup = std::vector<std::shared_ptr<WgmmaIssue>>;

/// A cp.async in flight: the bytes it read, and where they land.
struct AsyncCopy {
  uintptr_t dst = 0;
  int32_t bytes = 0;
  std::array<uint8_t, 16> data{};
};

/// A cp.async.bulk in flight: its bytes land when the phase of the mbarrier
/// it completes on completes.
struct BulkCopy {
  int64_t mbarrier = 0; // the mbarrier's shared offset
  uintptr_t dst = 0;
  std::vector<uint8_t> data;
};

/// Bytes a cp.async.bulk landed with the completion of phase `phase` of the
/// mbarrier at `mbarrier`: a thread reads them once it has seen that phase
/// complete (a wait on the mbarrier), or after a barrier that a thread
/// which had seen it reached.
struct BulkLanding {
  int64_t mbarrier = 0;
  uint32_t phase = 0;
  bool seenByAny = false, published = false;
};

/// One simulated GPU thread.
struct Thread {
  Dim3 tid;
  int32_t linear = 0;
  State state = State::Ready;
  int32_t waitSite = -1; // the barrier or warp op it waits at
  WarpOp warpOp = WarpOp::Mma;
  MmaDesc mma;
  MmaLane regs;
  uint32_t *mmaResult = nullptr;
  // ldmatrix: the row address this lane gives, and where its registers go.
  uintptr_t ldmRow = 0;
  int32_t ldmCount = 0, ldmTrans = 0;
  uint32_t *ldmResult = nullptr;
  // wgmma: the op, its accumulator words, where D goes; since the last
  // wgmma.wait_group, whether a wgmma.fence ran; its groups, the last issue
  // of each mma_async (by id), and the shared bytes it wrote since its last
  // fence.proxy.async.
  WgmmaDesc wg;
  int32_t wgId = 0;
  const uint32_t *wgAcc = nullptr;
  uint32_t *wgResult = nullptr;
  bool wgFenced = false;
  WgmmaGroup wgOpen;
  std::deque<WgmmaGroup> wgGroups;
  std::vector<std::shared_ptr<WgmmaIssue>> wgLast;
  std::vector<std::pair<int64_t, int64_t>> unfenced;
  // cp.async: the copies since the last commit, then the committed groups,
  // oldest first.
  std::vector<AsyncCopy> openGroup;
  std::deque<std::vector<AsyncCopy>> groups;
  // mbarriers: the phases it has seen complete, per mbarrier (shared
  // offset); in AtMbarrier, the mbarrier it waits at and the count of
  // completed phases that ends the wait, and whether it is a test_wait
  // (which may also end unsatisfied: polling).
  llvm::DenseMap<int64_t, uint32_t> seenPhases;
  int64_t mbarrierWait = -1;
  uint32_t waitUntil = 0;
  bool polling = false;
  // The cluster barrier: its arrivals and completed waits; the mbarriers it
  // initialized that no cluster arrive has released to the other blocks
  // yet, the first `fencedInits` of them covered by a fence.mbarrier_init.
  uint32_t clusterArrivals = 0, clusterWaits = 0;
  std::vector<int64_t> unreleasedInits;
  size_t fencedInits = 0;
  // Counters: its visits per basic block, its executions per site; all its
  // block visits.
  std::vector<uint32_t> visits, siteRuns;
  uint64_t blocksEntered = 0;
  std::vector<uint8_t> privateMemory;
  int64_t privateUsed = 0;
  std::vector<MemRegion> allocations;
  Fiber fiber;
  void *stack = nullptr; // mmap'ed, a guard page below
};

inline std::string str(Dim3 d) { return llvm::formatv("({0}, {1}, {2})", d.x, d.y, d.z).str(); }

/// What a shared byte holds besides its value: the target of a cp.async in
/// flight, or landed (after the issuing thread's wait) but not yet published
/// to the other threads by a barrier, or the target of a cp.async.bulk in
/// flight; with the issuing thread's index.
constexpr uint32_t kPending = 1u << 31, kLanded = 1u << 30, kBulk = 1u << 29,
                   kOwnerMask = kBulk - 1;

struct Executor;
struct Cluster;

/// The block whose thread runs (a fault is that thread's, whichever
/// block's memory it touched).
extern thread_local Executor *active;

/// One block (CTA): its threads, its shared memory and what the simulator
/// tracks of it.
struct Executor {
  const LaunchSpec &spec;
  Counters &counters;
  Cluster *cluster = nullptr;
  int32_t rank = 0;        // %cluster_ctarank
  int32_t counterBase = 0; // its threads' first number for the counters
  Dim3 ctaid, inCluster;   // %ctaid, %cluster_ctaid
  std::vector<uint8_t> sharedArena;
  uintptr_t sharedBase = 0;                        // the shared window's address 0
  int64_t sharedBytes = 0;                         // its size
  std::vector<uint32_t> sharedState;               // per byte of the window: kPending, kLanded
  std::vector<std::pair<int64_t, int64_t>> landed; // (offset, bytes) since the last barrier
  std::vector<MemRegion> sharedRegions;
  // With wgmma: per shared byte, the wgmma ops in flight that read it, and
  // the thread whose ordinary write no fence.proxy.async has ordered before
  // the async proxy (-1: none).
  std::vector<uint16_t> wgmmaReaders;
  std::vector<int32_t> unfencedBy;
  // The block's mbarriers by shared offset (initialized, not invalidated),
  // the bulk copies in flight, what they landed, and per shared byte the
  // landing (index) that wrote it last, or -1.
  std::map<int64_t, MBarrierState> mbarriers;
  std::vector<BulkCopy> bulkInFlight;
  std::vector<BulkLanding> landings;
  std::vector<int32_t> bulkLanding;
  // What could let a polling test_wait see something new: mbarrier
  // changes, barriers released, threads done; and its value when the
  // pollers were last resumed unsatisfied.
  uint64_t events = 0, eventsAtPoll = ~uint64_t(0);
  std::vector<Thread> threads;
  Thread *current = nullptr;
  bool fibers = false;
  Fiber scheduler; // the OS thread's stack, which runs the block's fibers
  jmp_buf directExit;
  std::string error;

  Executor(const LaunchSpec &spec, Counters &counters) : spec(spec), counters(counters) {}
  ~Executor() {
    for (Thread &t : threads)
      if (t.stack)
        munmap(static_cast<char *>(t.stack) - getpagesize(), kFiberStack + getpagesize());
  }

  std::string site(int32_t s) const {
    return s >= 0 && static_cast<size_t>(s) < spec.sites.size() ? spec.sites[s] : "an unknown op";
  }

  std::string where(const Thread &t) const {
    return llvm::formatv("kernel {0}, block {1}, thread {2}", spec.kernel, str(ctaid), str(t.tid))
        .str();
  }

  /// The current thread's number for the counters.
  int32_t counterId(const Thread &t) const { return counterBase + t.linear; }

  /// Whether every thread of the block has exited.
  bool exited() const {
    return llvm::all_of(threads, [](const Thread &t) { return t.state == State::Done; });
  }
  /// Whether a thread of the block can run now.
  bool hasReady() const {
    return llvm::any_of(threads, [](const Thread &t) { return t.state == State::Ready; });
  }

  /// Stops the current thread (the active block's) for good; the launch
  /// ends with `message`.
  [[noreturn]] void fault(const std::string &message) {
    if (this != active)
      active->fault(message);
    error = where(*current) + ": " + message;
    current->state = State::Faulted;
    if (fibers)
      switchFiber(current->fiber, scheduler, /*exiting=*/true);
    longjmp(directExit, 1);
  }

  /// Parks the current fiber until the scheduler resumes it.
  void wait(State state, int32_t site) {
    if (!fibers)
      fault("'" + this->site(site) +
            "' needs the other threads, but the kernel was compiled "
            "without fibers");
    current->state = state;
    current->waitSite = site;
    switchFiber(current->fiber, scheduler);
  }

  void setUpBlock() {
    int64_t offset = 0, maxAlign = 16;
    sharedRegions.clear();
    std::vector<int64_t> offsets;
    for (auto [bytes, align] : spec.shared) {
      align = std::max<int64_t>(align, 1);
      maxAlign = std::max(maxAlign, align);
      offset = (offset + align - 1) / align * align;
      offsets.push_back(offset);
      offset += bytes;
    }
    // A wgmma descriptor holds a shared address's low 18 bits: the window
    // starts on 2^18 bytes, so that the host address's are the offset.
    if (spec.usesWgmma)
      maxAlign = std::max<int64_t>(maxAlign, int64_t(1) << 18);
    // Shared memory starts each block as garbage, as on the GPU (0xA5
    // bytes); the window starts at the largest alignment a variable asks.
    sharedArena.assign(offset + maxAlign, 0xA5);
    sharedBase =
        (reinterpret_cast<uintptr_t>(sharedArena.data()) + maxAlign - 1) & ~uintptr_t(maxAlign - 1);
    sharedState.assign(offset, 0);
    wgmmaReaders.assign(spec.usesWgmma ? offset : 0, 0);
    unfencedBy.assign(spec.usesWgmma ? offset : 0, -1);
    sharedBytes = offset;
    landed.clear();
    mbarriers.clear();
    bulkInFlight.clear();
    events = 0;
    eventsAtPoll = ~uint64_t(0);
    landings.clear();
    bulkLanding.assign(offset, -1);
    for (auto [i, s] : llvm::enumerate(spec.shared))
      sharedRegions.push_back(
          {sharedBase + offsets[i], s.first, llvm::formatv("shared variable {0}", i).str()});
  }

  void resetThread(Thread &t) {
    t.state = State::Ready;
    t.waitSite = -1;
    t.privateUsed = 0;
    t.allocations.clear();
    t.openGroup.clear();
    t.groups.clear();
    t.wgFenced = false;
    t.wgOpen.clear();
    t.wgGroups.clear();
    t.wgLast.clear();
    t.unfenced.clear();
    t.seenPhases.clear();
    t.mbarrierWait = -1;
    t.polling = false;
    t.clusterArrivals = t.clusterWaits = 0;
    t.unreleasedInits.clear();
    t.fencedInits = 0;
    t.visits.assign(counters.numBasicBlocks(), 0);
    t.blocksEntered = 0;
    t.siteRuns.assign(spec.sites.size(), 0);
  }

  /// How often the current thread ran `site` before now.
  uint32_t occurrence(int32_t site) {
    std::vector<uint32_t> &runs = current->siteRuns;
    return site >= 0 && static_cast<size_t>(site) < runs.size() ? runs[site]++ : 0;
  }

  /// The region `p..p+bytes` lies in, among `regions`, or null.
  const MemRegion *regionOf(const std::vector<MemRegion> &regions, uintptr_t p,
                            int64_t bytes) const {
    for (const MemRegion &r : regions)
      if (inside(r, p, bytes))
        return &r;
    return nullptr;
  }

  /// "byte 96 of shared variable 1" for a shared address (of block (1, 0,
  /// 0) if another block's thread is running).
  std::string sharedByte(uintptr_t p) const {
    std::string of = this == active ? "" : " of block " + str(ctaid);
    for (const MemRegion &r : sharedRegions)
      if (p >= r.begin && p < r.begin + r.bytes)
        return llvm::formatv("byte {0} of {1}{2}", p - r.begin, r.name, of).str();
    return llvm::formatv("shared byte {0}{1}", p - sharedBase, of).str();
  }

  /// Faults if thread `reader` may not touch shared bytes p..p+bytes yet
  /// (unpublishedCopy says why).
  /// (`what` names the access, built only for the error: this runs on
  /// every shared access.)
  void checkShared(uintptr_t p, int64_t bytes, int32_t reader, function_ref<std::string()> what,
                   int32_t site) {
    if (p < sharedBase || p - sharedBase + bytes > sharedState.size())
      return;
    for (int64_t i = 0; i < bytes; ++i) {
      int64_t offset = static_cast<int64_t>(p - sharedBase) + i;
      if (sharedState[offset] == 0 && bulkLanding[offset] < 0)
        continue; // (the common case, without building a reason)
      if (std::string why = unpublishedCopy(offset, reader); !why.empty())
        fault(what() + " " + sharedByte(p + i) + ", " + why + " ('" + this->site(site) + "')");
    }
  }

  /// Whether thread `reader` (or kCollective, kRemote) may read the bytes
  /// of bulk landing `l`.
  bool bulkVisible(int32_t l, int32_t reader) const {
    const BulkLanding &landing = landings[l];
    if (landing.published || (reader == kCollective && landing.seenByAny))
      return true;
    if (reader < 0 || static_cast<size_t>(reader) >= threads.size())
      return false;
    auto it = threads[reader].seenPhases.find(landing.mbarrier);
    return it != threads[reader].seenPhases.end() && it->second > landing.phase;
  }

  /// An ordinary access of shared bytes p..p+bytes: not of an mbarrier.
  void checkNotMBarrier(uintptr_t p, int64_t bytes, int32_t site) {
    if (mbarriers.empty())
      return;
    int64_t offset = static_cast<int64_t>(p - sharedBase);
    auto it = mbarriers.lower_bound(offset - 7);
    if (it != mbarriers.end() && it->first < offset + bytes)
      fault(llvm::formatv("an ordinary access of {0} bytes at {1}, which holds an mbarrier "
                          "(only mbarrier instructions may touch it until mbarrier.inval) ('{2}')",
                          bytes, sharedByte(p), this->site(site))
                .str());
  }

  bool inside(const MemRegion &r, uintptr_t p, int64_t bytes) const {
    uint64_t size = static_cast<uint64_t>(r.bytes);
    return bytes >= 0 && p >= r.begin && p - r.begin <= size &&
           static_cast<uint64_t>(bytes) <= size - (p - r.begin);
  }

  std::array<const std::vector<MemRegion> *, 3> regionLists() const {
    return {&spec.globals, &sharedRegions, &current->allocations};
  }

  /// "reads 4 bytes at", for an error about an access.
  static std::string accessText(Access access, int64_t bytes) {
    return std::string(access == Access::Read ? "reads " : "writes ") + std::to_string(bytes) +
           " bytes at";
  }

  void check(void *ptr, int64_t bytes, int32_t site, Access access) {
    if (bytes == 0) // (a memcpy or memset of nothing, which LLVM allows anywhere)
      return;
    auto p = reinterpret_cast<uintptr_t>(ptr);
    for (const std::vector<MemRegion> *list : regionLists())
      for (const MemRegion &r : *list)
        if (inside(r, p, bytes)) {
          if (list == &sharedRegions) {
            auto what = [&] { return accessText(access, bytes); };
            checkShared(p, bytes, current->linear, what, site);
            checkNotMBarrier(p, bytes, site);
            if (access != Access::Read) {
              sharedWritten(p, bytes, what, site);
              overwritten(p - sharedBase, bytes);
            }
            counters.shared(counterId(*current), site, occurrence(site), access != Access::Read,
                            p - sharedBase, static_cast<int32_t>(bytes));
          } else if (list == &spec.globals) {
            counters.global(counterId(*current), site, occurrence(site),
                            access == Access::Read ? Counters::Kind::Load : Counters::Kind::Store,
                            p, static_cast<int32_t>(bytes),
                            static_cast<int32_t>(&r - spec.globals.data()));
          }
          return;
        }
    if (Executor *owner = remoteOwner(p, bytes)) {
      // Another block's shared memory (distributed shared memory): counted
      // as this warp's shared access, on the owner's banks.
      counters.shared(counterId(*current), site, occurrence(site), access != Access::Read,
                      owner->sharedOffset(p), static_cast<int32_t>(bytes));
      return owner->remoteAccess(p, bytes, site, access);
    }
    // Name the region the address is nearest to (at or after its start).
    const MemRegion *near = nullptr;
    for (const std::vector<MemRegion> *list : regionLists())
      for (const MemRegion &r : *list)
        if (p >= r.begin && (!near || r.begin > near->begin))
          near = &r;
    std::string what;
    if (near && p - near->begin < (uint64_t(1) << 32))
      what = llvm::formatv("byte {0} of {1}, which has {2} bytes", p - near->begin, near->name,
                           near->bytes);
    else
      what = llvm::formatv("address {0:x}, in no buffer", p);
    // (a memcpy's or memset's length is unsigned)
    fault(llvm::formatv("out-of-bounds access of {0} bytes at {1} ({2})",
                        static_cast<uint64_t>(bytes), what, this->site(site)));
  }

  /// The other block of the cluster whose shared variable holds
  /// p..p+bytes, or null.
  Executor *remoteOwner(uintptr_t p, int64_t bytes) const;

  /// An access of this block's shared bytes p..p+bytes by a thread of
  /// another block of the cluster (through a shared::cluster address). It
  /// sees what a barrier.cluster published (cp.async, bulk copies), and the
  /// block must not have exited. (Not counted: distributed shared memory
  /// goes through the SMs' network, not the banks.)
  uint64_t sharedOffset(uintptr_t p) const { return p - sharedBase; }

  void remoteAccess(uintptr_t p, int64_t bytes, int32_t site, Access access) {
    auto what = [&] { return accessText(access, bytes); };
    if (exited())
      fault(what() + " " + sharedByte(p) + ", whose threads have all exited ('" + this->site(site) +
            "')");
    checkShared(p, bytes, kRemote, what, site);
    checkNotMBarrier(p, bytes, site);
    if (access != Access::Read) {
      checkNoWgmmaReads(p, bytes, what, site);
      overwritten(p - sharedBase, bytes);
    }
  }

  /// mapa: the address of p's shared byte in block `rank` of the cluster.
  void *mapa(int32_t site, uintptr_t p, int32_t rank);

  /// barrier.cluster.arrive and wait, fence.mbarrier_init.
  void clusterArrive(int32_t site, bool relaxed);
  void clusterWait(int32_t site);
  void fenceMbarrierInit() { current->fencedInits = current->unreleasedInits.size(); }

  void *allocate(int64_t bytes, int64_t align, int32_t site) {
    Thread &t = *current;
    if (t.privateMemory.empty())
      t.privateMemory.resize(kPrivateBytes);
    align = std::max<int64_t>(align, 1);
    uintptr_t base = reinterpret_cast<uintptr_t>(t.privateMemory.data());
    uintptr_t p = (base + t.privateUsed + align - 1) / align * align;
    if (bytes < 0 || p - base + bytes > static_cast<uint64_t>(kPrivateBytes))
      fault(llvm::formatv("private memory exhausted: {0} more bytes, {1} of {2} used ({3})", bytes,
                          t.privateUsed, kPrivateBytes, this->site(site)));
    t.privateUsed = p - base + bytes;
    t.allocations.push_back(
        {p, bytes, llvm::formatv("private allocation at {0}", this->site(site))});
    return reinterpret_cast<void *>(p);
  }

  int32_t sreg(int32_t which) const {
    const Thread &t = *current;
    switch (static_cast<SReg>(which)) {
    case SReg::TidX:
      return t.tid.x;
    case SReg::TidY:
      return t.tid.y;
    case SReg::TidZ:
      return t.tid.z;
    case SReg::NTidX:
      return spec.block.x;
    case SReg::NTidY:
      return spec.block.y;
    case SReg::NTidZ:
      return spec.block.z;
    case SReg::CtaIdX:
      return ctaid.x;
    case SReg::CtaIdY:
      return ctaid.y;
    case SReg::CtaIdZ:
      return ctaid.z;
    case SReg::NCtaIdX:
      return spec.grid.x;
    case SReg::NCtaIdY:
      return spec.grid.y;
    case SReg::NCtaIdZ:
      return spec.grid.z;
    case SReg::LaneId:
      return t.linear % kWarpSize;
    case SReg::WarpId:
      return t.linear / kWarpSize;
    case SReg::WarpSize:
      return kWarpSize;
    case SReg::ClusterCtaRank:
      return rank;
    case SReg::ClusterNCtaRank:
      return static_cast<int32_t>(spec.cluster.count());
    case SReg::ClusterCtaIdX:
      return inCluster.x;
    case SReg::ClusterCtaIdY:
      return inCluster.y;
    case SReg::ClusterCtaIdZ:
      return inCluster.z;
    case SReg::ClusterNCtaIdX:
      return spec.cluster.x;
    case SReg::ClusterNCtaIdY:
      return spec.cluster.y;
    case SReg::ClusterNCtaIdZ:
      return spec.cluster.z;
    case SReg::ClusterIdX:
      return ctaid.x / spec.cluster.x;
    case SReg::ClusterIdY:
      return ctaid.y / spec.cluster.y;
    case SReg::ClusterIdZ:
      return ctaid.z / spec.cluster.z;
    case SReg::NClusterIdX:
      return spec.grid.x / spec.cluster.x;
    case SReg::NClusterIdY:
      return spec.grid.y / spec.cluster.y;
    case SReg::NClusterIdZ:
      return spec.grid.z / spec.cluster.z;
    }
    return 0;
  }

  LogicalResult runBlockDirect() {
    Thread &t = threads.front();
    current = &t;
    for (int32_t z = 0; z < spec.block.z; ++z)
      for (int32_t y = 0; y < spec.block.y; ++y)
        for (int32_t x = 0; x < spec.block.x; ++x) {
          resetThread(t);
          t.tid = {x, y, z};
          t.linear = x + spec.block.x * (y + spec.block.y * z);
          if (setjmp(directExit))
            return failure();
          spec.entry(const_cast<void **>(spec.args.data()));
          counters.threadDone(counterId(t), t.visits);
        }
    return success();
  }

  static void fiberMain();

  /// Gives each thread a fiber's stack (once for the launch).
  llvm::Error allocateStacks();
  /// Each thread's fiber, at the kernel's start.
  void startFibers();
  /// Runs each ready thread until it waits, exits or faults.
  LogicalResult runReady();
  /// Resumes the threads whose mbarrier phase has completed (or whose
  /// mbarrier is gone: their wait then says so); `polling` is set if a
  /// test_wait still waits.
  void wakeMbarrierWaiters(bool &polling);
  /// Lets each waiting test_wait return false.
  void wakePollers();
  /// Releases the barrier if the whole block waits at it.
  bool releaseBarrier();
  bool completeWarps();
  bool completeLdMatrix(int32_t first);
  bool completeWgmma(int32_t first);
  static const char *warpOpName(WarpOp op) {
    return op == WarpOp::Mma ? "mma.sync" : op == WarpOp::LdMatrix ? "ldmatrix" : "wgmma.mma_async";
  }

  /// cp.async, and cp.async.wait_group (the thread's groups but the
  /// newest `pending` land).
  void cpAsync(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes, int32_t srcBytes);
  void cpAsyncWait(int32_t pending);

  /// Faults if a wgmma in flight reads shared bytes p..p+bytes (written by
  /// the op at `writer`, if known).
  void checkNoWgmmaReads(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                         int32_t writer = -1);

  /// An ordinary (generic-proxy) write of shared bytes p..p+bytes by the
  /// current thread: not while a wgmma reads them, and unseen by wgmma
  /// until the thread's next fence.proxy.async.
  void sharedWritten(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                     int32_t writer = -1);

  /// fence.proxy.async: the current thread's writes are visible to wgmma.
  void fenceProxyAsync();

  /// wgmma.wait_group: every group but the newest `pending` is retired;
  /// the shared bytes its ops read are free.
  void wgmmaWait(int32_t pending);

  /// Why thread `reader` (or kCollective, kRemote) may not
  /// touch shared byte `offset` yet, or empty: a cp.async to it is in
  /// flight, or landed unpublished by a barrier; a cp.async.bulk to it is in
  /// flight, or landed in an mbarrier phase the reader has not seen.
  std::string unpublishedCopy(int64_t offset, int32_t reader) const;

  /// Shared bytes offset..offset+bytes written by other means than a bulk
  /// copy: no longer what one landed.
  void overwritten(int64_t offset, int64_t bytes);

  /// A barrier publishes what landed before it to every thread.
  void publishLanded();

  //===--------------------------------------------------------------------===//
  // mbarriers and bulk copies
  //===--------------------------------------------------------------------===//

  /// The shared offset of the mbarrier `op` names at `p`: 8 aligned bytes
  /// of a shared variable.
  int64_t mbarrierOffset(uintptr_t p, StringRef op, int32_t site);

  /// The initialized mbarrier `op` names at `p`.
  std::pair<int64_t, MBarrierState *> mbarrier(uintptr_t p, StringRef op, int32_t site);

  /// Faults with `why` (if any) about the op at `site`.
  void require(const std::string &why, int32_t site);

  /// `op` (init, inval) may not end the phases of the mbarrier at `offset`
  /// while a bulk copy in flight completes on it.
  void refuseWithCopiesInFlight(int64_t offset, StringRef op, int32_t site);

  /// mbarrier.init, and arrive (with expect_tx's `tx`; on another block's
  /// mbarrier through a shared::cluster address, remoteArrive).
  void mbarrierInit(int32_t site, uintptr_t p, int32_t count);
  int64_t mbarrierArrive(int32_t site, uintptr_t p, int32_t count, int32_t tx);

  /// mbarrier.arrive.shared::cluster on this block's mbarrier at `p` by
  /// thread `by` of another block: only once a cluster barrier has ordered
  /// the mbarrier's init before it, and while this block runs.
  int64_t remoteArrive(int32_t site, uintptr_t p, int32_t count, const Thread &by);

  /// expect_tx (`tx` > 0) or complete_tx (< 0).
  void mbarrierTx(int32_t site, uintptr_t p, int32_t tx);

  /// The current thread has seen the mbarrier at `offset` complete its
  /// first `phases` phases (a wait that returned true).
  void seePhases(int64_t offset, uint32_t phases);

  /// The count of completed phases at which the phase that a token (the
  /// phase count arrive returned) or a parity names has completed.
  static uint32_t phaseEnd(const MBarrierState &mb, int64_t stateOrParity, bool parity);

  /// test_wait: whether the phase has completed. One that has not parks the
  /// thread as a spinning loop of them would: it resumes when the phase
  /// completes, or unsatisfied when nothing else can run (and something
  /// changed since the last time), so a loop that does other work between
  /// tests goes on.
  int32_t mbarrierTest(int32_t site, uintptr_t p, int64_t stateOrParity, int32_t parity);

  /// try_wait.parity in MLIR's loop: until the phase completes.
  void mbarrierWait(int32_t site, uintptr_t p, int32_t parity);

  /// mbarrier.inval: not while a bulk copy in flight completes on it.
  void mbarrierInval(int32_t site, uintptr_t p);

  /// If the mbarrier at `offset` has all it waits for, its phase completes
  /// and the bulk copies that completed on it land.
  void completePhase(int64_t offset, MBarrierState &mb);

  /// cp.async.bulk and cp.async.bulk.tensor (SimABI.h): checked, read
  /// now, delivered by deliverBulk.
  void bulkCopy(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes, uintptr_t mbar,
                int32_t mask);
  void tensorCopy(int32_t site, uintptr_t dst, uintptr_t mapAddress, uintptr_t mbar, int32_t mask,
                  int32_t rank, std::array<int32_t, 5> coords);

  /// Puts the bytes a bulk copy `op` read (once, however many blocks get
  /// them) in flight to `dst`, completing on `mbar`, of this block (mask
  /// kNoMulticast) or at their offsets in each block of `mask`. Another
  /// block's mbarrier must have been initialized before, as for a remote
  /// arrive, and the block must still run.
  void deliverBulk(StringRef op, int32_t site, uintptr_t dst, uintptr_t mbar, int32_t mask,
                   std::vector<uint8_t> data);

  /// What a bulk copy may not write: bytes still in flight (a cp.async's or
  /// a bulk copy's), an mbarrier, bytes an in-flight wgmma may read.
  void checkBulkTarget(StringRef op, uintptr_t dst, int64_t bytes, int32_t site);

  /// Puts a bulk copy of `data` to `dst` in flight on the mbarrier at
  /// `offset`: its bytes come off the transaction count, and land when the
  /// phase completes.
  void startBulk(int32_t site, uintptr_t dst, std::vector<uint8_t> data, int64_t offset,
                 MBarrierState &mb, int32_t issuer);

  std::string describeDeadlock() const;
  /// "exited", "waits at '...'".
  static std::string describeState(const Executor &e, const Thread &t);
};

/// The blocks of one cluster, run together (a launch without cluster
/// dimensions has clusters of one block). What they share: the cluster
/// barrier (barrier.cluster), and each other's shared memory.
struct Cluster {
  const LaunchSpec &spec;
  Counters &counters;
  std::vector<std::unique_ptr<Executor>> ctas; // by %cluster_ctarank
  // The cluster barrier's completed phases, and per phase whether a thread
  // arrived .relaxed (then its completion publishes nothing).
  uint32_t completedPhases = 0;
  std::vector<bool> relaxedPhase;
  uint64_t eventsAtPoll = ~uint64_t(0);
  // Which block leads (runFibers, runDirect): rank 0 in even clusters of
  // the launch, the last rank in odd ones.
  int64_t clustersSetUp = 0;
  bool lastLeads = false;
  std::string error;

  Cluster(const LaunchSpec &spec, Counters &counters) : spec(spec), counters(counters) {}

  /// Blocks `ctaid` onwards (in the cluster's shape), at their start.
  void setUp(Dim3 first) {
    completedPhases = 0;
    relaxedPhase.clear();
    eventsAtPoll = ~uint64_t(0);
    lastLeads = clustersSetUp++ % 2;
    for (std::unique_ptr<Executor> &e : ctas) {
      e->ctaid = {first.x + e->inCluster.x, first.y + e->inCluster.y, first.z + e->inCluster.z};
      e->setUpBlock();
    }
  }

  /// Runs the blocks: their fibers, or each thread to its end.
  LogicalResult run() {
    Executor *outer = active;
    LogicalResult result = ctas.front()->fibers ? runFibers() : runDirect();
    active = outer;
    return result;
  }

  /// The blocks in the order they lead: rank 0 first, or the last rank
  /// first.
  Executor &byLead(size_t i) { return *ctas[lastLeads ? ctas.size() - 1 - i : i]; }

  LogicalResult runDirect() {
    for (size_t i = 0; i < ctas.size(); ++i) {
      Executor &e = byLead(i);
      active = &e;
      if (failed(e.runBlockDirect())) {
        error = e.error;
        return failure();
      }
    }
    return success();
  }

  LogicalResult runFibers();
  /// Completes each cluster barrier phase every thread has arrived at (or
  /// exited) and resumes its waiters.
  void releaseClusterWaiters();
  std::string describeDeadlock() const;
};

} // namespace mlir::uop::sim::detail

#endif
