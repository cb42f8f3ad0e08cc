//===- standin_driver.cpp - a CUDA driver stand-in for the tests ----------===//
//
// libuop-cuda-standin.so implements the driver entry points the CUDA runtime
// (lib/Runtime/CUDATarget.cpp) uses, over host memory, so `uop-run
// --target=cuda` can be tested without a GPU: UOP_CUDA_DRIVER=<this library>.
//
// - Device pointers are host allocations it tracks with their sizes.
// - Every call appends one line to the file $UOP_STANDIN_LOG (if set): the
//   function's name and what it was given, e.g. `cuMemcpyHtoD_v2 bytes=256`,
//   `cuModuleLoadData entry=k params=2 header=yes target=sm_80`,
//   `cuLaunchKernel grid=(64,1,1) block=(1,1,1) shared=0 params=2` (with
//   ` ints=3,5`: the values of the 32-bit integer parameters), and
//   ` -> CUDA_ERROR_...` when it fails.
// - $UOP_STANDIN_DEVICES: how many devices there are (default 1).
//   $UOP_STANDIN_CC: their compute capability (default 8.0).
//   $UOP_STANDIN_FAIL=<function>[=<code>]: that function fails with <code>
//   (default: its most likely error, else CUDA_ERROR_LAUNCH_FAILED).
// - cuLaunchKernel "executes" a copy, to check arguments and launch
//   dimensions end to end: each thread of the grid, of linear global id
//   g = ((bz*gy + by)*gx + bx) * (block threads) + linear thread id, copies
//   element g of parameter 1's allocation to element g of parameter 0's,
//   elements being parameter 0's allocation bytes / grid threads wide. An
//   element outside either allocation is CUDA_ERROR_ILLEGAL_ADDRESS.
// - cuTensorMapEncodeTiled logs its arguments (`global=` the bytes of the
//   allocation from the address given) and writes "uop-standin-map N" (N
//   counting the maps encoded) into the map; cuLaunchKernel logs each
//   pointer parameter that points at a copy of one as ` map@P=N`.
// - Calls before cuInit fail with CUDA_ERROR_NOT_INITIALIZED; memory and
//   module calls without a current context with CUDA_ERROR_INVALID_CONTEXT.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
// The opaque handles as cuda.h declares them, so that the runtime calls
// these through pointers of exactly their types (UBSan's -fsanitize=function).
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

struct Module {
  std::string entry;
  int params = 0;
  std::vector<int> ints; // the 32-bit integer parameters' positions
};

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};

const char *errorName(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return "CUDA_SUCCESS";
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_DEVICE:
    return "CUDA_ERROR_INVALID_DEVICE";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_INVALID_PTX:
    return "CUDA_ERROR_INVALID_PTX";
  case CUDA_ERROR_INVALID_HANDLE:
    return "CUDA_ERROR_INVALID_HANDLE";
  case CUDA_ERROR_NOT_FOUND:
    return "CUDA_ERROR_NOT_FOUND";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "CUDA_ERROR_LAUNCH_FAILED";
  default:
    return nullptr;
  }
}

bool initialized = false;
bool contextCurrent = false;
int retainCount = 0;
int contextToken; // the primary context's handle points here
std::map<CUdeviceptr, size_t> allocations;
int liveModules = 0;

int envInt(const char *name, int otherwise) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoi(v) : otherwise;
}

/// Appends one line to $UOP_STANDIN_LOG.
void log(const char *format, ...) {
  const char *path = std::getenv("UOP_STANDIN_LOG");
  if (!path || !*path)
    return;
  FILE *f = std::fopen(path, "a");
  if (!f)
    return;
  va_list args;
  va_start(args, format);
  std::vfprintf(f, format, args);
  va_end(args);
  std::fputc('\n', f);
  std::fclose(f);
}

/// The error $UOP_STANDIN_FAIL asks `function` to return, else success.
CUresult injected(const char *function, CUresult otherwise) {
  const char *v = std::getenv("UOP_STANDIN_FAIL");
  if (!v)
    return CUDA_SUCCESS;
  size_t n = std::strlen(function);
  if (std::strncmp(v, function, n) != 0 || (v[n] != '\0' && v[n] != '='))
    return CUDA_SUCCESS;
  return v[n] == '=' ? std::atoi(v + n + 1) : otherwise;
}

/// Logs `line` and returns `r`, noting a failure.
CUresult done(const std::string &line, CUresult r) {
  if (r == CUDA_SUCCESS) {
    log("%s", line.c_str());
  } else {
    const char *name = errorName(r);
    log("%s -> %s", line.c_str(), name ? name : std::to_string(r).c_str());
  }
  return r;
}

