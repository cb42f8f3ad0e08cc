//===- CPUTarget.cpp - run uop kernels on the host ------------------------===//
//
// The uop-to-llvm pipeline (kernel codegen, host to LLVM) and LLVM's ORC JIT
// at -O2; the kernel is called with one host pointer per buffer.
//
//===----------------------------------------------------------------------===//

#include "Targets.h"

#include "uop/Runtime/HostJIT.h"
#include "uop/Support/Timing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class CPUKernel final : public CompiledKernel {
public:
  CPUKernel(std::unique_ptr<ExecutionEngine> engine, void (*entry)(void **), unsigned numArgs,
            RunTimes compileTimes)
      : engine(std::move(engine)), entry(entry) {
    this->numArgs = numArgs;
    times = compileTimes;
  }

  llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers) override {
    if (buffers.size() != numArgs)
      return llvm::createStringError("the kernel takes " + Twine(numArgs) + " buffers, not " +
                                     Twine(buffers.size()));
    // The packed interface takes a pointer to each argument.
    SmallVector<void *> args;
    for (MutableArrayRef<uint8_t> b : buffers)
      args.push_back(b.data());
    SmallVector<void *> packed;
    for (void *&a : args)
      packed.push_back(&a);
    auto start = Clock::now();
    entry(packed.data());
    times.runMs = msSince(start);
    return llvm::Error::success();
  }

private:
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(void **);
};

class CPURunner final : public Runner {
public:
  StringRef getName() const override { return "cpu"; }

  FailureOr<std::unique_ptr<CompiledKernel>> compile(ModuleOp module, StringRef name,
                                                     const KernelCodegenOptions &options) override {
    if (!module.lookupSymbol(name))
      return emitError(module.getLoc()) << "no kernel named '" << name << "'";
    keepOnlyKernel(module, name);
    RunTimes times;
    auto start = Clock::now();
    PassManager pm(module.getContext());
    buildKernelCodegenStage(pm, options);
    buildHostToLLVMStage(pm);
    if (failed(pm.run(module)))
      return failure();
    times.pipelineMs = msSince(start);

    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!func)
      return emitError(module.getLoc()) << "the pipeline did not produce llvm.func @" << name;

    start = Clock::now();
    FailureOr<std::unique_ptr<ExecutionEngine>> engine = createHostJIT(module);
    if (failed(engine))
      return failure();
    FailureOr<void (*)(void **)> entry = lookupPackedEntry(**engine, module, name);
    if (failed(entry))
      return failure();
    times.jitMs = msSince(start);
    return std::unique_ptr<CompiledKernel>(
        new CPUKernel(std::move(*engine), *entry, func.getNumArguments(), times));
  }
};

} // namespace

std::unique_ptr<Runner> mlir::uop::createCPURunner() { return std::make_unique<CPURunner>(); }
