//===- Executor.h - run a simulated grid, thread by thread ------*- C++ -*-===//
//
// Runs the host code convert-nvvm-to-sim made of a kernel once per GPU
// thread, block by block, and implements the simulator ABI (SimABI.h) the
// code calls. docs/simulator.md describes the design.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_EXECUTOR_H
#define UOP_RUNTIME_SIM_EXECUTOR_H

#include "uop/Runtime/GPUKernel.h"
#include "uop/Runtime/Runner.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::uop::sim {

/// A memory range the kernel may touch.
struct MemRegion {
  uintptr_t begin = 0;
  int64_t bytes = 0;
  std::string name; // "buffer 1", "shared variable 0", ...
};

struct LaunchSpec {
  std::string kernel;
  Dim3 grid, block;
  void (*entry)(void **) = nullptr;                // the packed-argument wrapper
  std::vector<void *> args;                        // one value per kernel parameter
  std::vector<MemRegion> globals;                  // the buffers, and the module's own globals
  std::vector<std::pair<int64_t, int64_t>> shared; // bytes, align per shared variable
  std::vector<std::string> sites;                  // uop.sites
  std::vector<int64_t> blockClasses;               // uop.sim_blocks
  bool countMemory = false;                        // count memory accesses per warp
  bool needsFibers = false;                        // barriers or warp-collective ops present
  bool usesWgmma = false;                          // wgmma: its shared-memory hazards tracked
};

/// Runs the whole grid. A fault stops it at once; the error names the
/// kernel, block, thread and op.
llvm::Error launch(const LaunchSpec &spec, SimStats &stats);

/// The ABI functions by name, for the JIT's symbol table.
llvm::StringMap<void *> abiSymbols();

} // namespace mlir::uop::sim

#endif
