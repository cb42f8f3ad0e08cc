//===- UOpRanges.cpp - value ranges of uop ops (tinygrad's vmin/vmax) ------===//
//
// The ranges follow our semantics (docs/semantics.md), not C's: integers
// wrap, x/0 and x%0 are 0, a shift by the width or more is 0 (or the sign),
// bool ADD/MUL/MAX/NEG are OR/AND/OR/NOT. Upstream's helpers assume
// division by zero and over-wide shifts cannot happen, so those cases are
// widened here before they are called.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/Interfaces/Utils/InferIntRangeCommon.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::intrange;

namespace {

bool isScalarIntOrBool(Type t) { return isa<IntegerType>(t); }

ConstantIntRanges full(Type t) { return ConstantIntRanges::maxRange(t.getIntOrFloatBitWidth()); }

ConstantIntRanges constantRange(unsigned width, int64_t v) {
  return ConstantIntRanges::constant(APInt(width, v, /*isSigned=*/true));
}

bool contains(const ConstantIntRanges &r, const APInt &v) {
  return r.smin().sle(v) && v.sle(r.smax()) && r.umin().ule(v) && v.ule(r.umax());
}

/// x / y and x % y where y may be 0 (the result is then 0) or x/y may
/// overflow (MIN / -1 wraps).
ConstantIntRanges divRem(const ConstantIntRanges &x, const ConstantIntRanges &y, bool isDiv,
                         bool isUnsigned) {
  unsigned w = x.smin().getBitWidth();
  APInt zero = APInt::getZero(w);
  ConstantIntRanges zeroRange = ConstantIntRanges::constant(zero);
  if (y.getConstantValue() && y.getConstantValue()->isZero())
    return zeroRange;
  ConstantIntRanges divisor = y;
  bool mayBeZero = contains(y, zero);
  if (mayBeZero) {
    // Drop a zero at an end of the divisor's range; one inside it leaves
    // nothing to bound.
    if (isUnsigned && y.umin().isZero())
      divisor = ConstantIntRanges::fromUnsigned(APInt(w, 1), y.umax());
    else if (!isUnsigned && y.smin().isZero())
      divisor = ConstantIntRanges::fromSigned(APInt(w, 1), y.smax());
    else if (!isUnsigned && y.smax().isZero())
      divisor = ConstantIntRanges::fromSigned(y.smin(), APInt::getAllOnes(w));
    else
      return ConstantIntRanges::maxRange(w);
  }
  if (!isUnsigned && isDiv && contains(x, APInt::getSignedMinValue(w)) &&
      contains(divisor, APInt::getAllOnes(w)))
    return ConstantIntRanges::maxRange(w);
  ConstantIntRanges r = isDiv ? (isUnsigned ? inferDivU({x, divisor}) : inferDivS({x, divisor}))
                              : (isUnsigned ? inferRemU({x, divisor}) : inferRemS({x, divisor}));
  return mayBeZero ? r.rangeUnion(zeroRange) : r;
}

/// A shift whose amount may reach the width is not bounded here.
ConstantIntRanges shift(Operation *op, const ConstantIntRanges &x, const ConstantIntRanges &n,
                        bool isUnsigned) {
  unsigned w = x.smin().getBitWidth();
  if (n.umax().uge(w))
    return ConstantIntRanges::maxRange(w);
  ConstantIntRanges amount = n.umax().getBitWidth() == w  ? n
                             : n.umax().getBitWidth() > w ? truncRange(n, w)
                                                          : extUIRange(n, w);
  if (isa<ShlOp>(op))
    return inferShl({x, amount});
  return isUnsigned ? inferShrU({x, amount}) : inferShrS({x, amount});
}

ConstantIntRanges compare(Operation *op, const ConstantIntRanges &a, const ConstantIntRanges &b,
                          bool isUnsigned) {
  CmpPredicate pred = isa<CmpEqOp>(op)   ? CmpPredicate::eq
                      : isa<CmpNeOp>(op) ? CmpPredicate::ne
                      : isUnsigned       ? CmpPredicate::ult
                                         : CmpPredicate::slt;
  if (std::optional<bool> known = evaluatePred(pred, a, b))
    return ConstantIntRanges::constant(APInt(1, *known));
  return ConstantIntRanges::maxRange(1);
}

ConstantIntRanges castRange(const ConstantIntRanges &x, Type from, Type to) {
  unsigned w = to.getIntOrFloatBitWidth();
  if (w == 1) { // nonzero is true
    APInt zero = APInt::getZero(x.smin().getBitWidth());
    if (!contains(x, zero))
      return ConstantIntRanges::constant(APInt(1, 1));
    if (x.getConstantValue())
      return ConstantIntRanges::constant(APInt(1, 0));
    return ConstantIntRanges::maxRange(1);
  }
  unsigned fromWidth = x.smin().getBitWidth();
  if (w < fromWidth)
    return truncRange(x, w);
  if (w > fromWidth)
    return isUnsignedLike(from) ? extUIRange(x, w) : extSIRange(x, w);
  return x; // the same bits
}

/// The range of `op`'s integer result from its operands' ranges (null
/// entries: not an integer, or unknown).
std::optional<ConstantIntRanges> inferRange(Operation *op,
                                            ArrayRef<std::optional<ConstantIntRanges>> in) {
  Type t = op->getResult(0).getType();
  if (!isScalarIntOrBool(t))
    return std::nullopt;
  unsigned w = t.getIntOrFloatBitWidth();
  auto arg = [&](unsigned i) { return in[i] ? *in[i] : full(op->getOperand(i).getType()); };
  bool u = op->getNumOperands() && isUnsignedLike(op->getOperand(0).getType());
  bool isBool = w == 1;
  return llvm::TypeSwitch<Operation *, std::optional<ConstantIntRanges>>(op)
      .Case([&](ConstOp c) -> std::optional<ConstantIntRanges> {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return ConstantIntRanges::constant(i.getValue());
        return std::nullopt;
      })
      .Case([&](RangeOp) {
        APInt end = arg(0).smax();
        if (end.sle(APInt(w, 1)))
          return constantRange(w, 0);
        return ConstantIntRanges::fromSigned(APInt::getZero(w), end - 1);
      })
      .Case([&](SpecialOp s) {
        APInt size(w, s.getSize());
        if (s.getDynamicSize() && arg(0).smax().slt(size)) // a symbolic size's own bound
          size = arg(0).smax();
        if (size.sle(APInt(w, 1)))
          return constantRange(w, 0);
        return ConstantIntRanges::fromSigned(APInt::getZero(w), size - 1);
      })
      .Case([&](DefineVarOp v) {
        // the verifier keeps both bounds inside the dtype
        APInt lo(w, static_cast<int64_t>(v.getMin()), /*isSigned=*/true);
        APInt hi(w, static_cast<int64_t>(v.getMax()), /*isSigned=*/true);
        return isUnsignedLike(t) ? ConstantIntRanges::fromUnsigned(lo, hi)
                                 : ConstantIntRanges::fromSigned(lo, hi);
      })
      .Case([&](AddOp) {
        return isBool ? inferOr({arg(0), arg(1)}) : inferAdd({arg(0), arg(1)});
      })
      .Case([&](SubOp) {
        return isBool ? inferXor({arg(0), arg(1)}) : inferSub({arg(0), arg(1)});
      })
      .Case([&](MulOp) {
        return isBool ? inferAnd({arg(0), arg(1)}) : inferMul({arg(0), arg(1)});
      })
      .Case([&](NegOp) {
        ConstantIntRanges x = arg(0);
        if (isBool)
          return inferXor({x, constantRange(1, 1)});
        return inferSub({constantRange(w, 0), x});
      })
      .Case([&](IDivOp) { return divRem(arg(0), arg(1), true, u); })
      .Case([&](ModOp) { return divRem(arg(0), arg(1), false, u); })
      .Case([&](MaxOp) {
        if (isBool)
          return inferOr({arg(0), arg(1)});
        return u ? inferMaxU({arg(0), arg(1)}) : inferMaxS({arg(0), arg(1)});
      })
      .Case([&](AndOp) {
        return inferAnd({arg(0), arg(1)});
      })
      .Case([&](OrOp) {
        return inferOr({arg(0), arg(1)});
      })
      .Case([&](XorOp) {
        return inferXor({arg(0), arg(1)});
      })
      .Case<ShlOp, ShrOp>([&](Operation *o) { return shift(o, arg(0), arg(1), u); })
      .Case<CmpLtOp, CmpEqOp, CmpNeOp>([&](Operation *o) -> ConstantIntRanges {
        if (!isScalarIntOrBool(o->getOperand(0).getType()))
          return ConstantIntRanges::maxRange(1);
        return compare(o, arg(0), arg(1), u);
      })
      .Case([&](WhereOp) {
        ConstantIntRanges c = arg(0);
        if (std::optional<APInt> k = c.getConstantValue())
          return k->isZero() ? arg(2) : arg(1);
        return arg(1).rangeUnion(arg(2));
      })
      .Case([&](CastOp c) -> ConstantIntRanges {
        Type from = c.getSrc().getType();
        if (!isScalarIntOrBool(from))
          return full(t);
        return castRange(arg(0), from, t);
      })
      .Default([&](Operation *) { return full(t); });
}

} // namespace

