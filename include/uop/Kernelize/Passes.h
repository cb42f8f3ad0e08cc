//===- Passes.h - kernelize: tensor graphs to kernels and a schedule ------===//
#ifndef UOP_KERNELIZE_PASSES_H
#define UOP_KERNELIZE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "uop/Kernelize/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "uop/Kernelize/Passes.h.inc"

} // namespace mlir::uop

#endif
