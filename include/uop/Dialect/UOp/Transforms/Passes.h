//===- Passes.h - uop dialect passes ----------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_TRANSFORMS_PASSES_H
#define UOP_DIALECT_UOP_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"

} // namespace mlir::uop

#endif
