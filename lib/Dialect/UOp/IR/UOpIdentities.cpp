//===- UOpIdentities.cpp - tinygrad's self-folding rules as folders -------===//
//
// symbolic_simple's "self folding" and "zero folding" rules and the
// vmin == vmax rule: an op that is one of its sources, or a constant,
// whatever the values. Rules that tinygrad applies to every dtype but that
// change a float result (x*0 is NaN for x = inf, x-x and x/x for NaN) only
// fire on integers and bools here.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

bool isAllOnes(Value v) {
  auto c = v.getDefiningOp<ConstOp>();
  auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  return i && i.getValue().isAllOnes();
}

/// bool `x` as cmpne(x, true) (tinygrad's logical_not): its x.
Value notOf(Value v) {
  auto ne = v.getDefiningOp<CmpNeOp>();
  if (ne && isBool(ne.getLhs().getType()) && isConst(ne.getRhs(), 1))
    return ne.getLhs();
  return {};
}

/// x|(x&y) and (x&y)|x: x.
Value absorbed(Value a, Value b) {
  if (auto andOp = b.getDefiningOp<AndOp>())
    if (andOp.getLhs() == a || andOp.getRhs() == a)
      return a;
  return {};
}

/// max(x, y) when the ranges order x and y.
Value maxByRange(Value x, Value y) {
  std::optional<ConstantIntRanges> rx = getIntRange(x), ry = getIntRange(y);
  if (!rx || !ry)
    return {};
  bool u = isUnsignedLike(x.getType());
  auto ge = [&](const APInt &a, const APInt &b) { return u ? a.uge(b) : a.sge(b); };
  if (ge(u ? rx->umin() : rx->smin(), u ? ry->umax() : ry->smax()))
    return x;
  if (ge(u ? ry->umin() : ry->smin(), u ? rx->umax() : rx->smax()))
    return y;
  return {};
}

} // namespace

OpFoldResult sym::foldIdentity(Operation *op) {
  Value x = op->getOperand(0);
  Value y = op->getNumOperands() > 1 ? op->getOperand(1) : Value();
  Type t = op->getResult(0).getType();
  if (!isScalarDType(x.getType()) || !isScalarDType(t))
    return {};
  bool exact = isExact(x.getType());
  auto is = [&](double c) { return y && isConst(y, c); };
  Builder b(op->getContext());
  // Made only when a rule returns it: uniquing an attribute costs more than
  // the rules that run on every fold.
  auto zero = [&] { return OpFoldResult(b.getZeroAttr(t)); };
  OpFoldResult r =
      llvm::TypeSwitch<Operation *, OpFoldResult>(op)
          .Case([&](AddOp) -> OpFoldResult { return is(0) ? x : Value(); })
          .Case([&](SubOp) -> OpFoldResult {
            if (is(0))
              return x;
            return exact && x == y ? zero() : OpFoldResult();
          })
          .Case([&](MulOp) -> OpFoldResult {
            if (is(1))
              return x;
            return exact && is(0) ? zero() : OpFoldResult();
          })
          .Case([&](FDivOp) -> OpFoldResult { return is(1) ? x : Value(); })
          .Case([&](IDivOp) -> OpFoldResult {
            if (is(1))
              return x;
            if (x == y) { // x//x is 1 unless x can be 0 (0//0 is 0 here)
              std::optional<ConstantIntRanges> r = getIntRange(x);
              APInt z = APInt::getZero(r->smin().getBitWidth());
              bool mayBeZero =
                  isUnsignedLike(t) ? r->umin().isZero() : r->smin().sle(z) && z.sle(r->smax());
              if (!mayBeZero)
                return b.getIntegerAttr(t, 1);
            }
            return {};
          })
          .Case([&](ModOp) -> OpFoldResult {
            bool signedMinusOne = !isUnsignedLike(t) && is(-1);
            return x == y || is(1) || signedMinusOne ? zero() : OpFoldResult();
          })
          .Case([&](AndOp) -> OpFoldResult {
            if (x == y || isAllOnes(y))
              return x;
            return is(0) ? zero() : OpFoldResult();
          })
          .Case([&](OrOp) -> OpFoldResult {
            if (x == y || is(0))
              return x;
            if (isAllOnes(y))
              return y;
            if (Value v = absorbed(x, y))
              return v;
            return absorbed(y, x);
          })
          .Case([&](XorOp) -> OpFoldResult {
            if (is(0))
              return x;
            return x == y ? zero() : OpFoldResult();
          })
          .Case([&](MaxOp) -> OpFoldResult {
            if (x == y)
              return x;
            return exact && !isBool(t) ? maxByRange(x, y) : Value();
          })
          .Case<ShlOp, ShrOp>([&](Operation *) -> OpFoldResult { return is(0) ? x : Value(); })
          .Case([&](CmpLtOp) -> OpFoldResult {
            return x == y ? OpFoldResult(b.getBoolAttr(false)) : OpFoldResult();
          })
          .Case([&](CmpNeOp) -> OpFoldResult {
            if (exact && x == y)
              return b.getBoolAttr(false);
            if (Value inner = notOf(op->getResult(0)))
              if (Value v = notOf(inner)) // not(not(v))
                return v;
            return {};
          })
          .Case([&](CmpEqOp) -> OpFoldResult {
            return exact && x == y ? OpFoldResult(b.getBoolAttr(true)) : OpFoldResult();
          })
          .Case([&](NegOp) -> OpFoldResult {
            auto inner = x.getDefiningOp<NegOp>();
            return inner ? inner.getSrc() : Value();
          })
          .Default([](Operation *) { return OpFoldResult(); });
  if (r)
    return r;
  // tinygrad's "ALU min==max -> CONST": an integer or bool result whose
  // range is one value.
  if (isa<IntegerType>(t) && llvm::all_of(op->getOperandTypes(), isExact))
    if (std::optional<ConstantIntRanges> range = getIntRange(op->getResult(0)))
      if (std::optional<APInt> v = range->getConstantValue())
        return b.getIntegerAttr(t, *v);
  return {};
}
