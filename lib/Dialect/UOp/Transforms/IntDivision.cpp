//===- IntDivision.cpp - IDIV and MOD by constants as shifts and products -===//
//
// tinygrad's late rewrites of integer division (codegen/devectorizer.py,
// get_late_rewrite_patterns with AND and SHR, which every renderer has, and
// fast_idiv): x // 2^k is a shift, x % 2^k a mask, and x // d for other d a
// multiply and a shift. LLVM's optimizer finds these itself, but ptxas does
// not: a div.s32 by 2 is a division routine in SASS (the f16 matmul's
// thread index: 184 SASS instructions with shifts, 256 with div/rem), so
// the direct printer's PTX depends on them.
//
// Every rewrite is exact for the dividend's whole range: the shift and the
// mask only where the dividend is never negative (C's / and % truncate,
// shifts floor; tinygrad rewrites MOD to AND whatever the sign), the
// product only where it fits its dtype or the next wider one.
//
//===----------------------------------------------------------------------===//

#include "TargetRewrites.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "llvm/ADT/APInt.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// tinygrad's magicgu (Hacker's Delight, chapter 10): m and s with
/// x // d == (x * m) >> s for every 0 <= x <= vmax, where d <= vmax.
std::optional<std::pair<APInt, unsigned>> magic(uint64_t vmax, uint64_t d) {
  // 2^s goes up to 2^128 and m * vmax below 2^192: no product wraps.
  const unsigned bits = 192;
  APInt D(bits, d), nc = (APInt(bits, vmax) + 1).udiv(D) * D - 1;
  unsigned nbits = APInt(64, vmax).getActiveBits();
  for (unsigned s = 0; s <= 2 * nbits; ++s) {
    APInt p = APInt::getOneBitSet(bits, s);
    APInt r = D - 1 - (p - 1).urem(D);
    if (p.ugt(nc * r))
      return std::make_pair((p + r).udiv(D), s);
  }
  return std::nullopt;
}

/// The largest value of the integer dtype `t`.
APInt maxOf(Type t) {
  unsigned w = t.getIntOrFloatBitWidth();
  return isUnsignedLike(t) ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w);
}

/// x // d for a never negative x in [0, vmax] and d > 1: a shift for a power
/// of two, else tinygrad's fast_idiv, in x's dtype or (casting) the next
/// wider one (tinygrad's promo_lattice: si32 to si64, ui32 to ui64, ...).
/// Null if the product fits neither.
Value quotient(PatternRewriter &b, Location loc, Value x, uint64_t vmax, uint64_t d) {
  Type t = x.getType();
  sym::Build u(b, loc);
  if (llvm::isPowerOf2_64(d))
    return ShrOp::create(b, loc, t, x, u.cst(t, llvm::Log2_64(d)));
  std::optional<std::pair<APInt, unsigned>> ms =
      vmax >= d ? magic(vmax, d) : std::nullopt; // below d, canonicalize folds x // d
  if (!ms)
    return {};
  auto [m, s] = *ms;
  APInt product = m * APInt(m.getBitWidth(), vmax);
  unsigned w = t.getIntOrFloatBitWidth();
  for (Type in :
       {t, Type(IntegerType::get(b.getContext(), 2 * w, cast<IntegerType>(t).getSignedness()))}) {
    unsigned iw = in.getIntOrFloatBitWidth();
    APInt top = maxOf(in).zext(m.getBitWidth());
    if (iw > 64 || s >= iw || m.ugt(top) || product.ugt(top))
      continue;
    Value wide = in == t ? x : CastOp::create(b, loc, in, x).getResult();
    Value q = ShrOp::create(b, loc, in, u.mul(wide, u.cst(in, m.getZExtValue())), u.cst(in, s));
    return in == t ? q : CastOp::create(b, loc, t, q).getResult();
  }
  return {};
}

/// The dividend's range when the divisor is a constant > 1 and the
/// dividend a never negative scalar integer.
std::optional<std::pair<uint64_t, uint64_t>> divisionOf(Value x, Value y) {
  std::optional<int64_t> d = sym::intConst(y);
  std::optional<VRange> r = sym::isInt(x.getType()) ? getVRange(x) : std::nullopt;
  if (!d || *d <= 1 || !r || r->min < 0)
    return std::nullopt;
  return std::make_pair(uint64_t(r->max), uint64_t(*d));
}

struct IDivByConstant : OpRewritePattern<IDivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IDivOp op, PatternRewriter &b) const override {
    auto division = divisionOf(op.getLhs(), op.getRhs());
    if (!division)
      return failure();
    Value q = quotient(b, op.getLoc(), op.getLhs(), division->first, division->second);
    if (!q)
      return failure();
    b.replaceOp(op, q);
    return success();
  }
};

/// x % 2^k is x & (2^k - 1); x % d is x - d * (x // d).
struct ModByConstant : OpRewritePattern<ModOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ModOp op, PatternRewriter &b) const override {
    auto division = divisionOf(op.getLhs(), op.getRhs());
    if (!division)
      return failure();
    auto [vmax, d] = *division;
    Value x = op.getLhs();
    Type t = x.getType();
    sym::Build u(b, op.getLoc());
    if (llvm::isPowerOf2_64(d)) {
      b.replaceOpWithNewOp<AndOp>(op, t, x, u.cst(t, d - 1));
      return success();
    }
    Value q = quotient(b, op.getLoc(), x, vmax, d);
    if (!q)
      return failure();
    b.replaceOp(op, u.sub(x, u.mul(q, int64_t(d))));
    return success();
  }
};

} // namespace

void mlir::uop::populateIntDivisionPatterns(RewritePatternSet &patterns) {
  patterns.add<IDivByConstant, ModByConstant>(patterns.getContext());
}
