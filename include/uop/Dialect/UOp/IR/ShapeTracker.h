//===- ShapeTracker.h - tinygrad's View and ShapeTracker in C++ -*- C++ -*-===//
//
// The movement ops of tinygrad's shape/view.py and shape/shapetracker.py on
// plain values, for the optimizer (uop-optimize), which reshapes and permutes
// every ShapeTracker of a kernel the way tinygrad's opt/kernel.py does. The
// attributes (#uop.view, #uop.st) convert to and from these.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_DIALECT_UOP_IR_SHAPETRACKER_H
#define UOP_DIALECT_UOP_IR_SHAPETRACKER_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace mlir::uop::shape {

using Shape = llvm::SmallVector<int64_t, 6>;
/// Per dimension [lo, hi): the valid indices.
using Mask = llvm::SmallVector<std::pair<int64_t, int64_t>, 6>;
/// A real stride: std::nullopt where tinygrad's is None (not a fixed stride).
using RealStrides = llvm::SmallVector<std::optional<int64_t>, 6>;

/// tinygrad's prod: the product of sizes (1 for none).
inline int64_t prod(llvm::ArrayRef<int64_t> xs) {
  int64_t p = 1;
  for (int64_t x : xs)
    p *= x;
  return p;
}

/// tinygrad's View. Always canonical: built through create().
struct View {
  Shape shape, strides;
  int64_t offset = 0;
  std::optional<Mask> mask;
  bool contiguous = false;

  /// View.create: canonical strides (0 for size-1 dims), a mask that cuts
  /// nothing dropped, an empty mask made all-empty, contiguity computed.
  /// Empty `strides` means row-major.
  static View create(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> strides = {},
                     int64_t offset = 0, std::optional<Mask> mask = std::nullopt);

  int64_t size() const; // product of the shape
  /// View.reshape: std::nullopt where tinygrad returns None (the
  /// ShapeTracker then appends a new view).
  std::optional<View> reshape(llvm::ArrayRef<int64_t> newShape) const;
  View permute(llvm::ArrayRef<int64_t> axis) const;
  View expand(llvm::ArrayRef<int64_t> newShape) const;
  View pad(llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) const;
  View shrink(llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) const;
  View flip(llvm::ArrayRef<bool> arg) const;
  /// View.__add__: one view doing what `next` applied on top of this one
  /// does, or std::nullopt when tinygrad cannot merge them.
  std::optional<View> compose(const View &next) const;
  /// View.invert: the view undoing this one's permute and flip into
  /// `outShape`, or std::nullopt (shrinks, expands, other strides).
  std::optional<View> invert(llvm::ArrayRef<int64_t> outShape) const;

  bool operator==(const View &o) const {
    return shape == o.shape && strides == o.strides && offset == o.offset && mask == o.mask;
  }
  bool operator!=(const View &o) const { return !(*this == o); }

  static View fromAttr(ViewAttr attr);
  ViewAttr toAttr(MLIRContext *ctx) const;
};

/// tinygrad's ShapeTracker: views applied last to first.
struct ShapeTracker {
  llvm::SmallVector<View, 2> views;

  static ShapeTracker fromShape(llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<int64_t> strides = {});
  llvm::ArrayRef<int64_t> shape() const { return views.back().shape; }
  int64_t rank() const { return shape().size(); }

  /// The last view reshaped, or a new contiguous view appended when it
  /// cannot be (ShapeTracker.reshape with MERGE_VIEW=1).
  ShapeTracker reshape(llvm::ArrayRef<int64_t> newShape) const;
  ShapeTracker permute(llvm::ArrayRef<int64_t> axis) const;
  ShapeTracker expand(llvm::ArrayRef<int64_t> newShape) const;
  ShapeTracker pad(llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) const;
  ShapeTracker shrink(llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) const;
  ShapeTracker flip(llvm::ArrayRef<bool> arg) const;

  /// ShapeTracker.__add__: `next`'s views applied after these, merged one at
  /// a time (simplify after each).
  ShapeTracker compose(const ShapeTracker &next) const;
  /// ShapeTracker.simplify: the last two views merged while they can be.
  ShapeTracker simplify() const;
  /// ShapeTracker.invert into `outShape`, or std::nullopt.
  std::optional<ShapeTracker> invert(llvm::ArrayRef<int64_t> outShape) const;
  bool contiguous() const { return views.size() == 1 && views[0].contiguous; }
  /// Whether any view has a mask (some elements read as 0).
  bool hasMask() const {
    return llvm::any_of(views, [](const View &v) { return v.mask.has_value(); });
  }
  /// The flat index into the base buffer of the element at `idx` (one
  /// index per dimension of the shape), or std::nullopt where a mask hides
  /// it (the element is then 0).
  std::optional<int64_t> flatIndex(llvm::ArrayRef<int64_t> idx) const;
  int64_t size() const { return views.back().size(); }

  /// Upper bound on the buffer size this ShapeTracker reaches.
  int64_t realSize() const;
  /// The stride of each axis in the flat index: 0 when the index does not
  /// depend on it, std::nullopt when it is not one fixed stride, or (unless
  /// `ignoreValid`) when the axis is masked.
  RealStrides realStrides(bool ignoreValid = false) const;
  llvm::SmallVector<int64_t> unitStrideAxes(bool ignoreValid = false) const;
  /// Which axes the validity depends on (tinygrad's axis_is_masked of each
  /// axis; one simplification of the index for all of them).
  llvm::SmallBitVector maskedAxes() const;

  bool operator==(const ShapeTracker &o) const { return views == o.views; }
  bool operator!=(const ShapeTracker &o) const { return !(*this == o); }

  static ShapeTracker fromAttr(ShapeTrackerAttr attr);
  ShapeTrackerAttr toAttr(MLIRContext *ctx) const;
};

llvm::hash_code hash_value(const View &v);
llvm::hash_code hash_value(const ShapeTracker &st);

} // namespace mlir::uop::shape

#endif // UOP_DIALECT_UOP_IR_SHAPETRACKER_H
