//===- NVPTXTargetInfo.cpp - the shared emitter's NVPTX target ------------===//
//
// The parts of tinygrad's PTX renderer (seed 000) that are not value
// semantics: special registers, shared memory, barriers, tensor cores and
// the approximate transcendental instructions.
//
//===----------------------------------------------------------------------===//

#include "NVPTXTargetInfo.h"

#include "WmmaToNVVM.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

DTypeLowering nvptxTypes() {
  DTypeLowering types;
  types.halfInF32 = false;
  return types;
}

/// SPECIAL as gpu ids, i32 like tinygrad's dtypes.int.
Value emitSpecial(SpecialOp s, OpBuilder &b) {
  Location loc = s.getLoc();
  auto dim = static_cast<gpu::Dimension>(s.getDim());
  Value id;
  if (s.isBlockIndex()) {
    id = gpu::BlockIdOp::create(b, loc, dim);
  } else if (s.isThreadIndex()) {
    id = gpu::ThreadIdOp::create(b, loc, dim);
  } else { // idxN: the global thread index
    Value blocks = arith::MulIOp::create(b, loc, gpu::BlockIdOp::create(b, loc, dim),
                                         gpu::BlockDimOp::create(b, loc, dim));
    id = arith::AddIOp::create(b, loc, blocks, gpu::ThreadIdOp::create(b, loc, dim));
  }
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id);
}

/// DEFINE_LOCAL as a shared-memory array of the kernel's gpu.module (one
/// per block, address space 3).
FailureOr<Value> emitShared(DefineLocalOp local, OpBuilder &b, const DTypeLowering &types) {
  auto ptr = cast<PtrType>(local.getType());
  if (ptr.getSize() == PtrType::kUnknownSize)
    return local.emitOpError() << "needs a known size in shared memory";
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<gpu::GPUModuleOp>();
  OpBuilder mb(local.getContext()); // unlinked: the symbol table places it
  auto array = LLVM::LLVMArrayType::get(types.storage(ptr.getValueType()), ptr.getSize());
  // A swizzled buffer starts at a multiple of its swizzle's period (the
  // pattern is of shared addresses; see #uop.swizzle).
  std::optional<SwizzleAttr> swizzle = local.getSwizzle();
  uint64_t align = swizzle ? std::max<int64_t>(16, swizzle->getPeriod()) : 16;
  // wgmma's swizzle patterns repeat every 1024 bytes of shared address; a
  // tile it reads starts on one unless its descriptor says otherwise.
  auto readByWgmma = [](Operation *user) {
    return llvm::any_of(user->getUsers(), [](Operation *u) { return isa<WgmmaOp>(u); });
  };
  if (llvm::any_of(local->getUsers(), readByWgmma))
    align = std::max<uint64_t>(align, 1024);
  auto global = LLVM::GlobalOp::create(mb, local.getLoc(), array, /*isConstant=*/false,
                                       LLVM::Linkage::Internal, local.getName(), Attribute(), align,
                                       /*addrSpace=*/3);
  SymbolTable(module).insert(global, module.getBody()->begin()); // renamed if taken
  return LLVM::AddressOfOp::create(b, local.getLoc(), global).getResult();
}

