//===- CUDATarget.cpp - run uop kernels through the CUDA driver -----------===//
//
// The driver API is reached through dlopen/dlsym: the few types it uses are
// declared here (cuda.h is not needed to build), and only the entry points
// CUDA 12 and 13 drivers export under these names are used (the _v2 ones
// where the unsuffixed name is a legacy ABI).
//
//===----------------------------------------------------------------------===//

#include "CUDADevice.h"
#include "Targets.h"

#include "uop/Support/Timing.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <dlfcn.h>
#include <type_traits>

using namespace mlir;
using namespace mlir::uop;

namespace {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
// cuTensorMapEncodeTiled's enums (cuda.h): CUtensorMapDataType's
// UINT8, UINT16, UINT32, UINT64, FLOAT16, FLOAT32, FLOAT64, BFLOAT16;
// CUtensorMapSwizzle's NONE, 32B, 64B, 128B; L2_128B promotion; zero fill.
constexpr int kMapUInt8 = 0, kMapUInt16 = 1, kMapUInt32 = 2, kMapUInt64 = 4, kMapFloat16 = 6,
              kMapFloat32 = 7, kMapFloat64 = 8, kMapBFloat16 = 9;
constexpr int kMapInterleaveNone = 0, kMapL2Promotion128B = 2, kMapZeroFill = 0;
using CUtensorMapEncodeTiledFn = CUresult(void *, int, unsigned, void *, const uint64_t *,
                                          const uint64_t *, const unsigned *, const unsigned *, int,
                                          int, int, int);
} // namespace

// Each entry point: its name in libcuda and its function type.
#define UOP_CUDA_ENTRY_POINTS(X)                                                                   \
  X(cuInit, CUresult(unsigned))                                                                    \
  X(cuGetErrorName, CUresult(CUresult, const char **))                                             \
  X(cuDeviceGetCount, CUresult(int *))                                                             \
  X(cuDeviceGet, CUresult(CUdevice *, int))                                                        \
  X(cuDeviceGetAttribute, CUresult(int *, int, CUdevice))                                          \
  X(cuDevicePrimaryCtxRetain, CUresult(CUcontext *, CUdevice))                                     \
  X(cuDevicePrimaryCtxRelease_v2, CUresult(CUdevice))                                              \
  X(cuCtxSetCurrent, CUresult(CUcontext))                                                          \
  X(cuCtxSynchronize, CUresult())                                                                  \
  X(cuModuleLoadData, CUresult(CUmodule *, const void *))                                          \
  X(cuModuleGetFunction, CUresult(CUfunction *, CUmodule, const char *))                           \
  X(cuModuleUnload, CUresult(CUmodule))                                                            \
  X(cuMemAlloc_v2, CUresult(CUdeviceptr *, size_t))                                                \
  X(cuMemFree_v2, CUresult(CUdeviceptr))                                                           \
  X(cuMemcpyHtoD_v2, CUresult(CUdeviceptr, const void *, size_t))                                  \
  X(cuMemcpyDtoH_v2, CUresult(void *, CUdeviceptr, size_t))                                        \
  X(cuLaunchKernel, CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,         \
                             unsigned, unsigned, CUstream, void **, void **))

struct CUDADevice::Driver {
#define UOP_CUDA_FIELD(name, type) std::add_pointer_t<type> name = nullptr;
  UOP_CUDA_ENTRY_POINTS(UOP_CUDA_FIELD)
#undef UOP_CUDA_FIELD
  // Since CUDA 12; only kernels that take tensor maps need it.
  CUtensorMapEncodeTiledFn *cuTensorMapEncodeTiled = nullptr;

  /// "cuInit failed: CUDA_ERROR_NO_DEVICE (100)"; the number alone when the
  /// driver has no name for it.
  std::string callFailed(StringRef call, CUresult r) const {
    const char *errorName = nullptr;
    if (cuGetErrorName(r, &errorName) != CUDA_SUCCESS || !errorName)
      return (call + " failed: CUDA error " + Twine(r)).str();
    return (call + " failed: " + errorName + " (" + Twine(r) + ")").str();
  }
};

CUDADevice::CUDADevice() : driver(std::make_unique<Driver>()) {}

CUDADevice::~CUDADevice() {
  if (retained)
    (void)driver->cuDevicePrimaryCtxRelease_v2(device);
  // The library stays loaded (no dlclose): unloading a driver that has
  // started threads of its own is not safe.
}

