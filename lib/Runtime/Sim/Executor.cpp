//===- Executor.cpp - run a simulated grid, thread by thread --------------===//
//
// Clusters of blocks (one block without cluster dimensions) run one after
// another. A kernel without barriers or warp-collective ops runs each
// thread to completion as a plain call (a fault longjmps back here). A
// kernel with them gives each thread of the cluster a fiber (its own stack,
// Fiber.h): a thread runs until it waits at a barrier, mma.sync, an
// mbarrier or the cluster barrier, exits or faults; when no thread can
// run, the executor completes the warps whose 32 lanes all wait at one
// mma.sync, and resumes the threads whose mbarrier phase or cluster
// barrier phase has completed, else lets a waiting test_wait return false,
// else releases each block's barrier if every thread of the block waits at
// it, else reports the deadlock.
//
// Each block's threads, shared memory and what is tracked of it is an
// Executor (BlockExecutor.h; its fibers and warp ops BlockExecutor.cpp,
// cp.async and wgmma's hazards SharedAsync.cpp, mbarriers and bulk copies
// BulkCopies.cpp); a Cluster runs its blocks together (Cluster.cpp). This
// file has the ABI's entry points and the launch.
//
//===----------------------------------------------------------------------===//

#include "BlockExecutor.h"

#include "uop/Support/Timing.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;
using namespace mlir::uop::sim::detail;

thread_local Executor *mlir::uop::sim::detail::active = nullptr;

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
