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

/// Imports a tensor-graph case (the ../shared/graphs format: "graph", the
/// SINK of tensor UOps) as a func.func of uop tensor ops appended to
/// `module`, named after the case's "case" field, else `defaultName`. Run the
/// `uop-kernelize` pass on it (uopRunPassPipeline) for kernels and a schedule.
MLIR_CAPI_EXPORTED MlirLogicalResult uopImportTinygradGraph(MlirModule module, MlirStringRef json,
                                                            MlirStringRef filename,
                                                            MlirStringRef defaultName);

/// Writes schedule `name` of `module` (the function uop-kernelize made) as
/// tinygrad's schedule JSON through `callback`: its kernels in order, each
/// with the buffer numbers bound to its DEFINE_GLOBALs.
MLIR_CAPI_EXPORTED MlirLogicalResult uopExportTinygradSchedule(MlirModule module,
                                                               MlirStringRef name,
                                                               MlirStringCallback callback,
                                                               void *userData);

#ifdef __cplusplus
}
#endif

#endif // UOP_C_TINYGRAD_H
