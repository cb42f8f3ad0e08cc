//===- Targets.h - the runners createRunner makes (private) -----*- C++ -*-===//
#ifndef UOP_LIB_RUNTIME_TARGETS_H
#define UOP_LIB_RUNTIME_TARGETS_H

#include "uop/Runtime/Runner.h"

namespace mlir::uop {

/// The host: uop-to-llvm and LLVM's ORC JIT at -O2 (CPUTarget.cpp).
std::unique_ptr<Runner> createCPURunner();
/// The SIMT simulator for `chip` (Sim/SimTarget.cpp).
std::unique_ptr<Runner> createSimRunner(StringRef chip);
/// Device 0 through the CUDA driver, for `chip` or the device's
/// (CUDATarget.cpp).
llvm::Expected<std::unique_ptr<Runner>> createCUDARunner(MLIRContext *ctx, StringRef chip);

/// Keeps the kernels named `name` (or whatever was made of it) and erases
/// every other uop.kernel of `module`: a runner compiles one kernel.
void keepOnlyKernel(ModuleOp module, StringRef name);

} // namespace mlir::uop

#endif
