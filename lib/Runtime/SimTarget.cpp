//===- SimTarget.cpp - run uop kernels on the SIMT simulator --------------===//
//
// The uop-to-ptx pipeline for the runner's chip up to the IR PTX is made
// from (a gpu.module of LLVM/NVVM functions), made host code by
// convert-nvvm-to-sim, JIT-compiled, and run for every thread of the grid on
// the CPU (Executor.cpp; docs/simulator.md).
//
//===----------------------------------------------------------------------===//

#include "Targets.h"

#include "Sim/DeviceIR.h"
#include "Sim/Executor.h"

#include "uop/Conversion/NVVMToSim/SimABI.h"
#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Runtime/GPUKernel.h"
#include "uop/Runtime/HostJIT.h"
#include "uop/Support/Timing.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// LLVM's optimization level for the device IR: the gpu.module's
/// #nvvm.target's O, which the PTX step uses too, so that the simulator runs
/// the code the PTX is made from.
static unsigned deviceOptLevel(gpu::GPUModuleOp gpuModule) {
  if (ArrayAttr targets = gpuModule.getTargetsAttr())
    for (Attribute t : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t))
        return nvvm.getO();
  return KernelCodegenOptions().deviceOptLevel;
}

class SimKernel final : public CompiledKernel {
public:
  llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers, ArrayRef<int64_t> vars) override;
  std::optional<SimStats> getSimStats() const override { return stats; }
  void countMemory(bool on) override { countingMemory = on; }
  void limitBlocksPerThread(uint64_t n) override { maxBlocksPerThread = n; }

private:
  friend class SimRunner;
  std::unique_ptr<ExecutionEngine> engine;
  std::string name;
  void (*entry)(void **) = nullptr;
  std::vector<std::pair<uintptr_t, int64_t>> ownGlobals; // the module's globals
  std::vector<std::pair<int64_t, int64_t>> shared;
  std::vector<std::string> sites;
  std::vector<int64_t> blockClasses;
  bool needsFibers = false, usesWgmma = false, countingMemory = false;
  uint64_t maxBlocksPerThread = sim::kDefaultMaxBlocksPerThread;
  std::optional<SimStats> stats;
};

class SimRunner final : public Runner {
public:
  explicit SimRunner(StringRef chip) : chip(chip.str()) {}
  StringRef getName() const override { return "sim"; }
  StringRef getChip() const override { return chip; }
  FailureOr<std::unique_ptr<CompiledKernel>> compile(ModuleOp module, StringRef name,
                                                     const KernelCodegenOptions &options) override;

private:
  std::string chip;
};

} // namespace

FailureOr<std::unique_ptr<CompiledKernel>> SimRunner::compile(ModuleOp module, StringRef name,
                                                              const KernelCodegenOptions &options) {
  // The input is verified here; after each pass only if verifyEachByDefault().
  if (failed(verify(module)))
    return failure();
  MLIRContext *ctx = module.getContext();
  auto start = Clock::now();
  std::optional<std::string> opts;
  FailureOr<std::unique_ptr<PassManager>> lower = makePassManager(ctx, &opts);
  if (failed(lower))
    return failure();
  FailureOr<GPUKernel> kernel =
      lowerToGPUKernel(module, name, chip, options, "the simulator", **lower);
  if (failed(kernel))
    return failure();
  auto gpuModule = kernel->func->getParentOfType<gpu::GPUModuleOp>();

  // The gpu.module's contents as LLVM's optimizer leaves them for the
  // NVPTX backend (Sim/DeviceIR.h), as a host module made runnable by
  // convert-nvvm-to-sim.
  FailureOr<OwningOpRef<ModuleOp>> optimized =
      sim::optimizeDeviceIR(gpuModule, chip, deviceOptLevel(gpuModule));
  if (failed(optimized))
    return failure();
  OwningOpRef<ModuleOp> host = std::move(*optimized);
  for (auto f : host->getOps<LLVM::LLVMFuncOp>())
    for (NamedAttribute a : llvm::to_vector(f->getDiscardableAttrs()))
      if (a.getName().strref().starts_with("gpu.") || a.getName().strref().starts_with("nvvm."))
        f->removeDiscardableAttr(a.getName());
  FailureOr<std::unique_ptr<PassManager>> toSim = makePassManager(ctx);
  if (failed(toSim))
    return failure();
  (*toSim)->addPass(createConvertNVVMToSim());
  if (failed((*toSim)->run(*host)))
    return failure();
  auto k = std::make_unique<SimKernel>();
  k->appliedOpts = std::move(opts);
  k->times.pipelineMs = msSince(start);
  k->name = name.str();
  k->numArgs = kernel->numBuffers;
  k->variables = kernel->variables;
  k->launchDims = kernel->launch;
  for (Attribute s : UOpDialect::SitesAttrHelper(ctx).getAttr(*host))
    k->sites.push_back(cast<StringAttr>(s).str());
  ArrayRef<int64_t> blocks = UOpDialect::SimBlocksAttrHelper(ctx).getAttr(*host);
  k->blockClasses.assign(blocks.begin(), blocks.end());
  ArrayRef<int64_t> shared = UOpDialect::SimSharedAttrHelper(ctx).getAttr(*host);
  for (size_t i = 0; i + 1 < shared.size(); i += 2)
    k->shared.push_back({shared[i], shared[i + 1]});
  k->usesWgmma = host->lookupSymbol(sim::kWgmmaFn);
  k->needsFibers = host->lookupSymbol(sim::kBarrierFn) || host->lookupSymbol(sim::kMmaFn) ||
                   host->lookupSymbol(sim::kLdMatrixFn) || k->usesWgmma ||
                   host->lookupSymbol(sim::kMbarrierInitFn) ||
                   host->lookupSymbol(sim::kClusterWaitFn) || host->lookupSymbol(sim::kMapaFn);
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
  k->times.jitMs = msSince(start);
  k->engine = std::move(*engine);
  k->entry = *entry;
  return std::unique_ptr<CompiledKernel>(std::move(k));
}

