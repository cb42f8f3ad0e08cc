//===- TinygradJSON.h - tinygrad kernel JSON import and export --*- C++ -*-===//
//
// The corpus format (../shared/corpus/README.md): a kernel is
// {"nodes": [[op, dtype, arg, [src indices]], ...]} in topological order,
// ending in SINK. Import builds one uop.kernel per file, one op per node;
// export writes the node list back.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_TARGET_TINYGRAD_TINYGRADJSON_H
#define UOP_TARGET_TINYGRAD_TINYGRADJSON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::uop {
class KernelOp;

/// Parses one kernel JSON and appends a uop.kernel to `module`. The kernel is
/// named `<case>_k<kernel>` from the JSON's "case" and "kernel" fields, else
/// `defaultName`. Every op is located at its node in `filename`; errors name
/// the node index. The kernel is verified before returning.
LogicalResult importTinygradKernel(StringRef json, StringRef filename, StringRef defaultName,
                                   ModuleOp module);

/// Writes a kernel AST as {"name": ..., "nodes": [...]}. Float constants are
/// written as the double nearest their dtype's value; an op outside the
/// kernel-AST level is an error at that op.
LogicalResult exportTinygradKernel(KernelOp kernel, llvm::raw_ostream &os);

} // namespace mlir::uop

#endif
