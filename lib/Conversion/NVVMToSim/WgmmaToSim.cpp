//===- WgmmaToSim.cpp - wgmma.mma_async as simulator calls ----------------===//
//
// Hopper's wgmma.mma_async has no LLVM intrinsic (MLIR lowers it to inline
// PTX), so before the simulator's device IR goes through LLVM each becomes
// a call the simulator implements (SimABI.h). Its result is asynchronous:
// the registers may be read only after a wgmma.wait_group retires it, so
// each read gets a check call in front of it.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/NVVMToSim/WgmmaToSim.h"
#include "uop/Conversion/NVVMToSim/SimABI.h"

#include "SimCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

/// The ops that read `result` (the registers), following register moves,
/// branches into block arguments, and a chain into the next wgmma's
/// accumulator (which needs no wait).
static SmallVector<Operation *> readers(Value result) {
  SmallVector<Operation *> out;
  SmallVector<Value> work{result};
  DenseSet<Value> seen{result};
  auto follow = [&](Value v) {
    if (seen.insert(v).second)
      work.push_back(v);
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *u = use.getOwner();
      if (isa<LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::ExtractElementOp,
              LLVM::InsertElementOp, LLVM::ShuffleVectorOp, LLVM::BitcastOp>(u)) {
        follow(u->getResult(0));
      } else if (auto br = dyn_cast<BranchOpInterface>(u)) {
        if (std::optional<BlockArgument> arg = br.getSuccessorBlockArgument(use.getOperandNumber()))
          follow(*arg);
        else if (!llvm::is_contained(out, u))
          out.push_back(u); // a condition, say
      } else if (auto next = dyn_cast<NVVM::WgmmaMmaAsyncOp>(u);
                 next && use.get() == next.getInouts()) {
        continue;
      } else if (!llvm::is_contained(out, u)) {
        out.push_back(u);
      }
    }
  }
  return out;
}

void mlir::uop::sim::rewriteWgmmaForSim(Operation *table) {
  SmallVector<NVVM::WgmmaMmaAsyncOp> ops;
  table->walk([&](NVVM::WgmmaMmaAsyncOp op) { ops.push_back(op); });
  MLIRContext *ctx = table->getContext();
  OpBuilder b(ctx);
  Type i32 = b.getI32Type(), f32 = b.getF32Type(), voidTy = LLVM::LLVMVoidType::get(ctx);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto constant = [&](Location loc, Type t, int64_t v) { return simConstant(b, loc, t, v); };
  for (auto [id, op] : llvm::enumerate(ops)) {
    Location loc = op.getLoc();
    // The checks first: the op's uses are still the reads of its result.
    for (Operation *reader : readers(op.getResult())) {
      b.setInsertionPoint(reader);
      callSimFunction(b, table, reader->getLoc(), kWgmmaUsePreFn, voidTy, {constant(loc, i32, id)});
    }
    auto st = cast<LLVM::LLVMStructType>(op.getInouts().getType());
    int64_t regs = static_cast<int64_t>(st.getBody().size());
    Block &entry = op->getParentOfType<LLVM::LLVMFuncOp>().getBody().front();
    auto array = [&]() -> Value {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&entry);
      return LLVM::AllocaOp::create(b, loc, ptr, LLVM::LLVMArrayType::get(f32, regs),
                                    constant(loc, i32, 1), 4);
    };
    Value acc = array(), d = array();
    b.setInsertionPoint(op);
    auto slot = [&](Value a, int64_t i) {
      return LLVM::GEPOp::create(b, loc, ptr, f32, a,
                                 ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    };
    for (int64_t i = 0; i < regs; ++i)
      LLVM::StoreOp::create(b, loc, LLVM::ExtractValueOp::create(b, loc, op.getInouts(), i),
                            slot(acc, i));
    int32_t types = static_cast<int32_t>(op.getTypeA()) | static_cast<int32_t>(op.getTypeB()) << 4 |
                    static_cast<int32_t>(op.getTypeD()) << 8;
    int32_t flags = (op.getScaleD() == NVVM::WGMMAScaleOut::one ? kWgmmaScaleD : 0) |
                    (op.getLayoutA() == NVVM::MMALayout::col ? kWgmmaTransA : 0) |
                    (op.getLayoutB() == NVVM::MMALayout::row ? kWgmmaTransB : 0) |
                    (op.getScaleA() == NVVM::WGMMAScaleIn::neg ? kWgmmaNegA : 0) |
                    (op.getScaleB() == NVVM::WGMMAScaleIn::neg ? kWgmmaNegB : 0);
    if (op.getSatfinite())
      types |= 1 << 12; // (the simulator refuses it)
    NVVM::MMAShapeAttr shape = op.getShape();
    int32_t mnk = shape.getM() << 20 | shape.getN() << 8 | shape.getK();
    callSimFunction(b, table, loc, kWgmmaPreFn, voidTy,
                    {constant(loc, i32, id), constant(loc, i32, mnk), constant(loc, i32, types),
                     constant(loc, i32, flags), op.getDescriptorA(), op.getDescriptorB(), acc, d});
    Value result = LLVM::UndefOp::create(b, loc, st);
    for (int64_t i = 0; i < regs; ++i) {
      Value x = LLVM::LoadOp::create(b, loc, st.getBody()[i], slot(d, i));
      result = LLVM::InsertValueOp::create(b, loc, result, x, i);
    }
    op.getResult().replaceAllUsesWith(result);
    op.erase();
  }
}
