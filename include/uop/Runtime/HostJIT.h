//===- HostJIT.h - LLVM-dialect modules JIT-compiled for the host -*- C++ -*-===//
//
// What the CPU target and the simulator share: LLVM's ORC JIT at -O2 through
// MLIR's ExecutionEngine.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_HOSTJIT_H
#define UOP_RUNTIME_HOSTJIT_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::uop {

/// JIT-compiles `module` (LLVM dialect only) at -O2, with the compiler-rt
/// functions LLVM may call that the process lacks (f32/f64 -> bf16); errors
/// are emitted at the module's location.
FailureOr<std::unique_ptr<ExecutionEngine>> createHostJIT(ModuleOp module);

/// The packed-argument entry of function `name` (void(void **args)).
FailureOr<void (*)(void **)> lookupPackedEntry(ExecutionEngine &engine, ModuleOp module,
                                               StringRef name);

} // namespace mlir::uop

#endif
