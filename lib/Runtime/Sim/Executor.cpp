//===- Executor.cpp - run a simulated grid, thread by thread --------------===//
//
// Clusters of blocks (one block without cluster dimensions) run one after
// another. A kernel without barriers or warp-collective ops runs each
// thread to completion as a plain call (a fault longjmps back here). A
// kernel with them gives each thread of the cluster a fiber (its own stack,
// ucontext): a thread runs until it waits at a barrier, mma.sync, an
// mbarrier or the cluster barrier, exits or faults; when no thread can
// run, the executor completes the warps whose 32 lanes all wait at one
// mma.sync, and resumes the threads whose mbarrier phase or cluster
// barrier phase has completed, else lets a waiting test_wait return false,
// else releases each block's barrier if every thread of the block waits at
// it, else reports the deadlock. Each block's shared memory and its state
// is an Executor; a Cluster holds its blocks' and runs their fibers.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "Counters.h"
#include "MBarrier.h"
#include "Mma.h"
#include "TensorCopy.h"
#include "Wgmma.h"

#include "uop/Conversion/NVVMToSim/SimABI.h"
#include "uop/Support/Timing.h"

#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <csetjmp>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace {

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
  ucontext_t context;
  void *stack = nullptr; // mmap'ed, a guard page below
};

