//===- LaunchLimits.h - CUDA's launch limits --------------------*- C++ -*-===//
//
// As tinygrad's CUDARenderer has them (global_max, local_max): every GPU
// target's bounds (Targets.cpp), and what a launch of any kernel, imported
// PTX included, may ask for (launchDimsFor).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_IR_LAUNCHLIMITS_H
#define UOP_DIALECT_UOP_IR_LAUNCHLIMITS_H

#include <cstdint>

namespace mlir::uop {
inline constexpr int64_t kCudaGridMax[3] = {2147483647, 65535, 65535};
inline constexpr int64_t kCudaBlockMax[3] = {1024, 1024, 64};
inline constexpr int64_t kCudaThreadsPerBlock = 1024;
/// Blocks per cluster a kernel may have without opting in to non-portable
/// sizes (CUDA Programming Guide, "Thread Block Clusters").
inline constexpr int64_t kCudaPortableClusterSize = 8;
} // namespace mlir::uop

#endif
