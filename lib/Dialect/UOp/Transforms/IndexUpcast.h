//===- IndexUpcast.h - int64 where a view's index leaves int32 --*- C++ -*-===//
#ifndef UOP_LIB_TRANSFORMS_INDEXUPCAST_H
#define UOP_LIB_TRANSFORMS_INDEXUPCAST_H

#include "mlir/IR/Builders.h"

namespace mlir::uop {

/// tinygrad's pm_upcast (shape/shapetracker.py) on the index expression the
/// lowerer built for a view, at the builder's insertion point: an si32
/// operation whose value can leave int32 is computed in si64, its sources
/// cast; one with an si64 source whose value fits is computed in si64 and
/// cast back to si32. So a buffer of more than 2^31 elements is indexed by
/// an si64 value rather than a wrapped si32 one; other indices are as
/// before. Returns the rewritten value (`v` when nothing changes).
Value upcastIndex(OpBuilder &b, Location loc, Value v);

} // namespace mlir::uop

#endif
