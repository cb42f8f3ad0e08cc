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

// A thread that enters more basic blocks than this is in an endless loop
// (a wrong bound, or undefined behaviour the host's optimizer made one of):
// it faults rather than hang the run. The corpora's kernels enter about a
// thousand per thread at most; a one-block loop reaches 2^28 in two seconds.
constexpr uint64_t kDefaultMaxBlocksPerThread = uint64_t(1) << 28;

/// A tensor map a kernel takes: the address the kernel gets (of an object
/// the runtime made; only the simulator reads it, through this), the map,
/// and the address of its buffer.
struct TensorMapArg {
  uintptr_t address = 0;
  TensorMapSpec map;
  uintptr_t buffer = 0;
};

struct LaunchSpec {
  std::string kernel;
  Dim3 grid, block;
  Dim3 cluster;                                    // blocks per cluster; the grid is a multiple
  void (*entry)(void **) = nullptr;                // the packed-argument wrapper
  std::vector<void *> args;                        // one value per kernel parameter
  std::vector<MemRegion> globals;                  // the buffers, and the module's own globals
  std::vector<TensorMapArg> tensorMaps;            // its last parameters point to them
  std::vector<std::pair<int64_t, int64_t>> shared; // bytes, align per shared variable
  std::vector<std::string> sites;                  // uop.sites
  std::vector<int64_t> blockClasses;               // uop.sim_blocks
  bool countMemory = false;                        // count memory accesses per warp
  bool needsFibers = false;                        // barriers or warp-collective ops present
  bool usesWgmma = false;                          // wgmma: its shared-memory hazards tracked
  /// The basic blocks a thread may enter before it faults as an endless loop.
  uint64_t maxBlocksPerThread = kDefaultMaxBlocksPerThread;
};

/// Runs the whole grid. A fault stops it at once; the error names the
/// kernel, block, thread and op.
llvm::Error launch(const LaunchSpec &spec, SimStats &stats);

/// The ABI functions by name, for the JIT's symbol table.
llvm::StringMap<void *> abiSymbols();

} // namespace mlir::uop::sim

#endif
