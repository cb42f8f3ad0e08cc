//===- IndexUpcast.cpp - int64 where a view's index leaves int32 ----------===//
//
// The lowerer's index math (Lower.cpp) is built from RANGEs and constants
// with ADD, MUL, IDIV, MOD, CMPLT, CMPNE and AND; the ranges of its values
// are computed here without wrapping, as tinygrad's vmin/vmax are (Python
// integers), so that an overflow shows.
//
//===----------------------------------------------------------------------===//

#include "IndexUpcast.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

class IndexUpcaster {
public:
  IndexUpcaster(OpBuilder &b, Location loc)
      : b(b), loc(loc), si32(IntegerType::get(b.getContext(), 32, IntegerType::Signed)),
        si64(IntegerType::get(b.getContext(), 64, IntegerType::Signed)) {}

  Value rewrite(Value v) {
    if (auto it = done.find(v); it != done.end())
      return it->second;
    Value out = v;
    Operation *op = v.getDefiningOp();
    if (op && isa<AddOp, MulOp, IDivOp, ModOp, CmpLtOp, CmpNeOp, AndOp>(op)) {
      SmallVector<Value> srcs;
      for (Value s : op->getOperands())
        srcs.push_back(rewrite(s));
      bool wide = llvm::any_of(srcs, [&](Value s) { return s.getType() == si64; });
      Type type = op->getResult(0).getType();
      if (type == si32 && (!fits32(interval(op->getName(), srcs)) || wide)) {
        Value w = rebuild(op, widened(srcs), si64);
        out = fits32(intervalOf(w)) ? CastOp::create(b, loc, si32, w).getResult() : w;
      } else if (wide) { // a comparison: both sides in si64
        out = rebuild(op, widened(srcs), type);
      } else if (!llvm::equal(srcs, op->getOperands())) {
        out = rebuild(op, srcs, type);
      }
    }
    done[v] = out;
    return out;
  }

private:
  OpBuilder &b;
  Location loc;
  Type si32, si64;
  llvm::DenseMap<Value, Value> done;
  llvm::DenseMap<Value, sym::Interval> intervals;

  static bool fits32(sym::Interval r) { return r.min >= INT32_MIN && r.max <= INT32_MAX; }

  SmallVector<Value> widened(ArrayRef<Value> srcs) {
    SmallVector<Value> out;
    for (Value s : srcs) {
      if (s.getType() == si64)
        out.push_back(s);
      else if (auto c = s.getDefiningOp<ConstOp>()) // tinygrad's const.cast folds
        out.push_back(ConstOp::create(b, loc, si64,
                                      IntegerAttr::get(si64, cast<IntegerAttr>(c.getValue())
                                                                 .getValue()
                                                                 .sext(64))));
      else
        out.push_back(CastOp::create(b, loc, si64, s));
    }
    return out;
  }

  Value rebuild(Operation *op, ArrayRef<Value> srcs, Type type) {
    OperationState state(loc, op->getName(), srcs, TypeRange{type}, op->getAttrs());
    return b.create(state)->getResult(0);
  }

  /// The value's range without wrapping; remembered, as an index is a DAG
  /// whose shared terms would otherwise be walked once per path.
  sym::Interval intervalOf(Value v) {
    if (auto it = intervals.find(v); it != intervals.end())
      return it->second;
    sym::Interval r = {INT64_MIN, INT64_MAX};
    if (auto c = v.getDefiningOp<CastOp>())
      r = intervalOf(c.getSrc());
    else if (Operation *op = v.getDefiningOp(); op && isa<AddOp, MulOp, IDivOp, ModOp>(op))
      r = interval(op->getName(), op->getOperands());
    else if (std::optional<VRange> range = getVRange(v))
      r = {range->min, range->max};
    intervals[v] = r;
    return r;
  }

  /// The range of `name` applied to `srcs`, without wrapping.
  sym::Interval interval(OperationName name, ValueRange srcs) {
    if (srcs.size() != 2)
      return {INT64_MIN, INT64_MAX};
    sym::Interval x = intervalOf(srcs[0]), y = intervalOf(srcs[1]);
    if (name.getStringRef() == AddOp::getOperationName())
      return {x.min + y.min, x.max + y.max};
    if (name.getStringRef() == MulOp::getOperationName()) {
      __int128 p[] = {x.min * y.min, x.min * y.max, x.max * y.min, x.max * y.max};
      return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
    }
    bool positiveDivisor = y.min == y.max && y.min > 0;
    if (name.getStringRef() == IDivOp::getOperationName() && positiveDivisor)
      return {x.min / y.min, x.max / y.min}; // truncation is monotone
    if (name.getStringRef() == ModOp::getOperationName() && positiveDivisor) {
      if (x.min >= 0)
        return {0, std::min(x.max, y.min - 1)};
      return {-(y.min - 1), y.min - 1};
    }
    return {INT64_MIN, INT64_MAX}; // comparisons and AND are bools: never widened
  }
};

} // namespace

Value mlir::uop::upcastIndex(OpBuilder &b, Location loc, Value v) {
  return v ? IndexUpcaster(b, loc).rewrite(v) : v;
}
