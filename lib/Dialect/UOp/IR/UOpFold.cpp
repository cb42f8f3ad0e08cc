//===- UOpFold.cpp - constant folding with tinygrad's dtype semantics -----===//
//
// Folds ALU ops, comparisons, WHERE and CAST of scalar constants the way
// tinygrad's exec_alu does: the exact operation, then truncated to the
// result's dtype (integers wrap, floats round to the dtype, so a folded half
// op is rounded to half). Where C is undefined the answer is the one the
// CPU lowering gives (docs/semantics.md): x/0 = x%0 = 0, shifts by the width
// or more give 0 or the sign, float-to-int truncates then wraps.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;

Operation *UOpDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                           Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  bool scalar = isScalarDType(type) && isa<IntegerAttr, FloatAttr>(value);
  if (!scalar && !isa<SplatElementsAttr>(value))
    return nullptr;
  return ConstOp::create(builder, loc, type, typed);
}

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

/// A symbolic size that is a constant (within the bound) is the static size.
OpFoldResult SpecialOp::fold(FoldAdaptor adaptor) {
  auto size = dyn_cast_or_null<IntegerAttr>(adaptor.getDynamicSize());
  if (!size || size.getInt() < 1 || size.getInt() > static_cast<int64_t>(getSize()))
    return {};
  setSize(size.getInt());
  getDynamicSizeMutable().clear();
  return getResult();
}

