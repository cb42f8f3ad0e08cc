//===- VectorizeLoads.cpp - adjacent scalar loads as one vector load ------===//
//
// LLVM's load-store vectorizer turns a kernel's loads of neighbouring
// elements into ld.v2/ld.v4 before its NVPTX back end; the direct printer
// has no LLVM. After uop-unroll-loops, a reduction's body loads elements
// i, i+1, ..., i+7 of one buffer: one ld.global.v4 fetches four of them
// (issue 23: the path to the direct printer's PTX matching LLVM's).
//
//===----------------------------------------------------------------------===//

#include "IndexSum.h"
#include "uop/Conversion/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <numeric>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPVECTORIZELOADS
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A constant every value `v` takes is a multiple of: an scf.for induction
/// variable's, the gcd of its constant lower bound and step; else 1.
uint64_t knownDivisor(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto loop = arg ? dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()) : scf::ForOp();
  if (!loop || loop.getInductionVar() != arg)
    return 1;
  if (!arg.getType().isIndex() && arg.getType().getIntOrFloatBitWidth() > 64)
    return 1;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !step || *lb == INT64_MIN || *step == INT64_MIN)
    return 1;
  return std::max<uint64_t>(1, std::gcd(std::abs(*lb), std::abs(*step)));
}

/// The alignment the pointer `base` is known to have, or 1.
uint64_t baseAlignment(Value base) {
  if (auto arg = dyn_cast<BlockArgument>(base)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || !arg.getOwner()->isEntryBlock())
      return 1;
    auto align = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                    LLVM::LLVMDialect::getAlignAttrName());
    return align && align.getInt() > 0 ? align.getInt() : 1;
  }
  if (auto addr = base.getDefiningOp<LLVM::AddressOfOp>())
    if (auto global =
            SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(addr, addr.getGlobalNameAttr()))
      return global.getAlignment().value_or(1);
  return 1;
}

/// One scalar load of `base[index]`, its index split into terms and constant.
struct Access {
  LLVM::LoadOp load;
  Value base;
  IndexSum index;
};

std::optional<Access> accessOf(LLVM::LoadOp load) {
  Type type = load.getType();
  if (load.getVolatile_() || load.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
      load.getNontemporal() || load.getInvariant() || load.getInvariantGroup() ||
      !(type.isIntOrFloat() && type.getIntOrFloatBitWidth() >= 8 &&
        llvm::isPowerOf2_32(type.getIntOrFloatBitWidth())))
    return std::nullopt;
  auto gep = load.getAddr().getDefiningOp<LLVM::GEPOp>();
  if (!gep || gep.getIndices().size() != 1 || gep.getElemType() != type)
    return std::nullopt;
  auto index = gep.getIndices()[0];
  std::optional<IndexSum> sum = isa<IntegerAttr>(index)
                                    ? IndexSum::ofConstant(cast<IntegerAttr>(index).getInt())
                                    : indexSumOf(cast<Value>(index));
  if (!sum)
    return std::nullopt;
  return Access{load, gep.getBase(), std::move(*sum)};
}

/// Whether `op` may write memory: it has regions, says it writes, or is an
/// op that says nothing. LLVM's intrinsic table answers for the intrinsics
/// the lowering calls (llvm.nvvm.ex2.approx.f16 does not), and an inline
/// asm without side effects, memory operands or a memory clobber writes
/// nothing, as LLVM reads it.
bool mayWriteMemory(Operation *op, std::unique_ptr<llvm::LLVMContext> &llvmContext) {
  if (op->getNumRegions())
    return true;
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    llvm::Intrinsic::ID id = llvm::Intrinsic::lookupIntrinsicID(call.getIntrin());
    if (id == llvm::Intrinsic::not_intrinsic)
      return true;
    if (!llvmContext)
      llvmContext = std::make_unique<llvm::LLVMContext>();
    return !llvm::Intrinsic::getFnAttributes(*llvmContext, id).getMemoryEffects().onlyReadsMemory();
  }
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
    return asmOp.getHasSideEffects() || asmOp.getConstraints().contains('*') ||
           asmOp.getConstraints().contains("~{memory}");
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Write>() ||
         effects.hasEffect<MemoryEffects::Allocate>() || effects.hasEffect<MemoryEffects::Free>();
}

struct VectorizeLoadsPass : public uop::impl::UOpVectorizeLoadsBase<VectorizeLoadsPass> {
  void runOnOperation() override {
    // For LLVM's intrinsic table, made if a kernel calls an intrinsic.
    std::unique_ptr<llvm::LLVMContext> llvmContext;
    getOperation()->walk([&](Block *block) { vectorizeBlock(*block, llvmContext); });
  }