//===----------------------------------------------------------------------===//
// The interface, for upstream's analysis
//===----------------------------------------------------------------------===//

static void inferForInterface(Operation *op, ArrayRef<IntegerValueRange> argRanges,
                              SetIntLatticeFn setResultRange) {
  SmallVector<std::optional<ConstantIntRanges>> in;
  for (const IntegerValueRange &r : argRanges)
    in.push_back(r.isUninitialized() ? std::nullopt
                                     : std::optional<ConstantIntRanges>(r.getValue()));
  if (std::optional<ConstantIntRanges> r = inferRange(op, in))
    setResultRange(op->getResult(0), IntegerValueRange(*r));
}

#define UOP_INT_RANGE(Op)                                                                          \
  void Op::inferResultRangesFromOptional(ArrayRef<IntegerValueRange> argRanges,                    \
                                         SetIntLatticeFn setResultRange) {                         \
    inferForInterface(getOperation(), argRanges, setResultRange);                                  \
  }
UOP_INT_RANGE(ConstOp)
UOP_INT_RANGE(RangeOp)
UOP_INT_RANGE(SpecialOp)
UOP_INT_RANGE(DefineVarOp)
UOP_INT_RANGE(Exp2Op)
UOP_INT_RANGE(Log2Op)
UOP_INT_RANGE(SinOp)
UOP_INT_RANGE(SqrtOp)
UOP_INT_RANGE(RecipOp)
UOP_INT_RANGE(NegOp)
UOP_INT_RANGE(AddOp)
UOP_INT_RANGE(SubOp)
UOP_INT_RANGE(MulOp)
UOP_INT_RANGE(FDivOp)
UOP_INT_RANGE(IDivOp)
UOP_INT_RANGE(ModOp)
UOP_INT_RANGE(MaxOp)
UOP_INT_RANGE(PowOp)
UOP_INT_RANGE(AndOp)
UOP_INT_RANGE(OrOp)
UOP_INT_RANGE(XorOp)
UOP_INT_RANGE(ShlOp)
UOP_INT_RANGE(ShrOp)
UOP_INT_RANGE(CmpLtOp)
UOP_INT_RANGE(CmpNeOp)
UOP_INT_RANGE(CmpEqOp)
UOP_INT_RANGE(WhereOp)
UOP_INT_RANGE(CastOp)
#undef UOP_INT_RANGE

