//===- DTypes.h - tinygrad dtype names <-> MLIR types (private) -----------===//
#ifndef UOP_LIB_TARGET_TINYGRAD_DTYPES_H
#define UOP_LIB_TARGET_TINYGRAD_DTYPES_H

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir::uop::tinygrad {

/// "f32" -> f32, "i32" -> si32, "u8" -> ui8, "bool" -> i1, ...; null if unknown.
Type scalarFromName(MLIRContext *ctx, StringRef name);
/// The inverse; empty if `t` is not a tinygrad scalar.
StringRef nameOfScalar(Type t);

/// An op tinygrad's JSON gives as [op, dtype, null, sources], built from its
/// sources and dtype alone: the ALU ops (GroupOp.ALU), CAST and BITCAST.
struct GenericOp {
  OperationName uop;
  unsigned numSrcs;
};
/// The generic ops by the name tinygrad calls them ("ADD"), from the uop
/// ops' tinygrad names (TinygradOpInterface).
llvm::StringMap<GenericOp> genericOps(MLIRContext *ctx);
/// `op`'s tinygrad name if it is a generic op, else empty.
StringRef genericOpName(Operation *op);

/// The kernel's name from a corpus JSON's "case" and "kernel" fields,
/// "<case>_k<kernel>", else "name" (as functionName makes them); empty if
/// neither is there.
std::string kernelName(const llvm::json::Object &obj);
/// tinygrad's to_function_name: every character but [A-Za-z0-9_] as its
/// two-digit hex code, so that any case name is a symbol PTX and C accept.
std::string functionName(llvm::StringRef name);

} // namespace mlir::uop::tinygrad

#endif
