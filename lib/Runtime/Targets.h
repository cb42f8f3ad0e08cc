//===- Targets.h - the runners createRunner makes (private) -----*- C++ -*-===//
#ifndef UOP_LIB_RUNTIME_TARGETS_H
#define UOP_LIB_RUNTIME_TARGETS_H

#include "uop/Runtime/GPUKernel.h"
#include "uop/Runtime/Runner.h"

namespace mlir::uop {

/// The host: uop-to-llvm and LLVM's ORC JIT at -O2 (CPUTarget.cpp).
std::unique_ptr<Runner> createCPURunner();
/// The SIMT simulator for `chip` (SimTarget.cpp; the simulator is Sim/).
std::unique_ptr<Runner> createSimRunner(StringRef chip);
/// Device 0 through the CUDA driver, for `chip` or the device's
/// (CUDATarget.cpp).
llvm::Expected<std::unique_ptr<Runner>> createCUDARunner(MLIRContext *ctx, StringRef chip);

/// Keeps the kernels named `name` (or whatever was made of it) and erases
/// every other uop.kernel of `module`: a runner compiles one kernel.
void keepOnlyKernel(ModuleOp module, StringRef name);

/// The GPU runners' common part: brings kernel `name` of `module` to the IR
/// PTX is made from (a gpu.module of LLVM/NVVM functions) and finds it there
/// (findGPUKernel, for `runner`). A uop.kernel goes through uop-to-ptx for
/// `chip` without the binary step, hand-written gpu.funcs (or LLVM-level
/// gpu.modules without an NVVM target) through the GPU-to-NVVM stage; a
/// module already at that level is left as it is. The passes go on `pm`, an
/// empty pass manager the runner has set up. Errors are diagnostics.
FailureOr<GPUKernel> lowerToGPUKernel(ModuleOp module, StringRef name, StringRef chip,
                                      const KernelCodegenOptions &codegen, StringRef runner,
                                      PassManager &pm);

} // namespace mlir::uop

#endif
