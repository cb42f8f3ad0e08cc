//===- NVVMToSim.cpp - GPU-level kernels to host code for the simulator ---===//
//
// What the GPU has and the host lacks (special registers, barriers, warp
// matrix ops, per-block shared memory, approximate math) becomes calls into
// the simulator (SimABI.h); every memory access is preceded by a bounds
// check. Anything else NVVM-specific becomes a call that stops the thread
// reaching it, so one odd op does not keep a kernel from running. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/NVVMToSim/MBarrierToSim.h"
#include "uop/Conversion/NVVMToSim/SimABI.h"
#include "uop/Conversion/NVVMToSim/WgmmaToSim.h"
#include "uop/Conversion/Passes.h"

#include "SimCalls.h"

#include "uop/Conversion/Common/Sites.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

namespace mlir::uop {
#define GEN_PASS_DEF_CONVERTNVVMTOSIM
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
using sim::SReg;

namespace {

std::optional<SReg> specialRegister(StringRef opName) {
  return llvm::StringSwitch<std::optional<SReg>>(opName)
      .Case("nvvm.read.ptx.sreg.tid.x", SReg::TidX)
      .Case("nvvm.read.ptx.sreg.tid.y", SReg::TidY)
      .Case("nvvm.read.ptx.sreg.tid.z", SReg::TidZ)
      .Case("nvvm.read.ptx.sreg.ntid.x", SReg::NTidX)
      .Case("nvvm.read.ptx.sreg.ntid.y", SReg::NTidY)
      .Case("nvvm.read.ptx.sreg.ntid.z", SReg::NTidZ)
      .Case("nvvm.read.ptx.sreg.ctaid.x", SReg::CtaIdX)
      .Case("nvvm.read.ptx.sreg.ctaid.y", SReg::CtaIdY)
      .Case("nvvm.read.ptx.sreg.ctaid.z", SReg::CtaIdZ)
      .Case("nvvm.read.ptx.sreg.nctaid.x", SReg::NCtaIdX)
      .Case("nvvm.read.ptx.sreg.nctaid.y", SReg::NCtaIdY)
      .Case("nvvm.read.ptx.sreg.nctaid.z", SReg::NCtaIdZ)
      .Case("nvvm.read.ptx.sreg.laneid", SReg::LaneId)
      .Case("nvvm.read.ptx.sreg.warpid", SReg::WarpId)
      .Case("nvvm.read.ptx.sreg.warpsize", SReg::WarpSize)
      .Case("nvvm.read.ptx.sreg.cluster.ctarank", SReg::ClusterCtaRank)
      .Case("nvvm.read.ptx.sreg.cluster.nctarank", SReg::ClusterNCtaRank)
      .Case("nvvm.read.ptx.sreg.cluster.ctaid.x", SReg::ClusterCtaIdX)
      .Case("nvvm.read.ptx.sreg.cluster.ctaid.y", SReg::ClusterCtaIdY)
      .Case("nvvm.read.ptx.sreg.cluster.ctaid.z", SReg::ClusterCtaIdZ)
      .Case("nvvm.read.ptx.sreg.cluster.nctaid.x", SReg::ClusterNCtaIdX)
      .Case("nvvm.read.ptx.sreg.cluster.nctaid.y", SReg::ClusterNCtaIdY)
      .Case("nvvm.read.ptx.sreg.cluster.nctaid.z", SReg::ClusterNCtaIdZ)
      .Case("nvvm.read.ptx.sreg.clusterid.x", SReg::ClusterIdX)
      .Case("nvvm.read.ptx.sreg.clusterid.y", SReg::ClusterIdY)
      .Case("nvvm.read.ptx.sreg.clusterid.z", SReg::ClusterIdZ)
      .Case("nvvm.read.ptx.sreg.nclusterid.x", SReg::NClusterIdX)
      .Case("nvvm.read.ptx.sreg.nclusterid.y", SReg::NClusterIdY)
      .Case("nvvm.read.ptx.sreg.nclusterid.z", SReg::NClusterIdZ)
      .Default(std::nullopt);
}

/// The approximate PTX math convert-uop-to-gpu emits, and the exact host
/// intrinsic the simulator computes instead (docs/simulator.md says why).
StringRef hostIntrinsic(StringRef nvvmIntrinsic) {
  return llvm::StringSwitch<StringRef>(nvvmIntrinsic)
      .Case("llvm.nvvm.ex2.approx.f32", "llvm.exp2.f32")
      .Case("llvm.nvvm.ex2.approx.f", "llvm.exp2.f32")
      .Case("llvm.nvvm.ex2.approx.f16", "llvm.exp2.f16")
      .Case("llvm.nvvm.lg2.approx.f", "llvm.log2.f32")
      .Case("llvm.nvvm.sin.approx.f", "llvm.sin.f32")
      .Case("llvm.nvvm.sqrt.approx.f", "llvm.sqrt.f32")
      .Case("llvm.nvvm.sqrt.rn.d", "llvm.sqrt.f64") // exact on both
      .Default("");
}

/// Whether `name` is a simulator function as the device IR calls it,
/// before the site is added (SimABI.h, kPreSuffix).
bool isPreCall(StringRef name) {
  return name.starts_with("__uopsim_") && name.ends_with(sim::kPreSuffix);
}

/// Whether `addr` is in a stack array that holds a wgmma's registers
/// (rewriteWgmmaForSim's): its loads and stores are register moves. LLVM
/// may reach the array through address-space casts (NVPTX's local space).
bool isWgmmaRegisters(Value addr) {
  auto isView = [](Operation *op) { return isa<LLVM::GEPOp, LLVM::AddrSpaceCastOp>(op); };
  while (Operation *def = addr.getDefiningOp()) {
    if (!isView(def))
      break;
    addr = def->getOperand(0);
  }
  if (!addr.getDefiningOp<LLVM::AllocaOp>())
    return false;
  SmallVector<Value> work{addr};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *u : v.getUsers()) {
      if (isView(u) && u->getOperand(0) == v)
        work.push_back(u->getResult(0));
      auto c = dyn_cast<LLVM::CallOp>(u);
      if (c && c.getCallee() && *c.getCallee() == sim::kWgmmaPreFn)
        return true;
    }
  }
  return false;
}

