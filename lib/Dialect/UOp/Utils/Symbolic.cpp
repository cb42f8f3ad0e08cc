//===- Symbolic.cpp - reading and building index arithmetic ---------------===//

#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

std::optional<int64_t> sym::intConst(Attribute a, Type t) {
  auto i = dyn_cast_or_null<IntegerAttr>(a);
  if (!i || !isa<IntegerType>(t))
    return std::nullopt;
  const APInt &v = i.getValue();
  if (isUnsignedLike(t) && !t.isInteger(1)) {
    if (v.getActiveBits() > 63)
      return std::nullopt;
    return (int64_t)v.getZExtValue();
  }
  return t.isInteger(1) ? (int64_t)v.getZExtValue() : v.getSExtValue();
}

std::optional<int64_t> sym::intConst(Value v) {
  auto c = v.getDefiningOp<ConstOp>();
  return c ? intConst(c.getValue(), v.getType()) : std::nullopt;
}

std::optional<double> sym::floatConst(Value v) {
  auto c = v.getDefiningOp<ConstOp>();
  auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
  if (!f)
    return std::nullopt;
  return f.getValueAsDouble();
}

bool sym::isConst(Value v, double c) {
  if (std::optional<int64_t> i = intConst(v))
    return (double)*i == c;
  if (std::optional<double> f = floatConst(v))
    return *f == c;
  return false;
}

bool sym::fits(Type t, int64_t c) {
  unsigned w = t.getIntOrFloatBitWidth();
  if (isUnsignedLike(t))
    return c >= 0 && (w >= 64 || c < ((int64_t)1 << w));
  if (w >= 64)
    return true;
  return c >= -((int64_t)1 << (w - 1)) && c < ((int64_t)1 << (w - 1));
}

bool sym::rangeFits(Type t, __int128 lo, __int128 hi) {
  auto fitsOne = [&](__int128 v) {
    return v >= INT64_MIN && v <= INT64_MAX && fits(t, (int64_t)v);
  };
  return fitsOne(lo) && fitsOne(hi);
}

Value Build::cst(Type t, int64_t v) {
  // v modulo the dtype: the rules' constants wrap as the IR's arithmetic does
  APInt bits(t.getIntOrFloatBitWidth(), v, /*isSigned=*/true, /*implicitTrunc=*/true);
  auto value = IntegerAttr::get(t, bits);
  return unique(TypeID::get<ConstOp>(), t, value, {}, {},
                [&]() -> Value { return ConstOp::create(b, loc, t, value); });
}

Value Build::unique(TypeID op, Type t, Attribute a, Value x, Value y,
                    function_ref<Value()> create) {
  if (!made)
    return create();
  Value &v = (*made)[{op.getAsOpaquePointer(), t, a, x, y}];
  if (!v)
    v = create();
  return v;
}

SmallVector<Value> sym::addTerms(Value x) {
  if (auto add = x.getDefiningOp<AddOp>()) {
    SmallVector<Value> terms = addTerms(add.getLhs());
    terms.append(addTerms(add.getRhs()));
    return terms;
  }
  return {x};
}

int64_t sym::constFactor(Value x) {
  if (std::optional<int64_t> c = intConst(x))
    return *c;
  if (auto mul = x.getDefiningOp<MulOp>())
    if (std::optional<int64_t> c = intConst(mul.getRhs()))
      return *c;
  if (auto add = x.getDefiningOp<AddOp>())
    return std::gcd(constFactor(add.getLhs()), constFactor(add.getRhs()));
  return 1;
}

Value sym::divides(Build &b, Value x, int64_t c) {
  if (c == 1)
    return x;
  if (std::optional<int64_t> k = intConst(x))
    return b.cst(x.getType(), *k / c);
  if (auto mul = x.getDefiningOp<MulOp>())
    if (std::optional<int64_t> k = intConst(mul.getRhs()))
      return b.mul(mul.getLhs(), *k / c);
  auto add = x.getDefiningOp<AddOp>();
  assert(add && "divides: c must divide constFactor(x)");
  return b.add(divides(b, add.getLhs(), c), divides(b, add.getRhs(), c));
}

std::optional<VRange> sym::dividedRange(Value x, int64_t c) {
  auto fitsI64 = [](__int128 lo, __int128 hi) { return lo >= INT64_MIN && hi <= INT64_MAX; };
  if (c == 1)
    return getVRange(x);
  if (std::optional<int64_t> k = intConst(x))
    return VRange{*k / c, *k / c};
  if (auto mul = x.getDefiningOp<MulOp>())
    if (std::optional<int64_t> k = intConst(mul.getRhs())) {
      std::optional<VRange> r = getVRange(mul.getLhs());
      if (!r)
        return std::nullopt;
      __int128 a = (__int128)r->min * (*k / c), z = (__int128)r->max * (*k / c);
      if (!fitsI64(std::min(a, z), std::max(a, z)))
        return std::nullopt;
      return VRange{(int64_t)std::min(a, z), (int64_t)std::max(a, z)};
    }
  if (auto add = x.getDefiningOp<AddOp>()) {
    std::optional<VRange> l = dividedRange(add.getLhs(), c), r = dividedRange(add.getRhs(), c);
    if (!l || !r || !fitsI64((__int128)l->min + r->min, (__int128)l->max + r->max))
      return std::nullopt;
    return VRange{l->min + r->min, l->max + r->max};
  }
  return std::nullopt;
}

std::optional<Interval> sym::idealRange(Value x) {
  int64_t f = constFactor(x);
  if (f == 0) // a zero constant, or a product with 0
    return intConst(x) ? std::optional<Interval>(Interval{0, 0}) : std::nullopt;
  std::optional<VRange> v = dividedRange(x, f);
  if (!v)
    return std::nullopt;
  __int128 a = (__int128)v->min * f, z = (__int128)v->max * f;
  return Interval{std::min(a, z), std::max(a, z)};
}
