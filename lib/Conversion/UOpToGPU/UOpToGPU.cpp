//===- UOpToGPU.cpp - GPU-mapped uop kernels to gpu.module/gpu.func -------===//
//
// Each kernel becomes `gpu.module @k { gpu.func @k(...) kernel }`, its ops
// placed in loops by the shared emitter (Conversion/Common) for NVPTX
// (NVPTXTargetInfo: SPECIALs as block and thread ids, shared memory, WMMA,
// approximate instructions). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "uop/Conversion/Common/KernelEmitter.h"

#include "NVPTXTargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_CONVERTUOPTOGPU
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The grid and block sizes the kernel's SPECIALs imply (1 where absent).
struct LaunchDims {
  int32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};

  LogicalResult collect(KernelOp kernel) {
    llvm::StringMap<int64_t> seen;
    for (SpecialOp s : kernel.getBodyBlock().getOps<SpecialOp>()) {
      StringRef name = s.getName();
      int64_t size = static_cast<int64_t>(s.getSize());
      auto [it, inserted] = seen.try_emplace(name, size);
      if (!inserted && it->second != size)
        return s.emitOpError() << "'" << name << "' has size " << size << " here and " << it->second
                               << " elsewhere in the kernel";
      if (s.isThreadIndex())
        block[s.getDim()] = size;
      else
        grid[s.getDim()] = size; // gidx, or idx with one thread per block
    }
    for (int d = 0; d < 3; ++d)
      if (seen.count(("gidx" + Twine(d)).str()) && seen.count(("idx" + Twine(d)).str()))
        return kernel.emitOpError() << "uses both gidx" << d << " and idx" << d;
    return success();
  }

  DictionaryAttr attr(Builder &b) const {
    return b.getDictionaryAttr({b.getNamedAttr("block", b.getDenseI32ArrayAttr(block)),
                                b.getNamedAttr("grid", b.getDenseI32ArrayAttr(grid))});
  }
};

struct ConvertUOpToGPUPass : mlir::uop::impl::ConvertUOpToGPUBase<ConvertUOpToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    TargetAttr targetAttr = TargetAttr::lookupGPU(module);
    if (!targetAttr)
      return signalPassFailure();
    NVPTXTargetInfo target(targetAttr);

    Builder b(&getContext());
    SmallVector<NamedAttribute> launch;
    UOpDialect::LaunchAttrHelper launchAttr(&getContext());
    if (DictionaryAttr old = launchAttr.getAttr(module))
      llvm::append_range(launch, old.getValue());
    for (KernelOp kernel : kernels) {
      LaunchDims dims;
      if (failed(checkMapped(kernel)) || failed(dims.collect(kernel)) ||
          failed(convert(kernel, target, dims)))
        return signalPassFailure();
      launch.push_back(b.getNamedAttr(kernel.getSymName(), dims.attr(b)));
      kernel.erase();
    }
    launchAttr.setAttr(module, b.getDictionaryAttr(launch));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  }

  static LogicalResult checkMapped(KernelOp kernel) {
    for (RangeOp r : kernel.getBodyBlock().getOps<RangeOp>())
      if (r.getKind() == AxisKind::global || r.getKind() == AxisKind::local)
        return r.emitOpError() << "(axis " << r.getAxis() << ", " << stringifyAxisKind(r.getKind())
                               << ") is not mapped to a GPU index: run uop-gpu-dims first";
    return success();
  }

  static LogicalResult convert(KernelOp kernel, const TargetInfo &target, const LaunchDims &dims) {
    if (!kernelVariables(kernel).empty())
      return kernel.emitOpError()
             << "has variables (uop.define_var): symbolic kernels run on the CPU only so far";
    MLIRContext *ctx = kernel.getContext();
    Location loc = kernel.getLoc();
    OpBuilder b(kernel);
    auto gpuModule = gpu::GPUModuleOp::create(b, loc, kernel.getSymName());
    b.setInsertionPointToStart(gpuModule.getBody());
    SmallVector<Type> args(countBuffers(kernel), LLVM::LLVMPointerType::get(ctx));
    auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(), b.getFunctionType(args, {}));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func.setKnownGridSizeAttr(b.getDenseI32ArrayAttr(dims.grid));
    func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(dims.block));
    // Buffers are the runtime's allocations (cuMemAlloc: 256-byte aligned),
    // so 16 bytes is known: LLVM may then merge adjacent loads and stores
    // into ld/st.global.v2/v4, as tinygrad's devectorizer does.
    for (unsigned i = 0; i < args.size(); ++i) {
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(16));
    }
    Block *entry = &func.getBody().front();
    b.setInsertionPointToEnd(entry);
    gpu::ReturnOp::create(b, loc);
    if (failed(emitKernel(kernel, entry, target, "convert-uop-to-gpu"))) {
      gpuModule.erase();
      return failure();
    }
    return success();
  }
};

} // namespace