//===----------------------------------------------------------------------===//
// On demand, for rewrite rules
//===----------------------------------------------------------------------===//

namespace {
/// The RangeMemo in force on this thread, if any.
thread_local RangeMemo *activeMemo = nullptr;

/// Walks operands first, remembering each value's range in `memo`.
class RangeWalker {
public:
  explicit RangeWalker(DenseMap<Value, ConstantIntRanges> &memo) : memo(memo) {}

  std::optional<ConstantIntRanges> get(Value v) {
    if (!isScalarIntOrBool(v.getType()))
      return std::nullopt;
    Operation *op = v.getDefiningOp();
    // A block argument is unbounded, and not remembered: a RangeMemo only
    // hears of ops, not of arguments erased (whose storage may be reused).
    if (!op)
      return full(v.getType());
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    ConstantIntRanges r = full(v.getType());
    if (isa_and_present<UOpDialect>(op->getDialect()) && op->getNumResults() == 1 &&
        isa<InferIntRangeInterface>(op)) {
      SmallVector<std::optional<ConstantIntRanges>> in;
      for (Value operand : op->getOperands())
        in.push_back(get(operand));
      if (std::optional<ConstantIntRanges> inferred = inferRange(op, in))
        r = *inferred;
    }
    memo.try_emplace(v, r);
    return r;
  }

private:
  DenseMap<Value, ConstantIntRanges> &memo;
};
} // namespace

