//===- ViewRules.cpp - the scheduler's view and reduce rules --------------===//
//
// From tinygrad's kernelize (seed 002): merge_views (adjacent VIEWs merge,
// a VIEW that changes nothing goes) and the schedule simplifier's REDUCE_AXIS
// rules (a reduce over nothing is the identity element, a reduce over
// stride-0 axes is a multiply or the value itself).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

namespace {

/// A contiguous view maps an index to itself: in a stack it can go, unless
/// it is the last one (which gives the shape).
ShapeTrackerAttr simplify(MLIRContext *ctx, ArrayRef<ViewAttr> views) {
  SmallVector<ViewAttr> kept;
  for (auto [i, v] : llvm::enumerate(views))
    if (i + 1 == views.size() || !v.isContiguous())
      kept.push_back(v);
  return ShapeTrackerAttr::get(ctx, kept);
}

/// VIEW(VIEW(x, st1), st2) -> VIEW(x, st1 + st2)
LogicalResult mergeViews(ViewOp op, PatternRewriter &rw) {
  auto inner = op.getSrc() ? op.getSrc().getDefiningOp<ViewOp>() : ViewOp();
  if (!inner || !inner.getSrc())
    return failure();
  SmallVector<ViewAttr> views(inner.getSt().getViews());
  llvm::append_range(views, op.getSt().getViews());
  rw.replaceOpWithNewOp<ViewOp>(op, op.getType(), inner.getSrc(), simplify(op.getContext(), views));
  return success();
}

/// A VIEW of a tensor that is contiguous and keeps its shape is the tensor.
LogicalResult removeNoopView(ViewOp op, PatternRewriter &rw) {
  ArrayRef<ViewAttr> views = op.getSt().getViews();
  if (!op.getSrc() || !isa<RankedTensorType>(op.getSrc().getType()) ||
      op.getSrc().getType() != op.getType() || views.size() != 1 || !views[0].isContiguous())
    return failure();
  rw.replaceOp(op, op.getSrc());
  return success();
}

TypedAttr identityElement(ReduceKind kind, Type scalar) {
  Builder b(scalar.getContext());
  if (kind == ReduceKind::add)
    return cast<TypedAttr>(b.getZeroAttr(scalar));
  if (kind == ReduceKind::mul)
    return isa<FloatType>(scalar) ? TypedAttr(b.getFloatAttr(scalar, 1))
                                  : TypedAttr(b.getIntegerAttr(scalar, 1));
  if (auto f = dyn_cast<FloatType>(scalar))
    return b.getFloatAttr(scalar, APFloat::getInf(f.getFloatSemantics(), /*Negative=*/true));
  unsigned w = scalar.getIntOrFloatBitWidth();
  bool isSigned = !isUnsignedLike(scalar);
  return b.getIntegerAttr(scalar, isSigned ? APInt::getSignedMinValue(w) : APInt::getZero(w));
}

Value splat(PatternRewriter &rw, Location loc, RankedTensorType t, TypedAttr scalar) {
  return ConstOp::create(rw, loc, t, SplatElementsAttr::get(t, scalar));
}

/// REDUCE_AXIS over no elements (a size-0 axis) is the identity element.
LogicalResult reduceOfNothing(ReduceAxisOp op, PatternRewriter &rw) {
  auto src = dyn_cast<RankedTensorType>(op.getSrc().getType());
  auto t = dyn_cast<RankedTensorType>(op.getType());
  if (!src || !t || src.getNumElements() != 0 || t.getNumElements() == 0)
    return failure();
  rw.replaceOp(op, splat(rw, op.getLoc(), t, identityElement(op.getKind(), t.getElementType())));
  return success();
}

/// The reduce of a value repeated n times: n * x (ADD), x (MAX). MUL would
/// be x ** n, which tinygrad writes as POW; left out (POW of ints does not exist).
LogicalResult reduceRepeated(ReduceAxisOp op, PatternRewriter &rw, Value x, int64_t n) {
  auto t = cast<RankedTensorType>(op.getType());
  if (op.getKind() == ReduceKind::max) {
    rw.replaceOp(op, x);
    return success();
  }
  if (op.getKind() != ReduceKind::add)
    return failure();
  Type scalar = t.getElementType();
  Builder b(rw.getContext());
  TypedAttr count = isa<FloatType>(scalar) ? TypedAttr(b.getFloatAttr(scalar, (double)n))
                                           : TypedAttr(b.getIntegerAttr(scalar, n));
  if (scalar.isInteger(1)) // bool sum is OR: n copies of x are x
    count = b.getBoolAttr(true);
  rw.replaceOpWithNewOp<MulOp>(op, t, x, splat(rw, op.getLoc(), t, count));
  return success();
}

/// REDUCE_AXIS(EXPAND(x)) over axes EXPAND broadcast: x repeated.
LogicalResult reduceOfExpand(ReduceAxisOp op, PatternRewriter &rw) {
  auto expand = op.getSrc().getDefiningOp<ExpandOp>();
  if (!expand || expand.getSrc().getType() != op.getType())
    return failure();
  auto from = cast<RankedTensorType>(expand.getSrc().getType());
  auto to = cast<RankedTensorType>(expand.getType());
  int64_t n = 1;
  for (int64_t a : op.getAxes()) {
    if (from.getDimSize(a) != 1)
      return failure();
    n *= to.getDimSize(a);
  }
  // every broadcast axis is reduced (the types are equal), so x is the result's shape
  return reduceRepeated(op, rw, expand.getSrc(), n);
}

/// REDUCE_AXIS(VIEW(x)) where the (unmasked, single) view has stride 0 on
/// every reduced axis: the view with those axes of size 1, repeated.
LogicalResult reduceOfStrideZeroView(ReduceAxisOp op, PatternRewriter &rw) {
  auto view = op.getSrc().getDefiningOp<ViewOp>();
  auto t = dyn_cast<RankedTensorType>(op.getType());
  if (!view || !t || !view.getSrc() || view.getSt().getViews().size() != 1)
    return failure();
  ViewAttr v = view.getSt().getViews()[0];
  if (v.hasMask() || v.isSymbolic())
    return failure();
  SmallVector<int64_t> shape(v.getShape());
  int64_t n = 1;
  for (int64_t a : op.getAxes()) {
    if (v.getStrides()[a] != 0)
      return failure();
    n *= shape[a];
    shape[a] = 1;
  }
  auto reduced = ViewAttr::get(rw.getContext(), shape, v.getStrides(), v.getOffset(), {});
  Value x = ViewOp::create(rw, op.getLoc(), t, view.getSrc(),
                           ShapeTrackerAttr::get(rw.getContext(), {reduced}));
  return reduceRepeated(op, rw, x, n);
}

} // namespace

void sym::populateViewPatterns(RewritePatternSet &patterns) {
  patterns.add(mergeViews);
  patterns.add(removeNoopView);
  patterns.add(reduceOfNothing);
  patterns.add(reduceOfExpand);
  patterns.add(reduceOfStrideZeroView);
}
