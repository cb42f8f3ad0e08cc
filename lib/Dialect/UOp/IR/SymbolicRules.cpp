//===- SymbolicRules.cpp - tinygrad's symbolic rules as canonicalization patterns
//
// The rules of tinygrad's uop/symbolic.py that look deeper than one op, in
// its order: bool ALU, constant collection, combining terms, comparisons,
// WHERE, CAST chains, REDUCE. Each rule is one function; the list at the end
// is the table. Integer rules check for wraparound with value ranges where
// tinygrad assumes none (index arithmetic does not overflow there, but a
// uop kernel may compute anything); float rules that tinygrad applies but
// that change a rounding, a NaN or an overflow are left out.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include <numeric>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

/// x's range, and that of x + c (or x * c) computed without wrapping fits.
bool addFits(Value x, int64_t c) {
  std::optional<VRange> r = getVRange(x);
  return r && rangeFits(x.getType(), (__int128)r->min + c, (__int128)r->max + c);
}
bool mulFits(Value x, int64_t c) {
  std::optional<VRange> r = getVRange(x);
  if (!r)
    return false;
  __int128 a = (__int128)r->min * c, b = (__int128)r->max * c;
  return rangeFits(x.getType(), std::min(a, b), std::max(a, b));
}

//===----------------------------------------------------------------------===//
// bool ALU: MUL is AND, ADD and MAX are OR (so later rules see AND/OR)
//===----------------------------------------------------------------------===//

template <typename From, typename To> LogicalResult boolAs(From op, PatternRewriter &rw) {
  if (!isBool(op.getType()))
    return failure();
  rw.replaceOpWithNewOp<To>(op, op.getType(), op.getLhs(), op.getRhs());
  return success();
}

/// x // -1 -> -x (signed integers; MIN // -1 wraps to MIN either way)
LogicalResult divByMinusOne(IDivOp op, PatternRewriter &rw) {
  if (!isInt(op.getType()) || isUnsignedLike(op.getType()) || !isConst(op.getRhs(), -1))
    return failure();
  rw.replaceOpWithNewOp<NegOp>(op, op.getType(), op.getLhs());
  return success();
}

//===----------------------------------------------------------------------===//
// Constant collection ("two stage ALU folding", "move consts to end")
//===----------------------------------------------------------------------===//

/// (x op c1) op c2 -> x op (c1 op c2), op associative; the inner op on two
/// constants then folds. Integers and bools (exact); MAX also on floats.
template <typename OpTy> LogicalResult collectConstants(OpTy op, PatternRewriter &rw) {
  Type t = op.getType();
  if (!isScalarDType(t) || !(isExact(t) || std::is_same_v<OpTy, MaxOp>))
    return failure();
  auto inner = op.getLhs().template getDefiningOp<OpTy>();
  if (!inner || !op.getRhs().template getDefiningOp<ConstOp>() ||
      !inner.getRhs().template getDefiningOp<ConstOp>())
    return failure();
  Value c = OpTy::create(rw, op.getLoc(), t, inner.getRhs(), op.getRhs());
  rw.replaceOpWithNewOp<OpTy>(op, t, inner.getLhs(), c);
  return success();
}

