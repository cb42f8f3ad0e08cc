//===- DivModFolding.h - tinygrad's div_and_mod_folding ---------*- C++ -*-===//
//
// x // c and x % c for a constant c > 0, with x a sum of terms whose ranges
// are known (uop/symbolic.py div_and_mod_folding): a quotient that is one
// value over the range, a term that takes two values, remainders that stay
// within one multiple of c, a common factor, and the split of each factor
// into a quotient and a remainder by c.
//
// Written once for the two forms index arithmetic takes here:
//  - uop values (DivModRules.cpp), where the result is built as IR. C's
//    truncating division differs from the remainder steps for a negative
//    dividend, and integer sums wrap: that form sets kCorrectDivMod (what
//    tinygrad's CORRECT_DIVMOD_FOLDING=1 checks) and its `fits` rejects a sum
//    that may wrap;
//  - the affine form of ShapeTrackerIndex.cpp, which must find the index
//    tinygrad's own simplifier leaves (CORRECT_DIVMOD_FOLDING=0, tinygrad's
//    default), to read strides from it as tinygrad does.
//
// A Form provides (Expr is a value of the form, cheap to copy):
//   static constexpr bool kCorrectDivMod;
//   std::optional<VRange> range(Expr x);                  x.vmin, x.vmax
//   SmallVector<Expr> summands(Expr x);                   split_uop(x, ADD)
//   std::optional<int64_t> constant(Expr u);              u is a constant
//   std::optional<std::pair<Expr, int64_t>> modOf(Expr u); u = a % k, k constant
//   int64_t constFactor(Expr u);                          u.const_factor()
//   std::optional<VRange> dividedRange(Expr u, int64_t f); range of u.divides(f)
//   bool fits(Expr x, __int128 lo, __int128 hi);          the sum x, whose terms add
//                                                         up to lo..hi, is that sum
//   Expr divides(Expr u, int64_t f);
//   Expr constantLike(Expr x, int64_t c);
//   Expr add(Expr x, Expr y), add(Expr x, int64_t c), mul(Expr x, int64_t c);
//   Expr div(Expr x, int64_t c), mod(Expr x, int64_t c);  x // c, x % c
// A form that builds IR builds nothing until a step is sure to apply.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_DIVMODFOLDING_H
#define UOP_DIALECT_UOP_UTILS_DIVMODFOLDING_H

#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/Utils/IntMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <optional>