namespace {

/// The scalar constant an operand is (the folder passes uop.const values;
/// a shaped CONST is not one: a masked view makes it 0 in places).
Attribute constantOf(Value v, Attribute folded) {
  return isScalarDType(v.getType()) ? folded : Attribute();
}

APFloat toSemantics(APFloat f, Type t) {
  bool lost;
  f.convert(cast<FloatType>(t).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return f;
}

/// A libm function of a double, rounded to `t` (tinygrad folds with Python's
/// math, in double).
APFloat viaDouble(double (*fn)(double), const APFloat &x, Type t) {
  return toSemantics(
      APFloat(fn(toSemantics(x, Float64Type::get(t.getContext())).convertToDouble())), t);
}

Attribute foldFloat(Operation *op, ArrayRef<APFloat> x, Type t) {
  auto f = [&](APFloat v) -> Attribute { return FloatAttr::get(t, v); };
  auto b = [&](bool v) -> Attribute { return BoolAttr::get(t.getContext(), v); };
  auto rm = APFloat::rmNearestTiesToEven;
  // x[0] <op> x[1], correctly rounded to the dtype
  auto binary = [&](APFloat::opStatus (APFloat::*fn)(const APFloat &, APFloat::roundingMode)) {
    APFloat r = x[0];
    (r.*fn)(x[1], rm);
    return f(r);
  };
  return llvm::TypeSwitch<Operation *, Attribute>(op)
      .Case([&](AddOp) { return binary(&APFloat::add); })
      .Case([&](SubOp) { return binary(&APFloat::subtract); })
      .Case([&](MulOp) { return binary(&APFloat::multiply); })
      .Case([&](FDivOp) { return binary(&APFloat::divide); })
      .Case([&](RecipOp) {
        APFloat r(x[0].getSemantics(), 1);
        r.divide(x[0], rm);
        return f(r);
      })
      .Case([&](NegOp) { return f(-x[0]); })
      .Case([&](MaxOp) { // a < b ? b : a
        return f(x[0].compare(x[1]) == APFloat::cmpLessThan ? x[1] : x[0]);
      })
      .Case([&](CmpLtOp) { return b(x[0].compare(x[1]) == APFloat::cmpLessThan); })
      .Case([&](CmpEqOp) { return b(x[0].compare(x[1]) == APFloat::cmpEqual); })
      .Case([&](CmpNeOp) { return b(x[0].compare(x[1]) != APFloat::cmpEqual); })
      .Case([&](Exp2Op) { return f(viaDouble(std::exp2, x[0], t)); })
      .Case([&](Log2Op) { return f(viaDouble(std::log2, x[0], t)); })
      .Case([&](SinOp) { return f(viaDouble(std::sin, x[0], t)); })
      .Case([&](SqrtOp) { return f(viaDouble(std::sqrt, x[0], t)); })
      .Case([&](PowOp) {
        Type f64 = Float64Type::get(t.getContext());
        return f(toSemantics(APFloat(std::pow(toSemantics(x[0], f64).convertToDouble(),
                                              toSemantics(x[1], f64).convertToDouble())),
                             t));
      })
      .Default([](Operation *) { return Attribute(); });
}

Attribute foldInt(Operation *op, ArrayRef<APInt> x, Type operandType, Type t) {
  bool u = isUnsignedLike(operandType);
  bool isBool = operandType.isInteger(1);
  unsigned w = x[0].getBitWidth();
  auto i = [&](APInt v) -> Attribute { return IntegerAttr::get(t, v); };
  auto b = [&](bool v) -> Attribute { return BoolAttr::get(t.getContext(), v); };
  return llvm::TypeSwitch<Operation *, Attribute>(op)
      // on bool ADD is OR, SUB is XOR, MUL is AND, NEG is NOT, MAX is OR
      .Case([&](AddOp) { return i(isBool ? x[0] | x[1] : x[0] + x[1]); })
      .Case([&](SubOp) { return i(isBool ? x[0] ^ x[1] : x[0] - x[1]); })
      .Case([&](MulOp) { return i(isBool ? x[0] & x[1] : x[0] * x[1]); })
      .Case([&](NegOp) { return i(isBool ? ~x[0] : -x[0]); })
      .Case([&](IDivOp) {
        if (x[1].isZero())
          return i(APInt::getZero(w));
        if (!u && x[1].isAllOnes())
          return i(-x[0]);
        return i(u ? x[0].udiv(x[1]) : x[0].sdiv(x[1]));
      })
      .Case([&](ModOp) {
        if (x[1].isZero() || (!u && x[1].isAllOnes()))
          return i(APInt::getZero(w));
        return i(u ? x[0].urem(x[1]) : x[0].srem(x[1]));
      })
      .Case([&](MaxOp) {
        bool lt = u ? x[0].ult(x[1]) : x[0].slt(x[1]);
        return i(lt ? x[1] : x[0]);
      })
      .Case([&](AndOp) { return i(x[0] & x[1]); })
      .Case([&](OrOp) { return i(x[0] | x[1]); })
      .Case([&](XorOp) { return i(x[0] ^ x[1]); })
      .Case([&](ShlOp) {
        uint64_t n = x[1].getLimitedValue();
        return i(n >= w ? APInt::getZero(w) : x[0].shl(n));
      })
      .Case([&](ShrOp) {
        uint64_t n = x[1].getLimitedValue();
        if (u)
          return i(n >= w ? APInt::getZero(w) : x[0].lshr(n));
        return i(x[0].ashr(std::min<uint64_t>(n, w - 1)));
      })
      .Case([&](CmpLtOp) { return b(u ? x[0].ult(x[1]) : x[0].slt(x[1])); })
      .Case([&](CmpEqOp) { return b(x[0] == x[1]); })
      .Case([&](CmpNeOp) { return b(x[0] != x[1]); })
      .Default([](Operation *) { return Attribute(); });
}

/// CAST of a scalar constant: the semantics of Semantics::convert.
Attribute foldCast(Attribute c, Type from, Type to) {
  MLIRContext *ctx = to.getContext();
  if (auto ti = dyn_cast<IntegerType>(to)) {
    unsigned w = ti.getWidth();
    if (auto fi = dyn_cast<IntegerAttr>(c)) {
      APInt v = fi.getValue();
      if (w == 1)
        return BoolAttr::get(ctx, !v.isZero());
      return IntegerAttr::get(to, isUnsignedLike(from) ? v.zextOrTrunc(w) : v.sextOrTrunc(w));
    }
    APFloat f = cast<FloatAttr>(c).getValue();
    if (w == 1) // nonzero, NaN included
      return BoolAttr::get(ctx, !f.isZero());
    // Every float dtype is exact in double; the limits are those of the CPU
    // lowering: |x| < 2^63 truncates and wraps, a u64 also takes [2^63, 2^64),
    // the rest (NaN, infinities) is 0.
    double d = toSemantics(f, Float64Type::get(ctx)).convertToDouble();
    APInt v = APInt::getZero(64);
    if (std::fabs(d) < 0x1p63)
      v = APInt(64, static_cast<int64_t>(d), /*isSigned=*/true);
    else if (w == 64 && ti.isUnsigned() && d >= 0x1p63 && d < 0x1p64)
      v = APInt(64, static_cast<uint64_t>(d));
    return IntegerAttr::get(to, v.trunc(w));
  }
  auto tf = cast<FloatType>(to);
  if (auto fi = dyn_cast<IntegerAttr>(c)) {
    APFloat f(tf.getFloatSemantics());
    f.convertFromAPInt(fi.getValue(), !isUnsignedLike(from), APFloat::rmNearestTiesToEven);
    return FloatAttr::get(to, f);
  }
  return FloatAttr::get(to, toSemantics(cast<FloatAttr>(c).getValue(), to));
}

OpFoldResult foldALU(Operation *op, ArrayRef<Attribute> folded) {
  SmallVector<Attribute> c;
  for (auto [v, f] : llvm::zip(op->getOperands(), folded)) {
    c.push_back(constantOf(v, f));
    if (!c.back())
      return {};
  }
  Type operandType = op->getOperand(0).getType();
  Type t = op->getResult(0).getType();
  if (isa<FloatType>(operandType)) {
    SmallVector<APFloat> x;
    for (Attribute a : c)
      x.push_back(cast<FloatAttr>(a).getValue());
    return foldFloat(op, x, t);
  }
  SmallVector<APInt> x;
  for (Attribute a : c)
    x.push_back(cast<IntegerAttr>(a).getValue());
  if (isa<ShlOp, ShrOp>(op)) // the amount as unsigned, at the value's width or wider
    x[1] = x[1].zextOrTrunc(std::max(x[1].getBitWidth(), x[0].getBitWidth()));
  return foldInt(op, x, operandType, t);
}

} // namespace

#define UOP_FOLD_AS_ALU(Op)                                                                        \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                                     \
    if (OpFoldResult r = foldALU(getOperation(), adaptor.getOperands()))                           \
      return r;                                                                                    \
    return sym::foldIdentity(getOperation());                                                      \
  }
