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

namespace mlir {
class Diagnostic;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::uop {
class KernelOp;

/// Prints "file:line:col: error: [node N: ]message" (the JSON inputs are one
/// long line, so the source line is not echoed), then the notes.
void printLocatedDiagnostic(Diagnostic &d, llvm::raw_ostream &os);

/// Parses one kernel JSON and appends a uop.kernel to `module`. The kernel is
/// named `<case>_k<kernel>` from the JSON's "case" and "kernel" fields, else
/// `defaultName`. Every op is located at its node in `filename`; errors name
/// the node index. The kernel is verified before returning.
LogicalResult importTinygradKernel(StringRef json, StringRef filename, StringRef defaultName,
                                   ModuleOp module);

/// Parses a tensor-graph case (../shared/graphs format: "graph", a SINK of
/// tensor UOps) and appends a func.func of uop tensor ops returning the
/// SINK's sources, named from the case's "case" field, else `defaultName`.
/// Every op is located at its graph node in `filename`; the function is
/// verified before returning.
LogicalResult importTinygradGraph(StringRef json, StringRef filename, StringRef defaultName,
                                  ModuleOp module);

/// Writes a kernel AST as {"name": ..., "nodes": [...]}. Float constants are
/// written as the double nearest their dtype's value; an op outside the
/// kernel-AST level is an error at that op.
LogicalResult exportTinygradKernel(KernelOp kernel, llvm::raw_ostream &os);

/// Writes a schedule (uop-kernelize's function of uop.exec and memref.copy)
/// as a JSON array in execution order: each kernel as exportTinygradKernel
/// writes it plus "kind": "kernel" and "globals" (the buffer number bound to
/// each DEFINE_GLOBAL), each copy as {"kind": "copy", "globals": [dst, src]}.
LogicalResult exportTinygradSchedule(func::FuncOp schedule, llvm::raw_ostream &os);

/// One entry of a corpus kernel's "buffers": the DEFINE_GLOBAL index, dtype
/// and element count, and the raw little-endian files holding the contents
/// before the kernel runs and after (either may be absent).
struct TinygradBuffer {
  int64_t index;
  Type dtype;
  int64_t size;
  std::string input;    // path resolved against the JSON's directory, or empty
  std::string expected; // likewise
};

/// What a corpus JSON says besides the nodes.
struct TinygradKernelData {
  std::string name; // <case>_k<kernel> as import names it, or empty
  SmallVector<TinygradBuffer> buffers;
};

/// Reads the "buffers" list (and the name) of a corpus kernel JSON. Errors are
/// emitted located at the "buffers" key of `filename` and name the entry.
FailureOr<TinygradKernelData> readTinygradKernelData(StringRef json, StringRef filename,
                                                     MLIRContext *ctx);

} // namespace mlir::uop

#endif