  /// The loads between two ops that may write memory, and merged in groups.
  void vectorizeBlock(Block &block, std::unique_ptr<llvm::LLVMContext> &llvmContext) {
    SmallVector<Access> window;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (std::optional<Access> a = accessOf(load))
          window.push_back(std::move(*a));
        continue;
      }
      if (mayWriteMemory(&op, llvmContext)) {
        merge(window);
        window.clear();
      }
    }
    merge(window);
  }

  /// Merges the runs of consecutive elements among `accesses` (in block order).
  void merge(MutableArrayRef<Access> accesses) {
    // The accesses that differ only in the constant, grouped, each group's
    // first access of each constant (a second load of an element stays a load).
    SmallVector<std::map<int64_t, size_t>> groups;
    for (size_t j = 0; j < accesses.size(); ++j) {
      Access &b = accesses[j];
      auto group = llvm::find_if(groups, [&](const std::map<int64_t, size_t> &g) {
        Access &a = accesses[g.begin()->second];
        return b.base == a.base && b.load.getType() == a.load.getType() &&
               b.load.getAddr().getType() == a.load.getAddr().getType() &&
               b.index.sameTerms(a.index);
      });
      if (group == groups.end())
        groups.push_back({{b.index.constant, j}});
      else
        group->try_emplace(b.index.constant, j);
    }
    for (const std::map<int64_t, size_t> &byConstant : groups)
      for (auto it = byConstant.begin(); it != byConstant.end();) {
        SmallVector<size_t, 16> run = runFrom(accesses, byConstant, it);
        if (run.size() > 1)
          emitVector(accesses, run);
        std::advance(it, run.size());
      }
  }

  /// The accesses from `it` on that one vector load can replace (a power
  /// of two of them, 16 bytes at most), or just the first.
  SmallVector<size_t, 16> runFrom(MutableArrayRef<Access> accesses,
                                  const std::map<int64_t, size_t> &byConstant,
                                  std::map<int64_t, size_t>::const_iterator it) {
    Access &first = accesses[it->second];
    uint64_t bytes = first.load.getType().getIntOrFloatBitWidth() / 8;
    uint64_t align = std::min(firstAlignment(first, bytes), baseAlignment(first.base));
    // At most 16 bytes: ld.v4.b32, or for narrower elements their .b32
    // words (the printer packs eight f16 into a v4).
    for (uint64_t width = 16 / bytes; width >= 2; width /= 2) {
      if (width * bytes > align)
        continue;
      SmallVector<size_t, 16> run;
      for (auto next = it; run.size() < width && next != byConstant.end(); ++next) {
        std::optional<int64_t> expected = llvm::checkedAdd(it->first, int64_t(run.size()));
        if (!expected || next->first != *expected)
          break;
        run.push_back(next->second);
      }
      if (run.size() == width && addressDefinedBefore(accesses, run))
        return run;
    }
    return {it->second};
  }

  /// The largest power of two dividing the byte offset of `a`'s index (at
  /// most 2^62): of each term's coefficient times what its value is known
  /// to be a multiple of, and of the constant.
  static uint64_t firstAlignment(Access &a, uint64_t bytes) {
    uint64_t align = uint64_t(1) << 62;
    auto add = [&](std::optional<int64_t> elements) {
      std::optional<int64_t> inBytes =
          elements ? llvm::checkedMul(*elements, int64_t(bytes)) : std::nullopt;
      // Two's complement: -x has the lowest set bit of x.
      if (inBytes)
        align = llvm::MinAlign(align, uint64_t(*inBytes));
      return inBytes.has_value();
    };
    for (auto [v, c] : a.index.terms)
      if (!add(llvm::checkedMul(c, int64_t(knownDivisor(v)))))
        return 1;
    return add(a.index.constant) ? align : 1;
  }

  /// Whether the address of the run's first element is defined before each
  /// of its loads: the vector load goes where the earliest of them is.
  static bool addressDefinedBefore(MutableArrayRef<Access> accesses, ArrayRef<size_t> run) {
    Operation *def = accesses[run.front()].load.getAddr().getDefiningOp();
    return llvm::all_of(run, [&](size_t j) {
      Operation *load = accesses[j].load;
      return def->getBlock() != load->getBlock() || def->isBeforeInBlock(load);
    });
  }

  void emitVector(MutableArrayRef<Access> accesses, ArrayRef<size_t> run) {
    LLVM::LoadOp first = accesses[run.front()].load;
    Operation *earliest = first;
    for (size_t j : run)
      if (accesses[j].load->isBeforeInBlock(earliest))
        earliest = accesses[j].load;
    Type type = first.getType();
    uint64_t bytes = type.getIntOrFloatBitWidth() / 8;
    OpBuilder b(earliest);
    Location loc = b.getFusedLoc(
        llvm::map_to_vector(run, [&](size_t j) { return accesses[j].load.getLoc(); }));
    auto vector = LLVM::LoadOp::create(b, loc, VectorType::get({int64_t(run.size())}, type),
                                       first.getAddr(), /*alignment=*/run.size() * bytes);
    for (auto [k, j] : llvm::enumerate(run)) {
      LLVM::LoadOp load = accesses[j].load;
      Value position = LLVM::ConstantOp::create(b, loc, b.getI32IntegerAttr(k));
      Value lane = LLVM::ExtractElementOp::create(b, load.getLoc(), vector, position);
      load.replaceAllUsesWith(lane);
    }
    // Erased last: the earliest of them is where the builder inserts. The
    // address math only they used goes with them.
    SmallVector<Operation *> dead;
    for (size_t j : run) {
      dead.push_back(accesses[j].load.getAddr().getDefiningOp());
      accesses[j].load.erase();
    }
    eraseDeadChains(dead, dead.front()->getBlock());
  }
};

} // namespace
