//===- CPUTarget.cpp - run uop kernels on the host ------------------------===//
//
// The uop-to-llvm pipeline (kernel codegen, host to LLVM) and LLVM's ORC JIT
// at -O2; the kernel is called with one host pointer per buffer and, with
// access checks, the context of CheckedABI.h after them.
//
//===----------------------------------------------------------------------===//

#include "Targets.h"

#include "uop/Conversion/UOpToSCF/CheckedABI.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Runtime/HostJIT.h"
#include "uop/Support/Timing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class CPUKernel final : public CompiledKernel {
public:
  CPUKernel(std::unique_ptr<ExecutionEngine> engine, void (*entry)(void **), StringRef name,
            unsigned numArgs, SmallVector<int64_t> requiredBytes,
            std::optional<std::vector<std::string>> sites, RunTimes compileTimes,
            std::optional<std::string> opts)
      : engine(std::move(engine)), entry(entry), name(name.str()),
        requiredBytes(std::move(requiredBytes)), sites(std::move(sites)) {
    this->numArgs = numArgs;
    times = compileTimes;
    appliedOpts = std::move(opts);
  }

  llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers, ArrayRef<int64_t> vars) override {
    if (buffers.size() != numArgs)
      return llvm::createStringError("kernel " + name + " takes " + Twine(numArgs) +
                                     " buffers, not " + Twine(buffers.size()));
    if (llvm::Error e = checkVariableValues(name, variables, vars))
      return e;
    // The code may read anywhere in a buffer of known size (LLVM's
    // dereferenceable), and its checks leave out what provably stays inside.
    for (auto [i, b] : llvm::enumerate(buffers))
      if (static_cast<int64_t>(b.size()) < requiredBytes[i])
        return llvm::createStringError("buffer " + Twine(i) + " has " + Twine(b.size()) +
                                       " bytes, but kernel " + name + " was compiled for " +
                                       Twine(requiredBytes[i]) + " (its pointer type's size)");
    // The packed interface takes a pointer to each argument.
    SmallVector<void *> args;
    for (MutableArrayRef<uint8_t> b : buffers)
      args.push_back(b.data());
    // The variables are i32 arguments (tinygrad's dtypes.int), after the buffers.
    SmallVector<int32_t> values(vars.begin(), vars.end());
    SmallVector<void *> packed;
    for (void *&a : args)
      packed.push_back(&a);
    for (int32_t &v : values)
      packed.push_back(&v);
    checked::ContextLayout layout{static_cast<int64_t>(numArgs)};
    // 64-byte aligned words: the scratch takes any access an aligned one could.
    std::vector<uint64_t> storage(layout.words() + 8, 0);
    auto *context = reinterpret_cast<uint64_t *>(llvm::alignAddr(storage.data(), llvm::Align(64)));
    void *contextArg = context;
    if (sites) {
      for (auto [i, b] : llvm::enumerate(buffers))
        context[layout.bufferBytes(i)] = b.size();
      packed.push_back(&contextArg);
    }
    auto start = Clock::now();
    entry(packed.data());
    times.runMs = msSince(start);
    if (!sites || context[layout.faultCount()] == 0)
      return llvm::Error::success();
    auto at = [&](int64_t word) { return static_cast<int64_t>(context[word]); };
    int64_t site = at(layout.faultSite()), buffer = at(layout.faultBuffer());
    std::string where = site >= 0 && site < static_cast<int64_t>(sites->size())
                            ? (*sites)[site]
                            : "site " + std::to_string(site);
    int64_t count = at(layout.faultCount());
    std::string bytes = buffer >= 0 && buffer < static_cast<int64_t>(buffers.size())
                            ? std::to_string(buffers[buffer].size())
                            : "?";
    return llvm::createStringError(
        "kernel " + name + ": " + Twine(count) +
        (count == 1 ? " access outside its buffer" : " accesses outside their buffers") +
        ", skipped; the first: " + where + ", byte offset " + Twine(at(layout.faultOffset())) +
        " of buffer " + Twine(buffer) + ", which has " + bytes + " bytes");
  }

  void setVariables(std::vector<KernelVariable> vars) { variables = std::move(vars); }

