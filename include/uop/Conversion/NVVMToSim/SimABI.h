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

namespace mlir::uop::sim {

/// int32_t sreg(int32_t which): the special register `which` (SReg).
inline constexpr const char *kSRegFn = "__uopsim_sreg";
/// void check(ptr p, int64_t bytes, int32_t site): p..p+bytes must lie in one
/// buffer, shared variable or private allocation; otherwise the thread stops.
inline constexpr const char *kCheckFn = "__uopsim_check";
/// void barrier(int32_t site): bar.sync 0 for the whole block (aligned).
inline constexpr const char *kBarrierFn = "__uopsim_barrier";
/// void mma(int32_t site, int32_t m, n, k, atype, btype, ctype, dtype,
///          ptr a, ptr b, ptr c, ptr d): one lane's part of mma.sync.row.col;
/// a/b/c are the lane's fragment registers as 32-bit words, d receives its
/// result words. Types are NVVM::MMATypes values.
inline constexpr const char *kMmaFn = "__uopsim_mma";
/// ptr shared(int32_t index): this block's copy of shared variable `index`
/// (of `uop.sim_shared`).
inline constexpr const char *kSharedFn = "__uopsim_shared";
/// ptr alloca(int64_t bytes, int64_t align, int32_t site): private memory.
inline constexpr const char *kAllocaFn = "__uopsim_alloca";
/// void unsupported(int32_t site): the op at `site` cannot be simulated; the
/// thread that reaches it stops with an error.
inline constexpr const char *kUnsupportedFn = "__uopsim_unsupported";

// The pass writes the module attributes uop.sites and uop.sim_shared
// for the runtime (declared with the uop dialect's attributes, UOpBase.td).

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
};

} // namespace mlir::uop::sim

#endif
