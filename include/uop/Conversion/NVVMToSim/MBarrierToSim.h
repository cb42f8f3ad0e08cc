//===- MBarrierToSim.h - mbarriers, bulk copies, clusters as sim calls -*- C++ -*-===//
#ifndef UOP_CONVERSION_NVVMTOSIM_MBARRIERTOSIM_H
#define UOP_CONVERSION_NVVMTOSIM_MBARRIERTOSIM_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::uop::sim {

/// Rewrites the mbarrier ops in `table` (a module or gpu.module of
/// LLVM-dialect functions) that the simulator implements, cp.async.bulk
/// from global to a CTA's own shared memory, and the cluster ops (barrier,
/// fence.mbarrier_init, mapa) into calls of their SimABI.h functions
/// (kPreSuffix names). try_wait.parity has no LLVM intrinsic (MLIR writes
/// it as a PTX loop), so the simulator's device IR needs this before it
/// goes to LLVM; the others are rewritten with it so that one place reads
/// their operands. Forms it leaves (a predicate, .relaxed, a multicast)
/// reach the simulator as they are, which reports them unsupported where a
/// thread runs one.
void rewriteMBarriersForSim(Operation *table);

} // namespace mlir::uop::sim

#endif
