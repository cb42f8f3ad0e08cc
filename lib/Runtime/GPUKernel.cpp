//===- GPUKernel.cpp - a kernel at the GPU level, as the targets run it ---===//

#include "uop/Runtime/GPUKernel.h"

#include "uop/Conversion/Common/KernelParameters.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::uop;

/// The launch entry's dimensions, else the function's known sizes.
static FailureOr<LaunchDims> readLaunchDims(ModuleOp module, Operation *kernelFunc,
                                            StringRef name) {
  if (DictionaryAttr launch = UOpDialect::LaunchAttrHelper(module.getContext()).getAttr(module))
    if (Attribute entry = launch.get(name)) {
      std::optional<LaunchDims> dims = LaunchDims::read(entry);
      if (!dims)
        return emitError(module.getLoc())
               << "uop.launch entry of '" << name
               << "' needs grid and block as array<i32: x, y, z> of positive sizes";
      return *dims;
    }
  std::optional<std::array<int32_t, 3>> grid = readLaunchSize(
                                            kernelFunc->getAttr("gpu.known_grid_size")),
                                        block = readLaunchSize(
                                            kernelFunc->getAttr("gpu.known_block_size"));
  if (grid && block)
    return LaunchDims{*grid, *block, {}, {}};
  return emitError(kernelFunc->getLoc())
         << "no launch dimensions for kernel '" << name
         << "': expected a uop.launch entry on the module or gpu.known_grid_size and "
            "gpu.known_block_size on the function";
}

FailureOr<LaunchDims> mlir::uop::getLaunchDims(ModuleOp module, Operation *kernelFunc,
                                               StringRef name) {
  FailureOr<LaunchDims> dims = readLaunchDims(module, kernelFunc, name);
  if (failed(dims))
    return failure();
  // Blocks per cluster, as LLVM prints them (.reqnctapercluster): x[, y[, z]].
  if (Attribute attr = kernelFunc->getAttr(NVVM::NVVMDialect::getClusterDimAttrName())) {
    auto sizes = dyn_cast<DenseI32ArrayAttr>(attr);
    if (!sizes || sizes.empty() || sizes.size() > 3 ||
        llvm::any_of(sizes.asArrayRef(), [](int32_t d) { return d <= 0; }))
      return kernelFunc->emitError()
             << "kernel '" << name << "' has " << NVVM::NVVMDialect::getClusterDimAttrName() << " "
             << attr << "; expected array<i32: x[, y[, z]]> of positive sizes";
    for (auto [i, d] : llvm::enumerate(sizes.asArrayRef()))
      dims->cluster[i] = d;
  }
  return dims;
}

FailureOr<GPUKernel> mlir::uop::findGPUKernel(ModuleOp module, StringRef name, StringRef runner,
                                              ArrayRef<KernelVariable> declared) {
  auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(name);
  auto func = gpuModule ? gpuModule.lookupSymbol<LLVM::LLVMFuncOp>(name) : nullptr;
  if (!func || func.isExternal())
    return emitError(module.getLoc())
           << "no GPU kernel '" << name << "': expected gpu.module @" << name
           << " holding llvm.func @" << name << " (the IR the PTX is made from)";
  FailureOr<LaunchDims> dims = getLaunchDims(module, func, name);
  if (failed(dims))
    return failure();
  std::vector<unsigned> mapBuffers;
  for (const TensorMapSpec &m : dims->tensorMaps)
    mapBuffers.push_back(m.buffer);
  FailureOr<KernelParameters> params = splitKernelParameters(func, mapBuffers, runner);
  if (failed(params))
    return failure();
  GPUKernel k{func, params->buffers, {}, *dims};
  k.variables = takenVariables(module, name, params->buffers, params->variables, declared);
  for (const SymbolicSize &s : dims->symbolic)
    for (const auto &term : s.terms)
      if (llvm::none_of(k.variables, [&](const KernelVariable &v) { return v.name == term.first; }))
        return func.emitError() << "the launch size " << s.str() << " of kernel '" << name
                                << "' needs variable " << term.first
                                << ", which the kernel does not take";
  return k;
}
