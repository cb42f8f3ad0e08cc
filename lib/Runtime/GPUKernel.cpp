//===- GPUKernel.cpp - a kernel at the GPU level, as the targets run it ---===//

#include "uop/Runtime/GPUKernel.h"

#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::uop;

namespace {
std::optional<Dim3> dims(Attribute a) {
  std::optional<std::array<int32_t, 3>> size = readLaunchSize(a);
  if (!size)
    return std::nullopt;
  return Dim3{(*size)[0], (*size)[1], (*size)[2]};
}
} // namespace

FailureOr<std::pair<Dim3, Dim3>> mlir::uop::getLaunchDims(ModuleOp module, Operation *kernelFunc,
                                                          StringRef name) {
  if (DictionaryAttr launch = UOpDialect::LaunchAttrHelper(module.getContext()).getAttr(module))
    if (auto entry = launch.getAs<DictionaryAttr>(name)) {
      std::optional<Dim3> grid = dims(entry.get("grid")), block = dims(entry.get("block"));
      if (!grid || !block)
        return emitError(module.getLoc())
               << "uop.launch entry of '" << name
               << "' needs grid and block as array<i32: x, y, z> of positive sizes";
      return std::make_pair(*grid, *block);
    }
  std::optional<Dim3> grid = dims(kernelFunc->getAttr("gpu.known_grid_size")),
                      block = dims(kernelFunc->getAttr("gpu.known_block_size"));
  if (grid && block)
    return std::make_pair(*grid, *block);
  return emitError(kernelFunc->getLoc())
         << "no launch dimensions for kernel '" << name
         << "': expected a uop.launch entry on the module or gpu.known_grid_size and "
            "gpu.known_block_size on the function";
}

FailureOr<GPUKernel> mlir::uop::findGPUKernel(ModuleOp module, StringRef name, StringRef runner) {
  auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(name);
  auto func = gpuModule ? gpuModule.lookupSymbol<LLVM::LLVMFuncOp>(name) : nullptr;
  if (!func || func.isExternal())
    return emitError(module.getLoc())
           << "no GPU kernel '" << name << "': expected gpu.module @" << name
           << " holding llvm.func @" << name << " (the IR the PTX is made from)";
  FailureOr<std::pair<Dim3, Dim3>> dims = getLaunchDims(module, func, name);
  if (failed(dims))
    return failure();
  for (Type t : func.getArgumentTypes())
    if (!isa<LLVM::LLVMPointerType>(t))
      return func.emitError() << runner << " passes only buffers, but kernel '" << name
                              << "' has a parameter of type " << t;
  return GPUKernel{func, func.getNumArguments(), dims->first, dims->second};
}
