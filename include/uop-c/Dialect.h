/*===- uop-c/Dialect.h - the uop dialect and its passes, from C ---*- C -*-===*\
|*                                                                            *|
|* The uop dialect's handle, the registration of its passes and pipelines,    *|
|* and of everything its pipelines need in a context, in the style of         *|
|* mlir-c. Every function of uop-c lives in libUOpCAPI.so, which also holds   *|
|* MLIR's core C API (mlir-c/IR.h, Pass.h, Diagnostics.h, Support.h).         *|
|* docs/c-api.md shows a whole program.                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef UOP_C_DIALECT_H
#define UOP_C_DIALECT_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The uop dialect: mlirDialectHandleRegisterDialect /
/// mlirDialectHandleLoadDialect take it.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(UOp, uop);

/// Inserts into `registry` the uop dialect and what the uop-to-llvm and
/// uop-to-ptx pipelines need beyond the dialects they load (the
/// ConvertToLLVM interfaces, the NVVM target, the LLVM IR translations).
MLIR_CAPI_EXPORTED void uopRegisterRequiredDialects(MlirDialectRegistry registry);

/// Registers the uop passes (uop-optimize, uop-lower, ...), its conversion
/// passes and the uop-to-llvm / uop-to-ptx pipelines, together with MLIR's
/// upstream passes, so that mlirParsePassPipeline and uopRunPassPipeline
/// know them. Idempotent.
MLIR_CAPI_EXPORTED void uopRegisterAllPasses(void);

/// A context ready for uop-mlir: the registry above, the uop dialect loaded,
/// and threading as MLIR's default. Destroy it with mlirContextDestroy.
MLIR_CAPI_EXPORTED MlirContext uopContextCreate(void);

/// Prints `diagnostic` as uop-mlir's tools do: "file:line:col: error: message"
/// (the JSON node it is about, if any), then its notes, each line ending in
/// a newline.
MLIR_CAPI_EXPORTED void uopDiagnosticPrint(MlirDiagnostic diagnostic,
                                           MlirStringCallback callback, void *userData);

/// The chip to compile for on a GPU of compute capability major.minor: the
/// newest chip uop-mlir knows that the device runs ("" if none).
MLIR_CAPI_EXPORTED void uopChipForComputeCapability(MlirContext context, int major, int minor,
                                                    MlirStringCallback callback, void *userData);

/// uop-mlir's version, e.g. "0.1.0".
MLIR_CAPI_EXPORTED MlirStringRef uopGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // UOP_C_DIALECT_H
