//===- LaunchDims.h - a GPU kernel's recorded launch dimensions -*- C++ -*-===//
//
// convert-uop-to-gpu records each kernel's grid and block sizes in the
// module's `uop.launch` dictionary (and on the function); the GPU targets
// (simulator, CUDA) launch with them.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_LAUNCHDIMS_H
#define UOP_RUNTIME_LAUNCHDIMS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::uop {

struct Dim3 {
  int32_t x = 1, y = 1, z = 1;
  int64_t count() const { return int64_t(x) * y * z; }
};

/// The launch dimensions (grid, block) recorded for kernel `name`: the
/// module's `uop.launch` entry, else the function's
/// gpu.known_grid_size/gpu.known_block_size. Emits an error if neither is
/// there or they are malformed.
FailureOr<std::pair<Dim3, Dim3>> getLaunchDims(ModuleOp module, Operation *kernelFunc,
                                               StringRef name);

} // namespace mlir::uop

#endif