private:
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(void **);
  std::string name;
  SmallVector<int64_t> requiredBytes;            // per buffer: llvm.dereferenceable, or 0
  std::optional<std::vector<std::string>> sites; // with access checks: uop.sites
};

class CPURunner final : public Runner {
public:
  StringRef getName() const override { return "cpu"; }

  FailureOr<std::unique_ptr<CompiledKernel>> compile(ModuleOp module, StringRef name,
                                                     const KernelCodegenOptions &options) override {
    // The input is verified here; after each pass only if verifyEachByDefault().
    if (failed(verify(module)))
      return failure();
    if (!module.lookupSymbol(name))
      return emitError(module.getLoc()) << "no kernel named '" << name << "'";
    if (checkAccesses && module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return emitError(module.lookupSymbol(name)->getLoc())
             << "kernel '" << name
             << "' is already in the LLVM dialect, past where its memory accesses are checked: "
                "give it at the func.func level or earlier, or turn the checks off "
                "(uop-run: --check-accesses=false)";
    keepOnlyKernel(module, name);
    // A symbolic kernel's variables, with their bounds, as the kernel
    // declares them (the pipeline drops those nothing uses).
    std::vector<KernelVariable> declared = declaredVariables(module, name);
    RunTimes times;
    auto start = Clock::now();
    std::optional<std::string> opts;
    FailureOr<std::unique_ptr<PassManager>> pm = makePassManager(module.getContext(), &opts);
    if (failed(pm))
      return failure();
    std::shared_ptr<CanonicalPatternCache> canonical = std::make_shared<CanonicalPatternCache>();
    buildKernelCodegenStage(**pm, options, canonical);
    buildHostToLLVMStage(**pm, /*halfInF32=*/true, checkAccesses, canonical);
    if (failed((*pm)->run(module)))
      return failure();
    times.pipelineMs = msSince(start);

    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!func)
      return emitError(module.getLoc()) << "the pipeline did not produce llvm.func @" << name;
    std::optional<std::vector<std::string>> sites;
    unsigned numBuffers =
        llvm::count_if(func.getArgumentTypes(), llvm::IsaPred<LLVM::LLVMPointerType>);
    if (checkAccesses) {
      sites.emplace();
      if (ArrayAttr table = UOpDialect::SitesAttrHelper(module.getContext()).getAttr(module))
        for (Attribute s : table)
          sites->push_back(cast<StringAttr>(s).str());
      --numBuffers; // the context
    }

    SmallVector<int64_t> requiredBytes;
    for (unsigned i = 0; i < numBuffers; ++i) {
      auto bytes =
          func.getArgAttrOfType<IntegerAttr>(i, LLVM::LLVMDialect::getDereferenceableAttrName());
      requiredBytes.push_back(bytes ? bytes.getInt() : 0);
    }

    start = Clock::now();
    FailureOr<std::unique_ptr<ExecutionEngine>> engine = createHostJIT(module);
    if (failed(engine))
      return failure();
    FailureOr<void (*)(void **)> entry = lookupPackedEntry(**engine, module, name);
    if (failed(entry))
      return failure();
    times.jitMs = msSince(start);
    auto k = std::unique_ptr<CPUKernel>(new CPUKernel(std::move(*engine), *entry, name, numBuffers,
                                                      std::move(requiredBytes), std::move(sites),
                                                      times, std::move(opts)));
    // The i32 arguments after the buffers, as convert-uop-to-scf named them.
    unsigned numVariables = func.getNumArguments() - numBuffers - (checkAccesses ? 1 : 0);
    std::vector<KernelVariable> variables =
        takenVariables(module, name, numBuffers, numVariables, declared);
    k->setVariables(std::move(variables));
    return std::unique_ptr<CompiledKernel>(std::move(k));
  }
};

} // namespace

std::unique_ptr<Runner> mlir::uop::createCPURunner() { return std::make_unique<CPURunner>(); }
