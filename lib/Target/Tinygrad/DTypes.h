//===- DTypes.h - tinygrad dtype names <-> MLIR types (private) -----------===//
#ifndef UOP_LIB_TARGET_TINYGRAD_DTYPES_H
#define UOP_LIB_TARGET_TINYGRAD_DTYPES_H

#include "mlir/IR/Types.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir::uop::tinygrad {

/// "f32" -> f32, "i32" -> si32, "u8" -> ui8, "bool" -> i1, ...; null if unknown.
Type scalarFromName(MLIRContext *ctx, StringRef name);
/// The inverse; empty if `t` is not a tinygrad scalar.
StringRef nameOfScalar(Type t);

/// tinygrad op names of the ops built generically (sources and dtype only).
/// Each entry: the JSON op, the uop op, and how many sources it takes.
struct GenericOp {
  StringRef tinygrad;
  StringRef uop;
  unsigned numSrcs;
};
ArrayRef<GenericOp> genericOps();

/// The kernel's name from a corpus JSON's "case" and "kernel" fields,
/// "<case>_k<kernel>"; empty if either is missing.
std::string kernelName(const llvm::json::Object &obj);

} // namespace mlir::uop::tinygrad

#endif
