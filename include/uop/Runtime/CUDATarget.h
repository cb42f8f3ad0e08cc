//===- CUDATarget.h - run uop kernels through the CUDA driver ---*- C++ -*-===//
//
// Compiles a kernel to PTX with the uop-to-ptx pipeline and runs it through
// the CUDA driver API. The driver (libcuda) is loaded with dlopen when a
// device is opened: nothing here needs CUDA to build, and a machine without
// a driver or a GPU gets a one-line reason instead of a device.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_CUDATARGET_H
#define UOP_RUNTIME_CUDATARGET_H

#include "uop/Runtime/CPUTarget.h" // CompileTimes
#include "uop/Runtime/GPUKernel.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace mlir::uop {

/// What a CUDA run took, in wall-clock milliseconds.
struct CUDAStats {
  double loadMs = 0; // cuModuleLoadData: the driver JIT-compiles the PTX
  double runMs = 0;  // cuLaunchKernel to the end of cuCtxSynchronize
};

/// The CUDA driver and device 0's primary context, current on the thread
/// that opened it.
class CUDADevice {
public:
  /// Loads the driver library ($UOP_CUDA_DRIVER, else libcuda.so.1), calls
  /// cuInit and makes device 0's primary context current. Null when no GPU
  /// is usable; `why` then says why in one line: the dlerror text, a missing
  /// entry point, a failed call with its CUDA error name (`cuInit failed:
  /// CUDA_ERROR_NO_DEVICE (100)`), or `no CUDA device`.
  static std::unique_ptr<CUDADevice> open(std::string &why);
  ~CUDADevice();

  int computeCapabilityMajor() const { return ccMajor; }
  int computeCapabilityMinor() const { return ccMinor; }

  /// Loads `ptx` (cuModuleLoadData), copies each buffer to a device
  /// allocation, launches `entry` on grid x block with buffer i's device
  /// pointer as parameter i, synchronizes, copies each buffer back and frees
  /// everything. A driver error stops the run and is returned in `error`, e.g.
  /// `error: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (719)`.
  LogicalResult launch(StringRef ptx, StringRef entry, Dim3 grid, Dim3 block,
                       ArrayRef<MutableArrayRef<uint8_t>> buffers, CUDAStats &stats,
                       std::string &error);

  struct Driver; // the driver's entry points (CUDATarget.cpp)

private:
  CUDADevice();
  std::unique_ptr<Driver> driver;
  int device = 0;
  bool retained = false;
  int ccMajor = 0, ccMinor = 0;
};

/// The chip to compile for on a device of compute capability major.minor:
/// the newest chip the uop target knows (TargetAttr::getForChip) that is not
/// newer than the device and not an architecture-specific "a" variant (PTX
/// is JIT-compiled forward, never back). Empty when the device is older than
/// every chip we know.
std::string chipForComputeCapability(MLIRContext *ctx, int major, int minor);

class CUDAKernel {
public:
  /// Compiles kernel `name` of `module` to PTX for `chip`: a uop.kernel at
  /// any level, or a gpu.module of that name as uop-to-ptx leaves it before
  /// its last step (the module is lowered in place; its other uop.kernels
  /// are dropped). Errors are emitted as diagnostics.
  static FailureOr<std::unique_ptr<CUDAKernel>>
  compile(ModuleOp module, StringRef name, StringRef chip, CompileTimes *times = nullptr);

  /// Runs the kernel on `device`; `buffers[i]` is the memory of parameter i
  /// (DEFINE_GLOBAL index order). See CUDADevice::launch.
  LogicalResult run(CUDADevice &device, ArrayRef<MutableArrayRef<uint8_t>> buffers,
                    CUDAStats &stats, std::string &error);

  /// The PTX, starting with uop-translate's `// uop-mlir kernel NAME
  /// grid=X,Y,Z block=X,Y,Z` line.
  StringRef ptx() const { return ptxText; }
  unsigned numBuffers() const { return numArgs; }
  Dim3 grid() const { return gridDims; }
  Dim3 block() const { return blockDims; }

private:
  CUDAKernel() = default;
  std::string name, ptxText;
  unsigned numArgs = 0;
  Dim3 gridDims, blockDims;
};

} // namespace mlir::uop

#endif
