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

View View::flip(ArrayRef<bool> arg) const {
  assert(arg.size() == shape.size() && "flip of the wrong rank");
  int64_t newOffset = offset;
  Shape newStrides = strides;
  std::optional<Mask> newMask = mask;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!arg[i])
      continue;
    newOffset += (shape[i] - 1) * strides[i];
    newStrides[i] = -strides[i];
    if (newMask)
      (*newMask)[i] = {shape[i] - (*mask)[i].second, shape[i] - (*mask)[i].first};
  }
  return create(shape, newStrides, newOffset, newMask);
}

namespace {

/// unravel: the position of a flat offset in each dimension of `shape`
/// (Python's flooring // and %, so negative offsets wrap as tinygrad's do).
Shape unravel(ArrayRef<int64_t> shape, int64_t offset) {
  Shape idxs(shape.size());
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    idxs[i] = floormod(floordiv(offset, acc), shape[i]);
    acc *= shape[i];
  }
  return idxs;
}

/// A linear form c + sum(coef * idx_d) over the indices of a view, each in
/// [0, shape[d] - 1]: what View.__add__ builds from symbolic variables and
/// asks vmin/vmax of (exact for a linear form of distinct variables).
struct Linear {
  std::map<int64_t, int64_t> coefs;
  int64_t constant = 0;
  void add(int64_t dim, int64_t coef) {
    if ((coefs[dim] += coef) == 0)
      coefs.erase(dim);
  }
  void scale(int64_t by) {
    constant *= by;
    for (auto it = coefs.begin(); it != coefs.end();)
      if ((it->second *= by) == 0)
        it = coefs.erase(it);
      else
        ++it;
  }
  int64_t vmin(ArrayRef<int64_t> sizes) const {
    int64_t v = constant;
    for (auto [d, c] : coefs)
      v += std::min<int64_t>(0, c * (sizes[d] - 1));
    return v;
  }
  int64_t vmax(ArrayRef<int64_t> sizes) const {
    int64_t v = constant;
    for (auto [d, c] : coefs)
      v += std::max<int64_t>(0, c * (sizes[d] - 1));
    return v;
  }
};

} // namespace

std::optional<View> View::compose(const View &vm1) const {
  const View &vm2 = *this;
  if (vm2.contiguous || vm1.size() == 0)
    return vm1;
  if (vm1.contiguous && vm1.shape == vm2.shape)
    return vm2;
  if (vm1.contiguous && vm1.size() == vm2.size())
    if (std::optional<View> ret = vm2.reshape(vm1.shape))
      return ret;
  if (vm1.mask) {
    View unmasked = vm1.shrink(*vm1.mask);
    if (unmasked == vm1)
      return std::nullopt;
    std::optional<View> merged = vm2.compose(unmasked);
    if (!merged)
      return std::nullopt;
    SmallVector<std::pair<int64_t, int64_t>, 6> padding;
    for (auto [m, s] : llvm::zip(*vm1.mask, vm1.shape))
      padding.push_back({m.first, s - m.second});
    return merged->pad(padding);
  }

  // Project vm1's offset and strides onto vm2's dimensions.
  Shape origin = unravel(vm2.shape, vm1.offset);
  SmallVector<SmallVector<std::pair<int64_t, int64_t>, 2>, 6> terms(vm2.shape.size());
  Shape strides1(vm1.shape.size(), 0);
  for (auto [d1, st] : llvm::enumerate(vm1.strides)) {
    if (st == 0)
      continue;
    Shape moved = unravel(vm2.shape, vm1.offset + st);
    for (size_t d2 = 0; d2 < vm2.shape.size(); ++d2) {
      int64_t s1 = moved[d2] - origin[d2];
      if (s1 == 0)
        continue;
      terms[d2].push_back({(int64_t)d1, s1});
      strides1[d1] += s1 * vm2.strides[d2];
    }
  }

  // Merge dimensions of vm2 only where the projected index overflows one.
  int64_t mergedSize = 1;
  Linear mergedTerm;
  SmallVector<std::pair<int64_t, Linear>, 6> extents; // innermost first
  for (size_t k = vm2.shape.size(); k-- > 0;) {
    Linear t;
    for (auto [d1, s1] : terms[k])
      t.add(d1, s1);
    t.constant += origin[k];
    t.scale(mergedSize);
    for (auto [d, c] : t.coefs)
      mergedTerm.add(d, c);
    mergedTerm.constant += t.constant;
    mergedSize *= vm2.shape[k];
    if (mergedTerm.vmax(vm1.shape) < mergedSize && mergedTerm.vmin(vm1.shape) >= 0) {
      extents.push_back({mergedSize, mergedTerm});
      mergedSize = 1;
      mergedTerm = Linear();
    }
  }
  if (!mergedTerm.coefs.empty() || mergedTerm.constant != 0)
    return std::nullopt;
  Shape vm2Shape;
  for (auto &e : llvm::reverse(extents))
    vm2Shape.push_back(e.first);
  if (vm2Shape != vm2.shape) {
    std::optional<View> reshaped = vm2.reshape(vm2Shape);
    if (!reshaped)
      return std::nullopt;
    if (reshaped->shape != vm2.shape)
      return reshaped->compose(vm1);
  }

  if (vm2.mask) {
    // Project vm2's mask onto vm1.
    Shape newb(vm1.shape.size(), 0), newe = vm1.shape;
    bool bad = false;
    for (size_t d2 = 0; d2 < vm2.shape.size(); ++d2) {
      auto [b, e] = (*vm2.mask)[d2];
      const Linear &t = extents[extents.size() - 1 - d2].second;
      int64_t o = origin[d2];
      if (b <= t.vmin(vm1.shape) && t.vmax(vm1.shape) < e)
        continue;
      if (terms[d2].size() != 1) {
        if (terms[d2].empty() && !newe.empty())
          newe[0] = 0;
        else
          bad = true;
        continue;
      }
      auto [d1, s1] = terms[d2][0];
      newb[d1] = std::max(newb[d1], ceildiv(s1 > 0 ? b - o : e - o - 1, s1));
      newe[d1] = std::min(newe[d1], floordiv(s1 < 0 ? b - o : e - o - 1, s1) + 1);
    }
    bool masked = false;
    Mask newMask;
    for (size_t d1 = 0; d1 < vm1.shape.size(); ++d1) {
      newMask.push_back({newb[d1], newe[d1]});
      masked |= newb[d1] != 0 || newe[d1] != vm1.shape[d1];
    }
    if (masked)
      return vm2.compose(create(vm1.shape, vm1.strides, vm1.offset, newMask));
    if (bad)
      return std::nullopt;
  }

  int64_t newOffset = vm2.offset;
  for (auto [o, s] : llvm::zip(origin, vm2.strides))
    newOffset += o * s;
  return create(vm1.shape, strides1, newOffset);
}

