/*===- uop-c/Tinygrad.h - tinygrad's kernel JSON, from C ----------*- C -*-===*\
|*                                                                            *|
|* Import of tinygrad kernel ASTs in the corpus JSON format (docs/README.md)  *|
|* and export back to it. Errors are diagnostics on the module's context,     *|
|* located in the JSON text (attach a handler with                            *|
|* mlirContextAttachDiagnosticHandler to receive them).                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef UOP_C_TINYGRAD_H
#define UOP_C_TINYGRAD_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports one kernel (JSON text `json`) as a uop.kernel appended to
/// `module`. `filename` names the text in diagnostics; the kernel is named
/// after the JSON's "case"/"kernel" fields, else its "name", else
/// `defaultName`.
MLIR_CAPI_EXPORTED MlirLogicalResult uopImportTinygradKernel(MlirModule module, MlirStringRef json,
                                                             MlirStringRef filename,
                                                             MlirStringRef defaultName);

/// Writes kernel `name` of `module` as tinygrad kernel JSON through
/// `callback` (possibly in several pieces).
MLIR_CAPI_EXPORTED MlirLogicalResult uopExportTinygradKernel(MlirModule module, MlirStringRef name,
                                                             MlirStringCallback callback,
                                                             void *userData);

#ifdef __cplusplus
}
#endif

#endif // UOP_C_TINYGRAD_H
