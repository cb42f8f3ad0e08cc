//===- Semantics.cpp - what each uop op computes, in arith/math -----------===//
//
// tinygrad's semantics for every value op (docs/semantics.md has the table):
// integer ops wrap, IDIV/MOD truncate like C, MAX is `a < b ? b : a`, float
// compares are ordered except CMPNE, and a widened half is rounded only where
// tinygrad's C backend rounds it (casts, stores, half accumulators).
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Common/Semantics.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

TargetInfo::~TargetInfo() = default;

FailureOr<Value> TargetInfo::emitPeerAddress(Operation *op, Value, Value, OpBuilder &) const {
  return op->emitOpError() << "reaches another block's shared memory, which only a GPU with "
                              "thread-block clusters has";
}

bool DTypeLowering::isWidened(Type t) const {
  Type s = getScalarType(t);
  return halfInF32 && (s.isF16() || s.isBF16());
}

Type DTypeLowering::compute(Type t) const {
  Type s = getScalarType(t);
  if (auto i = dyn_cast<IntegerType>(s))
    return withScalarType(t, IntegerType::get(t.getContext(), i.getWidth()));
  if (isWidened(t))
    return withScalarType(t, Float32Type::get(t.getContext()));
  return t;
}

Type DTypeLowering::storage(Type t) const {
  Type s = getScalarType(t);
  if (s.isInteger(1))
    return withScalarType(t, IntegerType::get(t.getContext(), 8));
  if (auto i = dyn_cast<IntegerType>(s))
    return withScalarType(t, IntegerType::get(t.getContext(), i.getWidth()));
  return t;
}

LogicalResult DTypeLowering::checkSupported(Type t, Operation *op) const {
  Type s = getScalarType(t);
  if (isa<IntegerType>(s) || s.isF16() || s.isBF16() || s.isF32() || s.isF64())
    return success();
  return op->emitOpError() << "dtype " << getTinygradName(s)
                           << " is not supported by this lowering";
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value Semantics::splat(Type like, TypedAttr scalar) {
  if (auto vec = dyn_cast<VectorType>(like))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vec, Attribute(scalar)));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// A scalar constant (IntegerAttr or FloatAttr) in the compute type `s`.
static TypedAttr computeScalar(Attribute scalar, Type s) {
  if (auto i = dyn_cast<IntegerAttr>(scalar))
    return IntegerAttr::get(s, i.getValue());
  APFloat f = cast<FloatAttr>(scalar).getValue();
  bool lost;
  f.convert(cast<FloatType>(s).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return FloatAttr::get(s, f);
}

Value Semantics::constant(TypedAttr value, Type uopType) {
  Type t = types.compute(uopType);
  Attribute scalar = value;
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    scalar = dense.getSplatValue<Attribute>();
  return splat(t, computeScalar(scalar, getScalarType(t)));
}

Value Semantics::zero(Type uopType) {
  Type t = types.compute(uopType);
  return splat(t, cast<TypedAttr>(b.getZeroAttr(getScalarType(t))));
}

Value Semantics::round(Value v, Type uopType) {
  if (!types.isWidened(uopType))
    return v;
  Type narrow = withScalarType(v.getType(), getScalarType(uopType));
  return arith::ExtFOp::create(b, loc, v.getType(),
                               arith::TruncFOp::create(b, loc, narrow, v).getResult());
}

Value Semantics::fromStorage(Value stored, Type uopType) {
  Type t = types.compute(uopType);
  if (getScalarType(uopType).isInteger(1)) // any nonzero byte is true
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, stored,
        splat(stored.getType(), b.getIntegerAttr(getScalarType(stored.getType()), 0)));
  if (types.isWidened(uopType))
    return arith::ExtFOp::create(b, loc, t, stored);
  return stored;
}

