//===- PTXDependencies.cpp - what uop-to-ptx needs, LLVM's back end included -===//
//
// A file of its own: a tool that never calls registerUOpPTXDependencies
// (uop-translate; uop-translate-llvm calls it) links neither the LLVM IR
// translations nor LLVM's optimizer and NVPTX back end.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/GPUToPTX/LLVMBackend.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;

void mlir::uop::registerUOpPTXDependencies(DialectRegistry &registry) {
  registerUOpPTXConversions(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerLLVMPTXBackend();
}
