//===- DivModRules.cpp - tinygrad's div_and_mod_folding on uop values ----===//
//
// x // y and x % y for a divisor whose range has one sign, and for a constant
// divisor c > 0 with x a sum of terms whose ranges are known: the algorithm
// of Utils/DivModFolding.h on uop values. tinygrad applies its remainder
// steps even when x can be negative (its CORRECT_DIVMOD_FOLDING flag is off
// by default), where C's truncating division disagrees with them; here they
// need x >= 0, as with the flag on. The sum must not wrap either: its terms'
// ranges are added without wrapping and must fit the dtype.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "uop/Dialect/UOp/Utils/DivModFolding.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

/// DivModFolding.h's form for uop values: reads the IR and builds ops of x's
/// dtype at the rewriter's insertion point.
struct ValueForm {
  using Expr = Value;
  static constexpr bool kCorrectDivMod = true;
  Build &b;

  std::optional<VRange> range(Value x) { return getVRange(x); }
  SmallVector<Value> summands(Value x) { return addTerms(x); }
  std::optional<int64_t> constant(Value u) { return intConst(u); }
  std::optional<std::pair<Value, int64_t>> modOf(Value u) {
    auto mod = u.getDefiningOp<ModOp>();
    std::optional<int64_t> k = mod ? intConst(mod.getRhs()) : std::nullopt;
    if (!k)
      return std::nullopt;
    return std::make_pair(mod.getLhs(), *k);
  }
  int64_t constFactor(Value u) { return sym::constFactor(u); }
  std::optional<VRange> dividedRange(Value u, int64_t f) { return sym::dividedRange(u, f); }
  bool fits(Value x, __int128 lo, __int128 hi) { return rangeFits(x.getType(), lo, hi); }
  Value divides(Value u, int64_t f) { return sym::divides(b, u, f); }
  Value constantLike(Value x, int64_t c) { return b.cst(x.getType(), c); }
  Value add(Value x, Value y) { return b.add(x, y); }
  Value add(Value x, int64_t c) { return b.add(x, c); }
  Value mul(Value x, int64_t c) { return b.mul(x, c); }
  Value div(Value x, int64_t c) { return b.idiv(x, c); }
  Value mod(Value x, int64_t c) { return b.mod(x, c); }
};

enum class Which { Div, Mod };

/// tinygrad's div_and_mod_folding for x // y and x % y: DivModFolding.h for
/// a constant y > 0; for any other y, only its first step applies (a
/// quotient that is one value over both ranges).
Value divAndModFolding(Build &b, Value x, Value y, Which which) {
  if (std::optional<int64_t> c = intConst(y); c && *c > 0) {
    ValueForm form{b};
    return uop::divAndModFolding(form, x, *c, which == Which::Mod).value_or(Value());
  }
  std::optional<VRange> rx = getVRange(x), ry = getVRange(y);
  if (!rx || !ry)
    return {};
  if ((ry->min > 0 || ry->max < 0) && !(rx->min == INT64_MIN && ry->max == -1)) {
    int64_t q = cdiv(rx->min, ry->min);
    if (q == cdiv(rx->min, ry->max) && q == cdiv(rx->max, ry->min) && q == cdiv(rx->max, ry->max))
      return which == Which::Mod ? b.sub(x, b.mul(y, q)) : b.cst(x.getType(), q);
  }
  return {};
}

template <typename OpTy> LogicalResult divModFolding(OpTy op, PatternRewriter &rw) {
  Type t = op.getType();
  if (!isInt(t) || isUnsignedLike(t))
    return failure();
  Build b(rw, op.getLoc());
  Which which = std::is_same_v<OpTy, IDivOp> ? Which::Div : Which::Mod;
  Value r = divAndModFolding(b, op.getLhs(), op.getRhs(), which);
  if (!r)
    return failure();
  rw.replaceOp(op, r);
  return success();
}

/// (x//c + a)//d -> (x + a*c)//(c*d) for c, d > 0 when x and a have one sign.
LogicalResult divOfDivPlusConst(IDivOp op, PatternRewriter &rw) {
  Type t = op.getType();
  auto add = op.getLhs().getDefiningOp<AddOp>();
  auto inner = add ? add.getLhs().getDefiningOp<IDivOp>() : IDivOp();
  std::optional<int64_t> d = intConst(op.getRhs());
  std::optional<int64_t> a = add ? intConst(add.getRhs()) : std::nullopt;
  std::optional<int64_t> c = inner ? intConst(inner.getRhs()) : std::nullopt;
  if (!isInt(t) || isUnsignedLike(t) || !a || !c || !d || *c <= 0 || *d <= 0)
    return failure();
  std::optional<VRange> rx = getVRange(inner.getLhs());
  if (!rx || !((rx->min >= 0 && *a >= 0) || (rx->max <= 0 && *a <= 0)))
    return failure();
  __int128 ac = (__int128)*a * *c, cd = (__int128)*c * *d;
  if (!rangeFits(t, ac, ac) || !rangeFits(t, cd, cd) || !rangeFits(t, rx->min + ac, rx->max + ac))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.idiv(b.add(inner.getLhs(), (int64_t)ac), (int64_t)cd));
  return success();
}

} // namespace

void sym::populateDivModPatterns(RewritePatternSet &patterns) {
  patterns.add(divModFolding<IDivOp>);
  patterns.add(divModFolding<ModOp>);
  patterns.add(divOfDivPlusConst);
}