llvm::Error SimKernel::run(ArrayRef<MutableArrayRef<uint8_t>> buffers, ArrayRef<int64_t> vars) {
  llvm::Expected<LaunchDims> dims = launchDimsFor(name, *launchDims, variables, vars);
  if (!dims)
    return dims.takeError();
  if (buffers.size() != numArgs)
    return llvm::createStringError("kernel " + name + " takes " + Twine(numArgs) +
                                   " buffers, not " + Twine(buffers.size()));
  // The kernel assumes what cuMemAlloc gives (convert-uop-to-gpu marks its
  // parameters align 16); host allocations are 16-aligned on x86-64 glibc.
  for (auto [i, b] : llvm::enumerate(buffers))
    if (reinterpret_cast<uintptr_t>(b.data()) % 16)
      return llvm::createStringError("buffer " + Twine(i) + " of kernel " + name +
                                     " is not 16-byte aligned, as the GPU code assumes");
  if (dims->isEmpty()) { // a symbolic size of 0: nothing to run
    stats = SimStats{};
    times.runMs = 0;
    return llvm::Error::success();
  }
  sim::LaunchSpec spec;
  spec.kernel = name;
  spec.grid = Dim3::of(dims->grid);
  spec.block = Dim3::of(dims->block);
  spec.cluster = Dim3::of(dims->cluster);
  spec.entry = entry;
  spec.shared = shared;
  spec.sites = sites;
  spec.blockClasses = blockClasses;
  spec.countMemory = countingMemory;
  spec.needsFibers = needsFibers;
  spec.usesWgmma = usesWgmma;
  spec.maxBlocksPerThread = maxBlocksPerThread;
  // The tensor maps: objects of CUtensorMap's size whose addresses the
  // kernel gets; the executor knows them by address.
  struct alignas(64) MapObject {
    uint8_t bytes[128];
  };
  std::vector<MapObject> mapObjects(dims->tensorMaps.size());
  if (llvm::Error e = checkTensorMapBuffers(name, dims->tensorMaps, buffers))
    return e;
  for (auto [i, m] : llvm::enumerate(dims->tensorMaps))
    spec.tensorMaps.push_back({reinterpret_cast<uintptr_t>(&mapObjects[i]), m,
                               reinterpret_cast<uintptr_t>(buffers[m.buffer].data())});
  // The packed interface takes a pointer to each argument value: the
  // buffers' addresses, the variables as i32 (checked in range), then the
  // tensor maps' addresses.
  std::vector<void *> values;
  for (MutableArrayRef<uint8_t> b : buffers)
    values.push_back(b.data());
  std::vector<int32_t> ints(vars.begin(), vars.end());
  std::vector<void *> maps;
  for (MapObject &m : mapObjects)
    maps.push_back(&m);
  for (void *&v : values)
    spec.args.push_back(&v);
  for (int32_t &v : ints)
    spec.args.push_back(&v);
  for (void *&v : maps)
    spec.args.push_back(&v);
  for (auto [i, b] : llvm::enumerate(buffers))
    spec.globals.push_back({reinterpret_cast<uintptr_t>(b.data()), static_cast<int64_t>(b.size()),
                            "buffer " + std::to_string(i)});
  for (auto [address, bytes] : ownGlobals)
    spec.globals.push_back({address, bytes, "a global of the module"});
  SimStats counted;
  if (llvm::Error e = sim::launch(spec, counted))
    return e;
  stats = counted;
  times.runMs = counted.ms;
  return llvm::Error::success();
}

std::unique_ptr<Runner> mlir::uop::createSimRunner(StringRef chip) {
  return std::make_unique<SimRunner>(chip);
}
