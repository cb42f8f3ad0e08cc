//===- SimTarget.cpp - run uop kernels on the SIMT simulator --------------===//

#include "uop/Runtime/SimTarget.h"

#include "uop/Runtime/HostJIT.h"
#include "uop/Support/Timing.h"
#include "Executor.h"

#include "uop/Conversion/NVVMToSim/SimABI.h"
#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"


using namespace mlir;
using namespace mlir::uop;

namespace {

/// Brings the module to the GPU level: uop kernels through uop-to-ptx
/// (without the PTX step), hand-written gpu.funcs through the upstream
/// conversions; a module already at that level is left as it is.
LogicalResult lowerToGPULevel(ModuleOp module, StringRef name, StringRef chip) {
  PassManager pm(module.getContext());
  if (!module.getOps<KernelOp>().empty()) {
    for (KernelOp other : llvm::make_early_inc_range(module.getOps<KernelOp>()))
      if (other.getSymName() != name)
        other.erase();
    UOpToPTXOptions options;
    options.chip = chip.str();
    options.toBinary = false;
    buildUOpToPTXPipeline(pm, options);
  } else {
    bool hasGPUFuncs = false;
    module.walk([&](gpu::GPUFuncOp) { hasGPUFuncs = true; });
    if (!hasGPUFuncs)
      return success();
    buildGPUToNVVMStage(pm, chip);
  }
  return pm.run(module);
}
} // namespace

SimKernel::~SimKernel() = default;

FailureOr<std::unique_ptr<SimKernel>> SimKernel::compile(ModuleOp module, StringRef name,
                                                         StringRef chip, CompileTimes *times) {
  MLIRContext *ctx = module.getContext();
  auto start = Clock::now();
  if (failed(lowerToGPULevel(module, name, chip)))
    return failure();
  FailureOr<GPUKernel> kernel = findGPUKernel(module, name, "the simulator");
  if (failed(kernel))
    return failure();
  auto gpuModule = kernel->func->getParentOfType<gpu::GPUModuleOp>();

  // The gpu.module's contents as a host module, made runnable by
  // convert-nvvm-to-sim.
  OwningOpRef<ModuleOp> host = ModuleOp::create(gpuModule.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToStart(host->getBody());
  for (Operation &op : gpuModule.getBody()->getOperations())
    b.clone(op);
  for (auto f : host->getOps<LLVM::LLVMFuncOp>())
    for (NamedAttribute a : llvm::to_vector(f->getDiscardableAttrs()))
      if (a.getName().strref().starts_with("gpu.") || a.getName().strref().starts_with("nvvm."))
        f->removeDiscardableAttr(a.getName());
  PassManager pm(ctx);
  pm.addPass(createConvertNVVMToSim());
  if (failed(pm.run(*host)))
    return failure();
  if (times)
    times->pipelineMs = msSince(start);

  std::unique_ptr<SimKernel> k(new SimKernel());
  k->name = name.str();
  k->numArgs = kernel->numBuffers;
  k->gridDims = kernel->grid;
  k->blockDims = kernel->block;
  for (Attribute s : UOpDialect::SimSitesAttrHelper(ctx).getAttr(*host))
    k->sites.push_back(cast<StringAttr>(s).str());
  ArrayRef<int64_t> shared = UOpDialect::SimSharedAttrHelper(ctx).getAttr(*host);
  for (size_t i = 0; i + 1 < shared.size(); i += 2)
    k->shared.push_back({shared[i], shared[i + 1]});
  k->needsFibers = host->lookupSymbol(sim::kBarrierFn) || host->lookupSymbol(sim::kMmaFn);
  SmallVector<std::pair<std::string, int64_t>> globals;
  DataLayout layout(*host);
  for (auto g : host->getOps<LLVM::GlobalOp>())
    globals.push_back({g.getSymName().str(), int64_t(layout.getTypeSize(g.getGlobalType()))});

  start = Clock::now();
  FailureOr<std::unique_ptr<ExecutionEngine>> engine = createHostJIT(*host);
  if (failed(engine))
    return failure();
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (auto &[symbol, address] : sim::abiSymbols())
      map[interner(symbol)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
    return map;
  });
  FailureOr<void (*)(void **)> entry = lookupPackedEntry(**engine, *host, name);
  if (failed(entry))
    return failure();
  for (auto &[symbol, bytes] : globals) {
    auto address = (*engine)->lookup(symbol);
    if (!address)
      return emitError(module.getLoc()) << "JIT lookup of global " << symbol
                                        << " failed: " << llvm::toString(address.takeError());
    k->ownGlobals.push_back({reinterpret_cast<uintptr_t>(*address), bytes});
  }
  if (times)
    times->jitMs = msSince(start);
  k->engine = std::move(*engine);
  k->entry = *entry;
  return k;
}

LogicalResult SimKernel::run(ArrayRef<MutableArrayRef<uint8_t>> buffers, SimStats &stats,
                             std::string &error) {
  if (buffers.size() != numArgs) {
    error = "error: kernel " + name + " takes " + std::to_string(numArgs) + " buffers, not " +
            std::to_string(buffers.size());
    return failure();
  }
  // The kernel assumes what cuMemAlloc gives (convert-uop-to-gpu marks its
  // parameters align 16); host allocations are 16-aligned on x86-64 glibc.
  for (auto [i, b] : llvm::enumerate(buffers))
    if (reinterpret_cast<uintptr_t>(b.data()) % 16) {
      error = "error: buffer " + std::to_string(i) + " of kernel " + name +
              " is not 16-byte aligned, as the GPU code assumes";
      return failure();
    }
  sim::LaunchSpec spec;
  spec.kernel = name;
  spec.grid = gridDims;
  spec.block = blockDims;
  spec.entry = entry;
  spec.shared = shared;
  spec.sites = sites;
  spec.needsFibers = needsFibers;
  // The packed interface takes a pointer to each argument value.
  std::vector<void *> values;
  for (MutableArrayRef<uint8_t> b : buffers)
    values.push_back(b.data());
  for (void *&v : values)
    spec.args.push_back(&v);
  for (auto [i, b] : llvm::enumerate(buffers))
    spec.globals.push_back({reinterpret_cast<uintptr_t>(b.data()), static_cast<int64_t>(b.size()),
                            "buffer " + std::to_string(i)});
  for (auto [address, bytes] : ownGlobals)
    spec.globals.push_back({address, bytes, "a global of the module"});
  return sim::launch(spec, stats, error);
}
