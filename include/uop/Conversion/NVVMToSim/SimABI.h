//===- SimABI.h - host functions simulated GPU code calls -------*- C++ -*-===//
//
// convert-nvvm-to-sim turns GPU-level LLVM/NVVM IR into host code that calls
// these functions; the SIMT simulator (lib/Runtime/Sim) implements them. A
// `site` is an index into the `uop.sites` array the pass records (the
// op's name and location), so a runtime error can say which op failed.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_NVVMTOSIM_SIMABI_H
#define UOP_CONVERSION_NVVMTOSIM_SIMABI_H

#include <cstdint>
#include <string_view>
#include <utility>

namespace mlir::uop::sim {

/// int32_t sreg(int32_t which): the special register `which` (SReg).
inline constexpr const char *kSRegFn = "__uopsim_sreg";
/// void check(ptr p, int64_t bytes, int32_t site, int32_t access): p..p+bytes
/// must lie in one buffer, shared variable or private allocation, and
/// shared bytes must not be the target of an incomplete cp.async (or, read
/// by another thread, one no barrier has published yet); otherwise the
/// thread stops. `access` is an Access.
inline constexpr const char *kCheckFn = "__uopsim_check";
/// void barrier(int32_t site): bar.sync 0 for the whole block (aligned).
inline constexpr const char *kBarrierFn = "__uopsim_barrier";
/// void mma(int32_t site, int32_t m, n, k, atype, btype, ctype, dtype,
///          ptr a, ptr b, ptr c, ptr d): one lane's part of mma.sync.row.col;
/// a/b/c are the lane's fragment registers as 32-bit words, d receives its
/// result words. Types are NVVM::MMATypes values.
inline constexpr const char *kMmaFn = "__uopsim_mma";
/// void cp_async(int32_t site, ptr dst, ptr src, int32_t bytes, int32_t
/// srcBytes): cp.async of `bytes` from global `src` to shared `dst` (both
/// aligned to `bytes`), the first `srcBytes` read and the rest zero; the
/// bytes land at the cp_async_wait that retires the thread's group.
inline constexpr const char *kCpAsyncFn = "__uopsim_cp_async";
/// void cp_async_commit(int32_t site): cp.async.commit_group.
inline constexpr const char *kCpAsyncCommitFn = "__uopsim_cp_async_commit";
/// void cp_async_wait(int32_t site, int32_t pending): cp.async.wait_group.
inline constexpr const char *kCpAsyncWaitFn = "__uopsim_cp_async_wait";
/// void ldmatrix(int32_t site, ptr row, int32_t count, int32_t trans, ptr d):
/// one lane's part of ldmatrix.sync.aligned.m8n8.x{count}[.trans].b16: `row`
/// is the row address it gives, `d` receives its `count` 32-bit registers.
inline constexpr const char *kLdMatrixFn = "__uopsim_ldmatrix";
/// void wgmma(int32_t site, int32_t id, int32_t shape, int32_t types,
///            int32_t flags, int64_t descA, int64_t descB, ptr acc, ptr d):
/// one thread's part of wgmma.mma_async.sync.aligned with A and B in shared
/// memory: `shape` is m << 20 | n << 8 | k, `types` the NVVM::WGMMATypes of
/// A, B and D as a | b << 4 | d << 8 (| 1 << 12 with .satfinite), `flags`
/// WgmmaFlags; `acc` holds its accumulator words, `d` receives the
/// result's. `id` numbers the mma_async ops of the module, for kWgmmaUseFn.
inline constexpr const char *kWgmmaFn = "__uopsim_wgmma";
/// void wgmma_use(int32_t site, int32_t id): the thread reads the result of
/// its last wgmma `id` (not as another wgmma's accumulator), which a
/// wgmma_wait must have retired.
inline constexpr const char *kWgmmaUseFn = "__uopsim_wgmma_use";
/// kWgmmaFn and kWgmmaUseFn as the device IR calls them (kPreSuffix).
inline constexpr const char *kWgmmaPreFn = "__uopsim_wgmma.pre";
inline constexpr const char *kWgmmaUsePreFn = "__uopsim_wgmma_use.pre";
/// void wgmma_fence(int32_t site), wgmma_commit(int32_t site),
/// wgmma_wait(int32_t site, int32_t pending): wgmma.fence, commit_group and
/// wait_group; fence_proxy_async(int32_t site): fence.proxy.async.shared::cta.
inline constexpr const char *kWgmmaFenceFn = "__uopsim_wgmma_fence";
inline constexpr const char *kWgmmaCommitFn = "__uopsim_wgmma_commit";
inline constexpr const char *kWgmmaWaitFn = "__uopsim_wgmma_wait";
inline constexpr const char *kFenceProxyAsyncFn = "__uopsim_fence_proxy_async";
/// The mbarrier (PTX ISA 9.7.13.15) and the bulk copy that completes on
/// one. `mbar` is the barrier's 8-byte object in shared memory.
/// void mbarrier_init(int32_t site, ptr mbar, int32_t count): a new
/// barrier expecting `count` arrivals per phase.
inline constexpr const char *kMbarrierInitFn = "__uopsim_mbarrier_init";
/// int64_t mbarrier_arrive(int32_t site, ptr mbar, int32_t count, int32_t
/// tx): the barrier's transaction count goes up by `tx` (arrive.expect_tx),
/// then `count` arrivals; returns the state token (the phase arrived at).
inline constexpr const char *kMbarrierArriveFn = "__uopsim_mbarrier_arrive";
/// void mbarrier_tx(int32_t site, ptr mbar, int32_t tx): expect_tx (tx > 0)
/// or complete_tx (the bytes as a negative tx).
inline constexpr const char *kMbarrierTxFn = "__uopsim_mbarrier_tx";
/// int32_t mbarrier_test(int32_t site, ptr mbar, int64_t stateOrParity,
/// int32_t parity): test_wait: whether the phase of the token (parity 0),
/// or of the phase parity (parity 1), has completed; without blocking.
inline constexpr const char *kMbarrierTestFn = "__uopsim_mbarrier_test";
/// void mbarrier_wait(int32_t site, ptr mbar, int32_t parity): try_wait.parity
/// in the loop MLIR makes of it: returns once the phase of that parity has
/// completed (the thread waits until then).
inline constexpr const char *kMbarrierWaitFn = "__uopsim_mbarrier_wait";
/// void mbarrier_inval(int32_t site, ptr mbar).
inline constexpr const char *kMbarrierInvalFn = "__uopsim_mbarrier_inval";
/// void bulk_copy(int32_t site, ptr dst, ptr src, int32_t bytes, ptr mbar,
/// int32_t mask):
/// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes: `bytes`
/// (a multiple of 16, both addresses 16-byte aligned) from global `src` to
/// shared `dst`, complete_tx of them on `mbar`; they land when the phase
/// completes and may be read by a thread once it has seen that (a wait).
/// `mask` is kNoMulticast, or .multicast::cluster's ctaMask: the bytes and
/// the complete_tx go to dst's and mbar's offsets in each block (by
/// %cluster_ctarank) whose bit is set.
inline constexpr const char *kBulkCopyFn = "__uopsim_bulk_copy";
/// void tensor_copy(int32_t site, ptr dst, ptr map, ptr mbar, int32_t mask,
/// int32_t rank, int32_t c0, ..., int32_t c4):
/// cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes:
/// the box of tensor map `map` (one the runtime made) at coordinates
/// c0..c<rank-1> (the rest 0) to shared `dst`, completing on `mbar`;
/// `mask` as bulk_copy's.
inline constexpr const char *kTensorCopyFn = "__uopsim_tensor_copy";
/// bulk_copy's and tensor_copy's `mask` without .multicast::cluster: the
/// block's own shared memory.
inline constexpr int32_t kNoMulticast = -1;
/// Clusters (sm_90): the CTAs of a cluster run together and see each
/// other's shared memory.
/// void cluster_arrive(int32_t site, int32_t relaxed): barrier.cluster.arrive
/// (.release, or .relaxed: no memory ordering).
inline constexpr const char *kClusterArriveFn = "__uopsim_cluster_arrive";
/// void cluster_wait(int32_t site): barrier.cluster.wait (.acquire): until
/// every thread of the cluster that has not exited has arrived.
inline constexpr const char *kClusterWaitFn = "__uopsim_cluster_wait";
/// void fence_mbarrier_init(int32_t site): fence.mbarrier_init.release.cluster:
/// the thread's mbarrier.inits so far are released by its next cluster
/// arrive, relaxed or not.
inline constexpr const char *kFenceMbarrierInitFn = "__uopsim_fence_mbarrier_init";
/// ptr mapa(int32_t site, ptr p, int32_t rank): the address of the shared
/// byte at p's offset in CTA `rank` of the cluster (mapa.shared::cluster).
inline constexpr const char *kMapaFn = "__uopsim_mapa";
/// The simulator's device IR calls each function above, and kWgmmaFn and
/// kWgmmaUseFn, by its name and this suffix, without its first argument
/// (`site`), before LLVM's optimizer; the site is added after, from the
/// call's location.
inline constexpr const char *kPreSuffix = ".pre";

/// What the op a call of `callee` (kPreSuffix name or not) stands for is
/// called in the simulator's errors, or empty if it stands for none.
inline std::string_view instructionOf(std::string_view callee) {
  constexpr std::string_view pre = kPreSuffix;
  if (callee.size() > pre.size() && callee.substr(callee.size() - pre.size()) == pre)
    callee.remove_suffix(pre.size());
  static constexpr std::pair<std::string_view, std::string_view> names[] = {
      {kWgmmaFn, "nvvm.wgmma.mma_async"},
      {kWgmmaUseFn, "a read of a wgmma result"},
      {kMbarrierInitFn, "nvvm.mbarrier.init"},
      {kMbarrierArriveFn, "nvvm.mbarrier.arrive"},
      {kMbarrierTxFn, "nvvm.mbarrier.expect_tx or complete_tx"},
      {kMbarrierTestFn, "nvvm.mbarrier.test.wait"},
      {kMbarrierWaitFn, "nvvm.mbarrier.try_wait.parity"},
      {kMbarrierInvalFn, "nvvm.mbarrier.inval"},
      {kBulkCopyFn, "nvvm.cp.async.bulk"},
      {kTensorCopyFn, "nvvm.cp.async.bulk.tensor"},
      {kClusterArriveFn, "nvvm.cluster.arrive"},
      {kClusterWaitFn, "nvvm.cluster.wait"},
      {kFenceMbarrierInitFn, "nvvm.fence.mbarrier.init"},
      {kMapaFn, "nvvm.mapa"}};
  for (auto [fn, name] : names)
    if (callee == fn)
      return name;
  return {};
}

/// kWgmmaFn's flags.
enum WgmmaFlags : int32_t {
  kWgmmaScaleD = 1, // D = A * B + C (else C is ignored)
  kWgmmaTransA = 2, // A is M-major (PTX imm-trans-a)
  kWgmmaTransB = 4, // B is N-major
  kWgmmaNegA = 8,   // scale-a = -1
  kWgmmaNegB = 16,  // scale-b = -1
};
/// void block(int32_t id, int32_t site): the thread enters basic block `id`,
/// whose instructions by class are row `id` of `uop.sim_blocks` (InstrClass)
/// and whose first op is `site`. A thread that enters too many stops with an
/// error (an endless loop).
inline constexpr const char *kBlockFn = "__uopsim_block";
/// ptr shared(int32_t index): this block's copy of shared variable `index`
/// (of `uop.sim_shared`).
inline constexpr const char *kSharedFn = "__uopsim_shared";
/// ptr alloca(int64_t bytes, int64_t align, int32_t site): private memory.
inline constexpr const char *kAllocaFn = "__uopsim_alloca";
/// void unsupported(int32_t site): the op at `site` cannot be simulated; the
/// thread that reaches it stops with an error.
inline constexpr const char *kUnsupportedFn = "__uopsim_unsupported";
/// void unreachable(int32_t site): the thread reached an `unreachable`, where
/// LLVM's optimizer left undefined behaviour (an access through an undefined
/// address, say); it stops with an error.
inline constexpr const char *kUnreachableFn = "__uopsim_unreachable";
/// void divide(int32_t overflow, int32_t site): the integer division at
/// `site` divides by zero (overflow 0) or the minimum value by -1 (1); the
/// thread stops with an error. Called only then.
inline constexpr const char *kDivideFn = "__uopsim_divide";
/// void checkMasked(ptr p, int64_t laneBytes, int64_t mask, int32_t site,
/// int32_t access): a masked vector access (llvm.masked.load/store) of lane
/// i at p + i * laneBytes for each bit i set in `mask`, checked as kCheckFn
/// checks one access.
inline constexpr const char *kCheckMaskedFn = "__uopsim_check_masked";
/// void trap(int32_t site): the thread executed llvm.trap (PTX's trap,
/// which aborts the kernel); it stops with an error.
inline constexpr const char *kTrapFn = "__uopsim_trap";

// The pass writes the module attributes uop.sites and uop.sim_shared
// for the runtime (declared with the uop dialect's attributes, UOpBase.td).

/// The classes of instructions the simulator counts, each as one PTX
/// instruction would: what a basic block holds of each is counted when
/// the pass runs (constants, register moves and casts between registers,
/// and addressing folded into a load or store are free).
enum class InstrClass : int32_t {
  Int,       // integer arithmetic, compares, selects, address arithmetic
  Float,     // floating-point arithmetic, fma, compares, conversions
  Special,   // approximate transcendentals (ex2, lg2, sin, sqrt, rcp: the SFU)
  Load,      // ld (global, shared or local: told apart when it runs)
  Store,     // st and atomics
  Mma,       // mma.sync
  Wgmma,     // wgmma.mma_async (its fence, commit and wait are Other)
  LdMatrix,  // ldmatrix
  AsyncCopy, // cp.async, its commit_group and wait_group; cp.async.bulk
  Barrier,   // bar.sync
  Control,   // branches, return
  Other,     // anything else (an unknown intrinsic)
};
inline constexpr int32_t kInstrClasses = static_cast<int32_t>(InstrClass::Other) + 1;
/// The classes' names, in order, for reports.
inline constexpr const char *kInstrClassNames[kInstrClasses] = {
    "int",   "float",    "special",  "load",    "store",   "mma",
    "wgmma", "ldmatrix", "cp.async", "barrier", "control", "other"};

/// What an access checked by kCheckFn does.
enum class Access : int32_t { Read, Write, ReadWrite };

/// The special registers, numbered for kSRegFn.
enum class SReg : int32_t {
  TidX,
  TidY,
  TidZ,
  NTidX,
  NTidY,
  NTidZ,
  CtaIdX,
  CtaIdY,
  CtaIdZ,
  NCtaIdX,
  NCtaIdY,
  NCtaIdZ,
  LaneId,
  WarpId,
  WarpSize,
  ClusterCtaRank,  // %cluster_ctarank
  ClusterNCtaRank, // %cluster_nctarank
  ClusterCtaIdX,   // %cluster_ctaid: the CTA's place in its cluster
  ClusterCtaIdY,
  ClusterCtaIdZ,
  ClusterNCtaIdX, // %cluster_nctaid: the cluster's size
  ClusterNCtaIdY,
  ClusterNCtaIdZ,
  ClusterIdX, // %clusterid: the cluster's place in the grid
  ClusterIdY,
  ClusterIdZ,
  NClusterIdX, // %nclusterid
  NClusterIdY,
  NClusterIdZ,
};

} // namespace mlir::uop::sim

#endif