Value Semantics::toStorage(Value v, Type uopType) {
  Type st = types.storage(uopType);
  if (getScalarType(uopType).isInteger(1))
    return arith::ExtUIOp::create(b, loc, st, v);
  if (types.isWidened(uopType))
    return arith::TruncFOp::create(b, loc, st, v);
  return v;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Value Semantics::identity(ReduceKind kind, Type uopType) {
  Type s = getScalarType(uopType);
  Type cs = getScalarType(types.compute(uopType));
  Type t = types.compute(uopType);
  if (kind == ReduceKind::add)
    return zero(uopType);
  if (kind == ReduceKind::mul) {
    if (isa<IntegerType>(cs))
      return splat(t, IntegerAttr::get(cs, 1));
    return splat(t, FloatAttr::get(cs, 1.0));
  }
  // max: the lowest value of the dtype (tinygrad's dtypes.min), -inf for floats.
  if (auto i = dyn_cast<IntegerType>(s)) {
    unsigned w = i.getWidth();
    APInt lowest = isUnsignedLike(uopType) ? APInt::getZero(w) : APInt::getSignedMinValue(w);
    return splat(t, IntegerAttr::get(cs, lowest));
  }
  return splat(t, FloatAttr::get(cs, -std::numeric_limits<double>::infinity()));
}

Value Semantics::combine(ReduceKind kind, Value acc, Value x, Type uopType) {
  Value r;
  switch (kind) {
  case ReduceKind::add:
    r = byKind<arith::AddFOp, arith::OrIOp, arith::AddIOp>(uopType, acc, x);
    break;
  case ReduceKind::mul:
    r = byKind<arith::MulFOp, arith::AndIOp, arith::MulIOp>(uopType, acc, x);
    break;
  case ReduceKind::max: // acc = max(acc, x): a NaN x is dropped, as in tinygrad's C
    r = max(acc, x, uopType);
    break;
  }
  return round(r, uopType); // the accumulator is a variable of the reduce's dtype
}

Value Semantics::extract(Value vec, int64_t i) {
  return LLVM::ExtractElementOp::create(b, loc, vec, lane(i));
}

Value Semantics::combineLanes(ReduceKind kind, Value acc, Value vec, Type uopType) {
  for (int64_t i = 0; i < cast<VectorType>(vec.getType()).getNumElements(); ++i)
    acc = combine(kind, acc, extract(vec, i), uopType);
  return acc;
}

//===----------------------------------------------------------------------===//
// ALU
//===----------------------------------------------------------------------===//

Value Semantics::max(Value x, Value y, Type uopType) {
  Type s = getScalarType(uopType);
  if (s.isInteger(1))
    return arith::OrIOp::create(b, loc, x, y);
  Value lt = isa<FloatType>(s)
                 ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y).getResult()
                 : arith::CmpIOp::create(b, loc,
                                         isUnsignedLike(uopType) ? arith::CmpIPredicate::ult
                                                                 : arith::CmpIPredicate::slt,
                                         x, y)
                       .getResult();
  return arith::SelectOp::create(b, loc, lt, y, x);
}

/// The constant integer value of `v`, if it is one (a splat for vectors).
static std::optional<APInt> constantInt(Value v) {
  auto c = v.getDefiningOp<arith::ConstantOp>();
  if (!c)
    return std::nullopt;
  if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
    return i.getValue();
  if (auto d = dyn_cast<SplatElementsAttr>(c.getValue()))
    return d.getSplatValue<APInt>();
  return std::nullopt;
}

