//===- IntMath.h - C's and Python's integer division ------------*- C++ -*-===//
//
// tinygrad computes shapes and masks with Python's flooring // and %, and its
// kernels divide with C's truncating / and % (IDIV, MOD). Every rule, view
// and simplifier here uses these, so there is one definition of each.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_INTMATH_H
#define UOP_DIALECT_UOP_UTILS_INTMATH_H

#include <cstdint>

namespace mlir::uop {

/// C's truncating division and remainder (tinygrad's cdiv/cmod, IDIV/MOD).
inline int64_t cdiv(int64_t a, int64_t b) { return a / b; }
inline int64_t cmod(int64_t a, int64_t b) { return a % b; }

/// Python's flooring // and %, and the ceiling division -(-a // b).
inline int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t floormod(int64_t a, int64_t b) { return a - floordiv(a, b) * b; }
inline int64_t ceildiv(int64_t a, int64_t b) { return -floordiv(-a, b); }

} // namespace mlir::uop

#endif
