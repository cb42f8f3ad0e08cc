//===- NVPTXTargetInfo.h - the shared emitter's NVPTX target ----*- C++ -*-===//
#ifndef UOP_LIB_CONVERSION_UOPTOGPU_NVPTXTARGETINFO_H
#define UOP_LIB_CONVERSION_UOPTOGPU_NVPTXTARGETINFO_H

#include "uop/Conversion/Common/TargetInfo.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

namespace mlir::uop {

/// What tinygrad's PTX renderer does that the host does not, for the
/// module's #uop.target: SPECIAL as block and thread ids, DEFINE_LOCAL as
/// shared memory, BARRIER as gpu.barrier, WMMA as nvvm.mma.sync; PTX's
/// approximate instructions for the target's `approx_ops`, fma.rn for
/// MULACC, and an error for what PTX has no instruction for (POW, f64
/// EXP2/LOG2/SIN: uop-decompose-math rewrites them first). Halves are
/// computed natively (uop-target-legalize widened those without an
/// instruction), buffers are 16-byte aligned (cuMemAlloc's are 256), and a
/// gated load is a branch: ptxas predicates it (conv2d: 144 SASS
/// instructions against 240 with an address select and a value select).
class NVPTXTargetInfo final : public TargetInfo {
public:
  explicit NVPTXTargetInfo(TargetAttr target);

  bool buffersAligned() const override { return true; }
  bool branchesGatedLoads() const override { return true; }
  std::optional<FailureOr<Value>> emitTargetOp(Operation *op, ValueRange operands,
                                               OpBuilder &b) const override;
  bool hasTensorCores() const override { return true; }
  llvm::Expected<Value> emitMath(Operation *op, ValueRange operands, OpBuilder &b,
                                 Location loc) const override;
  Value emitMulAdd(OpBuilder &b, Location loc, Value x, Value y, Value z) const override;
  Value emitFloatToInt(OpBuilder &b, Location loc, Value x, Type to,
                       bool isUnsigned) const override;
  FailureOr<Value> emitPeerAddress(Operation *op, Value address, Value rank,
                                   OpBuilder &b) const override;

private:
  TargetAttr target;
};

} // namespace mlir::uop

#endif