UOP_FOLD_AS_ALU(Exp2Op)
UOP_FOLD_AS_ALU(Log2Op)
UOP_FOLD_AS_ALU(SinOp)
UOP_FOLD_AS_ALU(SqrtOp)
UOP_FOLD_AS_ALU(RecipOp)
UOP_FOLD_AS_ALU(NegOp)
UOP_FOLD_AS_ALU(AddOp)
UOP_FOLD_AS_ALU(SubOp)
UOP_FOLD_AS_ALU(MulOp)
UOP_FOLD_AS_ALU(FDivOp)
UOP_FOLD_AS_ALU(IDivOp)
UOP_FOLD_AS_ALU(ModOp)
UOP_FOLD_AS_ALU(MaxOp)
UOP_FOLD_AS_ALU(PowOp)
UOP_FOLD_AS_ALU(AndOp)
UOP_FOLD_AS_ALU(OrOp)
UOP_FOLD_AS_ALU(XorOp)
UOP_FOLD_AS_ALU(ShlOp)
UOP_FOLD_AS_ALU(ShrOp)
UOP_FOLD_AS_ALU(CmpLtOp)
UOP_FOLD_AS_ALU(CmpNeOp)
UOP_FOLD_AS_ALU(CmpEqOp)
#undef UOP_FOLD_AS_ALU

/// WHERE: a constant condition picks a side; equal sides need no condition;
/// where(c, true, false) is c.
OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  if (getType().isInteger(1) && sym::isConst(getLhs(), 1) && sym::isConst(getRhs(), 0))
    return getCond();
  if (auto c = dyn_cast_or_null<BoolAttr>(constantOf(getCond(), adaptor.getCond())))
    return c.getValue() ? getLhs() : getRhs();
  if (auto c = dyn_cast_or_null<IntegerAttr>(constantOf(getCond(), adaptor.getCond())))
    return c.getValue().isZero() ? getRhs() : getLhs();
  return {};
}

bool sym::castRoundTrips(Type a, Type b) {
  if (a == b || a.isInteger(1))
    return true; // 0 and 1 survive every dtype
  if (b.isInteger(1))
    return false;
  auto ia = dyn_cast<IntegerType>(a);
  if (auto ib = dyn_cast<IntegerType>(b))
    return ia && ib.getWidth() >= ia.getWidth();
  auto fb = cast<FloatType>(b);
  if (ia)
    return APFloat::semanticsPrecision(fb.getFloatSemantics()) >= ia.getWidth();
  return APFloat::isRepresentableBy(cast<FloatType>(a).getFloatSemantics(), fb.getFloatSemantics());
}

/// CAST: of a constant, folded; to its own type, nothing; there and back
/// through a dtype that holds every value, nothing.
OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<CastOp>())
    if (inner.getSrc().getType() == getType() && isScalarDType(getType()) &&
        sym::castRoundTrips(getType(), inner.getType()))
      return inner.getSrc();
  Attribute c = constantOf(getSrc(), adaptor.getSrc());
  if (!c || !isScalarDType(getType()))
    return {};
  return foldCast(c, getSrc().getType(), getType());
}

/// BITCAST: to its own type, or back to where a BITCAST came from, nothing;
/// of a constant, the same bits.
OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<BitcastOp>())
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
  Attribute c = constantOf(getSrc(), adaptor.getSrc());
  if (!c || !isScalarDType(getType()))
    return {};
  APInt bits = isa<FloatAttr>(c) ? cast<FloatAttr>(c).getValue().bitcastToAPInt()
                                 : cast<IntegerAttr>(c).getValue();
  if (auto ft = dyn_cast<FloatType>(getType()))
    return FloatAttr::get(ft, APFloat(ft.getFloatSemantics(), bits));
  return IntegerAttr::get(getType(), bits);
}