/// ASYNC_COPY as cp.async (cg: through L2 only, for 16 bytes; ca else)
/// from the global address space.
Value emitAsyncCopy(AsyncCopyOp copy, Value dst, Value src, OpBuilder &b) {
  Location loc = copy.getLoc();
  auto global = LLVM::LLVMPointerType::get(b.getContext(),
                                           static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
  if (src.getType() != global)
    src = LLVM::AddrSpaceCastOp::create(b, loc, global, src);
  int64_t bytes = copy.getBytes();
  NVVM::CpAsyncOp::create(b, loc, dst, src, bytes,
                          bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                      : NVVM::LoadCacheModifierKind::CA,
                          /*cpSize=*/Value());
  return Value();
}

/// The TMA's ops (sm_90): mbarrier init, arrive with expected bytes, the
/// parity wait (upstream's op retries try_wait until it succeeds), and a 2d
/// tile copy to the CTA's own shared memory through the tensor map `map`
/// (a kernel parameter), completing on the mbarrier.
std::optional<FailureOr<Value>> emitTensorCopyOp(Operation *op, ValueRange operands, StringRef chip,
                                                 OpBuilder &b) {
  if (!isa<MBarrierInitOp, MBarrierExpectTxOp, MBarrierWaitOp, TensorCopyOp>(op))
    return std::nullopt;
  if (TargetAttr::getSMVersion(chip) < 90)
    return FailureOr<Value>(op->emitOpError() << "needs sm_90 or later, not " << chip);
  Location loc = op->getLoc();
  auto i32 = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(v)).getResult();
  };
  if (auto init = dyn_cast<MBarrierInitOp>(op)) {
    NVVM::MBarrierInitOp::create(b, loc, operands[0], i32(init.getCount()), Value());
  } else if (auto expect = dyn_cast<MBarrierExpectTxOp>(op)) {
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), operands[0], i32(expect.getBytes()),
                                           NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
  } else if (isa<MBarrierWaitOp>(op)) {
    Value parity = LLVM::AndOp::create(b, loc, operands[1], i32(1));
    // A hint of how long the thread may be suspended, CUTLASS's (ns).
    NVVM::MBarrierTryWaitParityOp::create(b, loc, operands[0], parity, i32(0x989680));
  } else {
    // operands: dst, src, column, row, mbarrier, [the mask's shift,] tensor map.
    auto copy = cast<TensorCopyOp>(op);
    auto cluster = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value dst = LLVM::AddrSpaceCastOp::create(b, loc, cluster, operands[0]);
    // The multicast's ctaMask, a b16 of %cluster_ctarank bits: receivers << shift.
    Value mask;
    if (std::optional<uint64_t> receivers = copy.getReceivers()) {
      Value shift = operands[5];
      unsigned width = shift.getType().getIntOrFloatBitWidth();
      if (width > 32)
        shift = LLVM::TruncOp::create(b, loc, b.getI32Type(), shift);
      else if (width < 32)
        shift = LLVM::ZExtOp::create(b, loc, b.getI32Type(), shift);
      mask = LLVM::ShlOp::create(b, loc, i32(static_cast<int64_t>(*receivers)), shift);
      mask = LLVM::TruncOp::create(b, loc, b.getI16Type(), mask);
    }
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, operands.back(), ValueRange{operands[2], operands[3]}, operands[4],
        ValueRange{}, mask, /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
  }
  return FailureOr<Value>(Value());
}

/// LDMATRIX as nvvm.ldmatrix (m8n8, b16): one 32-bit register per matrix,
/// two elements each, low half first, into the result vector in order.
Value emitLdMatrix(LdMatrixOp ld, Value ptr, OpBuilder &b) {
  Location loc = ld.getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t count = ld.getCount();
  Type i32 = b.getI32Type();
  Type regs =
      count == 1 ? i32 : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(count, i32));
  Value r = NVVM::LdMatrixOp::create(
      b, loc, regs, ptr, count, ld.getTrans() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
  auto resultType = cast<VectorType>(ld.getType());
  auto pairType = VectorType::get({2}, resultType.getElementType());
  Value out = LLVM::PoisonOp::create(b, loc, resultType);
  for (int64_t j = 0; j < count; ++j) {
    Value reg = count == 1 ? r : LLVM::ExtractValueOp::create(b, loc, r, ArrayRef<int64_t>{j});
    Value pair = LLVM::BitcastOp::create(b, loc, pairType, reg);
    for (int64_t h = 0; h < 2; ++h) {
      auto lane = [&](int64_t i) {
        return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i));
      };
      Value x = LLVM::ExtractElementOp::create(b, loc, pair, lane(h));
      out = LLVM::InsertElementOp::create(b, loc, out, x, lane(2 * j + h));
    }
  }
  return out;
}

/// A wgmma matrix descriptor for the tile at `ptr` (shared): bits 0-13 the
/// start address / 16 (the low 18 bits of the shared address), the rest
/// from the tile's layout (PTX ISA, "Matrix Descriptor Format").
Value wgmmaDescriptor(Value ptr, WgmmaTileAttr tile, OpBuilder &b, Location loc) {
  Type i64 = b.getI64Type();
  auto c = [&](uint64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(static_cast<int64_t>(v)));
  };
  Value addr = LLVM::PtrToIntOp::create(b, loc, i64, ptr);
  Value start = LLVM::LShrOp::create(b, loc, LLVM::AndOp::create(b, loc, addr, c(0x3FFFF)), c(4));
  return LLVM::OrOp::create(b, loc, start, c(tile.descriptorHighBits()));
}

