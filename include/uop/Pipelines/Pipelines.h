//===- Pipelines.h - uop compilation pipelines ------------------*- C++ -*-===//
//
// The pipelines `uop-opt` registers, as functions for compilers that embed
// the dialect: each fills an OpPassManager anchored on builtin.module.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_PIPELINES_PIPELINES_H
#define UOP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::uop {

struct UOpToLLVMOptions : public PassPipelineOptions<UOpToLLVMOptions> {
  PassOptions::Option<bool> halfInF32{
      *this, "half-in-f32",
      llvm::cl::desc("Compute f16/bf16 in f32, rounding at casts, stores and accumulators "
                     "(tinygrad's C backend)"),
      llvm::cl::init(true)};
};

/// uop kernels at any level (kernel AST or lowered) to the LLVM dialect for
/// the host: uop-lower, convert-uop-to-scf, canonicalize and CSE, then the
/// upstream conversions of scf/arith/math/func to LLVM. Each kernel becomes
/// an llvm.func taking one pointer per buffer.
void buildUOpToLLVMPipeline(OpPassManager &pm, const UOpToLLVMOptions &options = {});

/// Registers `uop-to-llvm` for uop-opt's --pass-pipeline and -uop-to-llvm.
void registerUOpPipelines();

} // namespace mlir::uop

#endif
