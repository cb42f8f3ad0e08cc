//===- UOpToLLVM.cpp - the host pipeline: uop kernels to LLVM -------------===//

#include "uop/Pipelines/Pipelines.h"

#include "OptimizeStep.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::uop;

void mlir::uop::buildUOpToLLVMPipeline(OpPassManager &pm, const UOpToLLVMOptions &options) {
  addOptimizeStep(pm.nest<KernelOp>(), options);
  pm.addNestedPass<KernelOp>(createUOpLower());
  pm.addNestedPass<KernelOp>(createUOpExpand());
  // CSE merges what the expander copied alike, first so that canonicalize
  // sees each expression once, then what canonicalize made alike (a load
  // two copies share becomes one, before a gate puts each behind its own
  // branch).
  pm.addNestedPass<KernelOp>(createCSEPass());
  pm.addNestedPass<KernelOp>(createCanonicalizerPass());
  pm.addNestedPass<KernelOp>(createCSEPass());
  pm.addNestedPass<KernelOp>(createUOpDevectorize());
  ConvertUOpToSCFOptions toSCF;
  toSCF.halfInF32 = options.halfInF32;
  pm.addPass(createConvertUOpToSCF(toSCF));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  // bf16 <-> f32 as integer ops: LLVM would otherwise call a runtime helper.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

