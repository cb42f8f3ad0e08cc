//===- UOpRanges.h - tinygrad's vmin/vmax through MLIR's range interface -*- C++ -*-===//
//
// Every integer or bool uop op implements InferIntRangeInterface
// (UOpRanges.cpp); upstream's IntegerRangeAnalysis and the rewrite rules
// read the same definitions. getIntRange walks the use-def graph the way
// tinygrad's vmin/vmax does, for rules that need a bound on one value.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_IR_UOPRANGES_H
#define UOP_DIALECT_UOP_IR_UOPRANGES_H

#include "mlir/Interfaces/InferIntRangeInterface.h"

#include <optional>

namespace mlir::uop {

/// The range of a scalar integer or bool value, from its defining ops'
/// range interfaces (any value they do not bound is the full range).
/// std::nullopt for values that are not scalar integers or bools.
std::optional<ConstantIntRanges> getIntRange(Value v);

/// tinygrad's (vmin, vmax) of a scalar integer value, read with the
/// value's signedness; std::nullopt when not an integer or when a bound of
/// a ui64 does not fit in int64.
struct VRange {
  int64_t min, max;
};
std::optional<VRange> getVRange(Value v);

} // namespace mlir::uop

#endif
