//===- GPUKernel.h - a kernel at the GPU level, as the targets run it -*- C++ -*-===//
//
// What the GPU targets (simulator, CUDA) need of a kernel after the GPU
// conversions: its function, its buffers, and the grid and block sizes
// convert-uop-to-gpu recorded in the module's `uop.launch` dictionary (and
// on the function).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_GPUKERNEL_H
#define UOP_RUNTIME_GPUKERNEL_H

#include "mlir/IR/BuiltinOps.h"

#include <array>

namespace mlir::uop {

struct Dim3 {
  int32_t x = 1, y = 1, z = 1;
  int64_t count() const { return int64_t(x) * y * z; }
  std::array<int32_t, 3> xyz() const { return {x, y, z}; }
};

/// The launch dimensions (grid, block) recorded for kernel `name`: the
/// module's `uop.launch` entry, else the function's
/// gpu.known_grid_size/gpu.known_block_size. Emits an error if neither is
/// there or they are malformed.
FailureOr<std::pair<Dim3, Dim3>> getLaunchDims(ModuleOp module, Operation *kernelFunc,
                                               StringRef name);

/// Kernel `name` as the GPU pipeline leaves it before the PTX step.
struct GPUKernel {
  Operation *func = nullptr; // llvm.func @name in gpu.module @name
  unsigned numBuffers = 0;   // its parameters, all pointers
  Dim3 grid, block;
};

/// Finds gpu.module @name holding llvm.func @name, checks every parameter
/// is a buffer (`runner`, e.g. "the simulator", passes nothing else) and
/// reads its launch dimensions. Emits an error and fails otherwise.
FailureOr<GPUKernel> findGPUKernel(ModuleOp module, StringRef name, StringRef runner);

} // namespace mlir::uop

#endif