/// IDIV and MOD truncate toward zero (C's / and %). Division by zero gives 0
/// and the overflowing INT_MIN / -1 wraps, where C would trap; a constant
/// divisor that cannot do either needs no guard.
Value Semantics::divRem(Operation *op, Value x, Value y, bool isUnsigned) {
  bool isDiv = isa<IDivOp>(op);
  auto build = [&](Value d) -> Value {
    if (isDiv)
      return isUnsigned ? arith::DivUIOp::create(b, loc, x, d).getResult()
                        : arith::DivSIOp::create(b, loc, x, d).getResult();
    return isUnsigned ? arith::RemUIOp::create(b, loc, x, d).getResult()
                      : arith::RemSIOp::create(b, loc, x, d).getResult();
  };
  std::optional<APInt> c = constantInt(y);
  if (c && !c->isZero() && (isUnsigned || !c->isAllOnes()))
    return build(y);
  Type t = x.getType();
  unsigned w = getScalarType(t).getIntOrFloatBitWidth();
  auto k = [&](int64_t v) {
    return splat(t, b.getIntegerAttr(getScalarType(t), APInt(w, v, true)));
  };
  Value zero = k(0), one = k(1);
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value bad = isZero;
  Value isMinusOne;
  if (!isUnsigned) {
    isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, k(-1));
    bad = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  }
  Value r = build(arith::SelectOp::create(b, loc, bad, one, y));
  if (!isUnsigned) // x / -1 = -x (wrapping), x % -1 = 0
    r = arith::SelectOp::create(
        b, loc, isMinusOne, isDiv ? arith::SubIOp::create(b, loc, zero, x).getResult() : zero, r);
  return arith::SelectOp::create(b, loc, isZero, zero, r);
}

/// SHL/SHR by the value's width or more give what the shift means on
/// unbounded integers wrapped to the width (0, or -1 for a negative signed
/// SHR), instead of LLVM's poison. The amount is reinterpreted as unsigned.
Value Semantics::shift(Operation *op, Value x, Value amount, Type uopType) {
  Type t = x.getType();
  unsigned w = getScalarType(t).getIntOrFloatBitWidth();
  unsigned aw = getScalarType(amount.getType()).getIntOrFloatBitWidth();
  if (aw < w)
    amount = arith::ExtUIOp::create(b, loc, t, amount);
  else if (aw > w) // keep amounts >= w large: clamp before narrowing
    amount = arith::TruncIOp::create(
        b, loc, t,
        arith::MinUIOp::create(
            b, loc, amount,
            splat(amount.getType(), b.getIntegerAttr(getScalarType(amount.getType()), w))));
  bool isShl = isa<ShlOp>(op), isSigned = !isUnsignedLike(uopType);
  Value r = isShl      ? arith::ShLIOp::create(b, loc, x, amount).getResult()
            : isSigned ? arith::ShRSIOp::create(b, loc, x, amount).getResult()
                       : arith::ShRUIOp::create(b, loc, x, amount).getResult();
  std::optional<APInt> c = constantInt(amount);
  if (c && c->ult(w))
    return r;
  auto k = [&](int64_t v) {
    return splat(t, b.getIntegerAttr(getScalarType(t), APInt(w, v, true)));
  };
  Value tooFar = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, amount, k(w));
  Value far = k(0);
  if (!isShl && isSigned) // all sign bits
    far = arith::ShRSIOp::create(b, loc, x, k(w - 1));
  return arith::SelectOp::create(b, loc, tooFar, far, r);
}

/// Float to int: truncate toward zero, then wrap to the width (tinygrad's
/// dtype `truncate`, and what x86 C gives for in-range values). NaN and
/// magnitudes of 2^63 or more give 0 instead of poison.
Value Semantics::floatToInt(Value x, Type to) {
  return target.emitFloatToInt(b, loc, x, types.compute(to), isUnsignedLike(to));
}

