//===- SimTarget.h - run uop kernels on the SIMT simulator ------*- C++ -*-===//
//
// Compiles a kernel with the uop-to-ptx pipeline up to the IR PTX is made
// from (gpu.module of LLVM/NVVM functions), makes host code of it with
// convert-nvvm-to-sim, and runs every thread of the grid on the CPU under
// the simulator (docs/simulator.md).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIMTARGET_H
#define UOP_RUNTIME_SIMTARGET_H

#include "uop/Runtime/CPUTarget.h"
#include "uop/Runtime/GPUKernel.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::uop {

/// What a simulated launch did.
struct SimStats {
  int64_t blocks = 0, threads = 0;
  double ms = 0;
};

class SimKernel {
public:
  /// Compiles kernel `name` of `module`: a uop.kernel at any level (lowered
  /// in place with uop-to-ptx for `chip`, without the PTX step), or a
  /// gpu.module of that name as the GPU pipeline leaves it. Errors are
  /// emitted as diagnostics.
  static FailureOr<std::unique_ptr<SimKernel>>
  compile(ModuleOp module, StringRef name, StringRef chip, CompileTimes *times = nullptr);
  ~SimKernel();

  /// Runs the grid; `buffers[i]` is the memory of parameter i (DEFINE_GLOBAL
  /// index order), the only memory the kernel may touch besides its shared
  /// and private memory. A fault (out-of-bounds access, barrier or mma.sync
  /// not reached by all threads, unsupported op) stops the run and is
  /// returned in `error`, naming the kernel, block and thread.
  LogicalResult run(ArrayRef<MutableArrayRef<uint8_t>> buffers, SimStats &stats,
                    std::string &error);

  unsigned numBuffers() const { return numArgs; }
  Dim3 grid() const { return gridDims; }
  Dim3 block() const { return blockDims; }

private:
  SimKernel() = default;
  std::unique_ptr<ExecutionEngine> engine;
  std::string name;
  void (*entry)(void **) = nullptr;
  unsigned numArgs = 0;
  Dim3 gridDims, blockDims;
  std::vector<std::pair<uintptr_t, int64_t>> ownGlobals; // the module's globals
  std::vector<std::pair<int64_t, int64_t>> shared;
  std::vector<std::string> sites;
  bool needsFibers = false;
};

} // namespace mlir::uop

#endif