namespace mlir::uop {

namespace divmod_detail {

/// A term u = v * factor of the sum, with v = u.divides(factor) in `range`.
template <typename Expr> struct Term {
  Expr u;
  int64_t factor;
  VRange range;
};

/// A summand of x: a constant, or a term.
template <typename Expr> struct Summand {
  std::optional<int64_t> constant;
  Term<Expr> term;
  /// Its range as arithmetic without wrapping gives it.
  __int128 min() const {
    if (constant)
      return *constant;
    return std::min((__int128)term.range.min * term.factor, (__int128)term.range.max * term.factor);
  }
  __int128 max() const {
    if (constant)
      return *constant;
    return std::max((__int128)term.range.min * term.factor, (__int128)term.range.max * term.factor);
  }
};

/// `u` as a summand; std::nullopt where its range is unknown.
template <typename Form, typename Expr = typename Form::Expr>
std::optional<Summand<Expr>> summand(Form &form, Expr u) {
  if (std::optional<int64_t> k = form.constant(u))
    return Summand<Expr>{k, {u, 0, {0, 0}}};
  int64_t f = form.constFactor(u);
  std::optional<VRange> v = f == 0 ? std::nullopt : form.dividedRange(u, f);
  if (!v)
    return std::nullopt;
  return Summand<Expr>{std::nullopt, {u, f, *v}};
}

/// sum(u.divides(factor) * k) + constant over the (term, k) pairs with k != 0.
template <typename Form, typename Expr = typename Form::Expr>
Expr sumOf(Form &form, Expr like, llvm::ArrayRef<std::pair<const Term<Expr> *, int64_t>> scaled,
           int64_t constant) {
  std::optional<Expr> sum;
  for (auto [t, k] : scaled) {
    if (k == 0)
      continue;
    Expr term = form.mul(form.divides(t->u, t->factor), k);
    sum = sum ? form.add(*sum, term) : term;
  }
  if (!sum)
    return form.constantLike(like, constant);
  return form.add(*sum, constant);
}

} // namespace divmod_detail

/// tinygrad's div_and_mod_folding(x, c) for a constant c > 0: x // c (or
/// x % c when `isMod`) in `form`, or std::nullopt where no step applies.
template <typename Form, typename Expr = typename Form::Expr>
std::optional<Expr> divAndModFolding(Form &form, Expr x, int64_t c, bool isMod) {
  using Term = divmod_detail::Term<Expr>;
  using Scaled = std::pair<const Term *, int64_t>;
  auto sumOf = [&](llvm::ArrayRef<Scaled> scaled, int64_t constant) {
    return divmod_detail::sumOf(form, x, scaled, constant);
  };

  // The quotient is one value over the whole range.
  std::optional<VRange> rx = form.range(x);
  if (!rx)
    return std::nullopt;
  if (cdiv(rx->min, c) == cdiv(rx->max, c)) {
    int64_t q = cdiv(rx->min, c);
    if (!isMod)
      return form.constantLike(x, q);
    __int128 minus = -(__int128)q * c; // x % c = x - q*c
    if (minus > INT64_MAX)
      return std::nullopt;
    return form.add(x, (int64_t)minus);
  }

  // x's summands, and x.vmin as they add up (before the modulo step below
  // changes them).
  llvm::SmallVector<divmod_detail::Summand<Expr>> summands;
  __int128 xmin = 0;
  for (Expr u : form.summands(x)) {
    std::optional<divmod_detail::Summand<Expr>> s = divmod_detail::summand(form, u);
    if (!s)
      return std::nullopt;
    xmin += s->min();
    summands.push_back(*s);
  }

  llvm::SmallVector<Term> terms;
  int64_t constant = 0, gcd = c, div = 1;
  bool changed = false;
  __int128 lo = 0, hi = 0; // x's range as its terms add up, without wrapping
  for (divmod_detail::Summand<Expr> s : summands) {
    // (a % (k*c)) % c -> a % c: a % kc = a - j*kc. Where C's % differs from
    // the mathematical one, only when a and x are not negative.
    if (auto inner = form.modOf(s.term.u);
        !s.constant && inner && isMod && inner->second != 0 && inner->second % c == 0) {
      std::optional<VRange> ra = form.range(inner->first);
      if (!Form::kCorrectDivMod || (xmin >= 0 && ra && ra->min >= 0)) {
        std::optional<divmod_detail::Summand<Expr>> a = divmod_detail::summand(form, inner->first);
        if (!a)
          return std::nullopt;
        s = *a;
        changed = true;
      }
    }
    lo += s.min(), hi += s.max();
    if (s.constant) {
      int64_t k = *s.constant;
      if (llvm::AddOverflow(constant, k, constant))
        return std::nullopt;
      // a constant that c changes is a change: (x + 30) % 30 -> x % 30
      if (floormod(k, c) == 0 || floormod(k, c) != k)
        changed = true;
      continue;
    }
    int64_t f = s.term.factor;
    int64_t r = floormod(f, c);
    if (r == 0 || (isMod && r != f))
      changed = true;
    // div: the smallest factor that divides c
    if (f > 1 && c % f == 0 && (div == 1 || div > f))
      div = f;
    gcd = std::gcd(r, gcd);
    terms.push_back(s.term);
  }
  if (!form.fits(x, lo, hi))
    return std::nullopt; // the sum may wrap

  // One term that takes two values: the line through both results.
  // (In 128 bits: an unbounded term spans all of int64.)
  if (terms.size() == 1 && (__int128)terms[0].range.max - terms[0].range.min == 1) {
    const Term &v = terms[0];
    auto at = [&](int64_t val) {
      int64_t n = v.factor * val + constant;
      return isMod ? cmod(n, c) : cdiv(n, c);
    };
    int64_t y1 = at(v.range.min), y2 = at(v.range.max);
    Expr vv = form.divides(v.u, v.factor);
    return form.add(form.mul(form.add(vv, -v.range.min), y2 - y1), y1);
  }

  if (!Form::kCorrectDivMod || xmin >= 0) {
    // x is congruent to sum(r_i * v_i) + const % c with each r_i the
    // remainder nearest 0; if that stays within one multiple of c, fold.
    llvm::SmallVector<int64_t> rems;
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
      llvm::SmallVector<Scaled> scaled;
      if (isMod) {
        for (auto [u, r] : llvm::zip(terms, rems))
          scaled.push_back({&u, r});
        return sumOf(scaled, floormod(constant, c) - k * c);
      }
      for (auto [u, r] : llvm::zip(terms, rems))
        scaled.push_back({&u, floordiv(u.factor - r, c)});
      return sumOf(scaled, floordiv(constant - floormod(constant, c) + k * c, c));
    }
  }

  // A common factor g of every term, the constant and c (exact for C too).
  if (int64_t g = std::gcd(gcd, constant); g != 1 && !terms.empty()) {
    llvm::SmallVector<Scaled> scaled;
    for (const Term &u : terms)
      scaled.push_back({&u, u.factor / g});
    Expr inner = sumOf(scaled, constant / g);
    if (isMod)
      return form.mul(form.mod(inner, c / g), g);
    return form.div(inner, c / g);
  }

  if (gcd != 1)
    changed = true;
  if (!changed) {
    // x // c = (x // div) // (c / div) when x // div folds
    if (!isMod && 1 < div && div < c)
      if (std::optional<Expr> inner = divAndModFolding(form, x, div, /*isMod=*/false))
        return form.div(*inner, c / div);
    return std::nullopt;
  }
  if (xmin < 0 || terms.empty())
    return std::nullopt;
  // Split each factor into a quotient and a remainder by c.
  llvm::SmallVector<Scaled> quo, rem;
  for (const Term &u : terms) {
    int64_t q = floordiv(u.factor, c), r = floormod(u.factor, c);
    if (!isMod && r != 0) {
      rem.push_back({&u, u.factor / gcd});
    } else {
      rem.push_back({&u, r / gcd});
      quo.push_back({&u, q});
    }
  }
  int64_t remConst = floormod(constant, c) / gcd;
  __int128 remLo = remConst, remHi = remConst;
  for (auto [u, k] : rem) {
    __int128 a = (__int128)k * u->range.min, z = (__int128)k * u->range.max;
    remLo += std::min(a, z), remHi += std::max(a, z);
  }
  if (remLo < 0) // C's and Python's division differ there
    return std::nullopt;
  if (!form.fits(x, remLo, remHi))
    return std::nullopt; // the remainder's sum may wrap, where x's does not
  Expr remSum = sumOf(rem, remConst);
  if (isMod)
    return form.add(form.mul(form.mod(remSum, c / gcd), gcd), floormod(constant, gcd));
  Expr q = form.div(remSum, c / gcd);
  for (auto [u, k] : quo)
    if (k != 0)
      q = form.add(q, form.mul(form.divides(u->u, u->factor), k));
  return form.add(q, floordiv(constant, c));
}

} // namespace mlir::uop

#endif
