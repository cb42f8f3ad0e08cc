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
// Every rewrite is exact for the dividend's whole range: C's / and %
// truncate where a shift floors, so a dividend that may be negative is
// first moved by d - 1 (tinygrad's IDIV rule), the mask is taken only of a
// never negative one (tinygrad rewrites MOD to AND whatever the sign), and
// the product only where it fits its dtype or the next wider one.
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

/// An IDIV or MOD of a scalar integer by a constant d > 1.
struct Division {
  Value x;
  VRange range; // x's
  uint64_t d;
};

std::optional<Division> divisionOf(Value x, Value y) {
  std::optional<int64_t> d = sym::intConst(y);
  std::optional<VRange> r = sym::isInt(x.getType()) ? getVRange(x) : std::nullopt;
  if (!d || *d <= 1 || !r)
    return std::nullopt;
  return Division{x, *r, uint64_t(*d)};
}

/// x // d, truncated as C's: for d = 2^k a shift, after tinygrad's
/// x + (x < 0 ? d - 1 : 0) where x may be negative (a shift floors); for
/// other d tinygrad's fast_idiv where x is never negative, in x's dtype or
/// (cast) the next wider one (its promo_lattice: si32 to si64, ui32 to
/// ui64, ...). Null where neither applies.
Value quotient(PatternRewriter &b, Location loc, const Division &div) {
  Value x = div.x;
  Type t = x.getType();
  auto [vmin, vmax] = div.range;
  uint64_t d = div.d;
  sym::Build u(b, loc);
  if (llvm::isPowerOf2_64(d)) {
    if (vmin < 0) // signed: an unsigned range starts at 0
      x = u.add(
          x,
          vmax < 0
              ? u.cst(t, d - 1)
              : WhereOp::create(b, loc, t, u.lt(x, 0), u.cst(t, d - 1), u.cst(t, 0)).getResult());
    return ShrOp::create(b, loc, t, x, u.cst(t, llvm::Log2_64(d)));
  }
  // Below d, canonicalize folds x // d.
  std::optional<std::pair<APInt, unsigned>> ms =
      vmin >= 0 && uint64_t(vmax) >= d ? magic(vmax, d) : std::nullopt;
  if (!ms)
    return {};
  auto [m, s] = *ms;
  APInt product = m * APInt(m.getBitWidth(), vmax);
  unsigned w = t.getIntOrFloatBitWidth();
  for (Type in :
       {t, Type(IntegerType::get(b.getContext(), 2 * w, cast<IntegerType>(t).getSignedness()))}) {
    // The product's bits must fit in's value bits (m <= product: vmax >= d).
    unsigned iw = in.getIntOrFloatBitWidth();
    unsigned valueBits = isUnsignedLike(in) ? iw : iw - 1;
    if (iw > 64 || s >= iw || product.getActiveBits() > valueBits)
      continue;
    Value wide = in == t ? x : CastOp::create(b, loc, in, x).getResult();
    Value q = ShrOp::create(b, loc, in, u.mul(wide, u.cst(in, m.getZExtValue())), u.cst(in, s));
    return in == t ? q : CastOp::create(b, loc, t, q).getResult();
  }
  return {};
}

struct IDivByConstant : OpRewritePattern<IDivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IDivOp op, PatternRewriter &b) const override {
    std::optional<Division> division = divisionOf(op.getLhs(), op.getRhs());
    Value q = division ? quotient(b, op.getLoc(), *division) : Value();
    if (!q)
      return failure();
    b.replaceOp(op, q);
    return success();
  }
};

/// x % 2^k is x & (2^k - 1) where x is never negative; otherwise x % d is
/// x - d * (x // d), which keeps C's sign (tinygrad's AND would not).
struct ModByConstant : OpRewritePattern<ModOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ModOp op, PatternRewriter &b) const override {
    std::optional<Division> division = divisionOf(op.getLhs(), op.getRhs());
    if (!division)
      return failure();
    Value x = division->x;
    Type t = x.getType();
    sym::Build u(b, op.getLoc());
    if (llvm::isPowerOf2_64(division->d) && division->range.min >= 0) {
      b.replaceOpWithNewOp<AndOp>(op, t, x, u.cst(t, division->d - 1));
      return success();
    }
    Value q = quotient(b, op.getLoc(), *division);
    if (!q)
      return failure();
    b.replaceOp(op, u.sub(x, u.mul(q, int64_t(division->d))));
    return success();
  }
};

} // namespace

void mlir::uop::populateIntDivisionPatterns(RewritePatternSet &patterns) {
  patterns.add<IDivByConstant, ModByConstant>(patterns.getContext());
}