/// The allocation holding `p`: its bytes from `p` to its end, or -1.
long long bytesFrom(CUdeviceptr p) {
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin())
    return -1;
  --it;
  if (p >= it->first + it->second)
    return -1;
  return static_cast<long long>(it->first + it->second - p);
}

/// The first .entry of `ptx` and how many .param it declares.
Module parsePTX(const std::string &ptx) {
  Module m;
  size_t at = ptx.find(".entry ");
  if (at == std::string::npos)
    return m;
  at += 7;
  size_t end = ptx.find_first_of("( \t\n", at);
  m.entry = ptx.substr(at, end - at);
  size_t open = ptx.find('(', at), close = ptx.find(')', at);
  if (open == std::string::npos || close == std::string::npos)
    return m;
  for (size_t p = ptx.find(".param", open); p < close; p = ptx.find(".param", p + 1)) {
    std::string type = ptx.substr(p + 7, 4);
    if (type == ".u32" || type == ".s32" || type == ".b32")
      m.ints.push_back(m.params);
    ++m.params;
  }
  return m;
}

std::string targetOf(const std::string &ptx) {
  size_t at = ptx.find(".target ");
  if (at == std::string::npos)
    return "none";
  at += 8;
  return ptx.substr(at, ptx.find_first_of(", \t\n", at) - at);
}

#define CHECK_INIT(line)                                                                           \
  if (!initialized)                                                                                \
    return done(line, CUDA_ERROR_NOT_INITIALIZED);
#define CHECK_CONTEXT(line)                                                                        \
  CHECK_INIT(line)                                                                                 \
  if (!contextCurrent)                                                                             \
    return done(line, CUDA_ERROR_INVALID_CONTEXT);
} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT CUresult cuInit(unsigned flags) {
  std::string line = "cuInit flags=" + std::to_string(flags);
  if (CUresult r = injected("cuInit", CUDA_ERROR_NO_DEVICE))
    return done(line, r);
  initialized = true;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  log("cuGetErrorName %d", error);
  *name = errorName(error);
  return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  std::string line = "cuDeviceGetCount";
  CHECK_INIT(line)
  if (CUresult r = injected("cuDeviceGetCount", CUDA_ERROR_NO_DEVICE))
    return done(line, r);
  *count = envInt("UOP_STANDIN_DEVICES", 1);
  return done(line + " -> " + std::to_string(*count), CUDA_SUCCESS);
}

EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  std::string line = "cuDeviceGet " + std::to_string(ordinal);
  CHECK_INIT(line)
  if (CUresult r = injected("cuDeviceGet", CUDA_ERROR_INVALID_DEVICE))
    return done(line, r);
  if (ordinal < 0 || ordinal >= envInt("UOP_STANDIN_DEVICES", 1))
    return done(line, CUDA_ERROR_INVALID_DEVICE);
  *device = ordinal;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  std::string line = "cuDeviceGetAttribute " + std::to_string(attribute);
  CHECK_INIT(line)
  if (CUresult r = injected("cuDeviceGetAttribute", CUDA_ERROR_INVALID_VALUE))
    return done(line, r);
  // 75/76: compute capability major/minor, from "8.0".
  const char *cc = std::getenv("UOP_STANDIN_CC");
  std::string capability = cc && *cc ? cc : "8.0";
  size_t dot = capability.find('.');
  if (attribute == 75)
    *value = std::atoi(capability.substr(0, dot).c_str());
  else if (attribute == 76)
    *value = dot == std::string::npos ? 0 : std::atoi(capability.c_str() + dot + 1);
  else
    return done(line, CUDA_ERROR_INVALID_VALUE);
  return done(line + " -> " + std::to_string(*value), CUDA_SUCCESS);
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  std::string line = "cuDevicePrimaryCtxRetain " + std::to_string(device);
  CHECK_INIT(line)
  if (CUresult r = injected("cuDevicePrimaryCtxRetain", CUDA_ERROR_INVALID_DEVICE))
    return done(line, r);
  ++retainCount;
  *context = reinterpret_cast<CUcontext>(&contextToken);
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  // What is still allocated or loaded when the context goes: 0 and 0 when
  // the runtime cleaned up.
  std::string line = "cuDevicePrimaryCtxRelease_v2 " + std::to_string(device) +
                     " allocations=" + std::to_string(allocations.size()) +
                     " modules=" + std::to_string(liveModules);
  CHECK_INIT(line)
  if (CUresult r = injected("cuDevicePrimaryCtxRelease_v2", CUDA_ERROR_INVALID_CONTEXT))
    return done(line, r);
  if (retainCount == 0)
    return done(line, CUDA_ERROR_INVALID_CONTEXT);
  if (--retainCount == 0)
    contextCurrent = false;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  std::string line = "cuCtxSetCurrent";
  CHECK_INIT(line)
  if (CUresult r = injected("cuCtxSetCurrent", CUDA_ERROR_INVALID_CONTEXT))
    return done(line, r);
  if (context != reinterpret_cast<CUcontext>(&contextToken) || retainCount == 0)
    return done(line, CUDA_ERROR_INVALID_CONTEXT);
  contextCurrent = true;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuCtxSynchronize() {
  std::string line = "cuCtxSynchronize";
  CHECK_CONTEXT(line)
  return done(line, injected("cuCtxSynchronize", CUDA_ERROR_LAUNCH_FAILED));
}

EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  std::string ptx = static_cast<const char *>(image);
  Module m = parsePTX(ptx);
  bool header = ptx.rfind("// uop-mlir kernel ", 0) == 0;
  std::string line = "cuModuleLoadData entry=" + (m.entry.empty() ? "none" : m.entry) +
                     " params=" + std::to_string(m.params) + " header=" + (header ? "yes" : "no") +
                     " target=" + targetOf(ptx);
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuModuleLoadData", CUDA_ERROR_INVALID_PTX))
    return done(line, r);
  if (m.entry.empty())
    return done(line, CUDA_ERROR_INVALID_PTX);
  *module = reinterpret_cast<CUmodule>(new Module(m));
  ++liveModules;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  std::string line = std::string("cuModuleGetFunction ") + name;
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuModuleGetFunction", CUDA_ERROR_NOT_FOUND))
    return done(line, r);
  if (!module)
    return done(line, CUDA_ERROR_INVALID_HANDLE);
  if (reinterpret_cast<Module *>(module)->entry != name)
    return done(line, CUDA_ERROR_NOT_FOUND);
  *function = reinterpret_cast<CUfunction>(module); // a module has one function: its entry
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuModuleUnload(CUmodule module) {
  std::string line = "cuModuleUnload";
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuModuleUnload", CUDA_ERROR_INVALID_HANDLE))
    return done(line, r);
  if (!module)
    return done(line, CUDA_ERROR_INVALID_HANDLE);
  delete reinterpret_cast<Module *>(module);
  --liveModules;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  std::string line = "cuMemAlloc_v2 bytes=" + std::to_string(bytes);
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuMemAlloc_v2", CUDA_ERROR_OUT_OF_MEMORY))
    return done(line, r);
  if (bytes == 0)
    return done(line, CUDA_ERROR_INVALID_VALUE);
  void *p = std::malloc(bytes);
  if (!p)
    return done(line, CUDA_ERROR_OUT_OF_MEMORY);
  std::memset(p, 0x5A, bytes); // device memory starts undefined
  *pointer = reinterpret_cast<CUdeviceptr>(p);
  allocations[*pointer] = bytes;
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  auto it = allocations.find(pointer);
  std::string line =
      "cuMemFree_v2 bytes=" + (it == allocations.end() ? "?" : std::to_string(it->second));
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuMemFree_v2", CUDA_ERROR_INVALID_VALUE))
    return done(line, r);
  if (it == allocations.end())
    return done(line, CUDA_ERROR_INVALID_VALUE);
  std::free(reinterpret_cast<void *>(pointer));
  allocations.erase(it);
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  std::string line = "cuMemcpyHtoD_v2 bytes=" + std::to_string(bytes);
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuMemcpyHtoD_v2", CUDA_ERROR_INVALID_VALUE))
    return done(line, r);
  if (bytesFrom(dst) < static_cast<long long>(bytes))
    return done(line, CUDA_ERROR_INVALID_VALUE);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  std::string line = "cuMemcpyDtoH_v2 bytes=" + std::to_string(bytes);
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuMemcpyDtoH_v2", CUDA_ERROR_INVALID_VALUE))
    return done(line, r);
  if (bytesFrom(src) < static_cast<long long>(bytes))
    return done(line, CUDA_ERROR_INVALID_VALUE);
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank, void *global,
                                       const uint64_t *dims, const uint64_t *strides,
                                       const unsigned *box, const unsigned *elementStrides,
                                       int interleave, int swizzle, int l2Promotion, int oobFill) {
  static int encoded = 0;
  auto list = [&](auto *xs, unsigned n) {
    std::string s;
    for (unsigned i = 0; i < n; ++i)
      s += (i ? "," : "") + std::to_string(xs[i]);
    return s;
  };
  std::string line =
      "cuTensorMapEncodeTiled type=" + std::to_string(dataType) + " rank=" + std::to_string(rank) +
      " global=" + std::to_string(bytesFrom(reinterpret_cast<CUdeviceptr>(global))) +
      " dims=" + list(dims, rank) + " strides=" + list(strides, rank - 1) +
      " box=" + list(box, rank) + " element_strides=" + list(elementStrides, rank) +
      " interleave=" + std::to_string(interleave) + " swizzle=" + std::to_string(swizzle) +
      " l2=" + std::to_string(l2Promotion) + " oob=" + std::to_string(oobFill);
  CHECK_INIT(line)
  if (CUresult r = injected("cuTensorMapEncodeTiled", CUDA_ERROR_INVALID_VALUE))
    return done(line, r);
  std::memset(map, 0, 128);
  std::snprintf(static_cast<char *>(map), 128, "uop-standin-map %d", encoded++);
  return done(line, CUDA_SUCCESS);
}

EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz, unsigned shared,
                               CUstream stream, void **params, void **extra) {
  const Module *f = reinterpret_cast<const Module *>(function);
  char dims[160];
  std::snprintf(dims, sizeof dims, "cuLaunchKernel grid=(%u,%u,%u) block=(%u,%u,%u) shared=%u", gx,
                gy, gz, bx, by, bz, shared);
  std::string line = dims;
  if (f)
    line += " params=" + std::to_string(f->params);
  // A symbolic kernel's variables, by value.
  for (size_t i = 0; f && params && i < f->ints.size(); ++i)
    line += (i ? "," : " ints=") + std::to_string(*static_cast<int *>(params[f->ints[i]]));
  // Pointers to a copy of a map cuTensorMapEncodeTiled made.
  for (int i = 0; f && params && i < f->params; ++i) {
    if (std::find(f->ints.begin(), f->ints.end(), i) != f->ints.end())
      continue;
    CUdeviceptr p = *static_cast<CUdeviceptr *>(params[i]);
    const char *tag = "uop-standin-map ";
    if (bytesFrom(p) >= 128 &&
        std::strncmp(reinterpret_cast<const char *>(p), tag, std::strlen(tag)) == 0)
      line += " map@" + std::to_string(i) + "=" +
              (reinterpret_cast<const char *>(p) + std::strlen(tag));
  }
  CHECK_CONTEXT(line)
  if (CUresult r = injected("cuLaunchKernel", CUDA_ERROR_LAUNCH_FAILED))
    return done(line, r);
  if (!f)
    return done(line, CUDA_ERROR_INVALID_HANDLE);
  if (f->params < 2 || !params)
    return done(line, CUDA_SUCCESS); // nothing to copy
  CUdeviceptr out = *static_cast<CUdeviceptr *>(params[0]);
  CUdeviceptr in = *static_cast<CUdeviceptr *>(params[1]);
  long long outBytes = bytesFrom(out), inBytes = bytesFrom(in);
  unsigned long long blockThreads = 1ull * bx * by * bz, threads = blockThreads * gx * gy * gz;
  if (outBytes < 0 || inBytes < 0 || threads == 0)
    return done(line, CUDA_ERROR_ILLEGAL_ADDRESS);
  unsigned long long width = static_cast<unsigned long long>(outBytes) / threads;
  if (width == 0)
    return done(line, CUDA_ERROR_ILLEGAL_ADDRESS);
  for (unsigned z = 0; z < gz; ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x)
        for (unsigned tz = 0; tz < bz; ++tz)
          for (unsigned ty = 0; ty < by; ++ty)
            for (unsigned tx = 0; tx < bx; ++tx) {
              unsigned long long g =
                  ((1ull * z * gy + y) * gx + x) * blockThreads + (1ull * tz * by + ty) * bx + tx;
              unsigned long long end = (g + 1) * width;
              if (end > static_cast<unsigned long long>(outBytes) ||
                  end > static_cast<unsigned long long>(inBytes))
                return done(line, CUDA_ERROR_ILLEGAL_ADDRESS);
              std::memcpy(reinterpret_cast<char *>(out) + g * width,
                          reinterpret_cast<const char *>(in) + g * width, width);
            }
  return done(line, CUDA_SUCCESS);
}