std::unique_ptr<CUDADevice> CUDADevice::open(std::string &why) {
  const char *env = std::getenv("UOP_CUDA_DRIVER");
  std::string path = env && *env ? env : "libcuda.so.1";
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    why = e ? e : path + ": cannot be loaded";
    return nullptr;
  }
  std::unique_ptr<CUDADevice> d(new CUDADevice());
  Driver &api = *d->driver;
#define UOP_CUDA_LOOKUP(name, type)                                                                \
  api.name = reinterpret_cast<std::add_pointer_t<type>>(dlsym(lib, #name));                        \
  if (!api.name) {                                                                                 \
    why = path + " has no " #name;                                                                 \
    return nullptr;                                                                                \
  }
  UOP_CUDA_ENTRY_POINTS(UOP_CUDA_LOOKUP)
#undef UOP_CUDA_LOOKUP
  api.cuTensorMapEncodeTiled =
      reinterpret_cast<CUtensorMapEncodeTiledFn *>(dlsym(lib, "cuTensorMapEncodeTiled"));

  if (CUresult r = api.cuInit(0)) {
    why = api.callFailed("cuInit", r);
    return nullptr;
  }
  int count = 0;
  if (CUresult r = api.cuDeviceGetCount(&count)) {
    why = api.callFailed("cuDeviceGetCount", r);
    return nullptr;
  }
  if (count < 1) {
    why = "no CUDA device";
    return nullptr;
  }
  if (CUresult r = api.cuDeviceGet(&d->device, 0)) {
    why = api.callFailed("cuDeviceGet", r);
    return nullptr;
  }
  if (CUresult r = api.cuDeviceGetAttribute(
          &d->ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->device)) {
    why = api.callFailed("cuDeviceGetAttribute", r);
    return nullptr;
  }
  if (CUresult r = api.cuDeviceGetAttribute(
          &d->ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->device)) {
    why = api.callFailed("cuDeviceGetAttribute", r);
    return nullptr;
  }
  CUcontext ctx = nullptr;
  if (CUresult r = api.cuDevicePrimaryCtxRetain(&ctx, d->device)) {
    why = api.callFailed("cuDevicePrimaryCtxRetain", r);
    return nullptr;
  }
  d->retained = true;
  if (CUresult r = api.cuCtxSetCurrent(ctx)) {
    why = api.callFailed("cuCtxSetCurrent", r);
    return nullptr;
  }
  return d;
}

/// CUtensorMapDataType for `element` (TensorMapSpec's names): TMA copies
/// bytes, so integers are the unsigned types of their width.
static int tensorMapDataType(StringRef element) {
  return llvm::StringSwitch<int>(element)
      .Case("f16", kMapFloat16)
      .Case("bf16", kMapBFloat16)
      .Case("f32", kMapFloat32)
      .Case("f64", kMapFloat64)
      .Case("i8", kMapUInt8)
      .Case("i16", kMapUInt16)
      .Case("i32", kMapUInt32)
      .Case("i64", kMapUInt64)
      .Default(-1);
}

llvm::Error CUDADevice::launch(StringRef ptx, StringRef entry, Dim3 grid, Dim3 block,
                               ArrayRef<MutableArrayRef<uint8_t>> buffers,
                               MutableArrayRef<int32_t> ints, ArrayRef<TensorMapSpec> maps,
                               CUDAStats &stats) {
  const Driver &api = *driver;
  CUmodule module = nullptr;
  std::vector<CUdeviceptr> pointers;
  // Frees what was made, on every path; errors then no longer matter.
  llvm::scope_exit cleanup([&] {
    for (CUdeviceptr p : pointers)
      (void)api.cuMemFree_v2(p);
    if (module)
      (void)api.cuModuleUnload(module);
  });
  auto fail = [&](StringRef call, CUresult r) {
    return llvm::createStringError(llvm::Twine(api.callFailed(call, r)));
  };

  if (llvm::Error e = checkTensorMapBuffers(entry, maps, buffers))
    return e;
  std::string image = ptx.str(); // NUL-terminated
  std::string entryName = entry.str();
  auto start = Clock::now();
  if (CUresult r = api.cuModuleLoadData(&module, image.c_str()))
    return fail("cuModuleLoadData", r);
  CUfunction function = nullptr;
  if (CUresult r = api.cuModuleGetFunction(&function, module, entryName.c_str()))
    return fail("cuModuleGetFunction", r);
  stats.loadMs = msSince(start);

  for (MutableArrayRef<uint8_t> b : buffers) {
    CUdeviceptr p = 0;
    // A zero-byte allocation is an error in CUDA: give an empty buffer one.
    if (CUresult r = api.cuMemAlloc_v2(&p, std::max<size_t>(b.size(), 1)))
      return fail("cuMemAlloc_v2", r);
    pointers.push_back(p);
    if (!b.empty())
      if (CUresult r = api.cuMemcpyHtoD_v2(p, b.data(), b.size()))
        return fail("cuMemcpyHtoD_v2", r);
  }
  // Each tensor map encoded and copied to device memory, as MLIR's CUDA
  // runtime wrappers pass them (the kernel gets its global address).
  size_t numBuffers = pointers.size();
  for (const TensorMapSpec &m : maps) {
    if (!api.cuTensorMapEncodeTiled)
      return llvm::createStringError("the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 and "
                                     "later), which kernel " +
                                     entry + " needs for its tensor maps");
    struct alignas(64) {
      uint8_t bytes[128];
    } object;
    std::vector<uint64_t> sizes(m.sizes.begin(), m.sizes.end()),
        strides(m.strides.begin(), m.strides.end());
    std::vector<unsigned> box(m.box.begin(), m.box.end()), elementStrides(m.box.size(), 1);
    int swizzle = m.swizzle == 0 ? 0 : m.swizzle == 32 ? 1 : m.swizzle == 64 ? 2 : 3;
    if (CUresult r = api.cuTensorMapEncodeTiled(
            &object, tensorMapDataType(m.element), static_cast<unsigned>(m.sizes.size()),
            reinterpret_cast<void *>(pointers[m.buffer]), sizes.data(), strides.data(), box.data(),
            elementStrides.data(), kMapInterleaveNone, swizzle, kMapL2Promotion128B, kMapZeroFill))
      return fail("cuTensorMapEncodeTiled of " + m.str(), r);
    CUdeviceptr p = 0;
    if (CUresult r = api.cuMemAlloc_v2(&p, sizeof(object)))
      return fail("cuMemAlloc_v2", r);
    pointers.push_back(p);
    if (CUresult r = api.cuMemcpyHtoD_v2(p, &object, sizeof(object)))
      return fail("cuMemcpyHtoD_v2", r);
  }
  // cuLaunchKernel takes a pointer to each parameter's value: the buffers,
  // the variables, the tensor maps.
  SmallVector<void *> params;
  for (CUdeviceptr &p : MutableArrayRef<CUdeviceptr>(pointers).take_front(numBuffers))
    params.push_back(&p);
  for (int32_t &v : ints)
    params.push_back(&v);
  for (CUdeviceptr &p : MutableArrayRef<CUdeviceptr>(pointers).drop_front(numBuffers))
    params.push_back(&p);
  start = Clock::now();
  if (CUresult r = api.cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                      /*sharedMemBytes=*/0, /*stream=*/nullptr, params.data(),
                                      /*extra=*/nullptr))
    return fail("cuLaunchKernel", r);
  if (CUresult r = api.cuCtxSynchronize())
    return fail("cuCtxSynchronize", r);
  stats.runMs = msSince(start);
  for (auto [b, p] :
       llvm::zip_equal(buffers, ArrayRef<CUdeviceptr>(pointers).take_front(numBuffers)))
    if (!b.empty())
      if (CUresult r = api.cuMemcpyDtoH_v2(b.data(), p, b.size()))
        return fail("cuMemcpyDtoH_v2", r);
  return llvm::Error::success();
}

