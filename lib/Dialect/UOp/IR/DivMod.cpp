//===- DivMod.cpp - tinygrad's div_and_mod_folding --------------------------===//
//
// x // c and x % c for a constant c > 0, with x a sum of terms whose ranges
// are known: quotients that are constant over the range, terms whose factor
// c divides, common factors, and terms that take two values. tinygrad
// applies the remainder-based steps even when x can be negative (its
// CORRECT_DIVMOD_FOLDING flag is off by default), where C's truncating
// division disagrees with them; here they need x >= 0, as with the flag on.
// The sum must not wrap either: its terms' ranges are added without
// wrapping and must fit the dtype.
//
//===----------------------------------------------------------------------===//

#include "Symbolic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

enum class Which { Div, Mod };

/// A term u = v * factor of the sum; v (= divides(u, factor)) is built only
/// once a rule is sure to apply, so a failed match leaves the IR untouched.
struct Term {
  Value u;
  int64_t factor;
  VRange range; // of v
};

/// sum(divides(u) * k) + constant, dropping zero coefficients.
Value sumOf(Build &b, ArrayRef<std::pair<const Term *, int64_t>> scaled, int64_t constant, Type t) {
  Value sum;
  for (auto [u, k] : scaled) {
    if (k == 0)
      continue;
    Value term = b.mul(divides(b, u->u, u->factor), k);
    sum = sum ? b.add(sum, term) : term;
  }
  if (!sum)
    return b.cst(t, constant);
  return b.add(sum, constant);
}

