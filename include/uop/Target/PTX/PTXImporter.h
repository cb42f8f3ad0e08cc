//===- PTXImporter.h - PTX text back into llvm/nvvm ops -------*- C++ -*-===//
//
// The subset of PTX that uop-mlir's PTX printer writes, read back into a
// gpu.module of `llvm` and `nvvm` ops (one per kernel) that the SIMT
// simulator runs. This is how the printer's text is executed without a
// GPU: each instruction is translated from the PTX ISA's definition of it,
// not from the op the printer made it from, so a template that does not
// mean what its op means shows up as a wrong number on the simulator.
// Registers become private allocas (the simulator's LLVM pipeline promotes
// them), labels blocks, guarded instructions branches. Hopper's
// wgmma.mma_async is read from the inline-asm block MLIR's NVVM lowering
// writes (and the printer copies); its registers are written when a
// wgmma.wait_group retires it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TARGET_PTX_PTXIMPORTER_H
#define UOP_TARGET_PTX_PTXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::uop {

/// The PTX module in `sourceMgr`'s main buffer as a module of gpu.modules.
/// Launch dimensions come from the `// uop-mlir kernel NAME grid=X,Y,Z
/// block=X,Y,Z` line uop-translate writes above a kernel. Anything outside
/// the printer's subset is an error at its line and column.
OwningOpRef<ModuleOp> importPTX(llvm::SourceMgr &sourceMgr, MLIRContext *context);

} // namespace mlir::uop

#endif // UOP_TARGET_PTX_PTXIMPORTER_H