std::string mlir::uop::chipForComputeCapability(MLIRContext *ctx, int major, int minor) {
  // Known chips are sm_<10 * major + minor>, with an "a" for the
  // architecture-specific variants, which are skipped.
  for (int v = 10 * major + minor; v > 0; --v) {
    std::string chip = "sm_" + std::to_string(v);
    if (TargetAttr::getForChip(ctx, chip))
      return chip;
  }
  return "";
}

namespace {

class CUDAKernel final : public CompiledKernel {
public:
  CUDAKernel(std::shared_ptr<CUDADevice> device, std::string name, std::string ptx,
             const GPUKernel &kernel, RunTimes compileTimes, std::optional<std::string> opts)
      : device(std::move(device)), name(std::move(name)), ptx(std::move(ptx)) {
    numArgs = kernel.numBuffers;
    variables = kernel.variables;
    times = compileTimes;
    appliedOpts = std::move(opts);
    launchDims = kernel.launch;
  }

  llvm::Error run(ArrayRef<MutableArrayRef<uint8_t>> buffers, ArrayRef<int64_t> vars) override {
    llvm::Expected<LaunchDims> dims = launchDimsFor(name, *launchDims, variables, vars);
    if (!dims)
      return dims.takeError();
    if (buffers.size() != numArgs)
      return llvm::createStringError("kernel " + name + " takes " + Twine(numArgs) +
                                     " buffers, not " + Twine(buffers.size()));
    if (dims->isEmpty()) { // a symbolic size of 0: nothing to run
      times.runMs = 0;
      return llvm::Error::success();
    }
    CUDAStats stats;
    std::vector<int32_t> ints(vars.begin(), vars.end()); // checked in range
    if (llvm::Error e = device->launch(ptx, name, Dim3::of(dims->grid), Dim3::of(dims->block),
                                       buffers, ints, dims->tensorMaps, stats))
      return e;
    times.jitMs = stats.loadMs; // the driver's PTX JIT
    times.runMs = stats.runMs;
    return llvm::Error::success();
  }

private:
  std::shared_ptr<CUDADevice> device; // kept open while a kernel may run
  std::string name, ptx;
};

class CUDARunner final : public Runner {
public:
  CUDARunner(std::shared_ptr<CUDADevice> device, std::string chip)
      : device(std::move(device)), chip(std::move(chip)) {}
  StringRef getName() const override { return "cuda"; }
  StringRef getChip() const override { return chip; }
  std::string describe() const override {
    return llvm::formatv("CUDA device 0 (compute capability {0}.{1}, {2})",
                         device->computeCapabilityMajor(), device->computeCapabilityMinor(), chip)
        .str();
  }
  FailureOr<std::unique_ptr<CompiledKernel>> compile(ModuleOp module, StringRef name,
                                                     const KernelCodegenOptions &options) override;

private:
  std::shared_ptr<CUDADevice> device;
  std::string chip;
};

} // namespace

