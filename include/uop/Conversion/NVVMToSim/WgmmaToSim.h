//===- WgmmaToSim.h - wgmma.mma_async as simulator calls --------*- C++ -*-===//
#ifndef UOP_CONVERSION_NVVMTOSIM_WGMMATOSIM_H
#define UOP_CONVERSION_NVVMTOSIM_WGMMATOSIM_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::uop::sim {

/// Rewrites each nvvm.wgmma.mma_async in `table` (a module or gpu.module
/// of LLVM-dialect functions) into a call of kWgmmaPreFn, with its
/// accumulators passed through stack arrays, and calls kWgmmaUsePreFn
/// before each op that reads its result other than as another wgmma's
/// accumulator (moves between registers, branches and the next wgmma of a
/// chain are followed, not counted as reads). The op has no LLVM intrinsic,
/// so the simulator's device IR needs this before it goes to LLVM.
void rewriteWgmmaForSim(Operation *table);

} // namespace mlir::uop::sim

#endif
