//===- CUDADevice.h - the CUDA driver, loaded with dlopen -------*- C++ -*-===//
//
// Private to the runtime: the CUDA runner (CUDATarget.cpp) runs PTX through
// the driver API. The driver (libcuda) is loaded with dlopen when a device
// is opened: nothing here needs CUDA to build, and a machine without a
// driver or a GPU gets a one-line reason instead of a device.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_RUNTIME_CUDADEVICE_H
#define UOP_LIB_RUNTIME_CUDADEVICE_H

#include "uop/Runtime/GPUKernel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

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
  /// pointer as parameter i, the `ints` (a symbolic kernel's variables)
  /// after them and the device address of each of `maps`, encoded by
  /// cuTensorMapEncodeTiled and copied to device memory, last; synchronizes,
  /// copies each buffer back and frees everything. A driver error stops the
  /// run and is returned, e.g. `cuLaunchKernel failed:
  /// CUDA_ERROR_LAUNCH_FAILED (719)`.
  llvm::Error launch(StringRef ptx, StringRef entry, Dim3 grid, Dim3 block,
                     ArrayRef<MutableArrayRef<uint8_t>> buffers, MutableArrayRef<int32_t> ints,
                     ArrayRef<TensorMapSpec> maps, CUDAStats &stats);

  struct Driver; // the driver's entry points (CUDATarget.cpp)

private:
  CUDADevice();
  std::unique_ptr<Driver> driver;
  int device = 0;
  bool retained = false;
  int ccMajor = 0, ccMinor = 0;
};

} // namespace mlir::uop

#endif
