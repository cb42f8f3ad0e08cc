//===- Runner.h - compile uop kernels and run them on a target --*- C++ -*-===//
//
// One interface for every place a kernel runs: the host CPU (the uop-to-llvm
// pipeline and LLVM's ORC JIT), the SIMT simulator (the GPU pipeline up to
// the IR PTX is made from, run thread by thread on the CPU;
// docs/simulator.md) and a CUDA GPU (the PTX through the driver API, loaded
// with dlopen so nothing here needs CUDA to build). A Runner compiles; the
// CompiledKernel it returns binds host buffers, runs, and reads the results
// back into them.
//
//   auto runner = uop::createRunner(ctx, "sim", "sm_80");
//   auto kernel = (*runner)->compile(module, "add_k0", {});
//   if (llvm::Error e = (*kernel)->run(buffers)) ...
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_RUNNER_H
#define UOP_RUNTIME_RUNNER_H

#include "uop/Conversion/NVVMToSim/SimABI.h"
#include "uop/Pipelines/KernelInterface.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mlir::uop {

/// Wall-clock milliseconds of each phase.
struct RunTimes {
  double pipelineMs = 0; // the passes, up to LLVM IR, PTX or the simulator's code
  double jitMs = 0;      // machine code: LLVM's JIT, or the CUDA driver's PTX JIT
  double runMs = 0;      // the kernel, from launch to completion
};

/// What the simulator counted in a run, as a GPU would execute the kernel
/// (docs/simulator.md, "Counters").
struct SimCounters {
  /// Warp instructions executed, by class (sim::InstrClass, names in
  /// sim::kInstrClassNames): a warp executes a basic block as often as its
  /// busiest lane does.
  std::array<int64_t, sim::kInstrClasses> instructions{};
  /// Global memory, per warp-level load or store (cp.async's reads count as
  /// loads): the 32-byte sectors its lanes touch, the fewest their bytes
  /// could fit in (perfectly coalesced), and the bytes.
  struct Global {
    int64_t requests = 0, sectors = 0, idealSectors = 0, bytes = 0;
  };
  Global globalLoads, globalStores;
  /// Shared memory, per warp-level access (ldmatrix's reads and cp.async's
  /// writes included): the wavefronts the 32 banks need (one per 128 bytes
  /// without conflicts) and the fewest possible.
  struct Shared {
    int64_t requests = 0, wavefronts = 0, idealWavefronts = 0;
    int64_t conflicts() const { return wavefronts - idealWavefronts; }
  };
  Shared sharedLoads, sharedStores;
  /// Bytes of global memory read, and written, at least once: DRAM traffic
  /// if L2 kept everything.
  int64_t uniqueReadBytes = 0, uniqueWriteBytes = 0;
  /// 32-byte sectors L2 serves: every sector a cp.async or store touches,
  /// and each sector plain loads touch once per block (L1 keeps it for the
  /// block, not between blocks).
  int64_t l2Sectors = 0;
  /// Floating-point operations the tensor cores did, 2 m n k per
  /// instruction: by mma.sync, and by Hopper's wgmma.
  int64_t mmaFlops = 0, wgmmaFlops = 0;
  int64_t warps = 0;

  int64_t instructionsOf(sim::InstrClass c) const { return instructions[static_cast<int32_t>(c)]; }
  int64_t totalInstructions() const;
};

/// What the simulator did in a run.
struct SimStats {
  int64_t blocks = 0, threads = 0;
  int64_t sharedBytes = 0; // of shared memory per block
  double ms = 0;
  SimCounters counters;
};

/// A kernel compiled for one target.
class CompiledKernel {
public:
  virtual ~CompiledKernel();

  /// The kernel's buffer parameters, in DEFINE_GLOBAL index order.
  unsigned numBuffers() const { return numArgs; }
  /// The kernel's variables (tinygrad's DEFINE_VARs of a symbolic kernel),
  /// sorted by name: run takes their values in this order.
  const std::vector<KernelVariable> &getVariables() const { return variables; }