std::string str(Dim3 d) { return llvm::formatv("({0}, {1}, {2})", d.x, d.y, d.z).str(); }

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
thread_local Executor *active = nullptr;

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
  ucontext_t scheduler;
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

  /// Stops the current thread (the active block's) for good; the launch
  /// ends with `message`.
  [[noreturn]] void fault(const std::string &message) {
    if (this != active)
      active->fault(message);
    error = where(*current) + ": " + message;
    current->state = State::Faulted;
    if (fibers)
      swapcontext(&current->context, &scheduler);
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
    swapcontext(&current->context, &scheduler);
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

  void check(void *ptr, int64_t bytes, int32_t site, Access access) {
    if (bytes == 0) // (a memcpy or memset of nothing, which LLVM allows anywhere)
      return;
    auto p = reinterpret_cast<uintptr_t>(ptr);
    for (const std::vector<MemRegion> *list : regionLists())
      for (const MemRegion &r : *list)
        if (inside(r, p, bytes)) {
          if (list == &sharedRegions) {
            auto what = [&] {
              return std::string(access == Access::Read ? "reads " : "writes ") +
                     std::to_string(bytes) + " bytes at";
            };
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
    if (Executor *owner = remoteOwner(p, bytes))
      return owner->remoteAccess(p, bytes, site, access);
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
  void remoteAccess(uintptr_t p, int64_t bytes, int32_t site, Access access) {
    auto what = [&] {
      return std::string(access == Access::Read ? "reads " : "writes ") + std::to_string(bytes) +
             " bytes at";
    };
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
  bool wakeMbarrierWaiters(bool &polling);
  /// Lets each waiting test_wait return false.
  void wakePollers();
  /// Releases the barrier if the whole block waits at it.
  bool releaseBarrier();
  bool completeWarps(bool &madeProgress);
  bool completeLdMatrix(int32_t first);
  bool completeWgmma(int32_t first);
  static const char *warpOpName(WarpOp op) {
    return op == WarpOp::Mma ? "mma.sync" : op == WarpOp::LdMatrix ? "ldmatrix" : "wgmma.mma_async";
  }

  void cpAsync(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes, int32_t srcBytes) {
    std::string at = " ('" + this->site(site) + "')";
    if (bytes != 4 && bytes != 8 && bytes != 16)
      fault("cp.async copies 4, 8 or 16 bytes, not " + std::to_string(bytes) + at);
    if (srcBytes < 0 || srcBytes > bytes)
      fault("cp.async reads " + std::to_string(srcBytes) + " of " + std::to_string(bytes) +
            " bytes" + at);
    const MemRegion *to = regionOf(sharedRegions, dst, bytes);
    const MemRegion *from = regionOf(spec.globals, src, srcBytes ? srcBytes : 1);
    if (!to)
      fault(llvm::formatv("cp.async writes {0} bytes at {1:x}, outside shared memory{2}", bytes,
                          dst, at)
                .str());
    if (srcBytes && !from)
      fault(llvm::formatv("cp.async reads {0} bytes at {1:x}, in no buffer{2}", srcBytes, src, at)
                .str());
    if ((dst - sharedBase) % bytes != 0 || (srcBytes && (src - from->begin) % bytes != 0))
      fault(llvm::formatv("cp.async of {0} bytes from byte {1} of {2} to {3}: both must be "
                          "{0}-byte aligned{4}",
                          bytes, srcBytes ? src - from->begin : 0,
                          srcBytes ? from->name : "nothing", sharedByte(dst), at)
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

  void cpAsyncWait(int32_t pending) {
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

  /// Faults if a wgmma in flight reads shared bytes p..p+bytes (written by
  /// the op at `writer`, if known).
  void checkNoWgmmaReads(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                         int32_t writer = -1) {
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

  /// An ordinary (generic-proxy) write of shared bytes p..p+bytes by the
  /// current thread: not while a wgmma reads them, and unseen by wgmma
  /// until the thread's next fence.proxy.async.
  void sharedWritten(uintptr_t p, int64_t bytes, function_ref<std::string()> what,
                     int32_t writer = -1) {
    if (!spec.usesWgmma || p < sharedBase || p - sharedBase + bytes > unfencedBy.size())
      return;
    checkNoWgmmaReads(p, bytes, what, writer);
    int64_t offset = static_cast<int64_t>(p - sharedBase);
    for (int64_t i = 0; i < bytes; ++i)
      unfencedBy[offset + i] = current->linear;
    current->unfenced.push_back({offset, bytes});
  }

  /// fence.proxy.async: the current thread's writes are visible to wgmma.
  void fenceProxyAsync() {
    Thread &t = *current;
    for (auto [offset, bytes] : t.unfenced)
      for (int64_t i = 0; i < bytes; ++i)
        if (unfencedBy[offset + i] == t.linear)
          unfencedBy[offset + i] = -1;
    t.unfenced.clear();
  }

  /// wgmma.wait_group: every group but the newest `pending` is retired;
  /// the shared bytes its ops read are free.
  void wgmmaWait(int32_t pending) {
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

  /// Why thread `reader` (or kCollective, kRemote) may not
  /// touch shared byte `offset` yet, or empty: a cp.async to it is in
  /// flight, or landed unpublished by a barrier; a cp.async.bulk to it is in
  /// flight, or landed in an mbarrier phase the reader has not seen.
  std::string unpublishedCopy(int64_t offset, int32_t reader) const {
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

  /// Shared bytes offset..offset+bytes written by other means than a bulk
  /// copy: no longer what one landed.
  void overwritten(int64_t offset, int64_t bytes) {
    std::fill_n(bulkLanding.begin() + offset, bytes, -1);
  }

  /// A barrier publishes what landed before it to every thread.
  void publishLanded() {
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

  //===--------------------------------------------------------------------===//
  // mbarriers and bulk copies
  //===--------------------------------------------------------------------===//

  /// The shared offset of the mbarrier `op` names at `p`: 8 aligned bytes
  /// of a shared variable.
  int64_t mbarrierOffset(uintptr_t p, StringRef op, int32_t site) {
    if (!regionOf(sharedRegions, p, 8))
      fault(llvm::formatv("{0} of an mbarrier at {1:x}, not 8 bytes of a shared variable ('{2}')",
                          op, p, this->site(site))
                .str());
    int64_t offset = static_cast<int64_t>(p - sharedBase);
    if (offset % 8)
      fault(llvm::formatv("{0} of an mbarrier at {1}: mbarriers are 8-byte aligned ('{2}')", op,
                          sharedByte(p), this->site(site))
                .str());
    return offset;
  }

  /// The initialized mbarrier `op` names at `p`.
  std::pair<int64_t, MBarrierState *> mbarrier(uintptr_t p, StringRef op, int32_t site) {
    int64_t offset = mbarrierOffset(p, op, site);
    auto it = mbarriers.find(offset);
    if (it == mbarriers.end())
      fault(llvm::formatv("{0} of an mbarrier at {1}, where no mbarrier.init has made one (or "
                          "mbarrier.inval has ended it) ('{2}')",
                          op, sharedByte(p), this->site(site))
                .str());
    return {offset, &it->second};
  }

  /// Faults with `why` (if any) about the op at `site`.
  void require(const std::string &why, int32_t site) {
    if (!why.empty())
      fault(why + " ('" + this->site(site) + "')");
  }

  /// `op` (init, inval) may not end the phases of the mbarrier at `offset`
  /// while a bulk copy in flight completes on it.
  void refuseWithCopiesInFlight(int64_t offset, StringRef op, int32_t site) {
    for (const BulkCopy &c : bulkInFlight)
      if (c.mbarrier == offset)
        fault((op + " of an mbarrier that a cp.async.bulk in flight completes on ('" +
               this->site(site) + "')")
                  .str());
  }

  void mbarrierInit(int32_t site, uintptr_t p, int32_t count) {
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

  int64_t mbarrierArrive(int32_t site, uintptr_t p, int32_t count, int32_t tx) {
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

  /// mbarrier.arrive.shared::cluster on this block's mbarrier at `p` by
  /// thread `by` of another block: only once a cluster barrier has ordered
  /// the mbarrier's init before it, and while this block runs.
  int64_t remoteArrive(int32_t site, uintptr_t p, int32_t count, const Thread &by) {
    std::string at = " ('" + this->site(site) + "')";
    if (exited())
      fault("a remote mbarrier.arrive on " + sharedByte(p) + ", whose threads have all exited" +
            at);
    auto [offset, mb] = mbarrier(p, "a remote mbarrier.arrive", site);
    if (mb->clusterRelease < 0 || by.clusterWaits <= mb->clusterRelease)
      fault("a remote mbarrier.arrive on the mbarrier at " + sharedByte(p) +
            " before a barrier.cluster has ordered its mbarrier.init before it (the "
            "initializing thread's next cluster arrive, with a fence.mbarrier_init if it is "
            "relaxed, then this thread's cluster wait)" +
            at);
    return mbarrierArrive(site, p, count, 0);
  }

  void mbarrierTx(int32_t site, uintptr_t p, int32_t tx) {
    auto [offset, mb] = mbarrier(p, tx > 0 ? "mbarrier.expect_tx" : "mbarrier.complete_tx", site);
    require(mb->addTx(tx), site);
    ++events;
    completePhase(offset, *mb);
  }

  /// The current thread has seen the mbarrier at `offset` complete its
  /// first `phases` phases (a wait that returned true).
  void seePhases(int64_t offset, uint32_t phases) {
    uint32_t &seen = current->seenPhases[offset];
    seen = std::max(seen, phases);
    for (BulkLanding &l : landings)
      l.seenByAny |= l.mbarrier == offset && l.phase < phases;
  }

  /// The count of completed phases at which the phase that a token (the
  /// phase count arrive returned) or a parity names has completed.
  static uint32_t phaseEnd(const MBarrierState &mb, int64_t stateOrParity, bool parity) {
    if (!parity)
      return static_cast<uint32_t>(stateOrParity) + 1;
    return mb.parityDone(stateOrParity) ? mb.phase : mb.phase + 1;
  }

  /// test_wait: whether the phase has completed. One that has not parks the
  /// thread as a spinning loop of them would: it resumes when the phase
  /// completes, or unsatisfied when nothing else can run (and something
  /// changed since the last time), so a loop that does other work between
  /// tests goes on.
  int32_t mbarrierTest(int32_t site, uintptr_t p, int64_t stateOrParity, int32_t parity) {
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

  /// try_wait.parity in MLIR's loop: until the phase completes.
  void mbarrierWait(int32_t site, uintptr_t p, int32_t parity) {
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

  void mbarrierInval(int32_t site, uintptr_t p) {
    int64_t offset = mbarrier(p, "mbarrier.inval", site).first;
    refuseWithCopiesInFlight(offset, "mbarrier.inval", site);
    mbarriers.erase(offset);
    ++events;
  }

  /// If the mbarrier at `offset` has all it waits for, its phase completes
  /// and the bulk copies that completed on it land.
  void completePhase(int64_t offset, MBarrierState &mb) {
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

  void bulkCopy(int32_t site, uintptr_t dst, uintptr_t src, int32_t bytes, uintptr_t mbar,
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

  void tensorCopy(int32_t site, uintptr_t dst, uintptr_t mapAddress, uintptr_t mbar, int32_t mask,
                  int32_t rank, std::array<int32_t, 5> coords) {
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

  /// Puts the bytes a bulk copy `op` read (once, however many blocks get
  /// them) in flight to `dst`, completing on `mbar`, of this block (mask
  /// kNoMulticast) or at their offsets in each block of `mask`. Another
  /// block's mbarrier must have been initialized before, as for a remote
  /// arrive, and the block must still run.
  void deliverBulk(StringRef op, int32_t site, uintptr_t dst, uintptr_t mbar, int32_t mask,
                   std::vector<uint8_t> data);

  /// What a bulk copy may not write: bytes still in flight (a cp.async's or
  /// a bulk copy's), an mbarrier, bytes an in-flight wgmma may read.
  void checkBulkTarget(StringRef op, uintptr_t dst, int64_t bytes, int32_t site) {
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

  /// Puts a bulk copy of `data` to `dst` in flight on the mbarrier at
  /// `offset`: its bytes come off the transaction count, and land when the
  /// phase completes.
  void startBulk(int32_t site, uintptr_t dst, std::vector<uint8_t> data, int64_t offset,
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
  std::string describeDeadlock() const;
  /// "exited", "waits at '...'".
  static std::string describeState(const Executor &e, const Thread &t);
};

void Executor::fiberMain() {
  Executor &e = *active;
  e.spec.entry(const_cast<void **>(e.spec.args.data()));
  e.current->state = State::Done; // returning switches to uc_link, the scheduler
}

/// Completes each warp whose lanes all wait at one warp-collective op
/// (mma.sync, ldmatrix). Fails if they wait at different ones, or the op
/// is not one the simulator implements.
bool Executor::completeWarps(bool &madeProgress) {
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
    madeProgress = true;
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
    madeProgress = true;
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
    t.context.uc_stack.ss_sp = t.stack;
    t.context.uc_stack.ss_size = kFiberStack;
    t.context.uc_link = &scheduler;
    makecontext(&t.context, &Executor::fiberMain, 0);
  }
}

LogicalResult Executor::runReady() {
  for (Thread &t : threads) {
    if (t.state != State::Ready)
      continue;
    current = &t;
    swapcontext(&scheduler, &t.context);
    if (t.state == State::Faulted)
      return failure();
    events += t.state == State::Done;
  }
  return success();
}

bool Executor::wakeMbarrierWaiters(bool &polling) {
  bool progress = false;
  for (Thread &t : threads)
    if (t.state == State::AtMbarrier) {
      auto it = mbarriers.find(t.mbarrierWait);
      if (it == mbarriers.end() || it->second.phase >= t.waitUntil) {
        t.state = State::Ready;
        progress = true;
      }
      polling |= t.polling && t.state == State::AtMbarrier;
    }
  return progress;
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
    getcontext(&t.context); // once: makecontext reuses it for every block
    int32_t linear = static_cast<int32_t>(i);
    t.linear = linear;
    t.tid = {linear % spec.block.x, linear / spec.block.x % spec.block.y,
             linear / (spec.block.x * spec.block.y)};
  }
  return llvm::Error::success();
}

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
  std::string error;

  Cluster(const LaunchSpec &spec, Counters &counters) : spec(spec), counters(counters) {}

  /// Blocks `ctaid` onwards (in the cluster's shape), at their start.
  void setUp(Dim3 first) {
    completedPhases = 0;
    relaxedPhase.clear();
    eventsAtPoll = ~uint64_t(0);
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

  LogicalResult runDirect() {
    for (std::unique_ptr<Executor> &e : ctas) {
      active = e.get();
      if (failed(e->runBlockDirect())) {
        error = e->error;
        return failure();
      }
    }
    return success();
  }

  LogicalResult runFibers();
  /// Completes each cluster barrier phase every thread has arrived at (or
  /// exited) and resumes its waiters.
  bool releaseClusterWaiters();
  std::string describeDeadlock() const;
};

Executor *Executor::remoteOwner(uintptr_t p, int64_t bytes) const {
  for (const std::unique_ptr<Executor> &e : cluster->ctas)
    if (e.get() != this && e->regionOf(e->sharedRegions, p, bytes))
      return e.get();
  return nullptr;
}

void *Executor::mapa(int32_t site, uintptr_t p, int32_t target) {
  std::string at = " ('" + this->site(site) + "')";
  const Executor *from = regionOf(sharedRegions, p, 1) ? this : remoteOwner(p, 1);
  if (!from)
    fault(llvm::formatv("mapa of address {0:x}, in no shared variable of a block of the "
                        "cluster{1}",
                        p, at)
              .str());
  int32_t size = static_cast<int32_t>(cluster->ctas.size());
  if (target < 0 || target >= size)
    fault(llvm::formatv("mapa to block {0} of a cluster of {1} (%cluster_nctarank){2}", target,
                        size, at)
              .str());
  return reinterpret_cast<void *>(cluster->ctas[target]->sharedBase + (p - from->sharedBase));
}

void Executor::deliverBulk(StringRef op, int32_t site, uintptr_t dst, uintptr_t mbar, int32_t mask,
                           std::vector<uint8_t> data) {
  std::string at = " ('" + this->site(site) + "')";
  int32_t size = static_cast<int32_t>(cluster->ctas.size());
  if (mask != kNoMulticast && (mask == 0 || mask >> size))
    fault(llvm::formatv("{0}.multicast::cluster to the blocks of mask {1:x}, but the cluster's "
                        "are {2:x}{3}",
                        op, mask, (1 << size) - 1, at)
              .str());
  int64_t bytes = static_cast<int64_t>(data.size());
  std::string complete = (op + "'s complete_tx").str();
  mbarrierOffset(mbar, complete, site); // (this block's, as dst is)
  for (int32_t r = 0; r < size; ++r) {
    Executor &to = *cluster->ctas[r];
    if (mask == kNoMulticast ? &to != this : !(mask >> r & 1))
      continue;
    uintptr_t toDst = to.sharedBase + (dst - sharedBase),
              toBar = to.sharedBase + (mbar - sharedBase);
    if (&to != this && to.exited())
      fault((op + " multicast to block " + str(to.ctaid) + ", whose threads have all exited" + at)
                .str());
    auto [offset, mb] = to.mbarrier(toBar, complete, site);
    if (&to != this && (mb->clusterRelease < 0 || current->clusterWaits <= mb->clusterRelease))
      fault((op + " multicast completing on the mbarrier at " + to.sharedByte(toBar) +
             " before a barrier.cluster has ordered its mbarrier.init before it" + at)
                .str());
    to.checkBulkTarget(op, toDst, bytes, site);
    to.startBulk(site, toDst, data, offset, *mb, current->linear);
  }
}

void Executor::clusterArrive(int32_t site, bool relaxed) {
  Thread &t = *current;
  if (t.clusterArrivals > t.clusterWaits)
    fault("barrier.cluster.arrive again before a barrier.cluster.wait ('" + this->site(site) +
          "')");
  uint32_t phase = t.clusterArrivals++;
  if (relaxed) {
    if (cluster->relaxedPhase.size() <= phase)
      cluster->relaxedPhase.resize(phase + 1);
    cluster->relaxedPhase[phase] = true;
  }
  // The mbarrier.inits this arrive releases to the other blocks: all of
  // them, or (relaxed) those a fence.mbarrier_init covers.
  size_t released = relaxed ? t.fencedInits : t.unreleasedInits.size();
  for (int64_t offset : llvm::ArrayRef(t.unreleasedInits).take_front(released))
    if (auto it = mbarriers.find(offset); it != mbarriers.end())
      it->second.clusterRelease = phase;
  t.unreleasedInits.erase(t.unreleasedInits.begin(), t.unreleasedInits.begin() + released);
  t.fencedInits = 0;
  ++events;
}

void Executor::clusterWait(int32_t site) {
  Thread &t = *current;
  if (t.clusterArrivals == t.clusterWaits)
    fault("barrier.cluster.wait without a barrier.cluster.arrive before it ('" + this->site(site) +
          "')");
  if (cluster->completedPhases <= t.clusterWaits)
    wait(State::AtClusterWait, site);
  ++t.clusterWaits;
}

bool Cluster::releaseClusterWaiters() {
  uint32_t arrived = ~uint32_t(0);
  for (const std::unique_ptr<Executor> &e : ctas)
    for (const Thread &t : e->threads)
      if (t.state != State::Done)
        arrived = std::min(arrived, t.clusterArrivals);
  if (arrived == ~uint32_t(0)) // every thread has exited
    return false;
  bool progress = false;
  for (; completedPhases < arrived; ++completedPhases) {
    // barrier.cluster.arrive.release and wait.acquire: what landed before
    // is every thread's, in every block.
    bool relaxed = completedPhases < relaxedPhase.size() && relaxedPhase[completedPhases];
    for (std::unique_ptr<Executor> &e : ctas) {
      if (!relaxed)
        e->publishLanded();
      ++e->events;
    }
  }
  for (std::unique_ptr<Executor> &e : ctas)
    for (Thread &t : e->threads)
      if (t.state == State::AtClusterWait && t.clusterWaits < completedPhases) {
        t.state = State::Ready;
        progress = true;
      }
  return progress;
}

LogicalResult Cluster::runFibers() {
  for (std::unique_ptr<Executor> &e : ctas)
    e->startFibers();
  auto failWith = [&](Executor &e) {
    error = e.error;
    return failure();
  };
  while (true) {
    for (std::unique_ptr<Executor> &e : ctas) {
      active = e.get();
      if (failed(e->runReady()))
        return failWith(*e);
    }
    if (llvm::all_of(ctas, [](const std::unique_ptr<Executor> &e) { return e->exited(); })) {
      for (std::unique_ptr<Executor> &e : ctas)
        for (Thread &t : e->threads)
          counters.threadDone(e->counterId(t), t.visits);
      return success();
    }
    bool progress = false, polling = false;
    for (std::unique_ptr<Executor> &e : ctas) {
      active = e.get();
      if (!e->completeWarps(progress))
        return failWith(*e);
    }
    for (std::unique_ptr<Executor> &e : ctas)
      progress |= e->wakeMbarrierWaiters(polling);
    progress |= releaseClusterWaiters();
    if (progress)
      continue;
    // Nothing else can run: test_wait returns false to its pollers, once
    // per change that might let them do something else.
    uint64_t events = 0;
    for (std::unique_ptr<Executor> &e : ctas)
      events += e->events;
    if (polling && events != eventsAtPoll) {
      eventsAtPoll = events;
      for (std::unique_ptr<Executor> &e : ctas)
        e->wakePollers();
      continue;
    }
    bool released = false;
    for (std::unique_ptr<Executor> &e : ctas)
      released |= e->releaseBarrier();
    if (released)
      continue;
    error = describeDeadlock();
    return failure();
  }
}

/// Why no thread of the cluster can go on: a block's warps or mbarriers, a
/// cluster barrier phase a thread has not arrived at, a block's barrier.
std::string Cluster::describeDeadlock() const {
  auto waitsIn = [&](const Executor &e, std::initializer_list<State> states) {
    return llvm::any_of(e.threads,
                        [&](const Thread &t) { return llvm::is_contained(states, t.state); });
  };
  for (const std::unique_ptr<Executor> &e : ctas)
    if (waitsIn(*e, {State::AtWarp, State::AtMbarrier}))
      return e->describeDeadlock();
  for (const std::unique_ptr<Executor> &e : ctas)
    for (const Thread &t : e->threads) {
      if (t.state != State::AtClusterWait)
        continue;
      for (const std::unique_ptr<Executor> &other : ctas)
        for (const Thread &late : other->threads)
          if (late.state != State::Done && late.clusterArrivals <= t.clusterWaits)
            return llvm::formatv("{0}: waits at '{1}' for every thread of the cluster to arrive "
                                 "(phase {2} of the cluster barrier), but thread {3} of block {4} "
                                 "has not; it {5}",
                                 e->where(t), e->site(t.waitSite), t.clusterWaits, str(late.tid),
                                 str(other->ctaid), Executor::describeState(*other, late))
                .str();
    }
  for (const std::unique_ptr<Executor> &e : ctas)
    if (waitsIn(*e, {State::AtBarrier}))
      return e->describeDeadlock();
  return "kernel " + spec.kernel + ": the cluster cannot make progress";
}

} // namespace

// The ABI, called from the JIT-compiled kernel.
extern "C" {
static int32_t uopsimSReg(int32_t which) { return active->sreg(which); }
static void uopsimCheck(void *p, int64_t bytes, int32_t site, int32_t access) {
  active->check(p, bytes, site, static_cast<Access>(access));
}
static void uopsimCheckMasked(void *p, int64_t laneBytes, int64_t mask, int32_t site,
                              int32_t access) {
  for (int lane = 0; lane < 64; ++lane)
    if (static_cast<uint64_t>(mask) >> lane & 1)
      active->check(static_cast<char *>(p) + lane * laneBytes, laneBytes, site,
                    static_cast<Access>(access));
}
static void uopsimCpAsync(int32_t site, void *dst, void *src, int32_t bytes, int32_t srcBytes) {
  active->cpAsync(site, reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src), bytes,
                  srcBytes);
}
static void uopsimBlock(int32_t id, int32_t site) {
  Thread &t = *active->current;
  ++t.visits[id];
  uint64_t limit = active->spec.maxBlocksPerThread;
  if (++t.blocksEntered > limit)
    active->fault("the thread entered " + std::to_string(limit) +
                  " basic blocks without finishing: an endless loop? (the last one begins at '" +
                  active->site(site) + "')");
}
static void uopsimCpAsyncCommit(int32_t) {
  Thread &t = *active->current;
  t.groups.push_back(std::move(t.openGroup));
  t.openGroup.clear();
}
static void uopsimCpAsyncWait(int32_t, int32_t pending) { active->cpAsyncWait(pending); }
static void uopsimLdMatrix(int32_t site, void *row, int32_t count, int32_t trans, uint32_t *d) {
  Executor &e = *active;
  if (count != 1 && count != 2 && count != 4)
    e.fault("ldmatrix reads 1, 2 or 4 matrices, not " + std::to_string(count) + " ('" +
            e.site(site) + "')");
  Thread &t = *e.current;
  t.warpOp = WarpOp::LdMatrix;
  t.ldmRow = reinterpret_cast<uintptr_t>(row);
  t.ldmCount = count;
  t.ldmTrans = trans;
  t.ldmResult = d;
  e.wait(State::AtWarp, site);
}
static void uopsimBarrier(int32_t site) { active->wait(State::AtBarrier, site); }
static void uopsimWgmma(int32_t site, int32_t id, int32_t shape, int32_t types, int32_t flags,
                        uint64_t descA, uint64_t descB, const uint32_t *acc, uint32_t *d) {
  Executor &e = *active;
  WgmmaDesc desc{shape >> 20, (shape >> 8) & 0xFFF, shape & 0xFF, types, flags, descA, descB};
  std::string at = " ('" + e.site(site) + "')";
  if (std::string why = checkWgmma(desc); !why.empty())
    e.fault(why + at);
  Thread &t = *e.current;
  if (!t.wgFenced)
    e.fault("wgmma.mma_async with no wgmma.fence before it since the thread's last "
            "wgmma.wait_group (or its start)" +
            at);
  t.wg = desc;
  t.wgId = id;
  t.wgAcc = acc;
  t.wgResult = d;
  t.warpOp = WarpOp::Wgmma;
  e.wait(State::AtWarp, site);
}
static void uopsimWgmmaUse(int32_t site, int32_t id) {
  Executor &e = *active;
  Thread &t = *e.current;
  if (id >= 0 && static_cast<size_t>(id) < t.wgLast.size() && t.wgLast[id] &&
      !t.wgLast[id]->retired)
    e.fault("'" + e.site(site) + "' reads the result of '" + e.site(t.wgLast[id]->site) +
            "', which no wgmma.wait_group has retired");
}
static void uopsimWgmmaFence(int32_t) { active->current->wgFenced = true; }
static void uopsimWgmmaCommit(int32_t) {
  Thread &t = *active->current;
  t.wgGroups.push_back(std::move(t.wgOpen));
  t.wgOpen.clear();
}
static void uopsimWgmmaWait(int32_t, int32_t pending) { active->wgmmaWait(pending); }
static void uopsimFenceProxyAsync(int32_t) { active->fenceProxyAsync(); }
static void uopsimMbarrierInit(int32_t site, void *mbar, int32_t count) {
  active->mbarrierInit(site, reinterpret_cast<uintptr_t>(mbar), count);
}
static int64_t uopsimMbarrierArrive(int32_t site, void *mbar, int32_t count, int32_t tx) {
  return active->mbarrierArrive(site, reinterpret_cast<uintptr_t>(mbar), count, tx);
}
static void uopsimMbarrierTx(int32_t site, void *mbar, int32_t tx) {
  active->mbarrierTx(site, reinterpret_cast<uintptr_t>(mbar), tx);
}
static int32_t uopsimMbarrierTest(int32_t site, void *mbar, int64_t stateOrParity, int32_t parity) {
  return active->mbarrierTest(site, reinterpret_cast<uintptr_t>(mbar), stateOrParity, parity);
}
static void uopsimMbarrierWait(int32_t site, void *mbar, int32_t parity) {
  active->mbarrierWait(site, reinterpret_cast<uintptr_t>(mbar), parity);
}
static void uopsimMbarrierInval(int32_t site, void *mbar) {
  active->mbarrierInval(site, reinterpret_cast<uintptr_t>(mbar));
}
static void uopsimBulkCopy(int32_t site, void *dst, void *src, int32_t bytes, void *mbar,
                           int32_t mask) {
  active->bulkCopy(site, reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src), bytes,
                   reinterpret_cast<uintptr_t>(mbar), mask);
}
static void uopsimTensorCopy(int32_t site, void *dst, void *map, void *mbar, int32_t mask,
                             int32_t rank, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                             int32_t c4) {
  active->tensorCopy(site, reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(map),
                     reinterpret_cast<uintptr_t>(mbar), mask, rank, {c0, c1, c2, c3, c4});
}
static void uopsimClusterArrive(int32_t site, int32_t relaxed) {
  active->clusterArrive(site, relaxed != 0);
}
static void uopsimClusterWait(int32_t site) { active->clusterWait(site); }
static void uopsimFenceMbarrierInit(int32_t) { active->fenceMbarrierInit(); }
static void *uopsimMapa(int32_t site, void *p, int32_t rank) {
  return active->mapa(site, reinterpret_cast<uintptr_t>(p), rank);
}
static void *uopsimShared(int32_t index) {
  return reinterpret_cast<void *>(active->sharedRegions[index].begin);
}
static void *uopsimAlloca(int64_t bytes, int64_t align, int32_t site) {
  return active->allocate(bytes, align, site);
}
static void uopsimUnsupported(int32_t site) {
  active->fault("the simulator does not support '" + active->site(site) + "'");
}
static void uopsimUnreachable(int32_t site) {
  active->fault("reached undefined behaviour at '" + active->site(site) +
                "': LLVM's optimizer left 'unreachable' there (for a value nothing defined, "
                "used as an address or a branch condition, say), which a GPU runs as a silent "
                "exit");
}
static void uopsimTrap(int32_t site) {
  active->fault("the kernel executed a trap at '" + active->site(site) + "'");
}
static void uopsimDivide(int32_t overflow, int32_t site) {
  active->fault(std::string(overflow ? "signed integer division overflow (the minimum value "
                                       "divided by -1)"
                                     : "integer division by zero") +
                " at '" + active->site(site) +
                "': undefined in LLVM IR, and a value PTX leaves unspecified");
}
static void uopsimMma(int32_t site, int32_t m, int32_t n, int32_t k, int32_t a, int32_t b,
                      int32_t c, int32_t d, uint32_t *ra, uint32_t *rb, uint32_t *rc,
                      uint32_t *rd) {
  Executor &e = *active;
  MmaDesc desc{m, n, k, a, b, c, d};
  std::string why = checkMma(desc);
  if (!why.empty())
    e.fault(why + " ('" + e.site(site) + "')");
  Thread &t = *e.current;
  t.mma = desc;
  std::memcpy(t.regs.a.data(), ra, 4 * mmaRegisters(desc, 'a'));
  std::memcpy(t.regs.b.data(), rb, 4 * mmaRegisters(desc, 'b'));
  std::memcpy(t.regs.c.data(), rc, 4 * mmaRegisters(desc, 'c'));
  t.mmaResult = rd;
  t.warpOp = WarpOp::Mma;
  e.wait(State::AtWarp, site);
}
}

llvm::StringMap<void *> mlir::uop::sim::abiSymbols() {
  llvm::StringMap<void *> m;
  m[kSRegFn] = reinterpret_cast<void *>(&uopsimSReg);
  m[kCheckFn] = reinterpret_cast<void *>(&uopsimCheck);
  m[kBarrierFn] = reinterpret_cast<void *>(&uopsimBarrier);
  m[kMmaFn] = reinterpret_cast<void *>(&uopsimMma);
  m[kBlockFn] = reinterpret_cast<void *>(&uopsimBlock);
  m[kCpAsyncFn] = reinterpret_cast<void *>(&uopsimCpAsync);
  m[kCpAsyncCommitFn] = reinterpret_cast<void *>(&uopsimCpAsyncCommit);
  m[kCpAsyncWaitFn] = reinterpret_cast<void *>(&uopsimCpAsyncWait);
  m[kLdMatrixFn] = reinterpret_cast<void *>(&uopsimLdMatrix);
  m[kWgmmaFn] = reinterpret_cast<void *>(&uopsimWgmma);
  m[kWgmmaUseFn] = reinterpret_cast<void *>(&uopsimWgmmaUse);
  m[kWgmmaFenceFn] = reinterpret_cast<void *>(&uopsimWgmmaFence);
  m[kWgmmaCommitFn] = reinterpret_cast<void *>(&uopsimWgmmaCommit);
  m[kWgmmaWaitFn] = reinterpret_cast<void *>(&uopsimWgmmaWait);
  m[kFenceProxyAsyncFn] = reinterpret_cast<void *>(&uopsimFenceProxyAsync);
  m[kSharedFn] = reinterpret_cast<void *>(&uopsimShared);
  m[kMbarrierInitFn] = reinterpret_cast<void *>(&uopsimMbarrierInit);
  m[kMbarrierArriveFn] = reinterpret_cast<void *>(&uopsimMbarrierArrive);
  m[kMbarrierTxFn] = reinterpret_cast<void *>(&uopsimMbarrierTx);
  m[kMbarrierTestFn] = reinterpret_cast<void *>(&uopsimMbarrierTest);
  m[kMbarrierWaitFn] = reinterpret_cast<void *>(&uopsimMbarrierWait);
  m[kMbarrierInvalFn] = reinterpret_cast<void *>(&uopsimMbarrierInval);
  m[kBulkCopyFn] = reinterpret_cast<void *>(&uopsimBulkCopy);
  m[kTensorCopyFn] = reinterpret_cast<void *>(&uopsimTensorCopy);
  m[kAllocaFn] = reinterpret_cast<void *>(&uopsimAlloca);
  m[kUnsupportedFn] = reinterpret_cast<void *>(&uopsimUnsupported);
  m[kUnreachableFn] = reinterpret_cast<void *>(&uopsimUnreachable);
  m[kDivideFn] = reinterpret_cast<void *>(&uopsimDivide);
  m[kTrapFn] = reinterpret_cast<void *>(&uopsimTrap);
  m[kCheckMaskedFn] = reinterpret_cast<void *>(&uopsimCheckMasked);
  m[kClusterArriveFn] = reinterpret_cast<void *>(&uopsimClusterArrive);
  m[kClusterWaitFn] = reinterpret_cast<void *>(&uopsimClusterWait);
  m[kFenceMbarrierInitFn] = reinterpret_cast<void *>(&uopsimFenceMbarrierInit);
  m[kMapaFn] = reinterpret_cast<void *>(&uopsimMapa);
  return m;
}

llvm::Error mlir::uop::sim::launch(const LaunchSpec &spec, SimStats &stats) {
  auto start = Clock::now();
  std::vector<std::pair<uintptr_t, int64_t>> buffers;
  for (const MemRegion &r : spec.globals)
    buffers.push_back({r.begin, r.bytes});
  Counters counters(spec.blockClasses, buffers, spec.countMemory, stats.counters);
  // One Executor per block of a cluster, reused for each cluster.
  Cluster cluster(spec, counters);
  const Dim3 shape = spec.cluster;
  int32_t size = static_cast<int32_t>(shape.count());
  for (int32_t r = 0; r < size; ++r) {
    auto e = std::make_unique<Executor>(spec, counters);
    e->cluster = &cluster;
    e->rank = r;
    e->inCluster = {r % shape.x, r / shape.x % shape.y, r / (shape.x * shape.y)};
    e->counterBase = r * Counters::threadStride(spec.block.count());
    e->fibers = spec.needsFibers;
    e->threads.resize(e->fibers ? spec.block.count() : 1);
    if (e->fibers)
      if (llvm::Error err = e->allocateStacks())
        return err;
    cluster.ctas.push_back(std::move(e));
  }
  LogicalResult result = success();
  for (int32_t z = 0; z < spec.grid.z && succeeded(result); z += shape.z)
    for (int32_t y = 0; y < spec.grid.y && succeeded(result); y += shape.y)
      for (int32_t x = 0; x < spec.grid.x && succeeded(result); x += shape.x) {
        cluster.setUp({x, y, z});
        counters.startBlock(spec.block.count(), size);
        result = cluster.run();
        if (failed(result))
          break;
        counters.finishBlock();
        stats.blocks += size;
        stats.threads += size * spec.block.count();
        stats.sharedBytes = cluster.ctas.front()->sharedBytes;
      }
  stats.ms = msSince(start);
  if (failed(result))
    return llvm::createStringError(llvm::Twine(cluster.error));
  return llvm::Error::success();
}
