//===- SymbolicShape.h - the optimizer's ShapeTrackers over Variables -*- C++ -*-===//
//
// tinygrad's Kernel reshapes and permutes ShapeTrackers whose entries may be
// symbolic (sint: affine in the kernel's Variables, as in a KV cache). Here
// every entry is a sym::AffineSum, and only the movements the optimizer makes
// exist: permute, split an axis of constant size, drop size-1 axes, merge
// adjacent axes. Each is exact or fails (std::nullopt/false): the caller
// reports that the opt cannot be applied. None appends a view, so a symbolic
// kernel never needs a division by a variable to index.
//
// The integer ShapeTracker the heuristic reads is this one written as
// #uop.st, each symbolic entry as its upper bound (tinygrad's resolve with
// its default True decides `x >= c` as the upper bound does).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_SYMBOLICSHAPE_H
#define UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_SYMBOLICSHAPE_H

#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/Utils/AffineSum.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::uop::shape {

using sym::AffineSum;
/// The variables' inclusive [min, max], by name.
using VarRanges = llvm::StringMap<std::pair<int64_t, int64_t>>;
using SymShape = llvm::SmallVector<AffineSum, 6>;
using SymMask = llvm::SmallVector<std::pair<AffineSum, AffineSum>, 6>;
using SymStrides = llvm::SmallVector<std::optional<AffineSum>, 6>;

struct SymView {
  SymShape shape, strides;
  AffineSum offset;
  std::optional<SymMask> mask;

  /// View.create's canonical form: stride 0 on constant size-1 axes, no mask
  /// where it cuts nothing.
  void canonicalize();
  /// A view of no axes with this one's offset, masked if this one is.
  SymView withoutAxes() const;
  /// Appends an axis; its valid range [lo, hi) is kept where the view is
  /// masked.
  void append(AffineSum size, AffineSum stride, std::pair<AffineSum, AffineSum> valid);
  /// Appends axis `a` of `from`.
  void appendAxis(const SymView &from, int64_t a);
};

class SymShapeTracker {
public:
  /// The views of `attr`; a symbolic entry whose variables' ranges hold one
  /// value becomes that constant.
  static SymShapeTracker fromAttr(ShapeTrackerAttr attr, const VarRanges &ranges);
  /// A one-view tracker: row-major strides (std::nullopt when a stride is not
  /// affine) or the given ones.
  static std::optional<SymShapeTracker> fromShape(ArrayRef<AffineSum> shape,
                                                  std::optional<ArrayRef<AffineSum>> strides = {});
  /// An integer tracker as it is.
  static SymShapeTracker fromInt(const ShapeTracker &st);

  ArrayRef<AffineSum> shape() const { return views.back().shape; }
  /// The stride of each axis where one stride walks it (tinygrad's
  /// real_strides of an unmasked single view); std::nullopt otherwise.
  SymStrides realStrides() const;

  void permute(ArrayRef<int64_t> perm);
  /// Axis `axis` (constant outer * inner) as two axes, outer first.
  bool split(int64_t axis, int64_t outer, int64_t inner);
  /// Without the axes marked in `drop` (each of constant size 1).
  bool dropOnes(ArrayRef<bool> drop);
  /// Runs of adjacent axes as one axis each: `runs[i]` axes become axis i.
  bool merge(ArrayRef<int64_t> runs);

  /// As #uop.st (integers: each symbolic entry's upper bound); failure when
  /// a bound leaves int64.
  FailureOr<ShapeTrackerAttr> toAttr(MLIRContext *ctx, const VarRanges &ranges) const;

  llvm::SmallVector<SymView, 2> views;
};

} // namespace mlir::uop::shape

#endif
