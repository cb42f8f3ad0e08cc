//===- CPUTarget.cpp - run uop kernels on the host ------------------------===//

#include "uop/Runtime/CPUTarget.h"

#include "uop/Runtime/HostJIT.h"
#include "uop/Support/Timing.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Pass/PassManager.h"


using namespace mlir;
using namespace mlir::uop;

CPUKernel::~CPUKernel() = default;

FailureOr<std::unique_ptr<CPUKernel>> CPUKernel::compile(ModuleOp module, StringRef name,
                                                         CompileTimes *times) {
  Operation *kernel = module.lookupSymbol(name);
  if (!kernel)
    return emitError(module.getLoc()) << "no kernel named '" << name << "'";
  for (KernelOp other : llvm::make_early_inc_range(module.getOps<KernelOp>()))
    if (other != kernel)
      other.erase();

  auto start = Clock::now();
  PassManager pm(module.getContext());
  buildUOpToLLVMPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  if (times)
    times->pipelineMs = msSince(start);

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
  if (times)
    times->jitMs = msSince(start);

  std::unique_ptr<CPUKernel> k(new CPUKernel());
  k->engine = std::move(*engine);
  k->entry = *entry;
  k->numArgs = func.getNumArguments();
  return k;
}

LogicalResult CPUKernel::run(ArrayRef<void *> buffers) {
  if (buffers.size() != numArgs)
    return failure();
  // The packed interface takes a pointer to each argument.
  SmallVector<void *> args(buffers.begin(), buffers.end());
  SmallVector<void *> packed;
  for (void *&a : args)
    packed.push_back(&a);
  entry(packed.data());
  return success();
}
