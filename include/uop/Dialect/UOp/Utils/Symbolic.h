//===- Symbolic.h - reading and building index arithmetic -------*- C++ -*-===//
//
// What tinygrad's UPat.cvar, UOp operators and symbolic helpers (split_uop,
// const_factor, divides) give its rewrite rules, on uop values: the
// dialect's folders and canonicalization patterns use it, and so do passes
// that read constants or build index math (uop-lower, uop-gpu-dims,
// uop-expand, uop-devectorize). Implemented in the UOpUtils library (lib/Dialect/UOp/Utils).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_SYMBOLIC_H
#define UOP_DIALECT_UOP_UTILS_SYMBOLIC_H

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"
#include "uop/Dialect/UOp/Utils/IntMath.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::uop::sym {

/// A scalar signed or unsigned integer dtype (not bool): index arithmetic.
inline bool isInt(Type t) { return isa<IntegerType>(t) && !t.isInteger(1); }
inline bool isBool(Type t) { return t.isInteger(1); }
/// Integers and bools: wraparound arithmetic, no NaN, no rounding.
inline bool isExact(Type t) { return isa<IntegerType>(t); }

/// The value of a uop.const of a scalar integer or bool dtype, read with
/// the dtype's signedness; std::nullopt otherwise (or a ui64 beyond int64).
std::optional<int64_t> intConst(Value v);
/// An attribute-valued operand (from a folder's adaptor) as intConst reads it.
std::optional<int64_t> intConst(Attribute a, Type t);
/// A uop.const of a scalar float dtype.
std::optional<double> floatConst(Value v);
/// Whether `v` is a constant (int, bool or float) equal to c.
bool isConst(Value v, double c);
/// Whether `c` is representable in the integer dtype `t`.
bool fits(Type t, int64_t c);
/// Builds uop ops of `v`'s dtype at a rewriter's insertion point.
class Build {
public:
  /// What a Build made, by op, dtype, constant value and operands. A Build
  /// given one returns the op it made before rather than a copy, as
  /// tinygrad's UOps are hash-consed. Only for builders that insert in
  /// block order (each insertion point after the last), so that an op made
  /// earlier dominates every later use, and only while no value it holds
  /// (made, or an operand of what it made) is erased or replaced.
  using Made = DenseMap<std::tuple<const void *, Type, Attribute, Value, Value>, Value>;

  Build(OpBuilder &b, Location loc, Made *made = nullptr) : b(b), loc(loc), made(made) {}
  Value cst(Type t, int64_t v);
  Value add(Value x, Value y) { return binary<AddOp>(x, y); }
  Value sub(Value x, Value y) { return binary<SubOp>(x, y); }
  Value mul(Value x, Value y) { return binary<MulOp>(x, y); }
  Value idiv(Value x, Value y) { return binary<IDivOp>(x, y); }
  Value mod(Value x, Value y) { return binary<ModOp>(x, y); }
  Value neg(Value x) { return NegOp::create(b, loc, x.getType(), x); }
  Value lt(Value x, Value y) {
    return unique(TypeID::get<CmpLtOp>(), x.getType(), {}, x, y,
                  [&]() -> Value { return CmpLtOp::create(b, loc, x, y); });
  }
  /// x + c, x * c, x // c, x % c, x < c with c of x's dtype; x*1 and x+0 are x.
  Value add(Value x, int64_t c) { return c == 0 ? x : add(x, cst(x.getType(), c)); }
  Value mul(Value x, int64_t c) { return c == 1 ? x : mul(x, cst(x.getType(), c)); }
  Value idiv(Value x, int64_t c) { return idiv(x, cst(x.getType(), c)); }
  Value mod(Value x, int64_t c) { return mod(x, cst(x.getType(), c)); }
  Value lt(Value x, int64_t c) { return lt(x, cst(x.getType(), c)); }

private:
  template <typename OpT> Value binary(Value x, Value y) {
    return unique(TypeID::get<OpT>(), x.getType(), {}, x, y,
                  [&]() -> Value { return OpT::create(b, loc, x.getType(), x, y); });
  }
  /// `create()`, or what it made before for the same key when `made` is set.
  Value unique(TypeID op, Type t, Attribute a, Value x, Value y, function_ref<Value()> create);

  OpBuilder &b;
  Location loc;
  Made *made;
};

/// Whether every value in [lo, hi] is representable in the integer dtype `t`.
bool rangeFits(Type t, __int128 lo, __int128 hi);

/// An interval computed without wrapping.
struct Interval {
  __int128 min, max;
};

/// tinygrad's split_uop(x, ADD): the terms of a sum, left to right.
SmallVector<Value> addTerms(Value x);
/// tinygrad's const_factor: the largest constant known to divide x.
int64_t constFactor(Value x);
/// tinygrad's divides(x, c): x / c built from x's terms; only called with
/// c dividing constFactor(x).
Value divides(Build &b, Value x, int64_t c);
/// The range of divides(x, c) without building it (std::nullopt beyond int64).
std::optional<VRange> dividedRange(Value x, int64_t c);
/// The range of a term of a sum as arithmetic without wrapping would give
/// it: constFactor(x) * dividedRange(x, constFactor(x)). A sum of such terms
/// equals the wrapping sum of the IR exactly when its ideal range fits the
/// dtype (integer + and * are modular), whatever wraps inside a term; the
/// terms' own (wrapping) ranges would hide a wrapped term, e.g. r * 2^30.
std::optional<Interval> idealRange(Value x);

} // namespace mlir::uop::sym

#endif
