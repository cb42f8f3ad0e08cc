//===- CPUTarget.h - run uop kernels on the host ----------------*- C++ -*-===//
//
// Compiles a uop kernel (any level) with the uop-to-llvm pipeline and LLVM's
// ORC JIT at -O2, and calls it with one host pointer per buffer.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_CPUTARGET_H
#define UOP_RUNTIME_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::uop {

/// Wall-clock milliseconds of each compilation phase.
struct CompileTimes {
  double pipelineMs = 0; // uop-lower ... LLVM dialect
  double jitMs = 0;      // LLVM IR, -O2, machine code
};

class CPUKernel {
public:
  /// Compiles kernel `name` of `module`: a uop.kernel at any level, or the
  /// func.func/llvm.func a part of the uop-to-llvm pipeline made of one. The
  /// module is lowered in place; its other uop.kernels are dropped. Errors
  /// are emitted as diagnostics.
  static FailureOr<std::unique_ptr<CPUKernel>> compile(ModuleOp module, StringRef name,
                                                       CompileTimes *times = nullptr);
  ~CPUKernel();

  /// Calls the kernel; `buffers[i]` is the buffer with DEFINE_GLOBAL index i.
  LogicalResult run(ArrayRef<void *> buffers);

  unsigned numBuffers() const { return numArgs; }

private:
  CPUKernel() = default;
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  unsigned numArgs = 0;
};

} // namespace mlir::uop

#endif