/// nvvm.wgmma.mma_async m64nNk16 into f32 accumulators (`accVector`, the
/// thread's N / 2), of the `elem` tiles at `a` and `b` (shared): the
/// accumulators packed into the op's struct and unpacked from it.
Value wgmmaAsync(Location loc, Value accVector, Value a, WgmmaTileAttr aTile, Value bPtr,
                 WgmmaTileAttr bTile, Type elem, bool zeroAcc, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto accType = cast<VectorType>(accVector.getType());
  int64_t regs = accType.getNumElements();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(regs, f32));
  auto lane = [&](int64_t i) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i));
  };
  Value acc = LLVM::UndefOp::create(b, loc, structType);
  for (int64_t i = 0; i < regs; ++i)
    acc = LLVM::InsertValueOp::create(
        b, loc, acc, LLVM::ExtractElementOp::create(b, loc, accVector, lane(i)), i);
  using namespace NVVM;
  WGMMATypes in = elem.isBF16() ? WGMMATypes::bf16 : WGMMATypes::f16;
  // A's layout row / B's col is K-major (PTX's imm-trans 0).
  Value d = WgmmaMmaAsyncOp::create(
      b, loc, structType, acc, wgmmaDescriptor(a, aTile, b, loc),
      wgmmaDescriptor(bPtr, bTile, b, loc), MMAShapeAttr::get(ctx, 64, 2 * regs, 16), in, in,
      WGMMATypes::f32, zeroAcc ? WGMMAScaleOut::zero : WGMMAScaleOut::one, WGMMAScaleIn::one,
      WGMMAScaleIn::one, aTile.isMNMajor() ? MMALayout::col : MMALayout::row,
      bTile.isMNMajor() ? MMALayout::row : MMALayout::col, MMAIntOverflowAttr());
  Value out = LLVM::PoisonOp::create(b, loc, accType);
  for (int64_t i = 0; i < regs; ++i)
    out = LLVM::InsertElementOp::create(b, loc, out, LLVM::ExtractValueOp::create(b, loc, d, i),
                                        lane(i));
  return out;
}

/// WGMMA (uop.wgmma): the asynchronous multiply alone.
FailureOr<Value> emitWgmma(WgmmaOp op, ValueRange operands, TargetAttr target, OpBuilder &b) {
  if (target.getChip() != "sm_90a")
    return op.emitOpError() << "needs wgmma, which only sm_90a has, not " << target.getChip();
  return wgmmaAsync(op.getLoc(), operands[0], operands[1], op.getATile(), operands[2],
                    op.getBTile(), cast<PtrType>(op.getA().getType()).getElementType(),
                    op.getZeroAcc(), b);
}

/// WMMA's wgmma form: fence, the multiply, commit and wait for it, so that
/// the result is complete where it is used.
FailureOr<Value> emitWmmaAsWgmma(WmmaOp op, ValueRange operands, TargetAttr target, OpBuilder &b) {
  if (target.getChip() != "sm_90a")
    return op.emitOpError() << "is a wgmma, which only sm_90a has, not " << target.getChip();
  Location loc = op.getLoc();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value d = wgmmaAsync(loc, operands[2], operands[0], *op.getATile(), operands[1], *op.getBTile(),
                       cast<PtrType>(op.getA().getType()).getElementType(), false, b);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return d;
}

