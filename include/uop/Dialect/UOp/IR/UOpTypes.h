//===- UOpTypes.h - uop dialect types and dtype helpers ---------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPTYPES_H
#define UOP_DIALECT_UOP_IR_UOPTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "uop/Dialect/UOp/IR/UOpEnums.h"

#define GET_TYPEDEF_CLASSES
#include "uop/Dialect/UOp/IR/UOpOpsTypes.h.inc"

namespace mlir::uop {

/// A tinygrad scalar dtype: i1 (bool), si8..si64, ui8..ui64, or a float.
bool isScalarDType(Type t);
/// A scalar dtype or a 1-D vector of one.
bool isDType(Type t);
/// The scalar under a vector or tensor (the type itself otherwise).
Type getScalarType(Type t);
/// Lanes of a vector dtype (1 for a scalar), or vcount of a pointer.
int64_t getVCount(Type t);
/// Vectorize a scalar dtype (count 1 gives the scalar back). Pointers get vcount.
Type vectorize(Type scalar, int64_t count);
/// `t` with its scalar replaced by `elem`, keeping the vector/tensor shape.
Type withScalarType(Type t, Type elem);
/// i1 with the shape of `t` (what a comparison of `t`s yields).
Type getBoolLike(Type t);
bool isBoolLike(Type t);
bool isIntLike(Type t);
bool isIntOrBoolLike(Type t);
/// ui* or bool (of any shape): divides, compares, shifts and widens as unsigned.
bool isUnsignedLike(Type t);
bool isFloatLike(Type t);
/// Size in bits of a dtype (vectors: lanes * scalar bits).
int64_t getBitWidth(Type t);
/// tinygrad's dtype name ("float", "half", "int", "uchar", ...), for messages and names.
std::string getTinygradName(Type scalar);

} // namespace mlir::uop

#endif
