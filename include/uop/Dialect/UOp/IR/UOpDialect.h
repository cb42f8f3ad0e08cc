//===- UOpDialect.h - uop dialect -------------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_IR_UOPDIALECT_H
#define UOP_DIALECT_UOP_IR_UOPDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "uop/Dialect/UOp/IR/UOpOpsDialect.h.inc"

#endif
