/*===- uop-c/Runtime.h - run kernels on cpu, sim or cuda, from C --*- C -*-===*\
|*                                                                            *|
|* The C face of uop/Runtime/Runner.h: a runner compiles a module's kernel    *|
|* for the host CPU, the SIMT simulator or a CUDA GPU; the compiled kernel    *|
|* runs on buffers the caller owns. Every error (no GPU, a kernel that does   *|
|* not compile, an out-of-bounds access the checks caught, a CUDA error) is   *|
|* an error diagnostic on the runner's context, never an abort.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef UOP_C_RUNTIME_H
#define UOP_C_RUNTIME_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEFINE_C_API_STRUCT(name, storage)                                                         \
  struct name {                                                                                    \
    storage *ptr;                                                                                  \
  };                                                                                               \
  typedef struct name name

DEFINE_C_API_STRUCT(UopRunner, void);
DEFINE_C_API_STRUCT(UopKernel, void);

#undef DEFINE_C_API_STRUCT

/// A runner for `target`: "cpu", "sim", "cuda" or "auto" (cuda where a GPU
/// is usable, else sim). `chip` (e.g. "sm_80") may be empty for the default.
/// NULL ptr and a diagnostic when there is none (an unknown target or chip;
/// for cuda, why no GPU is usable).
MLIR_CAPI_EXPORTED UopRunner uopRunnerCreate(MlirContext context, MlirStringRef target,
                                             MlirStringRef chip);
MLIR_CAPI_EXPORTED void uopRunnerDestroy(UopRunner runner);
static inline bool uopRunnerIsNull(UopRunner runner) { return !runner.ptr; }
/// "cpu", "sim" or "cuda"; and the chip GPU code is compiled for ("" on cpu).
MLIR_CAPI_EXPORTED MlirStringRef uopRunnerGetName(UopRunner runner);
MLIR_CAPI_EXPORTED MlirStringRef uopRunnerGetChip(UopRunner runner);
/// Whether kernels compiled from now on check every memory access at run
/// time (default on; see docs/uop-run.md).
MLIR_CAPI_EXPORTED void uopRunnerSetAccessChecks(UopRunner runner, bool on);

/// Compiles kernel `name` of `module` (a uop.kernel at any level), lowering
/// the module in place; `options` are the codegen options in the pipelines'
/// textual form ("opts=UPCAST:0:4", "heuristic=false", "optimize=false";
/// empty: tinygrad's heuristic). NULL ptr and a diagnostic on failure.
MLIR_CAPI_EXPORTED UopKernel uopRunnerCompile(UopRunner runner, MlirModule module,
                                              MlirStringRef name, MlirStringRef options);
MLIR_CAPI_EXPORTED void uopKernelDestroy(UopKernel kernel);
static inline bool uopKernelIsNull(UopKernel kernel) { return !kernel.ptr; }

/// The kernel's buffer parameters, in DEFINE_GLOBAL index order.
MLIR_CAPI_EXPORTED intptr_t uopKernelGetNumBuffers(UopKernel kernel);
/// The opts uop-optimize applied, in tinygrad's notation ("" for none).
MLIR_CAPI_EXPORTED MlirStringRef uopKernelGetAppliedOpts(UopKernel kernel);
/// On sim and cuda, the launch dimensions (true); false on the CPU. In a
/// symbolic kernel a size that depends on the variables is its upper bound
/// (uopKernelRun evaluates it for the values given).
MLIR_CAPI_EXPORTED bool uopKernelGetLaunchDims(UopKernel kernel, int32_t grid[3], int32_t block[3]);

/// A symbolic kernel's variables (tinygrad's DEFINE_VARs), sorted by name:
/// uopKernelRun takes their values in this order. Name and inclusive bounds.
MLIR_CAPI_EXPORTED intptr_t uopKernelGetNumVariables(UopKernel kernel);
MLIR_CAPI_EXPORTED MlirStringRef uopKernelGetVariableName(UopKernel kernel, intptr_t pos);
MLIR_CAPI_EXPORTED void uopKernelGetVariableBounds(UopKernel kernel, intptr_t pos, int64_t *min,
                                                   int64_t *max);

/// Runs the kernel on `numBuffers` host buffers (buffer i for parameter i,
/// `sizes[i]` bytes at `buffers[i]`, holding the inputs) with `numVars`
/// variable values (uopKernelGetVariableName's order) and leaves the results
/// in the buffers. On the CPU the kernel works in place; sim and cuda copy
/// in and out. Wall-clock milliseconds of the run go to `*ms` if not NULL.
MLIR_CAPI_EXPORTED MlirLogicalResult uopKernelRun(UopKernel kernel, intptr_t numBuffers,
                                                  void *const *buffers, const uint64_t *sizes,
                                                  intptr_t numVars, const int64_t *vars,
                                                  double *ms);

/// A schedule (the function `uop-kernelize` makes of a tensor graph) whose
/// kernels are the module's uop.kernels.
///
/// Its interface as JSON through `callback`: {"arguments": [{"unique",
/// "dtype", "size"}], "outputs": [{"shape", "dtype"}], "kernels": N}.
MLIR_CAPI_EXPORTED MlirLogicalResult uopScheduleDescribe(MlirModule module, MlirStringRef name,
                                                         MlirStringCallback callback,
                                                         void *userData);

/// Runs schedule `name` on `runner`: argument i is `buffers[i]` (`sizes[i]`
/// bytes, exactly its memref's), holding its input, updated in place. Each
/// kernel is compiled once per call. Errors are diagnostics.
MLIR_CAPI_EXPORTED MlirLogicalResult uopScheduleRun(UopRunner runner, MlirModule module,
                                                    MlirStringRef name, intptr_t numBuffers,
                                                    void *const *buffers, const uint64_t *sizes);

/// Result `index` of the tensor graph, read from the schedule's argument
/// buffers (after uopScheduleRun) into `out` (`outBytes`, the result's shape
/// row-major times its element size).
MLIR_CAPI_EXPORTED MlirLogicalResult uopScheduleReadOutput(MlirModule module, MlirStringRef name,
                                                           intptr_t index, intptr_t numBuffers,
                                                           void *const *buffers,
                                                           const uint64_t *sizes, void *out,
                                                           uint64_t outBytes);

#ifdef __cplusplus
}
#endif

#endif // UOP_C_RUNTIME_H
