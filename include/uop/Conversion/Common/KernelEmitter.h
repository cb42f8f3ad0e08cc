//===- KernelEmitter.h - place a lowered kernel's ops in loops --*- C++ -*-===//
//
// The placement half of converting a lowered uop kernel (the other half,
// what each op computes, is Semantics.h): shared by convert-uop-to-scf (a
// host function) and convert-uop-to-gpu (a gpu.func).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_KERNELEMITTER_H
#define UOP_CONVERSION_COMMON_KERNELEMITTER_H

#include "uop/Conversion/Common/Semantics.h"

#include <functional>
#include <optional>

namespace mlir::uop {

/// What a target adds to the emitter.
struct EmitterHooks {
  /// Converts an op only the target knows (SPECIAL, WMMA on a GPU) at the
  /// builder's insertion point, given its converted operands; std::nullopt
  /// for ops it leaves to the emitter.
  std::function<std::optional<FailureOr<Value>>(Operation *op, ValueRange operands, OpBuilder &b)>
      targetOp;
  /// Whether buffers are 16-byte aligned (a GPU's are), so that a vector
  /// LOAD/STORE (from uop-devectorize) may assume the alignment of its size;
  /// otherwise it is emitted with its element's alignment.
  bool buffersAligned = false;
};

/// The number of buffer arguments: one past the largest DEFINE_GLOBAL index.
int64_t countBuffers(KernelOp kernel);

/// Emits the ops of `kernel` into `entry`, whose arguments are the buffers
/// in DEFINE_GLOBAL index order and which ends in a terminator, as tinygrad's
/// linearizer places them: every op in the innermost loop among the ranges
/// it depends on, each STORE inside scf.for loops over its ranges (shared by
/// the SINK's STOREs over the same ranges), each
/// REDUCE a loop nest carrying its accumulator (shared by the REDUCEs over
/// the same ranges that do not depend on each other). Constants end up at
/// the top of `entry`. Errors name `passName`.
LogicalResult emitKernel(KernelOp kernel, Block *entry, const DTypeLowering &types,
                         StringRef passName, const EmitterHooks &hooks = {});

} // namespace mlir::uop

#endif
