//===- Pipelines.cpp - uop-to-llvm and uop-to-ptx, from the stages --------===//

#include "uop/Pipelines/Pipelines.h"

#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::uop;

bool mlir::uop::verifyEachByDefault() { return UOP_VERIFY_EACH_DEFAULT; }

void mlir::uop::buildUOpToLLVMPipeline(OpPassManager &pm, const UOpToLLVMOptions &options) {
  std::shared_ptr<CanonicalPatternCache> canonical = std::make_shared<CanonicalPatternCache>();
  buildKernelCodegenStage(pm, options.codegen(), canonical);
  buildHostToLLVMStage(pm, options.halfInF32, options.checkAccesses, canonical);
}

void mlir::uop::buildUOpToPTXPipeline(OpPassManager &pm, const UOpToPTXOptions &options) {
  UOpAttachTargetOptions attach;
  attach.chip = options.chip;
  pm.addPass(createUOpAttachTarget(attach));
  std::shared_ptr<CanonicalPatternCache> canonical = std::make_shared<CanonicalPatternCache>();
  buildKernelCodegenStage(pm, options.codegen(), canonical);
  buildGPUMappingStage(pm, canonical);
  if (options.printer == "direct")
    buildDirectPrinterLoopStage(pm);
  else
    buildWgmmaPipeliningStage(pm);
  buildGPUToNVVMStage(pm, options.chip, options.optLevel);
  if (options.toBinary)
    buildGPUToBinaryStage(pm, options.printer);
}

void mlir::uop::registerUOpPTXConversions(DialectRegistry &registry) {
  // uop-gpu-to-nvvm converts the other dialects through their
  // ConvertToLLVMPatternInterface.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
}

void mlir::uop::registerUOpPipelines() {
  PassPipelineRegistration<UOpToLLVMOptions>(
      "uop-to-llvm",
      "uop kernels (any level) to the LLVM dialect for the host: the kernel-codegen stage "
      "(uop-optimize, uop-lower, uop-expand, uop-devectorize), the host target's rewrites "
      "(uop-decompose-math, uop-c-expressions, uop-fuse-mulacc), then convert-uop-to-scf and the "
      "upstream conversions to LLVM",
      [](OpPassManager &pm, const UOpToLLVMOptions &options) {
        buildUOpToLLVMPipeline(pm, options);
      });
  PassPipelineRegistration<UOpToPTXOptions>(
      "uop-to-ptx",
      "uop kernels (any level) to PTX: uop-attach-target, the kernel-codegen stage (uop-optimize, "
      "uop-lower, uop-expand, uop-devectorize), GPU mapping (uop-gpu-dims, uop-decompose-math, "
      "uop-fuse-mulacc, uop-target-legalize, convert-uop-to-gpu), for printer=direct "
      "uop-unroll-loops and uop-vectorize-loads, else uop-pipeline-wgmma, GPU to NVVM and "
      "uop-serialize-to-ptx",
      [](OpPassManager &pm, const UOpToPTXOptions &options) {
        buildUOpToPTXPipeline(pm, options);
      });
}