/// What `op` counts as in PTX instructions (InstrClass), or nothing for an
/// op that costs none: a constant, a register move or reinterpretation, an
/// address computation a load or store folds in, a hint.
std::optional<sim::InstrClass> instrClass(Operation *op) {
  using C = sim::InstrClass;
  if (isa<LLVM::ConstantOp, LLVM::ZeroOp, LLVM::UndefOp, LLVM::PoisonOp, LLVM::AddressOfOp,
          LLVM::BitcastOp, LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::ExtractElementOp,
          LLVM::InsertElementOp, LLVM::ShuffleVectorOp, LLVM::FreezeOp, LLVM::AllocaOp>(op))
    return std::nullopt;
  // The casts rewriteMBarriersForSim puts in front of its calls (the PTX
  // instructions take the shared address itself).
  if (isa<LLVM::AddrSpaceCastOp>(op) && !op->use_empty() &&
      llvm::all_of(op->getUsers(), [](Operation *user) {
        auto c = dyn_cast<LLVM::CallOp>(user);
        return c && c.getCallee() && isPreCall(*c.getCallee());
      }))
    return std::nullopt;
  if (auto gep = dyn_cast<LLVM::GEPOp>(op)) // constant offsets fold into ld/st
    return gep.getDynamicIndices().empty() ? std::nullopt : std::optional<C>(C::Int);
  if (isa<LLVM::BrOp, LLVM::CondBrOp, LLVM::SwitchOp, LLVM::ReturnOp>(op))
    return C::Control;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return isWgmmaRegisters(load.getAddr()) ? std::nullopt : std::optional<C>(C::Load);
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return isWgmmaRegisters(store.getAddr()) ? std::nullopt : std::optional<C>(C::Store);
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op))
    return C::Store;
  if (auto c = dyn_cast<LLVM::CallOp>(op); c && c.getCallee()) {
    StringRef callee = *c.getCallee();
    if (callee == sim::kWgmmaPreFn)
      return C::Wgmma;
    if (callee == sim::kWgmmaUsePreFn)
      return std::nullopt;
    if (callee.consume_back(sim::kPreSuffix)) { // an mbarrier op, a bulk copy, a cluster op
      if (callee == sim::kBulkCopyFn || callee == sim::kTensorCopyFn)
        return C::AsyncCopy;
      return callee == sim::kClusterArriveFn || callee == sim::kClusterWaitFn ? C::Barrier
                                                                              : C::Other;
    }
  }
  if (isa<NVVM::WgmmaMmaAsyncOp>(op))
    return C::Wgmma;
  if (isa<NVVM::MmaOp>(op))
    return C::Mma;
  if (isa<NVVM::LdMatrixOp>(op))
    return C::LdMatrix;
  if (isa<NVVM::CpAsyncOp, NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp>(op))
    return C::AsyncCopy;
  if (isa<NVVM::Barrier0Op, NVVM::BarrierOp>(op))
    return C::Barrier;
  if (isa<LLVM::InlineAsmOp>(op)) // (rcp.approx.f32)
    return C::Special;
  StringRef intrinsic;
  if (auto intr = dyn_cast<LLVM::CallIntrinsicOp>(op))
    intrinsic = intr.getIntrin();
  if (!intrinsic.empty()) {
    if (intrinsic.starts_with("llvm.assume") || intrinsic.starts_with("llvm.lifetime") ||
        intrinsic.starts_with("llvm.experimental.noalias") || intrinsic.starts_with("llvm.dbg"))
      return std::nullopt;
    if (intrinsic.starts_with("llvm.nvvm.mma."))
      return C::Mma;
    if (intrinsic.starts_with("llvm.nvvm.ldmatrix."))
      return C::LdMatrix;
    if (intrinsic.starts_with("llvm.nvvm.cp.async."))
      return C::AsyncCopy;
    if (intrinsic.starts_with("llvm.nvvm.barrier"))
      return C::Barrier;
    if (intrinsic.starts_with("llvm.nvvm.read.ptx.sreg."))
      return C::Int;
    if (intrinsic.contains(".approx."))
      return C::Special;
    if (intrinsic.starts_with("llvm.nvvm."))
      return C::Other;
  }
  // What remains computes a value: in floating point or in integers.
  auto isFloat = [](Type t) { return isa<FloatType>(getElementTypeOrSelf(t)); };
  if (llvm::any_of(op->getResultTypes(), isFloat) || llvm::any_of(op->getOperandTypes(), isFloat))
    return C::Float;
  if (op->getNumResults() == 1 || !intrinsic.empty())
    return C::Int;
  return C::Other;
}

/// Rewrites the functions of one symbol table (a gpu.module or a module).
class Rewriter {
public:
  Rewriter(Operation *table)
      : table(table), b(table->getContext()), dl(DataLayout::closest(table)) {
    MLIRContext *ctx = table->getContext();
    i32 = IntegerType::get(ctx, 32);
    i64 = IntegerType::get(ctx, 64);
    ptr = LLVM::LLVMPointerType::get(ctx);
    voidTy = LLVM::LLVMVoidType::get(ctx);
  }