/// (x + c) + y -> (x + y) + c and (x * c) * y -> (x * y) * c, integers:
/// constants move outwards, where collectConstants meets them.
template <typename OpTy> LogicalResult constantsOutwards(OpTy op, PatternRewriter &rw) {
  Type t = op.getType();
  if (!isInt(t))
    return failure();
  for (auto [a, b] : {std::pair(op.getLhs(), op.getRhs()), std::pair(op.getRhs(), op.getLhs())}) {
    auto inner = a.template getDefiningOp<OpTy>();
    // (c1 + c2) + y is left to constant folding: moving c2 out would undo
    // collectConstants before the fold.
    if (!inner || !inner.getRhs().template getDefiningOp<ConstOp>() ||
        inner.getLhs().template getDefiningOp<ConstOp>() || b.template getDefiningOp<ConstOp>())
      continue;
    Value xy = OpTy::create(rw, op.getLoc(), t, inner.getLhs(), b);
    rw.replaceOpWithNewOp<OpTy>(op, t, xy, inner.getRhs());
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Combining terms
//===----------------------------------------------------------------------===//

/// A term as base * coefficient (x*c, or x with 1).
std::pair<Value, int64_t> asTerm(Value v) {
  if (auto mul = v.getDefiningOp<MulOp>())
    if (std::optional<int64_t> c = intConst(mul.getRhs()))
      return {mul.getLhs(), *c};
  return {v, 1};
}

/// x*c0 + x*c1 -> x*(c0+c1), x + x*c -> x*(c+1), x + x -> x*2, and the same
/// with a (y + ...) around the first term. x + x -> x*2 also on floats
/// (both are exact doublings); the rest on integers only.
LogicalResult combineTerms(AddOp op, PatternRewriter &rw) {
  Type t = op.getType();
  Build b(rw, op.getLoc());
  if (isa<FloatType>(t) && op.getLhs() == op.getRhs()) {
    rw.replaceOp(op, b.mul(op.getLhs(), ConstOp::create(rw, op.getLoc(), t, FloatAttr::get(t, 2))));
    return success();
  }
  if (!isInt(t))
    return failure();
  auto [xb, cb] = asTerm(op.getRhs());
  auto [xa, ca] = asTerm(op.getLhs());
  // coefficients add modulo 2^64, so modulo the dtype, as the IR's sum does
  auto plus = [](int64_t p, int64_t q) { return (int64_t)((uint64_t)p + (uint64_t)q); };
  if (xa == xb && !xa.getDefiningOp<ConstOp>()) {
    rw.replaceOp(op, b.mul(xa, plus(ca, cb)));
    return success();
  }
  auto inner = op.getLhs().getDefiningOp<AddOp>();
  if (!inner)
    return failure();
  for (auto [y, a] :
       {std::pair(inner.getLhs(), inner.getRhs()), std::pair(inner.getRhs(), inner.getLhs())}) {
    auto [xi, ci] = asTerm(a);
    if (xi == xb && !xi.getDefiningOp<ConstOp>()) {
      rw.replaceOp(op, b.add(y, b.mul(xi, plus(ci, cb))));
      return success();
    }
  }
  return failure();
}

/// (x + y) * c -> x*c + y*c, integers (symbolic_flat; on floats a product
/// may overflow where the sum does not). Index terms then meet the other
/// rules: (x + 1)*56 becomes x*56 + 56, whose constant moves out to become an
/// address's offset. Exact modulo the dtype, as the IR's arithmetic is.
/// Unlike tinygrad, not for a sum with other uses: each product would add
/// its own copy of the terms (the staged f16 matmul's sm_90a code 144 -> 128
/// registers, the wgmma matmul 83 -> 79 instructions per k16 step).
LogicalResult distributeConstant(MulOp op, PatternRewriter &rw) {
  auto sum = op.getLhs().getDefiningOp<AddOp>();
  std::optional<int64_t> c = intConst(op.getRhs());
  if (!sum || !sum->hasOneUse() || !c || !isInt(op.getType()))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.add(b.mul(sum.getLhs(), *c), b.mul(sum.getRhs(), *c)));
  return success();
}

/// (x%c)+(x//c)*c -> x and (x%c1)*c2 + (x//c1)*c3 -> x*c2 when c1*c2 == c3
/// (C's division: x == (x/c)*c + x%c for c != 0, wrapping included).
LogicalResult recombineDivMod(AddOp op, PatternRewriter &rw) {
  if (!isInt(op.getType()))
    return failure();
  for (auto [m, d] : {std::pair(op.getLhs(), op.getRhs()), std::pair(op.getRhs(), op.getLhs())}) {
    auto [modv, c2] = asTerm(m);
    auto [divv, c3] = asTerm(d);
    auto mod = modv.getDefiningOp<ModOp>();
    auto div = divv.getDefiningOp<IDivOp>();
    if (!mod || !div || mod.getLhs() != div.getLhs() || mod.getRhs() != div.getRhs())
      continue;
    std::optional<int64_t> c1 = intConst(mod.getRhs());
    if (!c1 || *c1 == 0 || (__int128)*c1 * c2 != c3)
      continue;
    Build b(rw, op.getLoc());
    rw.replaceOp(op, b.mul(mod.getLhs(), c2));
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Division and comparisons with constants
//===----------------------------------------------------------------------===//

/// (x//c1)//c2 -> x//(c1*c2), c1, c2 > 0 (truncation composes).
LogicalResult divOfDiv(IDivOp op, PatternRewriter &rw) {
  auto inner = op.getLhs().getDefiningOp<IDivOp>();
  std::optional<int64_t> c2 = intConst(op.getRhs());
  std::optional<int64_t> c1 = inner ? intConst(inner.getRhs()) : std::nullopt;
  if (!isInt(op.getType()) || !c1 || !c2 || *c1 <= 0 || *c2 <= 0 ||
      (__int128)*c1 * *c2 > INT64_MAX || !fits(op.getType(), *c1 * *c2))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.idiv(inner.getLhs(), *c1 * *c2));
  return success();
}

/// x + c0 < c1 -> x < c1 - c0, when x + c0 does not wrap.
LogicalResult ltOfAdd(CmpLtOp op, PatternRewriter &rw) {
  auto add = op.getLhs().getDefiningOp<AddOp>();
  std::optional<int64_t> c1 = intConst(op.getRhs());
  std::optional<int64_t> c0 = add ? intConst(add.getRhs()) : std::nullopt;
  if (!c0 || !c1 || !isInt(add.getType()) || !addFits(add.getLhs(), *c0))
    return failure();
  __int128 bound = (__int128)*c1 - *c0;
  if (!rangeFits(add.getType(), bound, bound))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.lt(add.getLhs(), (int64_t)bound));
  return success();
}

/// x*c0 < c1 -> x < ceil(c1/c0) for c0, c1 > 0, when x*c0 does not wrap.
LogicalResult ltOfMul(CmpLtOp op, PatternRewriter &rw) {
  auto mul = op.getLhs().getDefiningOp<MulOp>();
  std::optional<int64_t> c1 = intConst(op.getRhs());
  std::optional<int64_t> c0 = mul ? intConst(mul.getRhs()) : std::nullopt;
  if (!c0 || !c1 || !isInt(mul.getType()) || *c0 <= 0 || *c1 <= 0 || !mulFits(mul.getLhs(), *c0))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.lt(mul.getLhs(), (int64_t)(((__int128)*c1 + *c0 - 1) / *c0)));
  return success();
}