  /// Binds `buffers` (host memory, buffer i for parameter i, holding the
  /// inputs) and the values of the kernel's variables, runs the kernel and
  /// reads the results back into the buffers. An error says why the kernel
  /// did not run to completion: a fault the simulator caught (an
  /// out-of-bounds access, a barrier or mma.sync not reached by all
  /// threads, naming the kernel, block and thread) or a CUDA error; or
  /// buffers or values that do not fit the kernel.
  virtual llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers, ArrayRef<int64_t> vars) = 0;
  llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers) { return run(buffers, {}); }

  /// The phases timed so far: compiling, and the last run.
  const RunTimes &getTimes() const { return times; }
  /// What the simulator counted in the last run; nothing on other targets.
  virtual std::optional<SimStats> getSimStats() const { return std::nullopt; }
  /// On the simulator, whether the next runs count memory accesses per warp
  /// (SimCounters' global, shared and L2 figures; off by default, as it
  /// slows a run several times). Instructions are always counted.
  virtual void countMemory(bool) {}
  /// On the simulator, the basic blocks a thread may enter in the next runs
  /// before it faults as an endless loop (default 2^28, about two seconds
  /// of a one-block loop); nothing on other targets. A fuzzer runs
  /// arbitrary kernels with a small budget.
  virtual void limitBlocksPerThread(uint64_t) {}
  /// The opts uop-optimize applied, in tinygrad's notation ("" for none);
  /// nothing when the kernel came in past uop-optimize.
  const std::optional<std::string> &getAppliedOpts() const { return appliedOpts; }
  /// The launch dimensions on sim and cuda (a symbolic kernel's depend on
  /// its variables: LaunchDims::evaluate); nothing on the CPU.
  const std::optional<LaunchDims> &getLaunchDims() const { return launchDims; }

protected:
  unsigned numArgs = 0;
  RunTimes times;
  std::optional<std::string> appliedOpts;
  std::optional<LaunchDims> launchDims;
  std::vector<KernelVariable> variables;
};

/// A place to compile and run uop kernels.
class Runner {
public:
  virtual ~Runner();

  /// "cpu", "sim" or "cuda".
  virtual StringRef getName() const = 0;
  /// The chip GPU code is compiled for; empty for the CPU.
  virtual StringRef getChip() const { return ""; }
  /// One line about the device, e.g. "CUDA device 0 (compute capability
  /// 8.9, sm_89)".
  virtual std::string describe() const;

  /// Whether the kernels compiled from now on check their memory accesses
  /// at run time, so that none touches memory outside its buffers (a fault
  /// is then an error of CompiledKernel::run naming the access). On by
  /// default. The CPU compiles the checks in (uop-check-host-accesses; off
  /// runs faster); the simulator checks every access whatever this says; a
  /// GPU does not check.
  void setAccessChecks(bool on) { checkAccesses = on; }
  bool getAccessChecks() const { return checkAccesses; }

  /// Called on every pass manager the runner makes, before it runs: a tool
  /// gives applyPassManagerCLOptions here, so that --mlir-print-ir-after-all,
  /// --mlir-timing and the like apply to the runner's pipelines.
  void setPassManagerSetup(std::function<LogicalResult(PassManager &)> setup) {
    passManagerSetup = std::move(setup);
  }

  /// Compiles kernel `name` of `module`: a uop.kernel at any level, or what
  /// a part of this target's pipeline made of one (a func.func or llvm.func
  /// on the CPU; a gpu.module for sim and cuda). The module is lowered in
  /// place and its other uop.kernels are dropped. Errors are diagnostics.
  virtual FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, StringRef name, const KernelCodegenOptions &options = {}) = 0;

protected:
  bool checkAccesses = true;
  std::function<LogicalResult(PassManager &)> passManagerSetup;

  /// A pass manager for `ctx`, set up as asked; `appliedOpts`, if given,
  /// receives the opts uop-optimize applies to a kernel.
  FailureOr<std::unique_ptr<PassManager>>
  makePassManager(MLIRContext *ctx, std::optional<std::string> *appliedOpts = nullptr) const;
};

/// The runner for `target`:
///  - "cpu": the host;
///  - "sim": the simulator, compiling for `chip` (default: the default chip);
///  - "cuda": device 0 through the CUDA driver ($UOP_CUDA_DRIVER, else
///    libcuda.so.1), compiling for `chip` or else for the newest chip we know
///    that the device runs;
///  - "auto": cuda where a GPU is usable, else sim (and `whyNotCUDA`, if
///    given, says why no GPU is usable).
/// An error says why there is none: an unknown target or chip, or for cuda
/// why no GPU is usable (the dlopen error, a driver call that failed with
/// its CUDA error name, no device, or one older than every chip we know).
llvm::Expected<std::unique_ptr<Runner>> createRunner(MLIRContext *ctx, StringRef target,
                                                     StringRef chip = "",
                                                     std::string *whyNotCUDA = nullptr);

/// The chip to compile for on a device of compute capability major.minor:
/// the newest chip #uop.target knows that is not newer than the device and
/// not an architecture-specific "a" variant (PTX is JIT-compiled forward,
/// never back). Empty when the device is older than every chip we know.
std::string chipForComputeCapability(MLIRContext *ctx, int major, int minor);

} // namespace mlir::uop

#endif
