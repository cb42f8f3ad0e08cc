//===- HostJIT.cpp - LLVM-dialect modules JIT-compiled for the host -------===//

#include "uop/Runtime/HostJIT.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

FailureOr<std::unique_ptr<ExecutionEngine>> mlir::uop::createHostJIT(ModuleOp module) {
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
  return std::move(*engine);
}

FailureOr<void (*)(void **)> mlir::uop::lookupPackedEntry(ExecutionEngine &engine, ModuleOp module,
                                                          StringRef name) {
  auto entry = engine.lookupPacked(name);
  if (!entry)
    return emitError(module.getLoc())
           << "JIT lookup of " << name << " failed: " << llvm::toString(entry.takeError());
  return *entry;
}
