//===- SymbolicShape.cpp - the optimizer's ShapeTrackers over Variables ---===//

#include "SymbolicShape.h"

#include "uop/Dialect/UOp/Utils/IntMath.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::shape;

namespace {
bool isFull(const std::pair<AffineSum, AffineSum> &m, const AffineSum &size) {
  return m.first.isConstant(0) && m.second == size;
}
} // namespace

void SymView::canonicalize() {
  for (auto [s, st] : llvm::zip(shape, strides))
    if (s.isConstant(1))
      st = AffineSum::ofConstant(0);
  if (mask && llvm::all_of(llvm::zip(*mask, shape),
                           [](auto ms) { return isFull(std::get<0>(ms), std::get<1>(ms)); }))
    mask = std::nullopt;
}

SymView SymView::withoutAxes() const {
  return {{}, {}, offset, mask ? std::optional<SymMask>(SymMask()) : std::nullopt};
}

void SymView::append(AffineSum size, AffineSum stride, std::pair<AffineSum, AffineSum> valid) {
  shape.push_back(std::move(size));
  strides.push_back(std::move(stride));
  if (mask)
    mask->push_back(std::move(valid));
}

void SymView::appendAxis(const SymView &from, int64_t a) {
  append(from.shape[a], from.strides[a],
         from.mask ? (*from.mask)[a] : std::make_pair(AffineSum::ofConstant(0), from.shape[a]));
}

SymShapeTracker SymShapeTracker::fromAttr(ShapeTrackerAttr attr, const VarRanges &ranges) {
  auto range = [&](StringRef name) { return ranges.lookup(name); };
  SymShapeTracker st;
  for (ViewAttr v : attr.getViews()) {
    auto entry = [&](int64_t slot) {
      AffineSum e = AffineSum::ofEntry(v, slot);
      if (auto b = e.bounds(range); b && b->first == b->second)
        return AffineSum::ofConstant(b->first);
      return e;
    };
    SymView view;
    for (int64_t i = 0; i < v.getRank(); ++i) {
      view.shape.push_back(entry(v.shapeSlot(i)));
      view.strides.push_back(entry(v.strideSlot(i)));
    }
    view.offset = entry(v.offsetSlot());
    if (v.hasMask()) {
      view.mask.emplace();
      for (int64_t i = 0; i < v.getRank(); ++i)
        view.mask->push_back({entry(v.maskSlot(i, 0)), entry(v.maskSlot(i, 1))});
    }
    view.canonicalize();
    st.views.push_back(std::move(view));
  }
  return st;
}

std::optional<SymShapeTracker>
SymShapeTracker::fromShape(ArrayRef<AffineSum> shape, std::optional<ArrayRef<AffineSum>> strides) {
  SymView v;
  v.shape.assign(shape.begin(), shape.end());
  if (strides) {
    v.strides.assign(strides->begin(), strides->end());
  } else {
    v.strides.resize(shape.size());
    AffineSum acc = AffineSum::ofConstant(1);
    for (int64_t i = shape.size() - 1; i >= 0; --i) {
      v.strides[i] = acc;
      if (i == 0)
        break;
      std::optional<AffineSum> next = acc.times(shape[i]);
      if (!next)
        return std::nullopt;
      acc = *next;
    }
  }
  v.canonicalize();
  SymShapeTracker st;
  st.views.push_back(std::move(v));
  return st;
}

SymShapeTracker SymShapeTracker::fromInt(const ShapeTracker &st) {
  auto sums = [](ArrayRef<int64_t> xs) {
    SymShape out;
    for (int64_t x : xs)
      out.push_back(AffineSum::ofConstant(x));
    return out;
  };
  SymShapeTracker out;
  for (const View &v : st.views) {
    SymView s{sums(v.shape), sums(v.strides), AffineSum::ofConstant(v.offset), std::nullopt};
    if (v.mask) {
      s.mask.emplace();
      for (auto [lo, hi] : *v.mask)
        s.mask->push_back({AffineSum::ofConstant(lo), AffineSum::ofConstant(hi)});
    }
    out.views.push_back(std::move(s));
  }
  return out;
}

SymStrides SymShapeTracker::realStrides() const {
  const SymView &v = views.back();
  SymStrides out(v.shape.size(), std::nullopt);
  if (views.size() != 1)
    return out;
  for (size_t i = 0; i < v.shape.size(); ++i)
    if (!v.mask || isFull((*v.mask)[i], v.shape[i]))
      out[i] = v.strides[i];
  return out;
}

void SymShapeTracker::permute(ArrayRef<int64_t> perm) {
  SymView &v = views.back();
  SymView p = v.withoutAxes();
  for (int64_t a : perm)
    p.appendAxis(v, a);
  v = std::move(p);
}