/// tinygrad's PTX: ex2.approx, lg2.approx, sin.approx, sqrt.approx and
/// rcp.approx on f32 (ex2.approx also on f16); other halves go through f32.
Value approx(Operation *op, Value x, OpBuilder &b, Location loc) {
  Type t = x.getType(), f32 = b.getF32Type();
  if (isa<Exp2Op>(op) && t.isF16())
    return LLVM::CallIntrinsicOp::create(b, loc, t, b.getStringAttr("llvm.nvvm.ex2.approx.f16"),
                                         ValueRange{x})
        .getResult(0);
  Value wide = t.isF32() ? x : arith::ExtFOp::create(b, loc, f32, x).getResult();
  Value r;
  if (isa<RecipOp>(op)) {
    // No intrinsic for rcp.approx.f32 without ftz; tinygrad's instruction as is.
    r = LLVM::InlineAsmOp::create(b, loc, f32, ValueRange{wide}, "rcp.approx.f32 $0, $1;", "=f,f",
                                  /*has_side_effects=*/false, /*is_align_stack=*/false,
                                  LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
                                  /*operand_attrs=*/ArrayAttr())
            .getRes();
  } else {
    StringRef intrinsic = llvm::TypeSwitch<Operation *, StringRef>(op)
                              .Case([](Exp2Op) { return "llvm.nvvm.ex2.approx.f32"; })
                              .Case([](Log2Op) { return "llvm.nvvm.lg2.approx.f"; })
                              .Case([](SinOp) { return "llvm.nvvm.sin.approx.f"; })
                              .Case([](SqrtOp) { return "llvm.nvvm.sqrt.approx.f"; });
    r = LLVM::CallIntrinsicOp::create(b, loc, f32, b.getStringAttr(intrinsic), ValueRange{wide})
            .getResult(0);
  }
  return t.isF32() ? r : arith::TruncFOp::create(b, loc, t, r).getResult();
}

} // namespace

NVPTXTargetInfo::NVPTXTargetInfo(TargetAttr target)
    : TargetInfo(nvptxTypes(), target), target(target) {}

Value NVPTXTargetInfo::emitFloatToInt(OpBuilder &b, Location loc, Value x, Type to,
                                      bool isUnsigned) const {
  // cvt.rzi saturates to the destination's range and gives 0 for NaN
  // (tinygrad's PTX); LLVM's saturating conversions say exactly that.
  StringRef name = isUnsigned ? "llvm.fptoui.sat" : "llvm.fptosi.sat";
  return LLVM::CallIntrinsicOp::create(b, loc, to, b.getStringAttr(name), ValueRange{x})
      .getResult(0);
}

Value NVPTXTargetInfo::emitMulAdd(OpBuilder &b, Location loc, Value x, Value y, Value z) const {
  // tinygrad's PTX has no half MULACC (not in supports_half): fma.rn.f32
  // of the widened operands, rounded back once.
  Type t = x.getType(), elem = getElementTypeOrSelf(t);
  if (!elem.isF16() && !elem.isBF16())
    return LLVM::FMAOp::create(b, loc, x, y, z);
  Type wide = b.getF32Type();
  if (auto vec = dyn_cast<VectorType>(t))
    wide = VectorType::get(vec.getShape(), wide);
  auto ext = [&](Value v) { return arith::ExtFOp::create(b, loc, wide, v).getResult(); };
  Value r = LLVM::FMAOp::create(b, loc, ext(x), ext(y), ext(z));
  return arith::TruncFOp::create(b, loc, t, r);
}

