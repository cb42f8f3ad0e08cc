//===- DeviceIR.h - the IR the NVPTX backend compiles, for the simulator -*- C++ -*-===//
//
// The simulator runs a kernel as NVPTX's instruction selection receives it:
// the gpu.module's LLVM IR after LLVM's optimizer at the PTX path's level
// (what uop-serialize-to-ptx runs before codegen, with the same NVPTX target
// machine), imported back into the LLVM dialect. Its instruction counts are
// then those of the optimized code, and any optimization that changes what
// the kernel computes shows on the simulator too.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_RUNTIME_SIM_DEVICEIR_H
#define UOP_LIB_RUNTIME_SIM_DEVICEIR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::uop::sim {

/// The functions and globals of `gpuModule` (a gpu.module in the LLVM and
/// NVVM dialects) optimized by LLVM at `optLevel` for `chip` with the NVPTX
/// target machine, as a new module of LLVM dialect ops in which NVVM's
/// intrinsics are `llvm.call_intrinsic` ops. Emits an error and fails where
/// the translation, the optimizer or the import does.
FailureOr<OwningOpRef<ModuleOp>> optimizeDeviceIR(Operation *gpuModule, StringRef chip,
                                                  unsigned optLevel);

} // namespace mlir::uop::sim

#endif