/// f64 -> f32 rounded to odd: the f32 neighbour of x with an odd last bit
/// where x is not exact in f32. Rounding that to bf16 is x rounded to bf16
/// once (f32 has more than bf16's 8 + 2 bits), where f64 -> f32 -> bf16
/// would round twice and LLVM's own f64 -> bf16 is a runtime call
/// (__truncdfbf2) the JIT does not have.
Value Semantics::roundToOddF32(Value x) {
  Type f32 = withScalarType(x.getType(), b.getF32Type());
  Type i32 = withScalarType(x.getType(), b.getI32Type());
  Value nearest = arith::TruncFOp::create(b, loc, f32, x);
  Value back = arith::ExtFOp::create(b, loc, x.getType(), nearest);
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  auto i = [&](int64_t v) { return splat(i32, b.getI32IntegerAttr(v)); };
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     arith::AndIOp::create(b, loc, bits, i(1)), i(0));
  // Inexact (or NaN) and even: step the magnitude toward x, to the odd neighbour.
  Value inexact = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, back, x);
  Value fix = arith::AndIOp::create(b, loc, inexact, even);
  Value zero = splat(x.getType(), FloatAttr::get(getScalarType(x.getType()), 0.0));
  Value absBack = arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, back, zero),
      arith::NegFOp::create(b, loc, back), back);
  Value absX = arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero),
      arith::NegFOp::create(b, loc, x), x);
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, absBack, absX);
  Value step = arith::SelectOp::create(b, loc, above, i(-1), i(1));
  Value odd = arith::AddIOp::create(b, loc, bits, step);
  return arith::BitcastOp::create(b, loc, f32, arith::SelectOp::create(b, loc, fix, odd, bits));
}

Value Semantics::convert(Value x, Type from, Type to) {
  Type fs = getScalarType(from), ts = getScalarType(to);
  Type ct = types.compute(to);
  if (fs == ts)
    return x;
  if (ts.isInteger(1)) { // nonzero is true; NaN is true
    if (isa<FloatType>(fs))
      return arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::UNE, x,
          splat(x.getType(), FloatAttr::get(getScalarType(x.getType()), 0)));
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, x,
        splat(x.getType(), b.getIntegerAttr(getScalarType(x.getType()), 0)));
  }
  if (auto fi = dyn_cast<IntegerType>(fs)) {
    bool isUnsigned = isUnsignedLike(from);
    if (auto ti = dyn_cast<IntegerType>(ts)) { // the value, wrapped to the new width
      if (ti.getWidth() > fi.getWidth())
        return isUnsigned ? arith::ExtUIOp::create(b, loc, ct, x).getResult()
                          : arith::ExtSIOp::create(b, loc, ct, x).getResult();
      if (ti.getWidth() < fi.getWidth())
        return arith::TruncIOp::create(b, loc, ct, x);
      return x; // same bits, other signedness
    }
    // int to float rounds once, to the destination dtype itself
    Type exact = withScalarType(x.getType(), ts);
    Value f = isUnsigned ? arith::UIToFPOp::create(b, loc, exact, x).getResult()
                         : arith::SIToFPOp::create(b, loc, exact, x).getResult();
    return exact == ct ? f : arith::ExtFOp::create(b, loc, ct, f).getResult();
  }
  if (isa<IntegerType>(ts))
    return floatToInt(x, to);
  // float to float: one rounding to the destination dtype
  Type xt = x.getType();
  Type exact = withScalarType(xt, ts);
  unsigned xw = getScalarType(xt).getIntOrFloatBitWidth(), ew = ts.getIntOrFloatBitWidth();
  Value r = x;
  if (ew == xw && exact != xt) // f16 <-> bf16: through f32, which holds both exactly
    r = arith::TruncFOp::create(
        b, loc, exact,
        arith::ExtFOp::create(b, loc, withScalarType(xt, b.getF32Type()), x).getResult());
  else if (getScalarType(xt).isF64() && ts.isBF16())
    r = arith::TruncFOp::create(b, loc, exact, roundToOddF32(x));
  else if (ew < xw)
    r = arith::TruncFOp::create(b, loc, exact, x);
  else if (ew > xw)
    r = arith::ExtFOp::create(b, loc, exact, x);
  if (r.getType() != ct)
    r = arith::ExtFOp::create(b, loc, ct, r);
  return r;
}

Value Semantics::bitcast(Value x, Type from, Type to) {
  Value bits = toStorage(x, from);
  Value r = arith::BitcastOp::create(b, loc, types.storage(to), bits);
  return fromStorage(r, to);
}

Value Semantics::lane(int64_t i) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i));
}

