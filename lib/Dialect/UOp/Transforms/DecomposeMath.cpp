//===- DecomposeMath.cpp - uop-decompose-math -----------------------------===//
//
// tinygrad's get_late_rewrite_patterns for the transcendentals, integer
// division by constants (IntDivision.cpp) and its xpow rule
// (codegen/devectorizer.py, uop/symbolic.py), driven by the module's
// #uop.target. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "GreedyWithRanges.h"
#include "TargetRewrites.h"
#include "Transcendental.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPDECOMPOSEMATH
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
namespace tr = mlir::uop::transcendental;

namespace {

using Decomposition = Value (*)(OpBuilder &, Location, Value);

/// Rewrites a unary transcendental the target has no instruction for.
/// tinygrad has no bf16 decomposition: a bf16 op is decomposed in f32.
template <typename OpTy> struct DecomposeUnary : OpRewritePattern<OpTy> {
  DecomposeUnary(MLIRContext *ctx, TargetAttr target, StringRef name, Decomposition decompose)
      : OpRewritePattern<OpTy>(ctx), target(target), name(name), decompose(decompose) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &b) const override {
    Value x = op.getSrc();
    Type t = x.getType(), s = getScalarType(t);
    if (target.hasNativeOp(name, s) || !(tr::isSupported(t) || s.isBF16()))
      return failure();
    Location loc = op.getLoc();
    if (s.isBF16()) {
      Type f32 = withScalarType(t, b.getF32Type());
      Value r = decompose(b, loc, CastOp::create(b, loc, f32, x));
      b.replaceOpWithNewOp<CastOp>(op, t, r);
      return success();
    }
    b.replaceOp(op, decompose(b, loc, x));
    return success();
  }

  TargetAttr target;
  StringRef name;
  Decomposition decompose;
};

Value sqrtAsPow(OpBuilder &b, Location loc, Value x) {
  Type s = getScalarType(x.getType());
  TypedAttr half = FloatAttr::get(s, 0.5);
  Value c = isa<VectorType>(x.getType())
                ? ConstOp::create(b, loc, x.getType(),
                                  DenseElementsAttr::get(cast<ShapedType>(x.getType()), half))
                : ConstOp::create(b, loc, s, half);
  return tr::xpow(b, loc, x, c);
}

/// POW: no target has it (tinygrad's sym rewrites it with xpow).
struct DecomposePow : OpRewritePattern<PowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PowOp op, PatternRewriter &b) const override {
    b.replaceOp(op, tr::xpow(b, op.getLoc(), op.getLhs(), op.getRhs()));
    return success();
  }
};

/// THREEFRY: no target has it (tinygrad's sym rewrites it to threefry2x32).
struct DecomposeThreefry : OpRewritePattern<ThreefryOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ThreefryOp op, PatternRewriter &b) const override {
    b.replaceOp(op, tr::threefry(b, op.getLoc(), op.getLhs(), op.getRhs()));
    return success();
  }
};

struct UOpDecomposeMathPass : mlir::uop::impl::UOpDecomposeMathBase<UOpDecomposeMathPass> {
  void runOnOperation() override {
    TargetAttr target = TargetAttr::lookup(getOperation());
    if (!target)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<DecomposeUnary<Exp2Op>>(ctx, target, "exp2", tr::xexp2);
    patterns.add<DecomposeUnary<Log2Op>>(ctx, target, "log2", tr::xlog2);
    patterns.add<DecomposeUnary<SinOp>>(ctx, target, "sin", tr::xsin);
    patterns.add<DecomposeUnary<SqrtOp>>(ctx, target, "sqrt", sqrtAsPow);
    patterns.add<DecomposePow, DecomposeThreefry>(ctx);
    populateIntDivisionPatterns(patterns);
    // The ops the patterns make are rewritten again (xpow's EXP2 and LOG2).
    // The division rules ask for ranges.
    if (failed(
            applyPatternsWithRanges(getOperation(), std::move(patterns), targetRewriteConfig()))) {
      // Silent failure would leave the kernel half rewritten with no word why.
      getOperation()->emitError() << "uop-decompose-math: the rewrites did not converge";
      return signalPassFailure();
    }
  }
};

} // namespace