std::optional<FailureOr<Value>> NVPTXTargetInfo::emitTargetOp(Operation *op, ValueRange operands,
                                                              OpBuilder &b) const {
  if (auto wmma = dyn_cast<WmmaOp>(op); wmma && wmma.isWgmma())
    return emitWmmaAsWgmma(wmma, operands, target, b);
  if (auto wmma = dyn_cast<WmmaOp>(op))
    return lowerWmmaToNVVM(wmma, operands[0], operands[1], operands[2], target, b);
  if (auto local = dyn_cast<DefineLocalOp>(op))
    return emitShared(local, b, types);
  if (auto barrier = dyn_cast<BarrierOp>(op)) {
    if (!barrier.getCluster()) {
      gpu::BarrierOp::create(b, op->getLoc());
      return FailureOr<Value>(Value());
    }
    if (TargetAttr::getSMVersion(target.getChip()) < 90)
      return FailureOr<Value>(
          op->emitOpError() << "waits for a thread-block cluster, which needs sm_90 or later, not "
                            << target.getChip());
    // Every thread of the cluster's blocks takes part (.aligned: the warp's
    // threads all execute it), the arrive releasing, the wait acquiring.
    NVVM::ClusterArriveOp::create(b, op->getLoc(), b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, op->getLoc(), b.getUnitAttr());
    return FailureOr<Value>(Value());
  }
  if (auto special = dyn_cast<SpecialOp>(op))
    return FailureOr<Value>(emitSpecial(special, b));
  if (auto copy = dyn_cast<AsyncCopyOp>(op))
    return FailureOr<Value>(emitAsyncCopy(copy, operands[0], operands[1], b));
  if (isa<AsyncCommitOp>(op)) {
    NVVM::CpAsyncCommitGroupOp::create(b, op->getLoc());
    return FailureOr<Value>(Value());
  }
  if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
    NVVM::CpAsyncWaitGroupOp::create(b, op->getLoc(), static_cast<uint32_t>(wait.getPending()));
    return FailureOr<Value>(Value());
  }
  if (auto ld = dyn_cast<LdMatrixOp>(op))
    return FailureOr<Value>(emitLdMatrix(ld, operands[0], b));
  if (auto r = emitTensorCopyOp(op, operands, target.getChip(), b))
    return *r;
  if (auto wgmma = dyn_cast<WgmmaOp>(op))
    return emitWgmma(wgmma, operands, target, b);
  if (isa<WgmmaFenceOp, WgmmaCommitOp, WgmmaWaitOp, FenceProxyAsyncOp>(op) &&
      target.getChip() != "sm_90a")
    return FailureOr<Value>(op->emitOpError() << "needs sm_90a, not " << target.getChip());
  if (isa<WgmmaFenceOp>(op)) {
    NVVM::WgmmaFenceAlignedOp::create(b, op->getLoc());
    return FailureOr<Value>(Value());
  }
  if (isa<WgmmaCommitOp>(op)) {
    NVVM::WgmmaGroupSyncAlignedOp::create(b, op->getLoc());
    return FailureOr<Value>(Value());
  }
  if (auto wait = dyn_cast<WgmmaWaitOp>(op)) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, op->getLoc(), wait.getPending());
    return FailureOr<Value>(operands[0]);
  }
  if (isa<FenceProxyAsyncOp>(op)) {
    NVVM::FenceProxyOp::create(
        b, op->getLoc(), NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
    return FailureOr<Value>(Value());
  }
  return std::nullopt;
}

/// mapa.shared::cluster: the same offset in block `rank`'s shared memory,
/// a shared::cluster address (address space 7).
FailureOr<Value> NVPTXTargetInfo::emitPeerAddress(Operation *op, Value address, Value rank,
                                                  OpBuilder &b) const {
  if (TargetAttr::getSMVersion(target.getChip()) < 90)
    return op->emitOpError() << "needs thread-block clusters (sm_90 or later), not "
                             << target.getChip();
  auto cluster = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  Location loc = op->getLoc();
  unsigned bits = rank.getType().getIntOrFloatBitWidth();
  if (bits > 32)
    rank = arith::TruncIOp::create(b, loc, b.getI32Type(), rank);
  else if (bits < 32)
    rank = arith::ExtUIOp::create(b, loc, b.getI32Type(), rank);
  return NVVM::MapaOp::create(b, loc, cluster, address, rank).getResult();
}

llvm::Expected<Value> NVPTXTargetInfo::emitMath(Operation *op, ValueRange operands, OpBuilder &b,
                                                Location loc) const {
  if (isa<PowOp>(op))
    return llvm::createStringError(llvm::Twine(
        "POW has no PTX instruction (uop-decompose-math rewrites it, as tinygrad does)"));
  Value x = operands[0];
  Type t = x.getType();
  StringRef name = op->getName().stripDialect();
  if (llvm::any_of(target.getApproxOps(), [&](StringAttr a) { return a.getValue() == name; })) {
    if (isa<VectorType>(t))
      return llvm::createStringError(
          llvm::Twine("vector transcendentals are not supported on PTX"));
    if (!t.isF64())
      return approx(op, x, b, loc);
  }
  if (t.isF64() && isa<Exp2Op, Log2Op, SinOp>(op))
    return llvm::createStringError("PTX has no f64 " + name.upper() +
                                   " instruction (uop-decompose-math rewrites it)");
  // sqrt.rn.f64, exact like the host's, rather than the math dialect's
  // libdevice call (convert-gpu-to-nvvm takes llvm.intr.sqrt to it too).
  if (isa<SqrtOp>(op) && t.isF64())
    return LLVM::CallIntrinsicOp::create(b, loc, t, b.getStringAttr("llvm.nvvm.sqrt.rn.d"),
                                         ValueRange{x})
        .getResult(0);
  return Value();
}
