//===- FuseMulAcc.cpp - uop-fuse-mulacc -----------------------------------===//
//
// a * b + c as one rounding where tinygrad's targets round once: PTX's
// MULACC rule (codegen/devectorizer.py) and clang's contraction of
// tinygrad's C. See Passes.td; TargetAttr::fusesProduct is the rule.
//
//===----------------------------------------------------------------------===//

#include "TargetRewrites.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPFUSEMULACC
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

struct Fuse {
  TargetAttr target;
  PatternRewriter &b;
  Location loc;
  Type t;

  /// MULACC(p's factors, c), with the first factor negated for -p.
  Value mulAcc(MulOp p, Value c, bool negate = false) {
    Value a = p.getLhs();
    if (negate)
      a = NegOp::create(b, loc, t, a);
    return MulAccOp::create(b, loc, t, a, p.getRhs(), c);
  }
  MulOp product(Value v) {
    auto mul = v.getDefiningOp<MulOp>();
    return mul && target.fusesProduct(mul.getResult()) ? mul : MulOp();
  }
  /// x + y, the product on the left tried first (tinygrad's commutative
  /// match, clang's LHS first).
  Value add(Value x, Value y) {
    if (MulOp p = product(x))
      return mulAcc(p, y);
    if (MulOp p = product(y))
      return mulAcc(p, x);
    return {};
  }
  /// x - y: (a*b) - y or x - (a*b).
  Value sub(Value x, Value y) {
    if (MulOp p = product(x))
      return mulAcc(p, NegOp::create(b, loc, t, y));
    if (MulOp p = product(y))
      return mulAcc(p, x, /*negate=*/true);
    return {};
  }
};

struct FuseAdd : OpRewritePattern<AddOp> {
  FuseAdd(MLIRContext *ctx, TargetAttr target) : OpRewritePattern(ctx), target(target) {}
  LogicalResult matchAndRewrite(AddOp op, PatternRewriter &b) const override {
    if (!isa<FloatType>(getScalarType(op.getType())))
      return failure();
    Fuse f{target, b, op.getLoc(), op.getType()};
    Value r = f.add(op.getLhs(), op.getRhs());
    if (!r)
      return failure();
    b.replaceOp(op, r);
    return success();
  }
  TargetAttr target;
};

/// SUB: uop-c-expressions makes them on the host, where C has `-` (PTX has
/// none in tinygrad's renderer, so there it stays a plain subtraction).
struct FuseSub : OpRewritePattern<SubOp> {
  FuseSub(MLIRContext *ctx, TargetAttr target) : OpRewritePattern(ctx), target(target) {}
  LogicalResult matchAndRewrite(SubOp op, PatternRewriter &b) const override {
    if (!target.isHost() || !isa<FloatType>(getScalarType(op.getType())))
      return failure();
    Value r = Fuse{target, b, op.getLoc(), op.getType()}.sub(op.getLhs(), op.getRhs());
    if (!r)
      return failure();
    b.replaceOp(op, r);
    return success();
  }
  TargetAttr target;
};

struct UOpFuseMulAccPass : mlir::uop::impl::UOpFuseMulAccBase<UOpFuseMulAccPass> {
  void runOnOperation() override {
    TargetAttr target = TargetAttr::lookup(getOperation());
    if (!target)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<FuseAdd, FuseSub>(ctx, target);
    GreedyRewriteConfig config = targetRewriteConfig();
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config))) {
      // Silent failure would leave the kernel half rewritten with no word why.
      getOperation()->emitError() << "uop-fuse-mulacc: the rewrites did not converge";
      return signalPassFailure();
    }
  }
};

} // namespace
