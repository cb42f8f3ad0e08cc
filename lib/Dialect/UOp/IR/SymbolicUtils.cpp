//===- SymbolicUtils.cpp - matching and building helpers for the rules ----===//

#include "Symbolic.h"

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

int64_t sym::cdiv(int64_t a, int64_t b) { return a / b; }
int64_t sym::cmod(int64_t a, int64_t b) { return a % b; }
int64_t sym::floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t sym::floormod(int64_t a, int64_t b) { return a - floordiv(a, b) * b; }

Value Build::cst(Type t, int64_t v) {
  return ConstOp::create(b, loc, t,
                         IntegerAttr::get(t, APInt(t.getIntOrFloatBitWidth(), v,
                                                   /*isSigned=*/true)));
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
