//===- ShapeTracker.cpp - tinygrad's View and ShapeTracker in C++ ---------===//
//
// tinygrad's shape/view.py and shape/shapetracker.py for integer shapes.
// realStrides and axisIsMasked read tinygrad's simplified index expression,
// built by ShapeTrackerIndex.cpp.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "ShapeTrackerIndex.h"

#include "uop/Dialect/UOp/Utils/IntMath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include <algorithm>
#include <cassert>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::shape;
using namespace mlir::uop::shape::detail;

namespace {

bool hasZero(ArrayRef<int64_t> xs) { return llvm::is_contained(xs, 0); }

Shape rowMajor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s = ViewAttr::stridesForShape(shape);
  return Shape(s.begin(), s.end());
}

/// merge_dims: runs of dimensions that one stride can walk (contiguous, or
/// only one index valid), as (merged size, stride, merged size without the
/// stride-0 part).
struct MergedDim {
  int64_t size, stride, realSize;
};

SmallVector<MergedDim, 6> mergeDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                                    const std::optional<Mask> &mask) {
  SmallVector<MergedDim, 6> ret;
  if (shape.empty())
    return ret;
  auto onlyOne = [&](size_t i) {
    return mask ? (*mask)[i].second - (*mask)[i].first == 1 : shape[i] == 1;
  };
  ret.push_back({shape[0], strides[0], strides[0] != 0 ? shape[0] : 0});
  bool merging = onlyOne(0);
  for (size_t i = 1; i < shape.size(); ++i) {
    int64_t s = shape[i], st = strides[i];
    if (s == 1)
      continue;
    MergedDim last = ret.back();
    if (merging || last.stride == s * st)
      ret.back() = {last.size * s, st, merging ? s : last.realSize * s};
    else
      ret.push_back({s, st, s});
    merging = onlyOne(i);
  }
  return ret;
}