std::optional<ConstantIntRanges> mlir::uop::getIntRange(Value v) {
  DenseMap<Value, ConstantIntRanges> once;
  std::optional<ConstantIntRanges> fresh;
  if (!activeMemo || activeMemo->checkAgainstFreshWalks)
    fresh = RangeWalker(once).get(v);
  if (!activeMemo)
    return fresh;
  std::optional<ConstantIntRanges> remembered = RangeWalker(activeMemo->ranges).get(v);
  if (activeMemo->checkAgainstFreshWalks && !(remembered == fresh))
    activeMemo->stale.push_back(v.getLoc());
  return remembered;
}

RangeMemo::RangeMemo() : outer(activeMemo) { activeMemo = this; }

RangeMemo::~RangeMemo() { activeMemo = outer; }

void RangeMemo::forgetFrom(ValueRange values) {
  SmallVector<Value> work(values);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!ranges.erase(v))
      continue; // nothing computed from v is remembered either
    for (Operation *user : v.getUsers())
      llvm::append_range(work, user->getResults());
  }
}

// Folding rewrites most ops in place (a commuted operand, a constant
// folded in) or replaces them by an equal value whose range is the same;
// forgetting everything computed from them made the walks redo the whole
// index math above each rewrite.
void RangeMemo::refresh(Value v, Value now) {
  auto it = ranges.find(v);
  if (it == ranges.end())
    return; // nothing computed from v is remembered either
  ConstantIntRanges before = it->second;
  ranges.erase(it);
  std::optional<ConstantIntRanges> after = now ? RangeWalker(ranges).get(now) : std::nullopt;
  if (after && *after == before)
    return;
  for (Operation *user : v.getUsers())
    forgetFrom(user->getResults());
}

void RangeMemo::notifyOperationModified(Operation *op) {
  for (Value v : op->getResults())
    refresh(v, v);
}

void RangeMemo::notifyOperationReplaced(Operation *op, ValueRange replacement) {
  // The users will read the replacement; a null one (the result had no
  // uses) leaves nothing to keep.
  for (auto [v, with] : llvm::zip_equal(op->getResults(), replacement))
    refresh(v, with);
}

std::optional<VRange> mlir::uop::getVRange(Value v) {
  std::optional<ConstantIntRanges> r = getIntRange(v);
  if (!r || v.getType().isInteger(1))
    return std::nullopt;
  if (isUnsignedLike(v.getType())) {
    if (r->umax().getActiveBits() > 63)
      return std::nullopt;
    return VRange{(int64_t)r->umin().getZExtValue(), (int64_t)r->umax().getZExtValue()};
  }
  return VRange{r->smin().getSExtValue(), r->smax().getSExtValue()};
}
