//===- CPUTarget.cpp - run uop kernels on the host ------------------------===//

#include "uop/Runtime/CPUTarget.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>

using namespace mlir;
using namespace mlir::uop;

namespace {
double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

CPUKernel::~CPUKernel() = default;

FailureOr<std::unique_ptr<CPUKernel>> CPUKernel::compile(ModuleOp module, StringRef name,
                                                         CompileTimes *times) {
  Operation *kernel = module.lookupSymbol(name);
  if (!kernel)
    return emitError(module.getLoc()) << "no kernel named '" << name << "'";
  for (KernelOp other : llvm::make_early_inc_range(module.getOps<KernelOp>()))
    if (other != kernel)
      other.erase();

  auto start = std::chrono::steady_clock::now();
  PassManager pm(module.getContext());
  buildUOpToLLVMPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  if (times)
    times->pipelineMs = msSince(start);

  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!func)
    return emitError(module.getLoc()) << "the pipeline did not produce llvm.func @" << name;

  start = std::chrono::steady_clock::now();
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(engine.takeError());
  auto entry = (*engine)->lookupPacked(name);
  if (!entry)
    return emitError(module.getLoc())
           << "JIT lookup of " << name << " failed: " << llvm::toString(entry.takeError());
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
