//===- Pipelines.h - uop compilation pipelines ------------------*- C++ -*-===//
//
// The pipelines `uop-opt` registers, as functions for compilers that embed
// the dialect: each fills an OpPassManager anchored on builtin.module.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_PIPELINES_PIPELINES_H
#define UOP_PIPELINES_PIPELINES_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::uop {

/// The options of both pipelines' first step, uop-optimize.
template <typename Derived>
struct UOpOptimizeStepOptions : public PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Run uop-optimize first: the opts below, else tinygrad's heuristic"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<std::string> opts{
      *this, "opts",
      llvm::cl::desc("Opts for every kernel in tinygrad's notation (uop-optimize's opts)"),
      llvm::cl::init("")};
};

struct UOpToLLVMOptions : public UOpOptimizeStepOptions<UOpToLLVMOptions> {
  PassOptions::Option<bool> halfInF32{
      *this, "half-in-f32",
      llvm::cl::desc("Compute f16/bf16 in f32, rounding at casts, stores and accumulators "
                     "(tinygrad's C backend)"),
      llvm::cl::init(true)};
};

/// uop kernels at any level (kernel AST or lowered) to the LLVM dialect for
/// the host: uop-optimize (for the CPU: upcasts and unrolls only),
/// uop-lower, uop-expand, CSE, canonicalize, CSE and uop-devectorize,
/// convert-uop-to-scf, canonicalize and CSE, then the
/// upstream conversions of scf/arith/math/func to LLVM. Each kernel becomes
/// an llvm.func taking one pointer per buffer.
void buildUOpToLLVMPipeline(OpPassManager &pm, const UOpToLLVMOptions &options = {});

struct UOpToPTXOptions : public UOpOptimizeStepOptions<UOpToPTXOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture (sm_XX); an unknown one is an error listing the known ones"),
      llvm::cl::init(TargetAttr::kDefaultChip.str())};
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("LLVM optimization level (0-3)"), llvm::cl::init(3)};
  PassOptions::Option<bool> toBinary{
      *this, "to-binary",
      llvm::cl::desc("End with gpu-module-to-binary (PTX text in each gpu.binary); without it "
                     "the result is the gpu.module in the nvvm/llvm dialects"),
      llvm::cl::init(true)};
};

/// uop kernels (kernel AST or lowered) to PTX through the upstream gpu and
/// nvvm dialects: uop-attach-target, then per kernel uop-optimize, uop-lower,
/// uop-expand, CSE, canonicalize, CSE, uop-devectorize, uop-gpu-dims,
/// uop-target-legalize, canonicalize;
/// convert-uop-to-gpu; then scf-to-cf, nvvm-attach-target, convert-gpu-to-nvvm,
/// reconcile-unrealized-casts and gpu-module-to-binary (format=isa). Each
/// kernel becomes a `gpu.binary` of its name whose object holds the PTX; the
/// module's `uop.launch` has its launch dimensions. The context needs the
/// NVVM target and the LLVM IR translations: see registerUOpPTXDependencies.
void buildUOpToPTXPipeline(OpPassManager &pm, const UOpToPTXOptions &options = {});

/// Registers what buildUOpToPTXPipeline needs beyond the dialects it loads:
/// the ConvertToLLVM interfaces convert-gpu-to-nvvm uses (arith, cf, func,
/// index, math, nvvm, ub), the NVVM target attribute's serialization, and the
/// translations of the builtin, gpu, llvm and nvvm dialects to LLVM IR.
void registerUOpPTXDependencies(DialectRegistry &registry);

/// Registers `uop-to-llvm` and `uop-to-ptx` for uop-opt's --pass-pipeline
/// and -uop-to-llvm / -uop-to-ptx.
void registerUOpPipelines();

} // namespace mlir::uop

#endif
