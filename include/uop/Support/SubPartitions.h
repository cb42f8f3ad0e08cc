//===- SubPartitions.h - an SM's sub-partitions -----------------*- C++ -*-===//
//
// An NVIDIA SM (sm_70 and later) is 4 sub-partitions, each with a warp
// scheduler and a tensor core; a warp stays on the one its slot deals it to
// (round robin). The roofline estimate (Runtime/Roofline.cpp) and the
// staged tensor-core heuristic (Optimize/StagedTensorCores.cpp) both count
// a kernel's tensor and issue work by it.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_SUPPORT_SUBPARTITIONS_H
#define UOP_SUPPORT_SUBPARTITIONS_H

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

namespace mlir::uop {

constexpr int64_t kSubPartitions = 4;

/// The warps the busiest sub-partition of an SM runs, when the SM runs
/// `warps` warps, `resident` of them at once: they share the sub-partitions
/// in use, so an SM with fewer than 4 warps leaves some idle.
inline int64_t busiestSubPartitionWarps(int64_t warps, int64_t resident) {
  return llvm::divideCeil(warps, std::clamp<int64_t>(resident, 1, kSubPartitions));
}

} // namespace mlir::uop

#endif
