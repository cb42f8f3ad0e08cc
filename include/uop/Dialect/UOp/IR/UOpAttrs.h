//===- UOpAttrs.h - uop dialect attributes ----------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPATTRS_H
#define UOP_DIALECT_UOP_IR_UOPATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "uop/Dialect/UOp/IR/UOpEnums.h"

#define GET_ATTRDEF_CLASSES
#include "uop/Dialect/UOp/IR/UOpOpsAttributes.h.inc"

#endif
