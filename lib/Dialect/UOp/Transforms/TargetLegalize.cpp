//===- TargetLegalize.cpp - uop-target-legalize ---------------------------===//
//
// The uop-level rewrites of tinygrad's PTX renderer (ptx_matcher in
// renderer/ptx.py), read from the module's #uop.target. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "GreedyWithRanges.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPTARGETLEGALIZE
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

Value trueLike(PatternRewriter &b, Location loc, Type boolLike) {
  TypedAttr one = b.getBoolAttr(true);
  if (auto vec = dyn_cast<VectorType>(boolLike))
    one = DenseElementsAttr::get(vec, true);
  return ConstOp::create(b, loc, boolLike, one);
}

bool isBoolLike(Type t) { return getScalarType(t).isInteger(1); }

/// Bool CMPNE is XOR, bool CMPLT is (x ^ true) & y, bool CMPEQ (x ^ y) ^ true:
/// PTX compares numbers, not predicates.
template <typename CmpOp> struct BoolCompare : OpRewritePattern<CmpOp> {
  using OpRewritePattern<CmpOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CmpOp op, PatternRewriter &b) const override {
    Value x = op.getLhs(), y = op.getRhs();
    Type t = x.getType();
    if (!isBoolLike(t))
      return failure();
    Location loc = op.getLoc();
    Value r;
    if constexpr (std::is_same_v<CmpOp, CmpNeOp>)
      r = XorOp::create(b, loc, t, x, y);
    else if constexpr (std::is_same_v<CmpOp, CmpLtOp>)
      r = AndOp::create(b, loc, t, XorOp::create(b, loc, t, x, trueLike(b, loc, t)), y);
    else
      r = XorOp::create(b, loc, t, XorOp::create(b, loc, t, x, y), trueLike(b, loc, t));
    b.replaceOp(op, r);
    return success();
  }
};

/// A half ALU op the target has no instruction for: cast the half operands
/// to f32, compute, cast back (PTXRenderer: doesnt_support_half).
struct HalfInF32 : RewritePattern {
  HalfInF32(MLIRContext *ctx, TargetAttr target)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx), target(target) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &b) const override {
    if (!op->hasTrait<GroupOp::ALU>())
      return failure();
    Type t = op->getResult(0).getType(), s = getScalarType(t);
    if (!(s.isF16() || s.isBF16()))
      return failure();
    // f16: what the target lists; bf16: PTX has no bf16 arithmetic before
    // sm_90, so everything but the select. A half SUB (HalfUnitMulAcc's;
    // tinygrad's PTX has no SUB) goes where ADD goes: sub.f16 stands beside
    // add.f16, and rounds as the f32 one cast back does (see below).
    StringRef name = isa<SubOp>(op) ? "add" : op->getName().stripDialect();
    if (s.isF16() ? target.isHalfOp(name) : isa<WhereOp>(op))
      return failure();
    Location loc = op->getLoc();
    Type f32 = withScalarType(t, b.getF32Type());
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(v.getType() == t ? CastOp::create(b, loc, f32, v).getResult() : v);
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(f32);
    state.addAttributes(op->getAttrs());
    Operation *wide = b.create(state);
    b.replaceOpWithNewOp<CastOp>(op, t, wide->getResult(0));
    return success();
  }

  TargetAttr target;
};

/// MULACC<f16>(x, +-1, z), tinygrad's z + x or z - x, as ADD<f16>(z, x) or
/// SUB<f16>(z, x) where the target has half ADD. A half MULACC is
/// computed in f32 (above), which rounds the exact z +- x once to f32 and
/// again to f16; f32's 24 bits are at least 2 * 11 + 2, so that is f16's
/// own rounded sum (double rounding is innocuous there): the same bits,
/// without the conversions. SUB rather than ADD(z, MUL(x, -1)), the same
/// value (-x is exact), is one instruction where LLVM's instcombine would
/// otherwise have to find it (the direct printer has none). Not where x or
/// z is a half MUL, which the f32 MULACC takes unrounded (ExactHalfProduct).
struct HalfUnitMulAcc : OpRewritePattern<MulAccOp> {
  HalfUnitMulAcc(MLIRContext *ctx, TargetAttr target)
      : OpRewritePattern(ctx, /*benefit=*/2), target(target) {}

