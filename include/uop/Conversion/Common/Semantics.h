//===- Semantics.h - what each uop op computes, in arith/math ---*- C++ -*-===//
//
// The value semantics of uop ops as tinygrad defines them (its C backend is
// the reference the corpus was computed with), separate from where the ops
// are placed (KernelEmitter.cpp). See docs/semantics.md.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_SEMANTICS_H
#define UOP_CONVERSION_COMMON_SEMANTICS_H

#include "uop/Conversion/Common/TargetInfo.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::uop {

/// Builds the arith/math ops for one uop op at a builder's insertion point.
class Semantics {
public:
  Semantics(OpBuilder &b, Location loc, const TargetInfo &target)
      : b(b), loc(loc), target(target), types(target.types) {}

  /// The value of a uop op whose operands are already converted; null if
  /// the op is not a value op this class knows (the caller reports it).
  Value emit(Operation *op, ValueRange operands);
  /// Why the last emit returned null, when the op is known but cannot be
  /// lowered here; empty otherwise.
  StringRef whyUnsupported() const { return why; }

  Value constant(TypedAttr value, Type uopType);
  Value zero(Type uopType);
  /// REDUCE's starting value: 0 for add, 1 for mul, the lowest value for max.
  Value identity(ReduceKind kind, Type uopType);
  /// One step of a REDUCE: acc <op> x, rounded to the accumulator's dtype.
  Value combine(ReduceKind kind, Value acc, Value x, Type uopType);
  /// One step of a horizontal REDUCE: acc <op> x[0] <op> x[1] ..., in order.
  Value combineLanes(ReduceKind kind, Value acc, Value vec, Type uopType);
  /// Lane i of a converted vector.
  Value extract(Value vec, int64_t i);
  /// MULACC: x * y + z (converted values of uop type `uopType`).
  Value mulAdd(Value x, Value y, Value z, Type uopType);
  /// A value as loaded from memory, to its compute type.
  Value fromStorage(Value stored, Type uopType);
  /// A computed value to the type it is stored as (rounds widened halves).
  Value toStorage(Value v, Type uopType);

private:
  /// A binary op picked by the dtype: floats, bool (i1), or other integers.
  template <typename FloatOp, typename BoolOp, typename IntOp>
  Value byKind(Type uopType, Value x, Value y) {
    Type s = getScalarType(uopType);
    if (isa<FloatType>(s))
      return FloatOp::create(b, loc, x, y);
    if (s.isInteger(1))
      return BoolOp::create(b, loc, x, y);
    return IntOp::create(b, loc, x, y);
  }
  /// An i32 vector lane index.
  Value lane(int64_t i);
  Value convert(Value x, Type from, Type to); // CAST
  Value bitcast(Value x, Type from, Type to);
  Value floatToInt(Value x, Type to);
  Value roundToOddF32(Value f64);
  Value divRem(Operation *op, Value x, Value y, bool isUnsigned);
  Value shift(Operation *op, Value x, Value amount, Type uopType);
  Value max(Value x, Value y, Type uopType);
  /// Round a widened half back to its dtype's precision (identity otherwise).
  Value round(Value v, Type uopType);
  Value splat(Type like, TypedAttr scalar);
  /// EXP2, LOG2, SIN, SQRT, RECIP and POW: the target's instruction, else
  /// math/arith ops.
  Value math(Operation *op, ValueRange x);

  OpBuilder &b;
  Location loc;
  const TargetInfo &target;
  const DTypeLowering &types;
  std::string why;
};

} // namespace mlir::uop

#endif
