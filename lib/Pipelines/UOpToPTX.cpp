//===- UOpToPTX.cpp - the GPU pipeline: uop kernels to PTX ----------------===//

#include "uop/Pipelines/Pipelines.h"

#include "OptimizeStep.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::uop;

void mlir::uop::buildUOpToPTXPipeline(OpPassManager &pm, const UOpToPTXOptions &options) {
  UOpAttachTargetOptions attach;
  attach.chip = options.chip;
  pm.addPass(createUOpAttachTarget(attach));
  OpPassManager &kernel = pm.nest<KernelOp>();
  addOptimizeStep(kernel, options);
  kernel.addPass(createUOpLower());
  kernel.addPass(createUOpExpand());
  // tinygrad's symbolic rules before mapping (sizes of 1 fold away) and
  // after legalizing (the index math the mapping adds). CSE merges what the
  // expander copied alike, first so that canonicalize sees each expression
  // once, then what canonicalize made alike (a load two copies share becomes
  // one, before a gate puts each behind its own branch).
  kernel.addPass(createCSEPass());
  kernel.addPass(createCanonicalizerPass());
  kernel.addPass(createCSEPass());
  kernel.addPass(createUOpDevectorize());
  kernel.addPass(createUOpGPUDims());
  kernel.addPass(createUOpTargetLegalize());
  kernel.addPass(createCanonicalizerPass());
  pm.addPass(createConvertUOpToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  GpuNVVMAttachTargetOptions nvvm;
  nvvm.chip = options.chip;
  nvvm.features = "+ptx80"; // PTX 8.0 (CUDA 12) covers every chip we know, sm_90a too
  nvvm.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(nvvm));
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.toBinary) {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }
}

void mlir::uop::registerUOpPTXDependencies(DialectRegistry &registry) {
  // convert-gpu-to-nvvm converts the other dialects through their
  // ConvertToLLVMPatternInterface.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::uop::registerUOpPipelines() {
  PassPipelineRegistration<UOpToLLVMOptions>(
      "uop-to-llvm",
      "uop kernels (any level) to the LLVM dialect for the host: uop-optimize, uop-lower, uop-expand, "
      "uop-devectorize, convert-uop-to-scf, then the upstream conversions to LLVM",
      [](OpPassManager &pm, const UOpToLLVMOptions &options) {
        buildUOpToLLVMPipeline(pm, options);
      });
  PassPipelineRegistration<UOpToPTXOptions>(
      "uop-to-ptx",
      "uop kernels (any level) to PTX: uop-optimize, uop-lower, uop-expand, uop-devectorize, uop-gpu-dims, "
      "uop-target-legalize, "
      "convert-uop-to-gpu, then the upstream gpu/nvvm conversions and gpu-module-to-binary",
      [](OpPassManager &pm, const UOpToPTXOptions &options) {
        buildUOpToPTXPipeline(pm, options);
      });
}
