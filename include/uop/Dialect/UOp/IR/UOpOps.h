//===- UOpOps.h - uop dialect operations ------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPOPS_H
#define UOP_DIALECT_UOP_IR_UOPOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpTraits.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"

namespace mlir::uop {
class ViewOp;
namespace detail {
/// BufferOpInterface's default: the first operand a uop.view defines.
Value findViewOperand(Operation *op);
} // namespace detail
} // namespace mlir::uop
#include "uop/Dialect/UOp/IR/UOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "uop/Dialect/UOp/IR/UOpOps.h.inc"

namespace mlir::uop {
/// The INDEX a LOAD/STORE pointer is, or is a pointer cast of (a vector
/// access, as uop-devectorize makes them): its gate guards the access.
/// Null for any other pointer.
IndexOp getIndexOfPointer(Value ptr);
/// tinygrad's name of a registered uop op (TinygradOpInterface), or
/// std::nullopt for an op that is not a UOp.
std::optional<StringRef> getTinygradOpName(RegisteredOperationName op);
/// Whether `mul` is MUL(x, -1), tinygrad's spelling of -x (its C renderer
/// prints it as NEG).
bool isNegation(MulOp mul);
} // namespace mlir::uop

#endif