/// _reshape_mask: the mask of the reshaped view, or nullopt when the reshape
/// cuts across it. Both shapes are walked from the innermost dimension; past
/// the front they continue with size-1 dimensions and masks (0, 1).
std::optional<Mask> reshapeMask(const std::optional<Mask> &mask, ArrayRef<int64_t> oldShape,
                                ArrayRef<int64_t> newShape) {
  Mask out;
  if (!mask) {
    for (int64_t s : newShape)
      out.push_back({0, s});
    return out;
  }
  size_t oi = oldShape.size(), ni = newShape.size(), mi = mask->size();
  auto nextOld = [&]() -> int64_t { return oi ? oldShape[--oi] : 1; };
  auto nextNew = [&]() -> int64_t { return ni ? newShape[--ni] : 1; };
  auto nextMask = [&]() -> std::pair<int64_t, int64_t> {
    return mi ? (*mask)[--mi] : std::pair<int64_t, int64_t>{0, 1};
  };
  int64_t currStride = 1, oldDim = nextOld(), newDim = nextNew();
  std::pair<int64_t, int64_t> m = nextMask();
  // Python's // and % (view.py's): an empty mask (0, 0) gives r - 1 = -1.
  while (out.size() < newShape.size()) {
    auto [l, r] = m;
    int64_t nextStride = newDim * currStride;
    if (oldDim == nextStride) {
      // Split finished: copy the mask and move on to the next old dimension.
      out.push_back({floordiv(l, currStride), floordiv(r - 1, currStride) + 1});
      currStride = 1;
      oldDim = nextOld();
      newDim = nextNew();
      m = nextMask();
    } else if (oldDim > nextStride) {
      // Splitting the old dimension works only if the mask stays one block.
      if (oldDim % nextStride != 0)
        return std::nullopt;
      if ((l % nextStride != 0 || r % nextStride != 0) &&
          floordiv(l, nextStride) != floordiv(r - 1, nextStride))
        return std::nullopt;
      out.push_back(
          {floormod(l, nextStride) / currStride, floormod(r - 1, nextStride) / currStride + 1});
      currStride = nextStride;
      newDim = nextNew();
    } else {
      // Merging old dimensions works only if the mask unfolds continuously.
      // With no old dimension left the sizes differ: tinygrad would loop.
      if (!oi)
        return std::nullopt;
      std::pair<int64_t, int64_t> nm = nextMask();
      if (m != std::pair<int64_t, int64_t>{0, oldDim} && l != r && nm.second - nm.first != 1)
        return std::nullopt;
      m = {nm.first * oldDim + l, (nm.second - 1) * oldDim + r};
      oldDim *= nextOld();
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// __unsafe_resize: a window [lo, hi) of every dimension (lo may be negative
/// and hi past the end: padding), intersected with `mask` if given.
View resize(const View &v, ArrayRef<std::pair<int64_t, int64_t>> arg,
            std::optional<Mask> mask = std::nullopt) {
  int64_t offset = v.offset;
  Shape shape;
  for (auto [i, a] : llvm::enumerate(arg)) {
    offset += v.strides[i] * a.first;
    shape.push_back(a.second - a.first);
  }
  if (v.mask) {
    Mask moved;
    for (auto [m, a] : llvm::zip(*v.mask, arg))
      moved.push_back({std::max<int64_t>(0, std::min(m.first - a.first, a.second - a.first)),
                       std::max<int64_t>(0, std::min(m.second - a.first, a.second - a.first))});
    if (mask)
      for (auto [n, o] : llvm::zip(moved, *mask))
        n = {std::max(n.first, o.first), std::min(n.second, o.second)};
    mask = moved;
  }
  return View::create(shape, v.strides, offset, mask);
}

} // namespace

/// View.minify: the view with its mergeable dimensions merged, when that
/// reshape is possible.
View shape::detail::minify(const View &v) {
  Shape minShape;
  for (const MergedDim &m : mergeDims(v.shape, v.strides, v.mask))
    minShape.push_back(m.size);
  if (std::optional<View> nv = v.reshape(minShape))
    return *nv;
  return v;
}

//===----------------------------------------------------------------------===//
// View
//===----------------------------------------------------------------------===//

View View::create(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t offset,
                  std::optional<Mask> mask) {
  assert(llvm::all_of(shape, [](int64_t s) { return s >= 0; }) && "negative dimension");
  assert((strides.empty() || strides.size() == shape.size()) && "one stride per dimension");
  assert((!mask || mask->size() == shape.size()) && "one mask range per dimension");
  View v;
  v.shape.assign(shape.begin(), shape.end());
  if (strides.empty()) {
    v.strides = rowMajor(shape);
  } else {
    for (auto [s, st] : llvm::zip(shape, strides))
      v.strides.push_back(s == 1 ? 0 : st);
  }
  if (hasZero(shape)) {
    v.strides.assign(shape.size(), 0);
    v.contiguous = true;
    return v;
  }
  if (mask && llvm::all_of(llvm::zip(*mask, shape), [](auto ms) {
        return std::get<0>(ms) == std::pair<int64_t, int64_t>{0, std::get<1>(ms)};
      }))
    mask = std::nullopt;
  // A dimension masked to at most one index needs no stride: fold that index
  // into the offset. A dimension masked to none makes the whole view empty.
  if (mask) {
    SmallVector<bool, 6> single;
    for (auto [b, e] : *mask)
      single.push_back(b + 1 >= e);
    if (llvm::is_contained(single, true)) {
      if (llvm::any_of(*mask, [](auto m) { return m.first >= m.second; })) {
        v.strides.assign(shape.size(), 0);
        offset = 0;
        mask = Mask(shape.size(), {0, 0});
      }
      for (size_t i = 0; i < shape.size(); ++i) {
        if (!single[i])
          continue;
        offset += v.strides[i] * (*mask)[i].first;
        v.strides[i] = 0;
      }
    }
  }
  v.offset = offset;
  v.mask = std::move(mask);
  v.contiguous = offset == 0 && !v.mask && v.strides == rowMajor(shape);
  return v;
}

int64_t View::size() const { return prod(shape); }

std::optional<View> View::reshape(ArrayRef<int64_t> newShape) const {
  if (ArrayRef<int64_t>(shape) == newShape)
    return *this;
  assert(llvm::all_of(newShape, [](int64_t s) { return s >= 0; }) && "negative dimension");
  assert(prod(shape) == prod(newShape) && "reshape changes the size");
  if (hasZero(shape))
    return create(newShape);
  if (newShape.empty() && mask && llvm::any_of(*mask, [](auto m) { return m.first == m.second; }))
    return std::nullopt;
  if (contiguous)
    return create(newShape);

  // Strides: every merged run of old dimensions must be split exactly into
  // new dimensions; past the run's stride-0 (expanded) part, strides are 0.
  SmallVector<int64_t, 6> rStrides;
  size_t ni = newShape.size();
  SmallVector<MergedDim, 6> merged = mergeDims(shape, strides, mask);
  for (const MergedDim &m : llvm::reverse(merged)) {
    int64_t acc = 1, newStride = m.stride;
    while (acc < m.size) {
      int64_t newDim = ni ? newShape[--ni] : 0;
      if (newDim <= 0)
        break;
      rStrides.push_back(newStride * acc);
      acc *= newDim;
      if (acc >= m.realSize)
        newStride = 0;
    }
    if (acc != m.size)
      return std::nullopt;
  }
  Shape newStrides(newShape.size() - rStrides.size(), 0);
  newStrides.append(rStrides.rbegin(), rStrides.rend());

  std::optional<Mask> newMask = reshapeMask(mask, shape, newShape);
  if (!newMask)
    return std::nullopt;
  // The masked-off start moves the offset the same way in both views.
  int64_t extraOffset = 0;
  if (mask)
    for (auto [m, s] : llvm::zip(*mask, strides))
      extraOffset += m.first * s;
  for (auto [m, s] : llvm::zip(*newMask, newStrides))
    extraOffset -= m.first * s;
  return create(newShape, newStrides, offset + extraOffset, newMask);
}

View View::permute(ArrayRef<int64_t> axis) const {
  assert(axis.size() == shape.size() && "permutation of the wrong rank");
  Shape newShape, newStrides;
  std::optional<Mask> newMask;
  if (mask)
    newMask.emplace();
  for (int64_t a : axis) {
    newShape.push_back(shape[a]);
    newStrides.push_back(strides[a]);
    if (mask)
      newMask->push_back((*mask)[a]);
  }
  return create(newShape, newStrides, offset, newMask);
}

View View::expand(ArrayRef<int64_t> newShape) const {
  assert(newShape.size() == shape.size() && "expand to a different rank");
  if (hasZero(shape))
    return create(newShape);
  std::optional<Mask> newMask = mask;
  for (size_t i = 0; i < shape.size(); ++i) {
    assert((shape[i] == newShape[i] || shape[i] == 1) && "expand of a dimension that is not 1");
    // An expanded size-1 dimension keeps its one index valid everywhere, or none.
    if (newMask && shape[i] != newShape[i] && shape[i] == 1)
      (*newMask)[i] = (*newMask)[i] == std::pair<int64_t, int64_t>{0, 1}
                          ? std::pair<int64_t, int64_t>{0, newShape[i]}
                          : std::pair<int64_t, int64_t>{0, 0};
  }
  return create(newShape, strides, offset, newMask);
}

View View::pad(ArrayRef<std::pair<int64_t, int64_t>> arg) const {
  assert(arg.size() == shape.size() && "pad of the wrong rank");
  if (llvm::all_of(arg, [](auto p) { return p.first == 0 && p.second == 0; }))
    return *this;
  SmallVector<std::pair<int64_t, int64_t>, 6> window;
  Mask valid;
  for (auto [s, p] : llvm::zip(shape, arg)) {
    assert(p.first >= 0 && p.second >= 0 && "negative padding");
    window.push_back({-p.first, s + p.second});
    valid.push_back({p.first, s + p.first});
  }
  return resize(*this, window, valid);
}

View View::shrink(ArrayRef<std::pair<int64_t, int64_t>> arg) const {
  assert(arg.size() == shape.size() && "shrink of the wrong rank");
  for (auto [s, p] : llvm::zip(shape, arg)) {
    (void)s;
    (void)p;
    assert(0 <= p.first && p.first <= p.second && p.second <= s && "shrink out of range");
  }
  return resize(*this, arg);
}

View View::fromAttr(ViewAttr attr) {
  std::optional<Mask> mask;
  if (attr.hasMask()) {
    ArrayRef<int64_t> flat = attr.getMask();
    mask.emplace();
    for (size_t i = 0; i + 1 < flat.size(); i += 2)
      mask->push_back({flat[i], flat[i + 1]});
  }
  return create(attr.getShape(), attr.getStrides(), attr.getOffset(), mask);
}

ViewAttr View::toAttr(MLIRContext *ctx) const {
  SmallVector<int64_t> flat;
  if (mask)
    for (auto [lo, hi] : *mask)
      flat.append({lo, hi});
  return ViewAttr::get(ctx, shape, strides, offset, flat);
}

//===----------------------------------------------------------------------===//
// ShapeTracker
//===----------------------------------------------------------------------===//

ShapeTracker ShapeTracker::fromShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  ShapeTracker st;
  st.views.push_back(View::create(shape, strides));
  return st;
}

ShapeTracker ShapeTracker::reshape(ArrayRef<int64_t> newShape) const {
  ShapeTracker st = *this;
  if (std::optional<View> v = views.back().reshape(newShape))
    st.views.back() = *v;
  else
    st.views.push_back(View::create(newShape));
  return st;
}

ShapeTracker ShapeTracker::permute(ArrayRef<int64_t> axis) const {
  ShapeTracker st = *this;
  st.views.back() = views.back().permute(axis);
  return st;
}

ShapeTracker ShapeTracker::expand(ArrayRef<int64_t> newShape) const {
  ShapeTracker st = *this;
  st.views.back() = views.back().expand(newShape);
  return st;
}

ShapeTracker ShapeTracker::pad(ArrayRef<std::pair<int64_t, int64_t>> arg) const {
  ShapeTracker st = *this;
  st.views.back() = views.back().pad(arg);
  return st;
}

ShapeTracker ShapeTracker::shrink(ArrayRef<std::pair<int64_t, int64_t>> arg) const {
  ShapeTracker st = *this;
  st.views.back() = views.back().shrink(arg);
  return st;
}

int64_t ShapeTracker::realSize() const {
  if (hasZero(shape()))
    return 0;
  // The largest flat index of the first view's valid part.
  View v = views.front();
  if (v.mask)
    v = v.shrink(*v.mask);
  int64_t hi = v.offset;
  for (auto [s, st] : llvm::zip(v.shape, v.strides))
    if (s != 1 && st != 0)
      hi += std::max<int64_t>(0, st * (s - 1));
  return hi + 1;
}

RealStrides ShapeTracker::realStrides(bool ignoreValid) const {
  const View &last = views.back();
  if (views.size() == 1 && !last.mask)
    return RealStrides(last.strides.begin(), last.strides.end());
  // An empty view below the last has nothing to unravel into (tinygrad
  // divides by zero).
  if (llvm::any_of(ArrayRef<View>(views).drop_back(),
                   [](const View &v) { return hasZero(v.shape); }))
    return RealStrides(rank(), std::nullopt);
  return realStridesOfIndex(views, ignoreValid);
}

SmallVector<int64_t> ShapeTracker::unitStrideAxes(bool ignoreValid) const {
  SmallVector<int64_t> axes;
  for (auto [i, st] : llvm::enumerate(realStrides(ignoreValid)))
    if (st == 1)
      axes.push_back(i);
  return axes;
}

bool ShapeTracker::axisIsMasked(int64_t axis) const {
  if (llvm::any_of(ArrayRef<View>(views).drop_back(),
                   [](const View &v) { return hasZero(v.shape); }))
    return false;
  return maskedAxesOfIndex(views)[axis];
}

ShapeTracker ShapeTracker::fromAttr(ShapeTrackerAttr attr) {
  ShapeTracker st;
  for (ViewAttr v : attr.getViews())
    st.views.push_back(View::fromAttr(v));
  return st;
}

ShapeTrackerAttr ShapeTracker::toAttr(MLIRContext *ctx) const {
  SmallVector<ViewAttr> attrs;
  for (const View &v : views)
    attrs.push_back(v.toAttr(ctx));
  return ShapeTrackerAttr::get(ctx, attrs);
}
