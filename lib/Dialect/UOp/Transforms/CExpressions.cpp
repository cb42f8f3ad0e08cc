//===- CExpressions.cpp - uop-c-expressions -------------------------------===//
//
// The float expressions tinygrad's C renderer writes, as clang evaluates
// them (renderer/cstyle.py); see Passes.td.
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
#define GEN_PASS_DEF_UOPCEXPRESSIONS
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

bool isFloat(Value v) { return isa<FloatType>(getScalarType(v.getType())); }

/// x * -1 -> NEG(x) (tinygrad's late rewrite where the target has NEG).
LogicalResult negation(MulOp op, PatternRewriter &rw) {
  if (!isFloat(op) || !isNegation(op))
    return failure();
  rw.replaceOpWithNewOp<NegOp>(op, op.getType(), op.getLhs());
  return success();
}

/// x + NEG(y) -> x - y, either operand order (tinygrad's late rewrite where
/// the target has SUB).
LogicalResult subtraction(AddOp op, PatternRewriter &rw) {
  if (!isFloat(op))
    return failure();
  for (auto [x, n] : {std::pair(op.getLhs(), op.getRhs()), std::pair(op.getRhs(), op.getLhs())})
    if (auto neg = n.getDefiningOp<NegOp>()) {
      rw.replaceOpWithNewOp<SubOp>(op, op.getType(), x, neg.getSrc());
      return success();
    }
  return failure();
}

/// x op (y op z) -> (x op y) op z when (y op z) has no other use: the C
/// renderer writes that operand inline and strips its parentheses
/// (strip_parens for ADD and MUL), so C evaluates it left to right.
template <typename OpTy> LogicalResult stripParens(OpTy op, PatternRewriter &rw) {
  auto inner = op.getRhs().template getDefiningOp<OpTy>();
  if (!isFloat(op) || !inner || !inner->hasOneUse())
    return failure();
  Type t = op.getType();
  Value left = OpTy::create(rw, op.getLoc(), t, op.getLhs(), inner.getLhs());
  rw.replaceOpWithNewOp<OpTy>(op, t, left, inner.getRhs());
  // Erased now, not left dead for later: `left` may strip inner's lhs in
  // turn only once it is that value's one use (a chain of n adds then takes
  // one driver iteration, not n).
  rw.eraseOp(inner);
  return success();
}

struct UOpCExpressionsPass : mlir::uop::impl::UOpCExpressionsBase<UOpCExpressionsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    GreedyRewriteConfig config = targetRewriteConfig();
    // The uop rewrites come before rendering: SUBs are not ADDs to strip.
    RewritePatternSet uopRewrites(ctx);
    uopRewrites.add(negation);
    uopRewrites.add(subtraction);
    RewritePatternSet rendering(ctx);
    rendering.add(stripParens<AddOp>);
    rendering.add(stripParens<MulOp>);
    if (failed(applyPatternsGreedily(getOperation(), std::move(uopRewrites), config)) ||
        failed(applyPatternsGreedily(getOperation(), std::move(rendering), config))) {
      // Silent failure would leave the kernel half rewritten with no word why.
      getOperation()->emitError() << "uop-c-expressions: the rewrites did not converge";
      return signalPassFailure();
    }
  }
};

} // namespace
