//===- ShapeTrackerIndex.h - tinygrad's simplified view index ---*- C++ -*-===//
//
// Private to ShapeTracker.cpp: the index expression of a stack of views, as
// tinygrad's views_to_indexed_uops simplifies it, read for real strides and
// masked axes (ShapeTrackerIndex.cpp), and the view.py helpers both use.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_DIALECT_UOP_IR_SHAPETRACKERINDEX_H
#define UOP_DIALECT_UOP_IR_SHAPETRACKERINDEX_H

#include "uop/Dialect/UOp/IR/ShapeTracker.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mlir::uop::shape::detail {

/// View.minify: the view with its mergeable dimensions merged.
View minify(const View &v);

/// views_to_real_strides for views whose index needs simplifying (more
/// than one view, or a mask); no view below the last may be empty.
RealStrides realStridesOfIndex(llvm::ArrayRef<View> views, bool ignoreValid);
/// The axes the simplified validity of `views` depends on.
llvm::SmallBitVector maskedAxesOfIndex(llvm::ArrayRef<View> views);

} // namespace mlir::uop::shape::detail

#endif
