//===- SerializeToPTX.cpp - gpu.modules to PTX, in parallel ----------------===//
//
// What gpu-module-to-binary{format=isa} does for an #nvvm.target, but the
// modules compile in parallel on the context's thread pool, each by
// uop-mlir's own printer (printer=direct) or by LLVM (printer=llvm:
// LLVMBackend.cpp, which makes compiling many kernels cheap; issue 23). The
// LLVM back end is reached through a factory, so that a tool which only
// prints directly does not link it (LLVMBackend.h).
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Common/KernelParameters.h"
#include "uop/Conversion/GPUToPTX/LLVMBackend.h"
#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Target/PTX/PTXPrinter.h"

#include "mlir/IR/Threading.h"

#include <atomic>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPSERIALIZETOPTX
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

std::atomic<LLVMPTXBackendFactory> llvmBackendFactory{nullptr};

/// One gpu.module's PTX, by uop-mlir's own printer.
FailureOr<SmallString<0>> printDirect(gpu::GPUModuleOp module) {
  SmallString<0> text;
  if (failed(printPTX(module, text)))
    return failure();
  return text;
}

/// A kernel that takes tensor maps (its uop.launch entry's tensor_maps, which
/// the PTX's header line will list) must take their pointers where its
/// launchers pass them.
LogicalResult checkTensorMapParameters(gpu::GPUModuleOp module) {
  DictionaryAttr launch =
      UOpDialect::LaunchAttrHelper(module.getContext()).getAttr(module->getParentOp());
  DictionaryAttr entry = launch ? launch.getAs<DictionaryAttr>(module.getName()) : nullptr;
  std::optional<SmallVector<TensorMapAttr>> maps =
      readLaunchTensorMaps(entry ? entry.get("tensor_maps") : nullptr);
  if (!maps || maps->empty())
    return success();
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(module.getName());
  if (!func)
    return module.emitOpError() << "has tensor maps in its uop.launch entry but no llvm.func @"
                                << module.getName() << " to take them";
  SmallVector<unsigned> buffers;
  for (TensorMapAttr m : *maps)
    buffers.push_back(static_cast<unsigned>(m.getBuffer()));
  return splitKernelParameters(func, buffers, "a launcher of its PTX");
}

/// The `#gpu.object` upstream's NVVM target makes of PTX (createObject): the
/// target, the assembly and the optimization level it was compiled at.
gpu::ObjectAttr makeObject(NVVM::NVVMTargetAttr target, StringRef ptx) {
  Builder b(target.getContext());
  NamedAttribute level = b.getNamedAttr("O", b.getI32IntegerAttr(target.getO()));
  return gpu::ObjectAttr::get(target.getContext(), target, gpu::CompilationTarget::Assembly,
                              b.getStringAttr(ptx), b.getDictionaryAttr(level), nullptr);
}

struct SerializeToPTX : uop::impl::UOpSerializeToPTXBase<SerializeToPTX> {
  using Base::Base;

  /// A bad option fails the pipeline before any pass ran.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (!isKnownPTXPrinter(printer))
      return emitError(UnknownLoc::get(ctx))
             << "uop-serialize-to-ptx: unknown printer '" << printer << "' (known: llvm, direct)";
    if (printer == "llvm" && !getLLVMPTXBackendFactory())
      return emitError(UnknownLoc::get(ctx))
             << "uop-serialize-to-ptx: printer=llvm needs LLVM's NVPTX back end, which this "
                "tool is built without; use printer=direct";
    return success();
  }

  void runOnOperation() override {
    bool direct = printer == "direct";
    SmallVector<gpu::GPUModuleOp> modules(getOperation().getOps<gpu::GPUModuleOp>());
    SmallVector<NVVM::NVVMTargetAttr> targets;
    for (gpu::GPUModuleOp m : modules) {
      ArrayAttr attrs = m.getTargetsAttr();
      auto target = attrs && attrs.size() == 1 ? dyn_cast<NVVM::NVVMTargetAttr>(attrs[0])
                                               : NVVM::NVVMTargetAttr();
      if (!target) {
        m.emitOpError() << "needs exactly one #nvvm.target to be compiled to PTX";
        return signalPassFailure();
      }
      if (target.getLink() && !target.getLink().empty()) {
        m.emitOpError() << "has #nvvm.target link files, which uop-serialize-to-ptx does not link";
        return signalPassFailure();
      }
      if (failed(checkTensorMapParameters(m)))
        return signalPassFailure();
      targets.push_back(target);
    }
    std::unique_ptr<LLVMPTXBackend> backend;
    if (!direct)
      backend = getLLVMPTXBackendFactory()(libdevice);

    std::vector<SmallString<0>> ptx(modules.size());
    if (failed(failableParallelForEachN(&getContext(), 0, modules.size(), [&](size_t i) {
          FailureOr<SmallString<0>> text =
              direct ? printDirect(modules[i]) : backend->compile(modules[i], targets[i]);
          if (failed(text))
            return failure();
          ptx[i] = std::move(*text);
          return success();
        })))
      return signalPassFailure();

    // The binaries, as gpu-module-to-binary makes them (the object records
    // the optimization level), in place of the modules.
    for (auto [module, target, text] : llvm::zip(modules, targets, ptx)) {
      OpBuilder b(module);
      gpu::BinaryOp::create(b, module.getLoc(), module.getName(), Attribute(),
                            ArrayRef<Attribute>{makeObject(target, text)});
      module.erase();
    }
  }
};

} // namespace

void mlir::uop::setLLVMPTXBackendFactory(LLVMPTXBackendFactory factory) {
  llvmBackendFactory.store(factory);
}

LLVMPTXBackendFactory mlir::uop::getLLVMPTXBackendFactory() { return llvmBackendFactory.load(); }