  LogicalResult matchAndRewrite(MulAccOp op, PatternRewriter &b) const override {
    if (!op.getType().isF16() || !target.isHalfOp("add") || op.getC().getDefiningOp<MulOp>())
      return failure();
    for (auto [x, c] : {std::pair{op.getA(), op.getB()}, std::pair{op.getB(), op.getA()}}) {
      std::optional<double> one = sym::floatConst(c);
      if (!one || std::abs(*one) != 1.0 || x.getDefiningOp<MulOp>())
        continue;
      if (*one > 0)
        b.replaceOpWithNewOp<AddOp>(op, op.getType(), op.getC(), x);
      else
        b.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getC(), x);
      return success();
    }
    return failure();
  }

  TargetAttr target;
};

/// CAST<f32>(MUL<f16>(a, b)) is MUL<f32>(CAST a, CAST b): the product of two
/// halves is exact in f32, so this is the unrounded product tinygrad's CPU
/// backend and the tensor cores compute, where mul.f16 would round it to
/// half first (a 1e-3 relative change of an f32 sum of such products).
struct ExactHalfProduct : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op, PatternRewriter &b) const override {
    auto mul = op.getSrc().getDefiningOp<MulOp>();
    Type t = op.getType();
    if (!mul || !getScalarType(t).isF32() || !getScalarType(mul.getType()).isF16())
      return failure();
    Location loc = mul.getLoc();
    Value x = CastOp::create(b, loc, t, mul.getLhs()), y = CastOp::create(b, loc, t, mul.getRhs());
    b.replaceOpWithNewOp<MulOp>(op, t, x, y);
    return success();
  }
};

/// PTX's shl/shr take a u32 amount. Only where the amount, read as unsigned
/// (as the shift reads it), is unchanged by the cast.
template <typename ShiftOp> struct UnsignedShiftAmount : OpRewritePattern<ShiftOp> {
  using OpRewritePattern<ShiftOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ShiftOp op, PatternRewriter &b) const override {
    Value amount = op.getRhs();
    auto s = cast<IntegerType>(getScalarType(amount.getType()));
    if (s.isUnsigned() && s.getWidth() == 32)
      return failure();
    if (s.getWidth() > 32) {
      std::optional<ConstantIntRanges> r = getIntRange(amount);
      if (!r || r->umax().getActiveBits() > 32)
        return failure();
    }
    Type u32 = withScalarType(amount.getType(),
                              IntegerType::get(b.getContext(), 32, IntegerType::Unsigned));
    Value cast = CastOp::create(b, op.getLoc(), u32, amount);
    b.modifyOpInPlace(op, [&] { op.getRhsMutable().set(cast); });
    return success();
  }
};

struct UOpTargetLegalizePass : mlir::uop::impl::UOpTargetLegalizeBase<UOpTargetLegalizePass> {
  void runOnOperation() override {
    TargetAttr target = TargetAttr::lookupGPU(getOperation());
    if (!target)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<BoolCompare<CmpNeOp>, BoolCompare<CmpLtOp>, BoolCompare<CmpEqOp>,
                 UnsignedShiftAmount<ShlOp>, UnsignedShiftAmount<ShrOp>, ExactHalfProduct>(ctx);
    patterns.add<HalfInF32, HalfUnitMulAcc>(ctx, target);
    // The driver folds every op, and the uop folders ask for integer ranges.
    // A kernel's body is one block without nested regions: nothing for
    // region simplification but its liveness analysis (the pass 0.7 ->
    // 0.4 ms on attention k0).
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsWithRanges(getOperation(), std::move(patterns), config))) {
      // Silent failure would leave the kernel half rewritten with no word why.
      getOperation()->emitError() << "uop-target-legalize: the rewrites did not converge";
      return signalPassFailure();
    }
  }
};

} // namespace