/// Whether the integer ADD or MUL `op` cannot wrap as a signed operation:
/// the exact result over its operands' ranges (tinygrad's vmin/vmax) is
/// representable. Index math is such (the lowerer widens to int64 what
/// would not be), and the mark lets an address take sext(x + c) * s as
/// sext(x) * s + c * s.
static bool cannotWrapSigned(Operation *op) {
  std::optional<ConstantIntRanges> x = getIntRange(op->getOperand(0)),
                                   y = getIntRange(op->getOperand(1));
  if (!x || !y || x->smin().getBitWidth() < 2)
    return false;
  bool overflow = false;
  auto check = [&](const APInt &a, const APInt &c) {
    bool o = false;
    (void)(isa<AddOp>(op) ? a.sadd_ov(c, o) : a.smul_ov(c, o));
    overflow |= o;
  };
  check(x->smin(), y->smin());
  check(x->smax(), y->smax());
  if (isa<MulOp>(op)) { // a product's extremes are at the corners
    check(x->smin(), y->smax());
    check(x->smax(), y->smin());
  }
  return !overflow;
}

Value Semantics::emit(Operation *op, ValueRange v) {
  Type t = op->getNumResults() ? op->getResult(0).getType() : Type();
  Type operandType = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  Type s = operandType ? getScalarType(operandType) : Type();
  bool isFloat = s && isa<FloatType>(s);
  bool isBool = s && s.isInteger(1);
  bool isUnsigned = operandType && isUnsignedLike(operandType);
  auto cmp = [&](arith::CmpFPredicate fp, arith::CmpIPredicate sp,
                 arith::CmpIPredicate up) -> Value {
    if (isFloat)
      return arith::CmpFOp::create(b, loc, fp, v[0], v[1]);
    return arith::CmpIOp::create(b, loc, isUnsigned ? up : sp, v[0], v[1]);
  };
  using P = arith::CmpIPredicate;
  using F = arith::CmpFPredicate;
  return llvm::TypeSwitch<Operation *, Value>(op)
      // Arithmetic wraps for ints; on bool ADD is OR and MUL is AND (C's
      // bool conversion of the int result).
      .Case([&](AddOp) {
        Value r = byKind<arith::AddFOp, arith::OrIOp, arith::AddIOp>(operandType, v[0], v[1]);
        if (auto add = r.getDefiningOp<arith::AddIOp>(); add && cannotWrapSigned(op))
          add.setOverflowFlags(arith::IntegerOverflowFlags::nsw);
        return r;
      })
      .Case([&](SubOp) {
        return byKind<arith::SubFOp, arith::XOrIOp, arith::SubIOp>(operandType, v[0], v[1]);
      })
      .Case([&](MulOp) {
        Value r = byKind<arith::MulFOp, arith::AndIOp, arith::MulIOp>(operandType, v[0], v[1]);
        if (auto mul = r.getDefiningOp<arith::MulIOp>(); mul && cannotWrapSigned(op))
          mul.setOverflowFlags(arith::IntegerOverflowFlags::nsw);
        return r;
      })
      .Case([&](NegOp) -> Value { // NEG of a bool is logical not (tinygrad's cstyle)
        if (isFloat)
          return arith::NegFOp::create(b, loc, v[0]);
        if (isBool)
          return arith::XOrIOp::create(b, loc, v[0], splat(v[0].getType(), b.getBoolAttr(true)));
        return arith::SubIOp::create(b, loc, zero(operandType), v[0]);
      })
      .Case([&](FDivOp) -> Value { return arith::DivFOp::create(b, loc, v[0], v[1]); })
      .Case<RecipOp, Exp2Op, Log2Op, SinOp, SqrtOp, PowOp>([&](Operation *) { return math(op, v); })
      .Case<IDivOp, ModOp>([&](Operation *) { return divRem(op, v[0], v[1], isUnsigned); })
      .Case([&](MaxOp) { return max(v[0], v[1], operandType); })
      .Case([&](AndOp) -> Value { return arith::AndIOp::create(b, loc, v[0], v[1]); })
      .Case([&](OrOp) -> Value { return arith::OrIOp::create(b, loc, v[0], v[1]); })
      .Case([&](XorOp) -> Value { return arith::XOrIOp::create(b, loc, v[0], v[1]); })
      .Case<ShlOp, ShrOp>([&](Operation *) { return shift(op, v[0], v[1], operandType); })
      // Float compares are ordered except CMPNE: with a NaN, < and == are
      // false and != is true, as in C.
      .Case([&](CmpLtOp) { return cmp(F::OLT, P::slt, P::ult); })
      .Case([&](CmpNeOp) { return cmp(F::UNE, P::ne, P::ne); })
      .Case([&](CmpEqOp) { return cmp(F::OEQ, P::eq, P::eq); })
      .Case([&](WhereOp) -> Value { return arith::SelectOp::create(b, loc, v[0], v[1], v[2]); })
      .Case([&](MulAccOp) { return mulAdd(v[0], v[1], v[2], t); })
      .Case([&](CastOp) -> Value {
        if (isa<PtrType>(t)) // a pointer cast for a vector load: pointers are opaque
          return v[0];
        return convert(v[0], operandType, t);
      })
      .Case([&](BitcastOp) { return bitcast(v[0], operandType, t); })
      // Vectors of values (vectorized pointers need the devectorizer).
      .Case([&](VectorizeOp) -> Value {
        if (isa<PtrType>(t)) {
          why = "vectorized pointers are not supported";
          return Value();
        }
        Value r = LLVM::PoisonOp::create(b, loc, types.compute(t));
        for (auto [i, x] : llvm::enumerate(v))
          r = LLVM::InsertElementOp::create(b, loc, r, x, lane(i));
        return r;
      })
      .Case([&](GepOp g) -> Value {
        if (isa<PtrType>(operandType)) {
          why = "vectorized pointers are not supported";
          return Value();
        }
        ArrayRef<int64_t> lanes = g.getIndices();
        if (lanes.size() == 1)
          return LLVM::ExtractElementOp::create(b, loc, v[0], lane(lanes[0]));
        SmallVector<int32_t> mask(lanes.begin(), lanes.end());
        return LLVM::ShuffleVectorOp::create(b, loc, v[0], v[0], mask);
      })
      .Case([&](ConstOp c) { return constant(c.getValue(), t); })
      .Case([&](VConstOp c) -> Value {
        auto ct = cast<VectorType>(types.compute(t));
        SmallVector<Attribute> lanes;
        for (Attribute e : cast<DenseElementsAttr>(c.getValues()).getValues<Attribute>())
          lanes.push_back(computeScalar(e, ct.getElementType()));
        return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(ct, lanes));
      })
      .Default([](Operation *) { return Value(); });
}

