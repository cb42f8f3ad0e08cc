//===- UOpToSCF.cpp - lowered uop kernels to loops ------------------------===//
//
// Each lowered kernel becomes a func.func taking one !llvm.ptr per buffer;
// its ops are placed in loops by ../Common/KernelEmitter.cpp.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "uop/Conversion/Common/KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_CONVERTUOPTOSCF
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

struct ConvertUOpToSCFPass : mlir::uop::impl::ConvertUOpToSCFBase<ConvertUOpToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    DTypeLowering types;
    types.halfInF32 = halfInF32;
    for (KernelOp kernel : llvm::make_early_inc_range(getOperation().getOps<KernelOp>()))
      if (failed(convert(kernel, types)))
        return signalPassFailure();
  }

  /// `uop.kernel @k` becomes `func.func @k(%buf0: !llvm.ptr, ...)`, one
  /// pointer per DEFINE_GLOBAL index.
  static LogicalResult convert(KernelOp kernel, const DTypeLowering &types) {
    MLIRContext *ctx = kernel.getContext();
    OpBuilder b(kernel);
    SmallVector<Type> args(countBuffers(kernel), LLVM::LLVMPointerType::get(ctx));
    auto func =
        func::FuncOp::create(b, kernel.getLoc(), kernel.getSymName(), b.getFunctionType(args, {}));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, kernel.getLoc());
    if (failed(emitKernel(kernel, entry, types, "convert-uop-to-scf"))) {
      func.erase();
      return failure();
    }
    kernel.erase();
    return success();
  }
};

} // namespace
