//===- KernelEmitter.h - place a lowered kernel's ops in loops --*- C++ -*-===//
//
// The placement half of converting a lowered uop kernel (the other half,
// what each op computes, is Semantics.h; what differs between targets,
// TargetInfo.h): shared by convert-uop-to-scf (a host function) and
// convert-uop-to-gpu (a gpu.func).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_KERNELEMITTER_H
#define UOP_CONVERSION_COMMON_KERNELEMITTER_H

#include "uop/Conversion/Common/Semantics.h"

namespace mlir::uop {

/// The number of buffer arguments: one past the largest DEFINE_GLOBAL index.
int64_t countBuffers(KernelOp kernel);

/// The kernel's variables (tinygrad's DEFINE_VARs), one per name, sorted by
/// name: the scalar arguments after the buffers, in tinygrad's order
/// (ProgramSpec.vars).
SmallVector<DefineVarOp> kernelVariables(KernelOp kernel);

/// The tensor maps of the kernel's (lowered) TMA copies, each once, in op
/// order: a GPU kernel's parameters after its variables.
SmallVector<TensorMapAttr> kernelTensorMaps(KernelOp kernel);

/// Names the kernel's variables in its module's `uop.variables`, in
/// argument order, for whoever calls the function the kernel becomes.
void recordKernelVariables(KernelOp kernel);

/// Emits the ops of `kernel` into `entry`, whose arguments are the buffers
/// in DEFINE_GLOBAL index order, then the variables (kernelVariables), and
/// which ends in a terminator, as tinygrad's
/// linearizer places them: every op in the innermost loop among the ranges
/// it depends on, each STORE inside scf.for loops over its ranges (shared by
/// the SINK's STOREs over the same ranges), each
/// REDUCE a loop nest carrying its accumulator (shared by the REDUCEs over
/// the same ranges that do not depend on each other). Constants end up at
/// the top of `entry`. Errors name `passName`.
LogicalResult emitKernel(KernelOp kernel, Block *entry, const TargetInfo &target,
                         StringRef passName);

} // namespace mlir::uop

#endif