FailureOr<std::unique_ptr<CompiledKernel>>
CUDARunner::compile(ModuleOp module, StringRef name, const KernelCodegenOptions &codegen) {
  // The input is verified here; after each pass only if verifyEachByDefault().
  if (failed(verify(module)))
    return failure();
  auto start = Clock::now();
  // Up to the gpu.module (which says how many parameters the kernel takes),
  // then its PTX.
  std::optional<std::string> opts;
  FailureOr<std::unique_ptr<PassManager>> lower = makePassManager(module.getContext(), &opts);
  if (failed(lower))
    return failure();
  FailureOr<GPUKernel> kernel =
      lowerToGPUKernel(module, name, chip, codegen, "the CUDA runtime", **lower);
  if (failed(kernel))
    return failure();
  kernel->func = nullptr; // the binary step erases it

  FailureOr<std::unique_ptr<PassManager>> toBinary = makePassManager(module.getContext());
  if (failed(toBinary))
    return failure();
  buildGPUToBinaryStage(**toBinary);
  if (failed((*toBinary)->run(module)))
    return failure();
  auto bin = module.lookupSymbol<gpu::BinaryOp>(name);
  if (!bin || bin.getObjects().empty())
    return emitError(module.getLoc()) << "uop-serialize-to-ptx made no PTX for '" << name << "'";
  StringRef ptx = cast<gpu::ObjectAttr>(bin.getObjects()[0]).getObject().getValue();
  // uop-translate --export-ptx's header line, so a dump says what it is.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << ptxHeaderLine(name, kernel->launch, kernel->variables) << "\n" << ptx;
  RunTimes times;
  times.pipelineMs = msSince(start);
  return std::unique_ptr<CompiledKernel>(
      new CUDAKernel(device, name.str(), std::move(text), *kernel, times, std::move(opts)));
}

llvm::Expected<std::unique_ptr<Runner>> mlir::uop::createCUDARunner(MLIRContext *ctx,
                                                                    StringRef chip) {
  std::string why;
  std::shared_ptr<CUDADevice> device = CUDADevice::open(why);
  if (!device)
    return llvm::createStringError(llvm::Twine(why));
  int major = device->computeCapabilityMajor(), minor = device->computeCapabilityMinor();
  std::string gpuChip = !chip.empty() ? chip.str() : chipForComputeCapability(ctx, major, minor);
  if (gpuChip.empty())
    return llvm::createStringError(
        llvm::formatv("device 0 has compute capability {0}.{1}, older than every chip "
                      "uop-mlir compiles for",
                      major, minor)
            .str());
  return std::make_unique<CUDARunner>(std::move(device), std::move(gpuChip));
}
