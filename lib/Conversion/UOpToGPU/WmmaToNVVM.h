//===- WmmaToNVVM.h - WMMA as nvvm.mma.sync ---------------------*- C++ -*-===//
#ifndef UOP_CONVERSION_UOPTOGPU_WMMATONVVM_H
#define UOP_CONVERSION_UOPTOGPU_WMMATONVVM_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

namespace mlir::uop {

/// WMMA as one nvvm.mma.sync, with the register packing of tinygrad's PTX
/// renderer: A, B and C vector elements packed in order into 32-bit
/// registers (two halves per register, the lower index in the low half),
/// the result unpacked the same way. `a`, `b`, `c` are the converted
/// operands. Fails (with an error at the op) when `target` lacks the
/// tensor core.
FailureOr<Value> lowerWmmaToNVVM(WmmaOp op, Value a, Value b, Value c, TargetAttr target,
                                 OpBuilder &builder);

} // namespace mlir::uop

#endif
