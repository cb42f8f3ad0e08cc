//===- Passes.h - uop conversion passes -------------------------*- C++ -*-===//
#ifndef UOP_CONVERSION_PASSES_H
#define UOP_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

namespace mlir::uop {

#define GEN_PASS_DECL
#include "uop/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "uop/Conversion/Passes.h.inc"

/// Whether uop-serialize-to-ptx has a PTX printer of this name: "llvm"
/// (LLVM's NVPTX backend) or "direct" (uop-mlir's own, lib/Target/PTX).
inline bool isKnownPTXPrinter(StringRef printer) {
  return printer == "llvm" || printer == "direct";
}

} // namespace mlir::uop

#endif