//===----------------------------------------------------------------------===//
// Transcendentals
//===----------------------------------------------------------------------===//

Value Semantics::mulAdd(Value x, Value y, Value z, Type uopType) {
  if (isa<FloatType>(getScalarType(uopType)))
    return target.emitMulAdd(b, loc, x, y, z);
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, x, y), z);
}

Value Semantics::math(Operation *op, ValueRange v) {
  llvm::Expected<Value> own = target.emitMath(op, v, b, loc);
  if (!own) {
    why = llvm::toString(own.takeError());
    return Value();
  }
  if (*own)
    return *own;
  Value x = v[0];
  Type t = x.getType();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](RecipOp) -> Value {
        return arith::DivFOp::create(b, loc, splat(t, FloatAttr::get(getScalarType(t), 1.0)), x);
      })
      .Case([&](Exp2Op) -> Value { return math::Exp2Op::create(b, loc, x); })
      .Case([&](Log2Op) -> Value { return math::Log2Op::create(b, loc, x); })
      .Case([&](SinOp) -> Value { return math::SinOp::create(b, loc, x); })
      .Case([&](SqrtOp) -> Value { return math::SqrtOp::create(b, loc, x); })
      .Case([&](PowOp) -> Value { return math::PowFOp::create(b, loc, x, v[1]); });
}