/// x//d < c -> x < c*d (c > 0) or x < c*d - (d-1) (c <= 0), d > 0.
LogicalResult ltOfDiv(CmpLtOp op, PatternRewriter &rw) {
  auto div = op.getLhs().getDefiningOp<IDivOp>();
  std::optional<int64_t> c = intConst(op.getRhs());
  std::optional<int64_t> d = div ? intConst(div.getRhs()) : std::nullopt;
  if (!c || !d || !isInt(div.getType()) || *d <= 0)
    return failure();
  __int128 bound = (__int128)*c * *d - (*c > 0 ? 0 : *d - 1);
  if (!rangeFits(div.getType(), bound, bound))
    return failure();
  Build b(rw, op.getLoc());
  rw.replaceOp(op, b.lt(div.getLhs(), (int64_t)bound));
  return success();
}

/// tinygrad's lt_folding: in sum(terms) < c (c > 0), the terms that are
/// not multiples of d = gcd(their factors, c) lie in [0, d) together, so
/// they cannot change the comparison: sum(multiples)/d < c//d.
LogicalResult ltFolding(CmpLtOp op, PatternRewriter &rw) {
  Type t = op.getLhs().getType();
  std::optional<int64_t> c = intConst(op.getRhs());
  if (!isInt(t) || isUnsignedLike(t) || !c || *c <= 0)
    return failure();
  SmallVector<Value> ones, multiples;
  __int128 lo = 0, hi = 0, plo = 0, phi = 0;
  int64_t d = *c;
  for (Value term : addTerms(op.getLhs())) {
    std::optional<Interval> r = idealRange(term);
    if (!r)
      return failure();
    lo += r->min, hi += r->max;
    int64_t f = constFactor(term);
    if (f == 1) {
      ones.push_back(term);
      plo += r->min, phi += r->max;
    } else {
      multiples.push_back(term);
      d = std::gcd(d, f);
    }
  }
  // the sum must not wrap, or the terms do not add up to it
  if (multiples.empty() || d <= 1 || plo < 0 || phi >= d || !rangeFits(t, lo, hi))
    return failure();
  Build b(rw, op.getLoc());
  Value sum;
  for (Value m : multiples) {
    Value q = divides(b, m, d);
    sum = sum ? b.add(sum, q) : q;
  }
  rw.replaceOp(op, b.lt(sum, *c / d));
  return success();
}

//===----------------------------------------------------------------------===//
// WHERE
//===----------------------------------------------------------------------===//

/// where(not c, t, f) -> where(c, f, t)
LogicalResult whereOfNot(WhereOp op, PatternRewriter &rw) {
  auto ne = op.getCond().getDefiningOp<CmpNeOp>();
  if (!ne || !isBool(ne.getLhs().getType()) || !isConst(ne.getRhs(), 1))
    return failure();
  rw.replaceOpWithNewOp<WhereOp>(op, op.getType(), ne.getLhs(), op.getRhs(), op.getLhs());
  return success();
}