  void run() {
    SmallVector<LLVM::LLVMFuncOp> funcs;
    for (Region &r : table->getRegions())
      for (auto f : r.getOps<LLVM::LLVMFuncOp>())
        if (!f.isExternal())
          funcs.push_back(f);
    sim::rewriteWgmmaForSim(table); // (done already in device IR)
    sim::rewriteMBarriersForSim(table);
    collectShared();
    for (LLVM::LLVMFuncOp f : funcs)
      countBlocks(f);
    for (LLVM::LLVMFuncOp f : funcs) {
      // What LLVM's optimizer inferred of the device code (no memory
      // effects, noreturn where it reaches `unreachable`, ...) is not true
      // of it with the simulator's calls in it.
      for (StringRef a : {"memory_effects", "passthrough", "will_return"})
        f->removeAttr(a);
      for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
        for (StringRef a : {"llvm.readnone", "llvm.readonly", "llvm.writeonly"})
          f.removeArgAttr(i, a);
      SmallVector<Operation *> ops;
      f.walk([&](Operation *op) { ops.push_back(op); });
      for (Operation *op : ops)
        rewrite(op);
    }
    for (LLVM::GlobalOp g : shared)
      g.erase();
    // The declarations of the NVVM intrinsics rewritten away (LLVM IR
    // imported back declares the ones it calls).
    for (Region &r : table->getRegions())
      for (auto f : llvm::make_early_inc_range(r.getOps<LLVM::LLVMFuncOp>()))
        if (f.isExternal() && (f.getName().starts_with("llvm.nvvm.") || isPreCall(f.getName())) &&
            SymbolTable::symbolKnownUseEmpty(f, table))
          f.erase();
    UOpDialect::SitesAttrHelper(b.getContext()).setAttr(table, sites.toAttr(b));
    UOpDialect::SimSharedAttrHelper(b.getContext())
        .setAttr(table, b.getDenseI64ArrayAttr(sharedLayout));
    UOpDialect::SimBlocksAttrHelper(b.getContext())
        .setAttr(table, b.getDenseI64ArrayAttr(blockCounts));
  }

private:
  Operation *table;
  OpBuilder b;
  DataLayout dl;
  Type i32, i64, ptr, voidTy;
  SiteTable sites;
  SmallVector<LLVM::GlobalOp> shared;
  SmallVector<int64_t> sharedLayout; // bytes, align per shared variable
  SmallVector<int64_t> blockCounts;  // per block numbered, its instructions by class

  /// Numbers each block of `f`, counts its instructions by class and makes
  /// the thread report entering it (kBlockFn), so that a run can count the
  /// instructions it executed.
  void countBlocks(LLVM::LLVMFuncOp f) {
    for (Block &block : f.getBody()) {
      int64_t id = static_cast<int64_t>(blockCounts.size()) / sim::kInstrClasses;
      blockCounts.append(sim::kInstrClasses, 0);
      for (Operation &op : block)
        if (std::optional<sim::InstrClass> c = instrClass(&op))
          ++blockCounts[id * sim::kInstrClasses + static_cast<int32_t>(*c)];
      Operation *first = &block.front();
      b.setInsertionPointToStart(&block);
      call(f.getLoc(), sim::kBlockFn, voidTy, {constant(i32, id), site(first)});
    }
  }

