//===- UOpEnums.h - uop dialect enums ---------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPENUMS_H
#define UOP_DIALECT_UOP_IR_UOPENUMS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "uop/Dialect/UOp/IR/UOpOpsEnums.h.inc"

#endif
