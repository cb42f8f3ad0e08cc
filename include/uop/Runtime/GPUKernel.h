//===- GPUKernel.h - a kernel at the GPU level, as the targets run it -*- C++ -*-===//
//
// What the GPU targets (simulator, CUDA) need of a kernel after the GPU
// conversions: its function, its buffers and variables, and the grid and
// block sizes convert-uop-to-gpu recorded in the module's `uop.launch`
// dictionary (and on the function).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_GPUKERNEL_H
#define UOP_RUNTIME_GPUKERNEL_H

#include "uop/Pipelines/KernelInterface.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>

namespace mlir::uop {

struct Dim3 {
  int32_t x = 1, y = 1, z = 1;
  int64_t count() const { return int64_t(x) * y * z; }
  std::array<int32_t, 3> xyz() const { return {x, y, z}; }
  static Dim3 of(const std::array<int32_t, 3> &d) { return {d[0], d[1], d[2]}; }
};

/// The launch dimensions recorded for kernel `name`: the module's
/// `uop.launch` entry, else the function's
/// gpu.known_grid_size/gpu.known_block_size. Emits an error if neither is
/// there or they are malformed.
FailureOr<LaunchDims> getLaunchDims(ModuleOp module, Operation *kernelFunc, StringRef name);

/// Kernel `name` as the GPU pipeline leaves it before the PTX step.
struct GPUKernel {
  Operation *func = nullptr; // llvm.func @name in gpu.module @name
  unsigned numBuffers = 0;   // its first parameters, all pointers
  std::vector<KernelVariable> variables; // the i32 parameters after them
  LaunchDims launch;                     // with the tensor maps whose pointers come last
};

/// Finds gpu.module @name holding llvm.func @name, checks its parameters are
/// buffers, i32 variables, then a pointer per tensor map of its launch entry
/// (what `runner`, e.g. "the simulator", passes),
/// and reads its launch dimensions. `declared`: the variables' bounds (see
/// takenVariables). Emits an error and fails otherwise.
FailureOr<GPUKernel> findGPUKernel(ModuleOp module, StringRef name, StringRef runner,
                                   ArrayRef<KernelVariable> declared = {});

} // namespace mlir::uop

#endif