  void collectShared() {
    for (Region &r : table->getRegions())
      for (auto g : r.getOps<LLVM::GlobalOp>())
        if (g.getAddrSpace() == static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)) {
          shared.push_back(g);
          sharedLayout.push_back(static_cast<int64_t>(dl.getTypeSize(g.getGlobalType())));
          sharedLayout.push_back(
              g.getAlignment().value_or(dl.getTypeABIAlignment(g.getGlobalType())));
        }
  }

  Value site(Operation *op) { return constant(i32, sites.add(op)); }

  Value constant(Type t, int64_t v) {
    return LLVM::ConstantOp::create(b, b.getUnknownLoc(), t, b.getIntegerAttr(t, v));
  }

  /// Declares (once) and calls a simulator function.
  LLVM::CallOp call(Location loc, StringRef name, Type result, ValueRange args) {
    return sim::callSimFunction(b, table, loc, name, result, args);
  }

  /// A pointer in address space 0, as the simulator's functions take them.
  Value generic(Location loc, Value p) { return sim::genericPointer(b, loc, p); }

  void check(Operation *op, Value p, Type accessed, sim::Access access) {
    b.setInsertionPoint(op);
    check(op, p, constant(i64, static_cast<int64_t>(dl.getTypeSize(accessed))), access);
  }

  /// `v` frozen, and used so by `op` from now on: what a check before `op`
  /// sees is what `op` gets. An undefined value (a register nothing wrote)
  /// is otherwise a different value per use, which LLVM may pick after the
  /// check. The builder is before `op`.
  Value freezeFor(Operation *op, Value v) {
    if (v.getDefiningOp<LLVM::FreezeOp>() || v.getDefiningOp<LLVM::ConstantOp>())
      return v;
    Value frozen = LLVM::FreezeOp::create(b, op->getLoc(), v);
    op->replaceUsesOfWith(v, frozen);
    return frozen;
  }

  /// Checks `bytes` (a value) at `p`, for `op`; the builder is before it.
  void check(Operation *op, Value p, Value bytes, sim::Access access) {
    Location loc = op->getLoc();
    Value frozen = freezeFor(op, p);
    if (bytes.getType() != i64)
      bytes = LLVM::ZExtOp::create(b, loc, i64, bytes);
    call(loc, sim::kCheckFn, voidTy,
         {generic(loc, frozen), bytes, site(op), constant(i32, static_cast<int32_t>(access))});
  }

  /// llvm.memcpy/memmove (dst, src, len, volatile) and llvm.memset (dst,
  /// value, len, volatile): the ranges they write and read, checked as
  /// loads and stores are; llvm.masked.load/store (which LLVM's vectorizer
  /// makes for NVPTX, which runs them lane by lane): each enabled lane.
  /// False for any other intrinsic.
  bool checkMemoryIntrinsic(LLVM::CallIntrinsicOp intr) {
    StringRef name = intr.getIntrin();
    ValueRange args = intr.getArgs();
    bool maskedLoad = name.starts_with("llvm.masked.load.");
    if (maskedLoad || name.starts_with("llvm.masked.store.")) {
      // (ptr, [align,] mask, passthru) and (value, ptr, [align,] mask)
      auto isMask = [](Value v) {
        auto vt = dyn_cast<VectorType>(v.getType());
        return vt && vt.getElementType().isInteger(1);
      };
      auto p = llvm::find_if(args, [](Value v) { return isa<LLVM::LLVMPointerType>(v.getType()); });
      auto mask = llvm::find_if(args, isMask);
      auto data =
          dyn_cast<VectorType>(maskedLoad ? intr.getResult(0).getType() : args[0].getType());
      if (p == args.end() || mask == args.end() || !data || data.isScalable() ||
          data.getNumElements() > 64)
        return false;
      b.setInsertionPoint(intr);
      Location loc = intr.getLoc();
      Value address = *p, enabled = *mask;
      Value frozen = freezeFor(intr, address);
      int64_t lanes = data.getNumElements();
      Value bits =
          LLVM::BitcastOp::create(b, loc, b.getIntegerType(lanes), freezeFor(intr, enabled));
      if (lanes < 64)
        bits = LLVM::ZExtOp::create(b, loc, i64, bits);
      int64_t laneBytes = static_cast<int64_t>(dl.getTypeSize(data.getElementType()));
      call(loc, sim::kCheckMaskedFn, voidTy,
           {generic(loc, frozen), constant(i64, laneBytes), bits, site(intr),
            constant(i32,
                     static_cast<int32_t>(maskedLoad ? sim::Access::Read : sim::Access::Write))});
      return true;
    }
    bool copy = name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove");
    if ((!copy && !name.starts_with("llvm.memset")) || args.size() < 3)
      return false;
    b.setInsertionPoint(intr);
    // One length, frozen as the addresses are, for the checks and the op;
    // a source that is the destination is frozen once.
    Value len = args[2], dst = args[0], src = args[1];
    len = freezeFor(intr, len);
    Value frozenDst = freezeFor(intr, dst);
    check(intr, frozenDst, len, sim::Access::Write);
    if (copy)
      check(intr, src == dst ? frozenDst : src, len, sim::Access::Read);
    return true;
  }

  /// An integer division by zero, or of the minimum value by -1, is
  /// undefined behaviour in LLVM IR (PTX leaves its value unspecified) and
  /// traps on the host: the thread stops with a fault there instead, and the
  /// division runs on a divisor that cannot trap. A constant divisor that
  /// cannot trap needs no check.
  void checkDivisor(Operation *op, bool isSigned) {
    Value x = op->getOperand(0), d = op->getOperand(1);
    APInt c;
    if (matchPattern(d, m_ConstantInt(&c)) && !c.isZero() && !(isSigned && c.isAllOnes()))
      return;
    Location loc = op->getLoc();
    Type t = d.getType();
    unsigned width = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
    auto intLike = [&](const APInt &v) -> Value {
      Attribute a = b.getIntegerAttr(getElementTypeOrSelf(t), v);
      if (auto vt = dyn_cast<VectorType>(t))
        a = SplatElementsAttr::get(vt, a);
      return LLVM::ConstantOp::create(b, loc, t, cast<TypedAttr>(a));
    };
    // Any lane: a vector's conditions are or-reduced.
    auto any = [&](Value v) -> Value {
      return isa<VectorType>(t) ? LLVM::vector_reduce_or::create(b, loc, b.getI1Type(), v) : v;
    };
    b.setInsertionPoint(op);
    x = LLVM::FreezeOp::create(b, loc, x);
    d = LLVM::FreezeOp::create(b, loc, d);
    Value zero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, d, intLike(APInt(width, 0)));
    Value bad = zero;
    if (isSigned) {
      Value min = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, x,
                                       intLike(APInt::getSignedMinValue(width)));
      Value minusOne = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, d,
                                            intLike(APInt::getAllOnes(width)));
      bad = LLVM::OrOp::create(b, loc, zero, LLVM::AndOp::create(b, loc, min, minusOne));
    }
    Value anyBad = any(bad), anyZero = any(zero);
    Value safe = LLVM::SelectOp::create(b, loc, bad, intLike(APInt(width, 1)), d);
    op->setOperand(0, x);
    op->setOperand(1, safe);
    // The fault's call only where it is due: a block of its own.
    Block *before = op->getBlock();
    Block *after = before->splitBlock(op);
    Block *fault = b.createBlock(after);
    b.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(b, loc, anyBad, fault, after);
    b.setInsertionPointToEnd(fault);
    Value overflow = LLVM::SelectOp::create(b, loc, anyZero, constant(i32, 0), constant(i32, 1));
    call(loc, sim::kDivideFn, voidTy, {overflow, site(op)});
    LLVM::BrOp::create(b, loc, after);
  }

  void replace(Operation *op, Value v) {
    op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }

  void unsupported(Operation *op) {
    b.setInsertionPoint(op);
    call(op->getLoc(), sim::kUnsupportedFn, voidTy, {site(op)});
    for (OpResult r : op->getResults())
      r.replaceAllUsesWith(LLVM::PoisonOp::create(b, op->getLoc(), r.getType()));
    op->erase();
  }

  /// f32 -> bf16 as cvt.rn.bf16.f32 computes it: to nearest even, denormals
  /// kept. The host's own instruction may flush them (AVX512-BF16's
  /// vcvtneps2bf16 does), so the bits are rounded as integers.
  void rewriteTruncToBF16(LLVM::FPTruncOp op) {
    Type t = op.getType();
    Value x = op.getArg();
    if (!getElementTypeOrSelf(t).isBF16() || !getElementTypeOrSelf(x.getType()).isF32())
      return;
    Location loc = op.getLoc();
    auto like = [&](Type elem) -> Type {
      if (auto v = dyn_cast<VectorType>(t))
        return VectorType::get(v.getShape(), elem);
      return elem;
    };
    Type i32t = like(i32), i16t = like(IntegerType::get(b.getContext(), 16));
    auto c = [&](int32_t v) -> Value {
      if (auto v2 = dyn_cast<VectorType>(i32t))
        return LLVM::ConstantOp::create(
            b, loc, i32t, DenseElementsAttr::get(v2, b.getI32IntegerAttr(v).getValue()));
      return constant(i32, v);
    };
    Value bits = LLVM::BitcastOp::create(b, loc, i32t, x);
    Value lsb = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, bits, c(16)), c(1));
    Value rounded = LLVM::LShrOp::create(
        b, loc, LLVM::AddOp::create(b, loc, bits, LLVM::AddOp::create(b, loc, lsb, c(0x7fff))),
        c(16));
    Value isNan = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x, x);
    Value quiet = LLVM::OrOp::create(b, loc, LLVM::LShrOp::create(b, loc, bits, c(16)), c(0x40));
    Value r = LLVM::SelectOp::create(b, loc, isNan, quiet, rounded);
    Value half = LLVM::TruncOp::create(b, loc, i16t, r);
    replace(op, LLVM::BitcastOp::create(b, loc, t, half));
  }

  void rewrite(Operation *op) {
    Location loc = op->getLoc();
    StringRef name = op->getName().getStringRef();
    b.setInsertionPoint(op);
    // A branch on an undefined value is undefined behaviour to the host's
    // compiler (the run could go anywhere); frozen, it takes one of its ways.
    if (auto br = dyn_cast<LLVM::CondBrOp>(op)) {
      br.getConditionMutable().assign(LLVM::FreezeOp::create(b, loc, br.getCondition()));
      return;
    }
    if (auto sw = dyn_cast<LLVM::SwitchOp>(op)) {
      sw.getValueMutable().assign(LLVM::FreezeOp::create(b, loc, sw.getValue()));
      return;
    }
    // Where LLVM's optimizer proved undefined behaviour (a store through an
    // undefined address, a branch on an undefined value) it left
    // `unreachable`, which NVPTX compiles to `exit`: the GPU's thread would
    // stop without a word. A block LLVM made has no location: the
    // function's stands in.
    if (isa<LLVM::UnreachableOp>(op)) {
      if (!op->getLoc()->findInstanceOf<FileLineColLoc>())
        op->setLoc(op->getParentOfType<LLVM::LLVMFuncOp>().getLoc());
      call(loc, sim::kUnreachableFn, voidTy, {site(op)});
      // (the call does not return; the block still needs its terminator)
      Type result = op->getParentOfType<LLVM::LLVMFuncOp>().getFunctionType().getReturnType();
      if (isa<LLVM::LLVMVoidType>(result))
        LLVM::ReturnOp::create(b, loc, ValueRange());
      else
        LLVM::ReturnOp::create(b, loc, LLVM::PoisonOp::create(b, loc, result).getResult());
      op->erase();
      return;
    }
    if (isa<LLVM::SDivOp, LLVM::SRemOp>(op))
      return checkDivisor(op, /*isSigned=*/true);
    if (isa<LLVM::UDivOp, LLVM::URemOp>(op))
      return checkDivisor(op, /*isSigned=*/false);
    if (std::optional<SReg> reg = specialRegister(name)) {
      Value v =
          call(loc, sim::kSRegFn, i32, {constant(i32, static_cast<int32_t>(*reg))}).getResult();
      if (op->getResult(0).getType() != i32)
        v = LLVM::ZExtOp::create(b, loc, op->getResult(0).getType(), v);
      return replace(op, v);
    }
    if (isa<NVVM::Barrier0Op>(op))
      return rewriteBarrier(op);
    if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
      // Only the form gpu.barrier lowers to: barrier 0, every thread.
      if (bar.getNumberOfThreads() || bar.getReductionOp() || !bar->getResults().empty() ||
          (bar.getBarrierId() && !matchPattern(bar.getBarrierId(), m_Zero())))
        return unsupported(op);
      return rewriteBarrier(op);
    }
    if (auto mma = dyn_cast<NVVM::MmaOp>(op))
      return rewriteMmaOp(mma);
    if (auto trunc = dyn_cast<LLVM::FPTruncOp>(op))
      return rewriteTruncToBF16(trunc);
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      return check(op, load.getAddr(), load.getType(), sim::Access::Read);
    if (auto store = dyn_cast<LLVM::StoreOp>(op))
      return check(op, store.getAddr(), store.getValue().getType(), sim::Access::Write);
    if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
      return check(op, rmw.getPtr(), rmw.getVal().getType(), sim::Access::ReadWrite);
    if (auto cas = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
      return check(op, cas.getPtr(), cas.getVal().getType(), sim::Access::ReadWrite);
    if (auto copy = dyn_cast<NVVM::CpAsyncOp>(op))
      return rewriteCpAsync(op, copy.getDst(), copy.getSrc(), copy.getSize(), copy.getCpSize());
    if (isa<NVVM::CpAsyncCommitGroupOp>(op))
      return rewriteCommit(op);
    if (auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op))
      return rewriteWait(op, constant(i32, wait.getN()));
    if (isa<NVVM::WgmmaFenceAlignedOp>(op))
      return replaceWithCall(op, sim::kWgmmaFenceFn, {});
    if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op))
      return replaceWithCall(op, sim::kWgmmaCommitFn, {});
    if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op))
      return replaceWithCall(op, sim::kWgmmaWaitFn, {constant(i32, wait.getGroup())});
    if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op)) {
      // fence.proxy.async (all state spaces) or .async.shared::cta.
      bool async = fence.getKind() == NVVM::ProxyKind::async ||
                   (fence.getKind() == NVVM::ProxyKind::async_shared &&
                    (!fence.getSpace() || *fence.getSpace() == NVVM::SharedSpace::shared_cta));
      return async ? replaceWithCall(op, sim::kFenceProxyAsyncFn, {}) : unsupported(op);
    }
    if (auto ld = dyn_cast<NVVM::LdMatrixOp>(op)) {
      NVVM::LdStMatrixShapeAttr shape = ld.getShape();
      if (shape.getM() != 8 || shape.getN() != 8 || ld.getEltType() != NVVM::LdStMatrixEltType::B16)
        return unsupported(ld);
      return rewriteLdMatrix(op, ld.getPtr(), ld.getNum(), ld.getLayout() == NVVM::MMALayout::col);
    }
    if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
      for (auto [i, g] : llvm::enumerate(shared))
        if (g.getSymName() == addr.getGlobalName()) {
          Value p = call(loc, sim::kSharedFn, ptr, {constant(i32, i)}).getResult();
          if (addr.getType() != ptr)
            p = LLVM::AddrSpaceCastOp::create(b, loc, addr.getType(), p);
          return replace(op, p);
        }
      return;
    }
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      Type elem = alloca.getElemType();
      Value count = alloca.getArraySize();
      if (count.getType() != i64)
        count = LLVM::ZExtOp::create(b, loc, i64, count);
      Value bytes = LLVM::MulOp::create(b, loc, count,
                                        constant(i64, static_cast<int64_t>(dl.getTypeSize(elem))));
      int64_t align = alloca.getAlignment().value_or(0);
      if (!align)
        align = dl.getTypeABIAlignment(elem);
      Value p = call(loc, sim::kAllocaFn, ptr, {bytes, constant(i64, align), site(op)}).getResult();
      if (alloca.getType() != ptr)
        p = LLVM::AddrSpaceCastOp::create(b, loc, alloca.getType(), p);
      return replace(op, p);
    }
    if (auto intr = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
      StringRef intrinsic = intr.getIntrin();
      // Hints about an alloca, which has become a call of the simulator's.
      if (intrinsic.starts_with("llvm.lifetime."))
        return op->erase();
      if (checkMemoryIntrinsic(intr))
        return;
      // PTX's trap aborts the kernel; the host's would kill the process.
      if (intrinsic == "llvm.trap" || intrinsic == "llvm.debugtrap" ||
          intrinsic == "llvm.ubsantrap")
        return replaceWithCall(op, sim::kTrapFn, {});
      // Memory accesses the simulator does not check (gather, scatter, ...).
      if (intrinsic.starts_with("llvm.masked."))
        return unsupported(op);
      if (!intrinsic.starts_with("llvm.nvvm."))
        return;
      if (StringRef host = hostIntrinsic(intrinsic); !host.empty()) {
        intr.setIntrin(b.getStringAttr(host));
        return;
      }
      return rewriteNVVMIntrinsic(intr);
    }
    if (auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op)) {
      // The one instruction convert-uop-to-gpu writes as inline asm.
      if (inlineAsm.getAsmString() == "rcp.approx.f32 $0, $1;" && op->getNumOperands() == 1 &&
          op->getNumResults() == 1) {
        Value x = op->getOperand(0);
        Value one = LLVM::ConstantOp::create(b, loc, x.getType(), b.getFloatAttr(x.getType(), 1.0));
        return replace(op, LLVM::FDivOp::create(b, loc, one, x));
      }
      return unsupported(op);
    }
    if (auto c = dyn_cast<LLVM::CallOp>(op)) {
      // A function the JIT cannot resolve (libdevice, an intrinsic by name).
      std::optional<StringRef> callee = c.getCallee();
      if (!callee)
        return unsupported(op);
      auto fn = SymbolTable::lookupSymbolIn(table, *callee);
      if (fn && !cast<LLVM::LLVMFuncOp>(fn).isExternal())
        return;
      if (isPreCall(*callee)) {
        // Now with the site, from the call's location.
        SmallVector<Value> args{site(op)};
        llvm::append_range(args, c.getArgOperands());
        Type result = c.getNumResults() ? c.getResult().getType() : voidTy;
        LLVM::CallOp now = call(loc, callee->drop_back(strlen(sim::kPreSuffix)), result, args);
        if (c.getNumResults())
          c.getResult().replaceAllUsesWith(now.getResult());
        op->erase();
        return;
      }
      if (callee->starts_with("__uopsim_"))
        return;
      return unsupported(op);
    }
    if (isa<NVVM::NVVMDialect>(op->getDialect()))
      return unsupported(op);
  }

  /// The lane's registers as 32-bit words in a stack array.
  Value spill(Location loc, ValueRange regs, Block &entry) {
    Value array;
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&entry);
      array = LLVM::AllocaOp::create(b, loc, ptr, LLVM::LLVMArrayType::get(i32, regs.size()),
                                     constant(i32, 1), 4);
    }
    for (auto [i, r] : llvm::enumerate(regs)) {
      Value word = r.getType() == i32 ? r : LLVM::BitcastOp::create(b, loc, i32, r).getResult();
      Value slot = LLVM::GEPOp::create(b, loc, ptr, i32, array,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, word, slot);
    }
    return array;
  }

  // Each instruction the simulator implements, for its NVVM op and for the
  // `llvm.call_intrinsic` of its LLVM intrinsic (the form the simulator's
  // optimized device IR has): one rewrite each.

  /// `op` (no results) as a call of the simulator's `fn` with the site and
  /// then `args` (or just `args`).
  void replaceWithCall(Operation *op, StringRef fn, ValueRange args, bool withSite = true) {
    SmallVector<Value> all;
    if (withSite)
      all.push_back(site(op));
    llvm::append_range(all, args);
    call(op->getLoc(), fn, voidTy, all);
    op->erase();
  }

  void rewriteBarrier(Operation *op) {
    call(op->getLoc(), sim::kBarrierFn, voidTy, {site(op)});
    op->erase();
  }

  void rewriteCpAsync(Operation *op, Value dst, Value src, int64_t size, Value srcSize) {
    Location loc = op->getLoc();
    Value bytes = constant(i32, size);
    call(loc, sim::kCpAsyncFn, voidTy,
         {site(op), generic(loc, dst), generic(loc, src), bytes, srcSize ? srcSize : bytes});
    op->erase();
  }

  void rewriteCommit(Operation *op) {
    call(op->getLoc(), sim::kCpAsyncCommitFn, voidTy, {site(op)});
    op->erase();
  }

  void rewriteWait(Operation *op, Value pending) {
    call(op->getLoc(), sim::kCpAsyncWaitFn, voidTy, {site(op), pending});
    op->erase();
  }

  /// A stack array of `words` 32-bit words in the function's entry block.
  Value words(Location loc, Block &entry, int64_t count) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&entry);
    return LLVM::AllocaOp::create(b, loc, ptr, LLVM::LLVMArrayType::get(i32, count),
                                  constant(i32, 1), 4);
  }

  /// `op`'s result (i32, or a struct of 32-bit fields) read back from the
  /// words the simulator wrote to `array`.
  void replaceWithWords(Operation *op, Value array) {
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    auto word = [&](int64_t i, Type t) -> Value {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, i32, array,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value w = LLVM::LoadOp::create(b, loc, i32, slot);
      return t == i32 ? w : LLVM::BitcastOp::create(b, loc, t, w).getResult();
    };
    auto st = dyn_cast<LLVM::LLVMStructType>(type);
    if (!st)
      return replace(op, word(0, type));
    Value result = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, field] : llvm::enumerate(st.getBody()))
      result = LLVM::InsertValueOp::create(b, loc, result, word(i, field),
                                           ArrayRef<int64_t>{(int64_t)i});
    replace(op, result);
  }

  /// ldmatrix m8n8 .b16: the lane's registers come back through a stack
  /// array the collective fills.
  void rewriteLdMatrix(Operation *op, Value row, int64_t count, bool trans) {
    Location loc = op->getLoc();
    Value d = words(loc, op->getParentOfType<LLVM::LLVMFuncOp>().getBody().front(), count);
    b.setInsertionPoint(op);
    call(loc, sim::kLdMatrixFn, voidTy,
         {site(op), generic(loc, row), constant(i32, count), constant(i32, trans), d});
    replaceWithWords(op, d);
  }

  /// mma.sync row.col: the lane's A, B, C registers spilled to stack
  /// arrays, its D registers read back from one.
  void rewriteMma(Operation *op, int64_t m, int64_t n, int64_t k,
                  std::array<NVVM::MMATypes, 4> types, ValueRange a, ValueRange bRegs,
                  ValueRange c) {
    Location loc = op->getLoc();
    auto resultType = cast<LLVM::LLVMStructType>(op->getResult(0).getType());
    Block &entry = op->getParentOfType<LLVM::LLVMFuncOp>().getBody().front();
    b.setInsertionPoint(op);
    Value ra = spill(loc, a, entry), rb = spill(loc, bRegs, entry), rc = spill(loc, c, entry);
    Value d = words(loc, entry, resultType.getBody().size());
    auto ty = [&](NVVM::MMATypes t) { return constant(i32, static_cast<int32_t>(t)); };
    call(loc, sim::kMmaFn, voidTy,
         {site(op), constant(i32, m), constant(i32, n), constant(i32, k), ty(types[0]),
          ty(types[1]), ty(types[2]), ty(types[3]), ra, rb, rc, d});
    replaceWithWords(op, d);
  }

  void rewriteMmaOp(NVVM::MmaOp mma) {
    bool rowCol =
        mma.getLayoutA() == NVVM::MMALayout::row && mma.getLayoutB() == NVVM::MMALayout::col;
    auto inferred = [](ValueRange operands) -> std::optional<NVVM::MMATypes> {
      Type t = operands.empty() ? Type() : operands.front().getType();
      if (auto v = dyn_cast_or_null<VectorType>(t))
        t = v.getElementType();
      return t ? NVVM::MmaOp::inferOperandMMAType(t, /*isAccumulator=*/false) : std::nullopt;
    };
    std::optional<NVVM::MMATypes> typeA = mma.getMultiplicandAPtxType(),
                                  typeB = mma.getMultiplicandBPtxType();
    if (!typeA)
      typeA = inferred(mma.getOperandA());
    if (!typeB)
      typeB = inferred(mma.getOperandB());
    if (!rowCol || !typeA || !typeB || mma.getB1Op() || mma.getIntOverflowBehavior())
      return unsupported(mma);
    NVVM::MMAShapeAttr shape = mma.getShape();
    rewriteMma(mma, shape.getM(), shape.getN(), shape.getK(),
               {*typeA, *typeB, mma.accumPtxType(), mma.resultPtxType()}, mma.getOperandA(),
               mma.getOperandB(), mma.getOperandC());
  }

  /// The NVVM intrinsics LLVM's optimizer leaves as calls (`llvm.nvvm.X`,
  /// whose NVVM op is `nvvm.X` for the special registers), decoded from
  /// their names (IntrinsicsNVVM.td).
  void rewriteNVVMIntrinsic(LLVM::CallIntrinsicOp intr) {
    Operation *op = intr;
    StringRef name = intr.getIntrin(), rest = name;
    Location loc = op->getLoc();
    ValueRange args = intr.getArgs();
    if (std::optional<SReg> reg = specialRegister(name.drop_front(strlen("llvm.")))) {
      Value v =
          call(loc, sim::kSRegFn, i32, {constant(i32, static_cast<int32_t>(*reg))}).getResult();
      Type t = op->getResult(0).getType();
      return replace(op, t == i32 ? v : LLVM::ZExtOp::create(b, loc, t, v).getResult());
    }
    if (name == "llvm.nvvm.barrier0" || (name == "llvm.nvvm.barrier.cta.sync.aligned.all" &&
                                         args.size() == 1 && matchPattern(args[0], m_Zero())))
      return rewriteBarrier(op);
    if (name == "llvm.nvvm.wgmma.fence.sync.aligned")
      return replaceWithCall(op, sim::kWgmmaFenceFn, {});
    if (name == "llvm.nvvm.wgmma.commit_group.sync.aligned")
      return replaceWithCall(op, sim::kWgmmaCommitFn, {});
    if (name == "llvm.nvvm.wgmma.wait_group.sync.aligned" && args.size() == 1)
      return replaceWithCall(op, sim::kWgmmaWaitFn,
                             {LLVM::TruncOp::create(b, loc, i32, args[0]).getResult()});
    if (name == "llvm.nvvm.fence.proxy.async" || name == "llvm.nvvm.fence.proxy.async.shared_cta")
      return replaceWithCall(op, sim::kFenceProxyAsyncFn, {});
    if (name == "llvm.nvvm.cp.async.commit.group")
      return rewriteCommit(op);
    if (name == "llvm.nvvm.cp.async.wait.group" && args.size() == 1)
      return rewriteWait(op, args[0]);
    // llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}[.s]
    if (rest.consume_front("llvm.nvvm.cp.async.") &&
        (rest.consume_front("ca.shared.global.") || rest.consume_front("cg.shared.global."))) {
      bool withSize = rest.consume_back(".s");
      int64_t size = 0;
      if (!rest.getAsInteger(10, size) && args.size() == (withSize ? 3u : 2u))
        return rewriteCpAsync(op, args[0], args[1], size, withSize ? args[2] : Value());
      return unsupported(op);
    }
    // llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{N}[.trans].b16[.p3]
    rest = name;
    if (rest.consume_front("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x")) {
      rest.consume_back(".p3");
      bool trans = rest.consume_back(".trans.b16");
      int64_t count = 0;
      if ((trans || rest.consume_back(".b16")) && !rest.getAsInteger(10, count) &&
          (count == 1 || count == 2 || count == 4) && args.size() == 1)
        return rewriteLdMatrix(op, args[0], count, trans);
      return unsupported(op);
    }
    // llvm.nvvm.mma.m{M}n{N}k{K}.row.col[.satfinite].{D}.{C} (f16 inputs),
    // or .bf16 / .tf32 (f32 accumulators).
    rest = name;
    if (rest.consume_front("llvm.nvvm.mma.")) {
      SmallVector<StringRef> parts;
      rest.split(parts, '.');
      int64_t m = 0, n = 0, k = 0;
      StringRef shape = parts.empty() ? "" : parts[0];
      bool shaped = shape.consume_front("m") && !shape.consumeInteger(10, m) &&
                    shape.consume_front("n") && !shape.consumeInteger(10, n) &&
                    shape.consume_front("k") && !shape.consumeInteger(10, k) && shape.empty();
      using T = NVVM::MMATypes;
      auto type = [](StringRef t) -> std::optional<T> {
        return llvm::StringSwitch<std::optional<T>>(t)
            .Case("f16", T::f16)
            .Case("f32", T::f32)
            .Default(std::nullopt);
      };
      std::optional<std::array<T, 4>> types;
      if (parts.size() == 4 && parts[3] == "bf16")
        types = std::array<T, 4>{T::bf16, T::bf16, T::f32, T::f32};
      else if (parts.size() == 4 && parts[3] == "tf32")
        types = std::array<T, 4>{T::tf32, T::tf32, T::f32, T::f32};
      else if (parts.size() == 5 && type(parts[3]) && type(parts[4]))
        types = std::array<T, 4>{T::f16, T::f16, *type(parts[4]), *type(parts[3])};
      if (!shaped || parts.size() < 4 || parts[1] != "row" || parts[2] != "col" || !types)
        return unsupported(op);
      // Registers per operand: 32-bit, two 16-bit elements each.
      auto regs = [](int64_t elements, T t) {
        return elements / 32 / (t == T::f16 || t == T::bf16 ? 2 : 1);
      };
      int64_t na = regs(m * k, (*types)[0]), nb = regs(k * n, (*types)[1]),
              nc = regs(m * n, (*types)[2]);
      if ((int64_t)args.size() != na + nb + nc)
        return unsupported(op);
      return rewriteMma(op, m, n, k, *types, args.take_front(na), args.slice(na, nb),
                        args.take_back(nc));
    }
    unsupported(op);
  }
};

