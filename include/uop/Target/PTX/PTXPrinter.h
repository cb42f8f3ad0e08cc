//===- PTXPrinter.h - PTX text straight from the NVVM-level IR -*- C++ -*-===//
//
// tinygrad renders PTX from its linearized uops with a table of string
// templates; this does the same from a gpu.module of `llvm` and `nvvm` ops
// (what convert-gpu-to-nvvm and convert-nvvm-to-llvm leave, the IR the
// simulator runs): one or a few PTX instructions per op, a virtual register
// per value, no register allocation and no optimization (ptxas does both).
// It replaces LLVM's optimizer and NVPTX backend, which are most of a
// kernel's compile time (docs/compile-speed.md). Ops it has no template for
// are errors at their location, never silently different code.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_PTX_PTXPRINTER_H
#define UOP_TARGET_PTX_PTXPRINTER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SmallString.h"

namespace mlir::uop {

/// `module`'s PTX, appended to `out`, for the chip and PTX ISA version
/// (its `+ptxNN` feature) of the module's one #nvvm.target. Fails with a
/// located error at the first op or type that has no PTX template.
LogicalResult printPTX(gpu::GPUModuleOp module, SmallVectorImpl<char> &out);

} // namespace mlir::uop

#endif // UOP_TARGET_PTX_PTXPRINTER_H