std::optional<View> View::invert(ArrayRef<int64_t> outShape) const {
  View ret = create(shape);
  if (mask)
    ret = ret.shrink(*mask);
  SmallVector<bool, 6> flips;
  SmallVector<int64_t, 6> keys, order;
  for (int64_t st : strides) {
    flips.push_back(st < 0);
    keys.push_back(st > 0 ? -st : st);
  }
  for (size_t i = 0; i < strides.size(); ++i)
    order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  ret = ret.flip(flips).permute(order);
  if (prod(ret.shape) != prod(outShape))
    return std::nullopt;
  return ret;
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

ShapeTracker ShapeTracker::flip(ArrayRef<bool> arg) const {
  ShapeTracker st = *this;
  st.views.back() = views.back().flip(arg);
  return st;
}

ShapeTracker ShapeTracker::simplify() const {
  ShapeTracker st = *this;
  while (st.views.size() >= 2) {
    std::optional<View> merged = st.views[st.views.size() - 2].compose(st.views.back());
    if (!merged)
      break;
    st.views.pop_back();
    st.views.back() = *merged;
  }
  return st;
}

ShapeTracker ShapeTracker::compose(const ShapeTracker &next) const {
  ShapeTracker ret = *this;
  for (const View &v : next.views) {
    ret.views.push_back(v);
    ret = ret.simplify();
  }
  return ret;
}

std::optional<ShapeTracker> ShapeTracker::invert(ArrayRef<int64_t> outShape) const {
  ShapeTracker inverted;
  for (size_t k = views.size(); k-- > 0;) {
    ArrayRef<int64_t> into = k > 0 ? ArrayRef<int64_t>(views[k - 1].shape) : outShape;
    std::optional<View> v = views[k].invert(into);
    if (!v)
      return std::nullopt;
    inverted.views.push_back(*v);
  }
  return inverted.reshape(outShape);
}

std::optional<int64_t> ShapeTracker::flatIndex(ArrayRef<int64_t> idx) const {
  Shape at(idx.begin(), idx.end());
  for (size_t k = views.size(); k-- > 0;) {
    const View &v = views[k];
    int64_t flat = v.offset;
    for (size_t d = 0; d < v.shape.size(); ++d) {
      if (v.mask && (at[d] < (*v.mask)[d].first || at[d] >= (*v.mask)[d].second))
        return std::nullopt;
      flat += at[d] * v.strides[d];
    }
    if (k == 0)
      return flat;
    // The flat index of this view is a position in the view below.
    at = unravel(views[k - 1].shape, flat);
  }
  return std::nullopt;
}

llvm::hash_code shape::hash_value(const View &v) {
  llvm::hash_code h = llvm::hash_combine(llvm::hash_combine_range(v.shape.begin(), v.shape.end()),
                                         llvm::hash_combine_range(v.strides.begin(), v.strides.end()),
                                         v.offset, v.mask.has_value());
  if (v.mask)
    for (auto [lo, hi] : *v.mask)
      h = llvm::hash_combine(h, lo, hi);
  return h;
}

llvm::hash_code shape::hash_value(const ShapeTracker &st) {
  llvm::hash_code h = llvm::hash_value(st.views.size());
  for (const View &v : st.views)
    h = llvm::hash_combine(h, hash_value(v));
  return h;
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

llvm::SmallBitVector ShapeTracker::maskedAxes() const {
  if (llvm::any_of(ArrayRef<View>(views).drop_back(),
                   [](const View &v) { return hasZero(v.shape); }))
    return llvm::SmallBitVector(rank());
  return maskedAxesOfIndex(views);
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
