//===- Transcendental.h - tinygrad's uop/transcendental.py ------*- C++ -*-===//
//
// xexp2, xlog2, xsin and xpow, built from uop ALU ops exactly as tinygrad
// builds them (the same ops in the same order, so that the same compiler
// computes the same bits). Used by uop-decompose-math.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_TRANSFORMS_TRANSCENDENTAL_H
#define UOP_TRANSFORMS_TRANSCENDENTAL_H

#include "mlir/IR/Builders.h"

namespace mlir::uop::transcendental {

/// Whether tinygrad has a decomposition for values of `t` (f16, f32, f64:
/// TRANSCENDENTAL_SUPPORTED_DTYPES, scalars or vectors of them).
bool isSupported(Type t);

Value xexp2(OpBuilder &b, Location loc, Value d);
Value xlog2(OpBuilder &b, Location loc, Value d);
Value xsin(OpBuilder &b, Location loc, Value d);
/// base ** exponent through EXP2 and LOG2 ops (which uop-decompose-math
/// decomposes in turn where the target lacks them).
Value xpow(OpBuilder &b, Location loc, Value base, Value exponent);

/// THREEFRY: tinygrad's threefry2x32 (uop/symbolic.py) of two ui64 values.
Value threefry(OpBuilder &b, Location loc, Value x, Value key);

} // namespace mlir::uop::transcendental

#endif