/// where(a, where(b, c, d), d) -> where(a & b, c, d)
LogicalResult whereOfWhere(WhereOp op, PatternRewriter &rw) {
  auto inner = op.getLhs().getDefiningOp<WhereOp>();
  if (!inner || inner.getRhs() != op.getRhs() || !isScalarDType(op.getType()))
    return failure();
  Value both =
      AndOp::create(rw, op.getLoc(), op.getCond().getType(), op.getCond(), inner.getCond());
  rw.replaceOpWithNewOp<WhereOp>(op, op.getType(), both, inner.getLhs(), op.getRhs());
  return success();
}

/// cast(where(s, a, b)) -> where(s, cast(a), cast(b)) when a side is a
/// constant (its cast folds; tinygrad pushes every cast, which can
/// duplicate one that does not fold).
LogicalResult castOfWhere(CastOp op, PatternRewriter &rw) {
  auto where = op.getSrc().getDefiningOp<WhereOp>();
  if (!where || !isScalarDType(op.getType()) ||
      !(where.getLhs().getDefiningOp<ConstOp>() || where.getRhs().getDefiningOp<ConstOp>()))
    return failure();
  Type t = op.getType();
  Value a = CastOp::create(rw, op.getLoc(), t, where.getLhs());
  Value b = CastOp::create(rw, op.getLoc(), t, where.getRhs());
  rw.replaceOpWithNewOp<WhereOp>(op, t, where.getCond(), a, b);
  return success();
}

/// cast(cast(x: A -> B) -> C) -> cast(x: A -> C) when B holds every A (the
/// conversions then depend on the value only).
LogicalResult castOfCast(CastOp op, PatternRewriter &rw) {
  auto inner = op.getSrc().getDefiningOp<CastOp>();
  Type a = inner ? inner.getSrc().getType() : Type();
  if (!inner || !isScalarDType(op.getType()) || !isScalarDType(a) ||
      !castRoundTrips(a, inner.getType()))
    return failure();
  rw.replaceOpWithNewOp<CastOp>(op, op.getType(), inner.getSrc());
  return success();
}

//===----------------------------------------------------------------------===//
// REDUCE
//===----------------------------------------------------------------------===//

/// reduce_add(x * c) -> reduce_add(x) * c, integers (for floats the
/// rounding of the sum would change).
LogicalResult constantOutOfReduce(ReduceOp op, PatternRewriter &rw) {
  auto mul = op.getSrc().getDefiningOp<MulOp>();
  if (op.getKind() != ReduceKind::add || !mul || !isInt(op.getType()) ||
      op.getSrc().getType() != op.getType() ||
      !mul.getRhs().getDefiningOp<ConstOp>())
    return failure();
  Value r =
      ReduceOp::create(rw, op.getLoc(), op.getType(), op.getKind(), mul.getLhs(), op.getRanges());
  rw.replaceOpWithNewOp<MulOp>(op, op.getType(), r, mul.getRhs());
  return success();
}

} // namespace

void sym::populateSymbolicPatterns(RewritePatternSet &patterns) {
  patterns.add(boolAs<AddOp, OrOp>);
  patterns.add(boolAs<MulOp, AndOp>);
  patterns.add(boolAs<MaxOp, OrOp>);
  patterns.add(divByMinusOne);
  patterns.add(collectConstants<AddOp>);
  patterns.add(collectConstants<MulOp>);
  patterns.add(collectConstants<AndOp>);
  patterns.add(collectConstants<OrOp>);
  patterns.add(collectConstants<MaxOp>);
  patterns.add(constantsOutwards<AddOp>);
  patterns.add(constantsOutwards<MulOp>);
  patterns.add(combineTerms);
  patterns.add(distributeConstant);
  patterns.add(recombineDivMod);
  patterns.add(divOfDiv);
  patterns.add(ltOfAdd);
  patterns.add(ltOfMul);
  patterns.add(ltOfDiv);
  patterns.add(ltFolding);
  patterns.add(whereOfNot);
  patterns.add(whereOfWhere);
  patterns.add(castOfWhere);
  patterns.add(castOfCast);
  patterns.add(constantOutOfReduce);
}

void UOpDialect::getCanonicalizationPatterns(RewritePatternSet &patterns) const {
  sym::populateSymbolicPatterns(patterns);
  sym::populateDivModPatterns(patterns);
  sym::populateVectorPatterns(patterns);
  sym::populateMemoryPatterns(patterns);
  sym::populateViewPatterns(patterns);
  sym::populateFloatPatterns(patterns);
}