struct ConvertNVVMToSim : public mlir::uop::impl::ConvertNVVMToSimBase<ConvertNVVMToSim> {
  void runOnOperation() override {
    // The symbol tables holding functions with bodies: the op itself, or the
    // gpu.modules inside it.
    SmallVector<Operation *> tables;
    getOperation()->walk([&](LLVM::LLVMFuncOp f) {
      Operation *t = f->getParentOp();
      if (!f.isExternal() && t->hasTrait<OpTrait::SymbolTable>() && !llvm::is_contained(tables, t))
        tables.push_back(t);
    });
    for (Operation *t : tables)
      if (failed(checkNoRecursion(t)))
        return signalPassFailure();
    for (Operation *t : tables)
      Rewriter(t).run();
  }

  /// Each simulated thread runs on a fixed stack (BlockExecutor.cpp's fibers),
  /// which recursion could overflow: a call that closes a cycle of calls is
  /// an error at its location.
  static LogicalResult checkNoRecursion(Operation *table) {
    enum class State { New, Active, Done };
    DenseMap<Operation *, State> state;
    std::function<LogicalResult(LLVM::LLVMFuncOp)> visit = [&](LLVM::LLVMFuncOp f) {
      state[f] = State::Active;
      WalkResult r = f.walk([&](LLVM::CallOp call) {
        auto callee = dyn_cast_or_null<LLVM::LLVMFuncOp>(
            call.getCallee() ? SymbolTable::lookupSymbolIn(table, *call.getCallee()) : nullptr);
        if (!callee || callee.isExternal())
          return WalkResult::advance();
        State s = state.lookup(callee);
        if (s == State::Active) {
          call.emitError() << "'" << callee.getName()
                           << "' is called recursively here: the simulator does not run "
                              "recursion (each thread has a fixed stack)";
          return WalkResult::interrupt();
        }
        if (s == State::New && failed(visit(callee)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      state[f] = State::Done;
      return failure(r.wasInterrupted());
    };
    for (Region &r : table->getRegions())
      for (auto f : r.getOps<LLVM::LLVMFuncOp>())
        if (!f.isExternal() && state.lookup(f) == State::New && failed(visit(f)))
          return failure();
    return success();
  }
};

} // namespace
