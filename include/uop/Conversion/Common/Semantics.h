//===- Semantics.h - what each uop op computes, in arith/math ---*- C++ -*-===//
//
// The value semantics of uop ops as tinygrad defines them (its C backend is
// the reference the corpus was computed with), separate from where the ops
// are placed (KernelEmitter.cpp). See docs/semantics.md.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_SEMANTICS_H
#define UOP_CONVERSION_COMMON_SEMANTICS_H

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::uop {

/// How uop dtypes are represented after conversion.
struct DTypeLowering {
  /// Compute f16/bf16 in f32 (C promotion on tinygrad's CPU backend).
  bool halfInF32 = true;
  /// The code is for NVPTX: ops without a PTX instruction (POW, f64 EXP2,
  /// LOG2, SIN) are reported rather than left as library calls.
  bool nvptx = false;
  /// The transcendental ops (by mnemonic: exp2, log2, sin, sqrt, recip)
  /// computed with PTX's approximate instructions; only with `nvptx`.
  SmallVector<StringRef> approxOps;

  /// The type a value of uop type `t` has while computing: signless ints,
  /// f16/bf16 widened when halfInF32.
  Type compute(Type t) const;
  /// The type an element of uop type `t` has in memory: bool is a byte.
  Type storage(Type t) const;
  /// Whether `t` (a uop dtype) is computed in a wider type than it stores.
  bool isWidened(Type t) const;
  /// An error message if `t` cannot be lowered, empty otherwise.
  std::string unsupported(Type t) const;
};

/// Builds the arith/math ops for one uop op at a builder's insertion point.
class Semantics {
public:
  Semantics(OpBuilder &b, Location loc, const DTypeLowering &types)
      : b(b), loc(loc), types(types) {}

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
  Value divRem(Operation *op, Value x, Value y, bool isUnsigned);
  Value shift(Operation *op, Value x, Value amount, Type uopType);
  Value max(Value x, Value y, Type uopType);
  /// Round a widened half back to its dtype's precision (identity otherwise).
  Value round(Value v, Type uopType);
  Value splat(Type like, TypedAttr scalar);
  /// EXP2, LOG2, SIN, SQRT, RECIP: math/arith ops, or PTX's approximate
  /// instructions for the ops in `types.approxOps`.
  Value transcendental(Operation *op, Value x);
  Value approx(StringRef name, Value x);

  OpBuilder &b;
  Location loc;
  const DTypeLowering &types;
  std::string why;
};

} // namespace mlir::uop

#endif
