//===- UOpToSCF.cpp - lowered uop kernels to loops ------------------------===//
//
// Each lowered kernel becomes a func.func taking one !llvm.ptr per buffer;
// its ops are placed in loops by the shared emitter (Conversion/Common),
// for the host (HostTargetInfo).
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "uop/Conversion/Common/KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlir::uop {
#define GEN_PASS_DEF_CONVERTUOPTOSCF
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The host: no grid, shared memory or tensor cores, buffers aligned only
/// to their elements, gated loads without a branch where the buffer's size
/// allows, and the transcendentals uop-decompose-math leaves
/// (SQRT; all of them without it) as the math dialect's ops (libm).
class HostTargetInfo final : public TargetInfo {
public:
  HostTargetInfo(DTypeLowering types, MLIRContext *ctx)
      : TargetInfo(types, TargetAttr::getHost(ctx)) {}
  bool buffersAligned() const override { return false; }
  bool branchesGatedLoads() const override { return false; }
  std::optional<FailureOr<Value>> emitTargetOp(Operation *, ValueRange,
                                               OpBuilder &) const override {
    return std::nullopt;
  }
  bool hasTensorCores() const override { return false; }
  llvm::Expected<Value> emitMath(Operation *, ValueRange, OpBuilder &, Location) const override {
    return Value();
  }
  Value emitMulAdd(OpBuilder &b, Location loc, Value x, Value y, Value z) const override {
    return LLVM::FMulAddOp::create(b, loc, x, y, z);
  }
  /// The instruction clang emits for tinygrad's `(int)x`: in range, the
  /// value truncated; NaN and out of range, what the CPU's conversion gives
  /// (x86-64: INT_MIN of its 32- or 64-bit conversion, then truncated).
  Value emitFloatToInt(OpBuilder &b, Location loc, Value x, Type to,
                       bool isUnsigned) const override {
    if (isUnsigned)
      return arith::FPToUIOp::create(b, loc, to, x);
    return arith::FPToSIOp::create(b, loc, to, x);
  }
};

struct ConvertUOpToSCFPass : mlir::uop::impl::ConvertUOpToSCFBase<ConvertUOpToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    DTypeLowering types;
    types.halfInF32 = halfInF32;
    HostTargetInfo target(types, &getContext());
    for (KernelOp kernel : llvm::make_early_inc_range(getOperation().getOps<KernelOp>()))
      if (failed(convert(kernel, target)))
        return signalPassFailure();
  }

  /// `uop.kernel @k` becomes `func.func @k(%buf0: !llvm.ptr, ..., %var0: i32,
  /// ...)`, one pointer per DEFINE_GLOBAL index, then one integer per
  /// variable (DEFINE_VAR), sorted by name.
  static LogicalResult convert(KernelOp kernel, const TargetInfo &target) {
    MLIRContext *ctx = kernel.getContext();
    OpBuilder b(kernel);
    SmallVector<Type> args(countBuffers(kernel), LLVM::LLVMPointerType::get(ctx));
    for (DefineVarOp v : kernelVariables(kernel))
      args.push_back(target.types.storage(v.getType()));
    auto func =
        func::FuncOp::create(b, kernel.getLoc(), kernel.getSymName(), b.getFunctionType(args, {}));
    // A buffer of known size is that many bytes: LLVM may read ahead in it,
    // uop-check-host-accesses need not check what provably stays inside, and
    // the caller must pass a buffer at least that large.
    DataLayout layout = DataLayout::closest(kernel);
    for (DefineGlobalOp g : kernel.getBodyBlock().getOps<DefineGlobalOp>()) {
      auto ptr = cast<PtrType>(g.getType());
      if (ptr.getSize() == PtrType::kUnknownSize || ptr.getVcount() != 1 ||
          isa<VectorType>(ptr.getElementType()))
        continue;
      Type storage = target.types.storage(ptr.getElementType());
      if (!storage || !storage.isIntOrFloat())
        continue;
      int64_t bytes;
      if (llvm::MulOverflow(ptr.getSize(), int64_t(layout.getTypeSize(storage)), bytes))
        continue;
      func.setArgAttr(g.getIndex(), LLVM::LLVMDialect::getDereferenceableAttrName(),
                      b.getI64IntegerAttr(bytes));
    }
    recordKernelVariables(kernel);
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, kernel.getLoc());
    if (failed(emitKernel(kernel, entry, target, "convert-uop-to-scf"))) {
      func.erase();
      return failure();
    }
    kernel.erase();
    return success();
  }
};

} // namespace