bool SymShapeTracker::split(int64_t axis, int64_t outer, int64_t inner) {
  SymView v = views.back();
  if (!v.shape[axis].isConstant(outer * inner))
    return false;
  std::optional<AffineSum> outerStride = v.strides[axis].times(inner);
  if (!outerStride)
    return false;
  AffineSum innerStride = v.strides[axis];
  v.shape[axis] = AffineSum::ofConstant(outer);
  v.strides[axis] = *outerStride;
  v.shape.insert(v.shape.begin() + axis + 1, AffineSum::ofConstant(inner));
  v.strides.insert(v.strides.begin() + axis + 1, innerStride);
  if (v.mask) {
    // The valid range [lo, hi) of the axis as valid ranges of both parts:
    // whole rows of `inner`, or a part of one row (View.reshape's cases).
    auto [l, h] = (*v.mask)[axis];
    if (!l.isConstant() || !h.isConstant())
      return false;
    int64_t lo = l.constant, hi = h.constant;
    std::pair<int64_t, int64_t> o, i;
    if (lo % inner == 0 && hi % inner == 0) {
      o = {lo / inner, hi / inner};
      i = {0, inner};
    } else if (lo < hi && floordiv(lo, inner) == floordiv(hi - 1, inner)) {
      int64_t q = floordiv(lo, inner);
      o = {q, q + 1};
      i = {lo - q * inner, hi - q * inner};
    } else {
      return false;
    }
    (*v.mask)[axis] = {AffineSum::ofConstant(o.first), AffineSum::ofConstant(o.second)};
    v.mask->insert(v.mask->begin() + axis + 1,
                   {AffineSum::ofConstant(i.first), AffineSum::ofConstant(i.second)});
  }
  v.canonicalize();
  views.back() = std::move(v);
  return true;
}

bool SymShapeTracker::dropOnes(ArrayRef<bool> drop) {
  const SymView &v = views.back();
  SymView out = v.withoutAxes();
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (drop[i]) {
      // A size-1 axis whose one index is valid (or may not be) decides
      // nothing, or something the new shape cannot say.
      if (!v.shape[i].isConstant(1) || (v.mask && !isFull((*v.mask)[i], AffineSum::ofConstant(1))))
        return false;
      continue;
    }
    out.appendAxis(v, i);
  }
  out.canonicalize();
  views.back() = std::move(out);
  return true;
}

bool SymShapeTracker::merge(ArrayRef<int64_t> runs) {
  const SymView &v = views.back();
  SymView out = v.withoutAxes();
  int64_t start = 0;
  for (int64_t n : runs) {
    SmallVector<int64_t> axes; // the run's axes that are not of size 1
    for (int64_t i = start; i < start + n; ++i) {
      if (!v.shape[i].isConstant(1))
        axes.push_back(i);
      else if (v.mask && !isFull((*v.mask)[i], v.shape[i]))
        return false;
    }
    start += n;
    if (axes.size() == 1) {
      out.appendAxis(v, axes[0]);
      continue;
    }
    if (axes.empty()) {
      out.append(AffineSum::ofConstant(1), AffineSum::ofConstant(0),
                 {AffineSum::ofConstant(0), AffineSum::ofConstant(1)});
      continue;
    }
    // One stride walks the run: each axis's stride is the next one's times
    // its size (or all are 0, an expand), and nothing in it is masked.
    AffineSum size = v.shape[axes.back()];
    for (size_t k = 0; k + 1 < axes.size(); ++k) {
      int64_t p = axes[k], q = axes[k + 1];
      if (v.mask && !isFull((*v.mask)[p], v.shape[p]))
        return false;
      std::optional<AffineSum> walked = v.shape[q].times(v.strides[q]);
      bool expand = v.strides[p].isConstant(0) && v.strides[q].isConstant(0);
      if (!expand && (!walked || *walked != v.strides[p] || v.strides[q].isConstant(0)))
        return false;
      std::optional<AffineSum> s = size.times(v.shape[p]);
      if (!s)
        return false;
      size = *s;
    }
    if (v.mask && !isFull((*v.mask)[axes.back()], v.shape[axes.back()]))
      return false;
    out.append(size, v.strides[axes.back()], {AffineSum::ofConstant(0), size});
  }
  out.canonicalize();
  views.back() = std::move(out);
  return true;
}

FailureOr<ShapeTrackerAttr> SymShapeTracker::toAttr(MLIRContext *ctx,
                                                    const VarRanges &ranges) const {
  auto range = [&](StringRef name) { return ranges.lookup(name); };
  SmallVector<ViewAttr> attrs;
  for (const SymView &v : views) {
    SmallVector<const AffineSum *> entries; // in slot order
    for (const AffineSum &s : v.shape)
      entries.push_back(&s);
    for (const AffineSum &s : v.strides)
      entries.push_back(&s);
    entries.push_back(&v.offset);
    if (v.mask)
      for (const auto &[lo, hi] : *v.mask)
        entries.append({&lo, &hi});
    SmallVector<int64_t> flat;
    SmallVector<SymEntryAttr> sym;
    for (auto [slot, e] : llvm::enumerate(entries)) {
      if (e->isConstant()) {
        flat.push_back(e->constant);
        continue;
      }
      std::optional<std::pair<int64_t, int64_t>> b = e->bounds(range);
      if (!b)
        return failure();
      flat.push_back(b->second);
      sym.push_back(e->toAttr(ctx, slot));
    }
    int64_t r = v.shape.size();
    ArrayRef<int64_t> all(flat);
    attrs.push_back(ViewAttr::get(ctx, all.take_front(r), all.slice(r, r), all[2 * r],
                                  all.drop_front(2 * r + 1), sym));
  }
  return ShapeTrackerAttr::get(ctx, attrs);
}
