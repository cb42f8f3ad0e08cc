/*===- uop-c/Compile.h - pipelines and PTX, from C ----------------*- C -*-===*\
|*                                                                            *|
|* Running pass pipelines by their textual form, and compiling a module's     *|
|* uop.kernels to PTX (text, launch dimensions, chip) or to host code.        *|
|* Errors are diagnostics on the module's context; a failed call leaves the   *|
|* module in whatever state the failing pass left it.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef UOP_C_COMPILE_H
#define UOP_C_COMPILE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Parses `pipeline` (as uop-opt's --pass-pipeline takes it, e.g.
/// "builtin.module(uop.kernel(uop-optimize),uop-to-llvm)") and runs it on
/// `module`. Call uopRegisterAllPasses first. A malformed pipeline is a
/// diagnostic too.
MLIR_CAPI_EXPORTED MlirLogicalResult uopRunPassPipeline(MlirModule module, MlirStringRef pipeline);

#define DEFINE_C_API_STRUCT(name, storage)                                                         \
  struct name {                                                                                    \
    storage *ptr;                                                                                  \
  };                                                                                               \
  typedef struct name name

/// The PTX of a module's kernels, one entry per kernel, in module order.
DEFINE_C_API_STRUCT(UopPTXKernels, void);
/// The uop-to-ptx pipeline with its options, built once for many modules.
DEFINE_C_API_STRUCT(UopPTXCompiler, void);

#undef DEFINE_C_API_STRUCT

/// Compiles every uop.kernel of `module` to PTX with the uop-to-ptx
/// pipeline, in place. `options` are the pipeline's options in its textual
/// form, e.g. "chip=sm_90 opts=TC:0:0:2 O=3" (empty: the defaults; see
/// docs/UOpPasses.md). On failure the result's ptr is NULL.
MLIR_CAPI_EXPORTED UopPTXKernels uopCompileToPTX(MlirModule module, MlirStringRef options);

/// A compiler to PTX: uopCompileToPTX's pipeline with `options`, built once.
/// Each uopCompileToPTX builds the pipeline and initializes its passes (their
/// pattern sets) anew, which costs about as much as compiling a small kernel;
/// a compiler does it once for all the modules it compiles (e.g. one kernel
/// at a time, as tinygrad asks for them). Its compiles must not overlap (one
/// pass manager runs them); destroy it before its context. Options that
/// cannot compile (malformed, an unknown chip or printer) are a diagnostic
/// and a result whose ptr is NULL.
MLIR_CAPI_EXPORTED UopPTXCompiler uopPTXCompilerCreate(MlirContext context, MlirStringRef options);
static inline bool uopPTXCompilerIsNull(UopPTXCompiler compiler) { return !compiler.ptr; }
/// uopCompileToPTX(module, options) with the compiler's pipeline; `module`
/// must be of the compiler's context.
MLIR_CAPI_EXPORTED UopPTXKernels uopPTXCompilerCompile(UopPTXCompiler compiler, MlirModule module);
MLIR_CAPI_EXPORTED void uopPTXCompilerDestroy(UopPTXCompiler compiler);

MLIR_CAPI_EXPORTED void uopPTXKernelsDestroy(UopPTXKernels kernels);
static inline bool uopPTXKernelsIsNull(UopPTXKernels kernels) { return !kernels.ptr; }
MLIR_CAPI_EXPORTED intptr_t uopPTXKernelsGetNum(UopPTXKernels kernels);
/// Kernel `pos`'s symbol (its .entry), chip and PTX module text; valid until
/// uopPTXKernelsDestroy.
MLIR_CAPI_EXPORTED MlirStringRef uopPTXKernelsGetName(UopPTXKernels kernels, intptr_t pos);
MLIR_CAPI_EXPORTED MlirStringRef uopPTXKernelsGetChip(UopPTXKernels kernels, intptr_t pos);
MLIR_CAPI_EXPORTED MlirStringRef uopPTXKernelsGetPTX(UopPTXKernels kernels, intptr_t pos);
/// Kernel `pos`'s launch dimensions: grid[3] blocks of block[3] threads.
/// In a symbolic kernel a size may depend on the variables: it is given here
/// as its upper bound; uopPTXKernelsEvaluateLaunchDims gives the sizes for
/// the variables' values.
MLIR_CAPI_EXPORTED void uopPTXKernelsGetLaunchDims(UopPTXKernels kernels, intptr_t pos,
                                                   int32_t grid[3], int32_t block[3]);

/// The tensor maps kernel `pos` takes (the descriptors of its TMA copies,
/// its uop.launch entry's `tensor_maps`): a pointer to each, in this order,
/// after its variables; a launcher makes each with cuTensorMapEncodeTiled
/// from these fields, as uop-run's CUDA runtime does.
MLIR_CAPI_EXPORTED intptr_t uopPTXKernelsGetNumTensorMaps(UopPTXKernels kernels, intptr_t pos);
/// Tensor map `i` of kernel `pos`: of buffer `*buffer`, of `*element`
/// elements ("f16", "bf16", "f32", "f64", "i8" .. "i64"; valid until
/// uopPTXKernelsDestroy), `*rank` (1-5) dimensions innermost first:
/// `sizes[0..rank)` elements, `strides[0..rank-1)` bytes (of dimensions 1
/// and up), a box of `box[0..rank)` elements, a `*swizzle` of 0 (none), 32,
/// 64 or 128 bytes.
MLIR_CAPI_EXPORTED void uopPTXKernelsGetTensorMap(UopPTXKernels kernels, intptr_t pos, intptr_t i,
                                                  intptr_t *buffer, MlirStringRef *element,
                                                  intptr_t *rank, int64_t sizes[5],
                                                  int64_t strides[4], int64_t box[5],
                                                  int64_t *swizzle);

/// A symbolic kernel's variables (tinygrad's DEFINE_VARs): the kernel takes
/// them as 32-bit integer parameters after its buffers, in this order
/// (sorted by name). Name and inclusive bounds.
MLIR_CAPI_EXPORTED intptr_t uopPTXKernelsGetNumVariables(UopPTXKernels kernels, intptr_t pos);
MLIR_CAPI_EXPORTED MlirStringRef uopPTXKernelsGetVariableName(UopPTXKernels kernels, intptr_t pos,
                                                              intptr_t var);
MLIR_CAPI_EXPORTED void uopPTXKernelsGetVariableBounds(UopPTXKernels kernels, intptr_t pos,
                                                       intptr_t var, int64_t *min, int64_t *max);

/// The launch sizes of kernel `pos` that depend on its variables: size `i`
/// is launch dimension `*slot` (0-2: grid x, y, z; 3-5: block x, y, z) and
/// equals `*constant` plus, over its `*numTerms` terms, coefficient times
/// variable (uopPTXKernelsGetSymbolicSizeTerm). This is how a runtime that
/// evaluates its own expressions (tinygrad's launch_dims) learns them.
MLIR_CAPI_EXPORTED intptr_t uopPTXKernelsGetNumSymbolicSizes(UopPTXKernels kernels, intptr_t pos);
MLIR_CAPI_EXPORTED void uopPTXKernelsGetSymbolicSize(UopPTXKernels kernels, intptr_t pos,
                                                     intptr_t i, int32_t *slot, int64_t *constant,
                                                     intptr_t *numTerms);
MLIR_CAPI_EXPORTED void uopPTXKernelsGetSymbolicSizeTerm(UopPTXKernels kernels, intptr_t pos,
                                                         intptr_t i, intptr_t term,
                                                         MlirStringRef *variable,
                                                         int64_t *coefficient);

/// Kernel `pos`'s launch dimensions where its variables take `vars`
/// (`numVars` values in uopPTXKernelsGetVariableName's order). Fails with a
/// diagnostic on `context` when a value is missing or out of its bounds. A
/// size of 0 means the launch runs nothing (skip it: CUDA refuses it).
MLIR_CAPI_EXPORTED MlirLogicalResult uopPTXKernelsEvaluateLaunchDims(
    MlirContext context, UopPTXKernels kernels, intptr_t pos, intptr_t numVars, const int64_t *vars,
    int32_t grid[3], int32_t block[3]);

/// Compiles every uop.kernel of `module` for the host with the uop-to-llvm
/// pipeline (options in its textual form, e.g. "check-accesses=true"), in
/// place, and writes the LLVM IR of the result through `callback`. Each
/// kernel is a function taking one pointer per buffer.
MLIR_CAPI_EXPORTED MlirLogicalResult uopCompileToHostLLVMIR(MlirModule module,
                                                            MlirStringRef options,
                                                            MlirStringCallback callback,
                                                            void *userData);

#ifdef __cplusplus
}
#endif

#endif // UOP_C_COMPILE_H