/// The steps that need the divisor to be a constant c > 0.
Value foldByConstant(Build &b, Value x, int64_t c, Which which) {
  Type t = x.getType();
  SmallVector<Term> terms;
  int64_t constant = 0, gcd = c, div = 1;
  bool changed = false;
  // x's range as its terms add up without wrapping: lo..hi must fit the
  // dtype, or the terms do not add up to x
  __int128 lo = 0, hi = 0, xlo = 0;
  SmallVector<Value> summands = addTerms(x);
  for (Value u : summands) {
    std::optional<Interval> r = idealRange(u);
    if (!r)
      return {};
    xlo += r->min;
  }
  for (Value u : summands) {
    // (a % (k*c)) % c -> a % c when a >= 0 and x >= 0: a % kc = a - j*kc,
    // and both sums are >= 0, where C's % is the mathematical one.
    if (auto inner = u.getDefiningOp<ModOp>(); inner && which == Which::Mod && xlo >= 0)
      if (std::optional<int64_t> k = intConst(inner.getRhs()); k && *k != 0 && *k % c == 0)
        if (std::optional<VRange> ra = getVRange(inner.getLhs()); ra && ra->min >= 0) {
          u = inner.getLhs();
          changed = true;
        }
    if (std::optional<int64_t> k = intConst(u)) {
      constant += *k;
      lo += *k, hi += *k;
      continue;
    }
    int64_t f = constFactor(u);
    std::optional<VRange> rv = f == 0 ? std::nullopt : dividedRange(u, f);
    if (!rv)
      return {};
    // the term's range without wrapping (idealRange, from the parts at hand)
    __int128 a = (__int128)rv->min * f, z = (__int128)rv->max * f;
    lo += std::min(a, z), hi += std::max(a, z);
    int64_t r = floormod(f, c);
    if (r == 0 || (which == Which::Mod && r != f))
      changed = true;
    if (f > 1 && c % f == 0 && (div == 1 || div > f))
      div = f;
    gcd = std::gcd(r, gcd);
    terms.push_back({u, f, *rv});
  }
  if (!rangeFits(t, lo, hi))
    return {}; // the sum may wrap
  int64_t xmin = (int64_t)lo;

  // one term that takes two values: the line through both results
  if (terms.size() == 1 && terms[0].range.max - terms[0].range.min == 1) {
    const Term &v = terms[0];
    auto at = [&](int64_t val) {
      int64_t n = v.factor * val + constant;
      return which == Which::Mod ? cmod(n, c) : cdiv(n, c);
    };
    int64_t y1 = at(v.range.min), y2 = at(v.range.max);
    Value vv = divides(b, v.u, v.factor);
    return b.add(b.mul(b.add(vv, -v.range.min), y2 - y1), y1);
  }

  if (xmin >= 0) {
    // x is congruent to sum(r_i * v_i) + const % c with each r_i the
    // remainder nearest 0; if that stays within one multiple of c, fold.
    SmallVector<int64_t> rems;
    __int128 rlo = floormod(constant, c), rhi = rlo;
    bool positive = true;
    for (const Term &u : terms) {
      int64_t r = floormod(u.factor, c);
      if (std::abs(r - c) < std::abs(r))
        r -= c;
      rems.push_back(r);
      __int128 a = (__int128)r * u.range.min, z = (__int128)r * u.range.max;
      rlo += std::min(a, z), rhi += std::max(a, z);
      positive &= u.factor > 0;
    }
    if (positive && rlo >= INT64_MIN && rhi <= INT64_MAX &&
        floordiv((int64_t)rlo, c) == floordiv((int64_t)rhi, c)) {
      int64_t k = floordiv((int64_t)rlo, c);
      SmallVector<std::pair<const Term *, int64_t>> scaled;
      if (which == Which::Mod) {
        for (auto [u, r] : llvm::zip(terms, rems))
          scaled.push_back({&u, r});
        return sumOf(b, scaled, floormod(constant, c) - k * c, t);
      }
      for (auto [u, r] : llvm::zip(terms, rems))
        scaled.push_back({&u, floordiv(u.factor - r, c)});
      return sumOf(b, scaled, floordiv(constant - floormod(constant, c) + k * c, c), t);
    }
  }

  // a common factor g of every term, the constant and c (exact for C too)
  if (int64_t g = std::gcd(gcd, constant); g != 1 && !terms.empty()) {
    SmallVector<std::pair<const Term *, int64_t>> scaled;
    for (const Term &u : terms)
      scaled.push_back({&u, u.factor / g});
    Value inner = sumOf(b, scaled, constant / g, t);
    if (which == Which::Mod)
      return b.mul(b.mod(inner, c / g), g);
    return b.idiv(inner, c / g);
  }

  if (gcd != 1)
    changed = true;
  if (!changed) {
    // x // c = (x // div) // (c / div) when x // div folds
    if (which == Which::Div && 1 < div && div < c)
      if (Value inner = foldByConstant(b, x, div, Which::Div))
        return b.idiv(inner, c / div);
    return {};
  }
  if (xmin < 0 || terms.empty())
    return {};
  // split each factor into a quotient and a remainder by c
  SmallVector<std::pair<const Term *, int64_t>> quo, rem;
  for (const Term &u : terms) {
    int64_t q = floordiv(u.factor, c), r = floormod(u.factor, c);
    if (which == Which::Div && r != 0) {
      rem.push_back({&u, u.factor / gcd});
    } else {
      rem.push_back({&u, r / gcd});
      quo.push_back({&u, q});
    }
  }
  int64_t remConst = floormod(constant, c) / gcd;
  __int128 remLo = remConst;
  for (auto [u, k] : rem)
    remLo += std::min((__int128)k * u->range.min, (__int128)k * u->range.max);
  if (remLo < 0) // C's and Python's division differ there
    return {};
  Value remSum = sumOf(b, rem, remConst, t);
  if (which == Which::Mod)
    return b.add(b.mul(b.mod(remSum, c / gcd), gcd), floormod(constant, gcd));
  Value q = b.idiv(remSum, c / gcd);
  for (auto [u, k] : quo)
    if (k != 0)
      q = b.add(q, b.mul(divides(b, u->u, u->factor), k));
  return b.add(q, floordiv(constant, c));
}

/// tinygrad's div_and_mod_folding for x // y and x % y.
Value divAndModFolding(Build &b, Value x, Value y, Which which) {
  std::optional<VRange> rx = getVRange(x), ry = getVRange(y);
  if (!rx || !ry)
    return {};
  // the quotient is one value over the whole range
  if ((ry->min > 0 || ry->max < 0) && !(rx->min == INT64_MIN && ry->max == -1)) {
    int64_t q = cdiv(rx->min, ry->min);
    if (q == cdiv(rx->min, ry->max) && q == cdiv(rx->max, ry->min) && q == cdiv(rx->max, ry->max))
      return which == Which::Mod ? b.sub(x, b.mul(y, q)) : b.cst(x.getType(), q);
  }
  std::optional<int64_t> c = intConst(y);
  if (!c || *c <= 0)
    return {};
  return foldByConstant(b, x, *c, which);
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
