//===- KernelParameters.h - a GPU kernel's parameters, as passed -*- C++ -*-===//
//
// What the runtimes (and the PTX header line) pass a GPU kernel, in order:
// its buffers, its i32 variables, then a pointer to each tensor map its
// `uop.launch` entry lists.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_KERNELPARAMETERS_H
#define UOP_CONVERSION_COMMON_KERNELPARAMETERS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::uop {

struct KernelParameters {
  unsigned buffers = 0, variables = 0;
};

/// `func`'s parameters split as above, for tensor maps of buffers
/// `mapBuffers` (one per map, in order): each map's buffer must be one of
/// the kernel's. Otherwise emits an error on `func`, saying what `runner`
/// (e.g. "the simulator") passes, and fails.
FailureOr<KernelParameters> splitKernelParameters(LLVM::LLVMFuncOp func,
                                                  ArrayRef<unsigned> mapBuffers, StringRef runner);

} // namespace mlir::uop

#endif
