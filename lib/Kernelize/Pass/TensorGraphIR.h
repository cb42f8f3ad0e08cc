//===- TensorGraphIR.h - uop tensor ops <-> kernelize's Graph ---*- C++ -*-===//
#ifndef UOP_LIB_KERNELIZE_PASS_TENSORGRAPHIR_H
#define UOP_LIB_KERNELIZE_PASS_TENSORGRAPHIR_H

#include "uop/Kernelize/Graph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::uop::kernelize {

/// Whether `f` is a tensor graph: no arguments, tensor results.
bool isTensorGraph(func::FuncOp f);

/// The SINK of `f`'s results in `g`, one node per op as tinygrad's UOps
/// (UNIQUE and DEVICE from attributes, a tensor constant as CONST(VIEW(DEVICE))
/// reshaped and expanded to its shape). Errors are emitted at the op.
FailureOr<const Node *> graphFromFunc(Graph &g, func::FuncOp f);

/// The MLIR scalar type of a dtype, and back (nullopt: not a tinygrad dtype).
Type typeOf(MLIRContext *ctx, Scalar s);
std::optional<Scalar> scalarOf(Type t);

} // namespace mlir::uop::kernelize

#endif
