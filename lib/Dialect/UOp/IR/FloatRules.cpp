//===- FloatRules.cpp - tinygrad's POW and reciprocal rules ---------------===//
//
// The rules of tinygrad's uop/symbolic.py on float ALU ops that it applies
// although they move a rounding, because the kernels it runs are computed
// this way and we compute what tinygrad computes:
// - simplify_pow and positive-constant ** x (symbolic_simple): POW of a
//   constant exponent as MULs and SQRT, of a constant base as EXP2;
// - the reciprocal rules of `sym`: 1/(x*x) as (1/x)*(1/x), and x/(1+x) as
//   1 - 1/(1+x), which keeps sigmoid's x*(1/(1+x)) finite (inf*0 is NaN;
//   1 - 0 is 1).
// The other POWs become tinygrad's xpow in uop-decompose-math.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

Value fconst(PatternRewriter &rw, Location loc, Type t, double v) {
  return ConstOp::create(rw, loc, t, FloatAttr::get(t, v));
}

/// tinygrad's simplify_pow: x ** c for a scalar constant c.
LogicalResult simplifyPow(PowOp op, PatternRewriter &rw) {
  std::optional<double> c = floatConst(op.getRhs());
  Type t = op.getType();
  if (!c || !isa<FloatType>(t))
    return failure();
  Location loc = op.getLoc();
  Value x = op.getLhs();
  auto pow = [&](Value base, double e) {
    return PowOp::create(rw, loc, t, base, fconst(rw, loc, t, e)).getResult();
  };
  if (*c < 0) { // x ** -c -> (1/x) ** c
    rw.replaceOp(op, pow(RecipOp::create(rw, loc, t, x), -*c));
    return success();
  }
  if (*c == 0) {
    rw.replaceOp(op, fconst(rw, loc, t, 1.0));
    return success();
  }
  if (std::trunc(*c - 0.5) + 0.5 == *c) { // half an odd integer: x ** (c-0.5) * sqrt(x)
    rw.replaceOpWithNewOp<MulOp>(op, t, pow(x, *c - 0.5), SqrtOp::create(rw, loc, t, x));
    return success();
  }
  if (std::trunc(*c) == *c) { // y * y (* x), y = x ** (c // 2)
    Value y = pow(x, std::floor(*c / 2));
    Value r = MulOp::create(rw, loc, t, y, y);
    Value last = std::fmod(*c, 2) == 1 ? x : fconst(rw, loc, t, 1.0);
    rw.replaceOpWithNewOp<MulOp>(op, t, r, last);
    return success();
  }
  return failure();
}

/// c ** x -> c for c == 1, exp2(x * log2(c)) for c > 0.
LogicalResult constantBasePow(PowOp op, PatternRewriter &rw) {
  std::optional<double> c = floatConst(op.getLhs());
  Type t = op.getType();
  if (!c || !(*c > 0) || !isa<FloatType>(t))
    return failure();
  if (*c == 1) {
    rw.replaceOp(op, op.getLhs());
    return success();
  }
  Location loc = op.getLoc();
  Value scaled = MulOp::create(rw, loc, t, op.getRhs(), fconst(rw, loc, t, std::log2(*c)));
  rw.replaceOpWithNewOp<Exp2Op>(op, t, scaled);
  return success();
}

/// (x*x)^-1 -> x^-1 * x^-1, (x*x*x)^-1 -> x^-1 * x^-1 * x^-1.
LogicalResult recipOfPower(RecipOp op, PatternRewriter &rw) {
  auto mul = op.getSrc().getDefiningOp<MulOp>();
  if (!mul)
    return failure();
  Value x = mul.getRhs();
  int64_t n = 0;
  if (mul.getLhs() == x)
    n = 2;
  else if (auto inner = mul.getLhs().getDefiningOp<MulOp>();
           inner && inner.getLhs() == x && inner.getRhs() == x)
    n = 3;
  if (!n)
    return failure();
  Location loc = op.getLoc();
  Type t = op.getType();
  Value r = RecipOp::create(rw, loc, t, x);
  Value p = MulOp::create(rw, loc, t, r, r);
  if (n == 3)
    p = MulOp::create(rw, loc, t, p, r);
  rw.replaceOp(op, p);
  return success();
}

/// d = (1 + x)^-1 if `v` is that for this x.
bool isRecipOnePlus(Value v, Value x) {
  auto recip = v.getDefiningOp<RecipOp>();
  auto add = recip ? recip.getSrc().getDefiningOp<AddOp>() : AddOp();
  return add && ((add.getLhs() == x && isConst(add.getRhs(), 1)) ||
                 (add.getRhs() == x && isConst(add.getLhs(), 1)));
}

/// x * d -> 1 - d, x * (d * y) -> y * (1 - d), x * (d + y) -> (1 - d) + x * y
/// with d = 1/(1 + x) (tinygrad spells 1 - d as 1 + d * -1).
LogicalResult recipOfOnePlus(MulOp op, PatternRewriter &rw) {
  Type t = op.getType();
  if (!isa<FloatType>(t))
    return failure();
  Location loc = op.getLoc();
  auto oneMinus = [&](Value d) {
    Value neg = MulOp::create(rw, loc, t, d, fconst(rw, loc, t, -1.0));
    return AddOp::create(rw, loc, t, fconst(rw, loc, t, 1.0), neg).getResult();
  };
  for (auto [x, other] :
       {std::pair(op.getLhs(), op.getRhs()), std::pair(op.getRhs(), op.getLhs())}) {
    if (isRecipOnePlus(other, x)) {
      rw.replaceOp(op, oneMinus(other));
      return success();
    }
    if (auto mul = other.getDefiningOp<MulOp>()) {
      for (auto [d, y] :
           {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())})
        if (isRecipOnePlus(d, x)) {
          rw.replaceOpWithNewOp<MulOp>(op, t, y, oneMinus(d));
          return success();
        }
    }
    if (auto add = other.getDefiningOp<AddOp>()) {
      for (auto [d, y] :
           {std::pair(add.getLhs(), add.getRhs()), std::pair(add.getRhs(), add.getLhs())})
        if (isRecipOnePlus(d, x)) {
          Value xy = MulOp::create(rw, loc, t, x, y);
          rw.replaceOpWithNewOp<AddOp>(op, t, oneMinus(d), xy);
          return success();
        }
    }
  }
  return failure();
}

} // namespace

void sym::populateFloatPatterns(RewritePatternSet &patterns) {
  patterns.add(simplifyPow);
  patterns.add(constantBasePow);
  patterns.add(recipOfPower);
  patterns.add(recipOfOnePlus);
}
