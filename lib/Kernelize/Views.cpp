//===- Views.cpp - kernelize's swizzler: views to the kernel edges --------===//
//
// view_left (views pushed toward the loads), view_right (views pushed past
// reduces and elementwise ops toward the store), swizzle_reduceop, and the
// FUSE rules that use them (pm_fuse, fuse_arange), from tinygrad's
// kernelize.py.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;
using shape::View;

namespace {

/// Sizes other than 1, with their positions (tinygrad compares these).
llvm::SmallVector<std::pair<int64_t, int64_t>> nonOnes(llvm::ArrayRef<int64_t> shape,
                                                       bool withIndex) {
  llvm::SmallVector<std::pair<int64_t, int64_t>> out;
  for (auto [i, s] : llvm::enumerate(shape))
    if (s != 1)
      out.push_back({withIndex ? (int64_t)i : 0, s});
  return out;
}

/// get_contraction: for each new dimension, the old dimensions it merges.
std::optional<llvm::SmallVector<Ints>> getContraction(llvm::ArrayRef<int64_t> oldShape,
                                                      llvm::ArrayRef<int64_t> newShape) {
  Ints accOld, accNew;
  int64_t a = 1;
  for (int64_t s : oldShape)
    accOld.push_back(a *= s);
  a = 1;
  for (int64_t s : newShape)
    accNew.push_back(a *= s);
  Ints split;
  for (int64_t acc : accNew) {
    if (acc == 1) {
      split.push_back(0);
      continue;
    }
    auto it = llvm::find(accOld, acc);
    if (it == accOld.end())
      return std::nullopt;
    split.push_back(it - accOld.begin() + 1);
  }
  llvm::SmallVector<Ints> out;
  for (size_t i = 0; i < split.size(); ++i) {
    int64_t st = i == 0 ? 0 : split[i - 1];
    int64_t ed = i + 1 < split.size() ? split[i] : (int64_t)oldShape.size();
    Ints r;
    for (int64_t k = st; k < ed; ++k)
      r.push_back(k);
    out.push_back(r);
  }
  return out;
}

/// get_contraction_with_reduce.
std::optional<llvm::SmallVector<Ints>>
getContractionWithReduce(llvm::ArrayRef<int64_t> oldShape, llvm::ArrayRef<int64_t> newShape,
                         llvm::ArrayRef<int64_t> reduceAxis) {
  auto contraction = getContraction(oldShape, newShape);
  if (!contraction)
    return std::nullopt;
  auto &c = *contraction;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!llvm::is_contained(reduceAxis, (int64_t)i) || !c[i].empty())
      continue;
    size_t take = i + 1;
    while (take < c.size() && c[take].empty())
      ++take;
    if (take == c.size() || newShape[take] != 1)
      return std::nullopt;
    for (size_t j = take; j > i; --j) {
      Ints last(c[j].end() - 1, c[j].end());
      c[j - 1] = Ints(c[j].begin(), c[j].end() - 1);
      c[j] = last;
    }
  }
  return contraction;
}

/// reduce_push_add_ones: a view that only adds ones after a reduce goes
/// before it.
const Node *reducePushAddOnes(Graph &g, const Node *src, const Node *r, const Node *view) {
  const ShapeTracker &vst = view->viewArg();
  if (!vst.contiguous() || r->shape().size() >= view->shape().size())
    return nullptr;
  if (nonOnes(r->shape(), false) != nonOnes(view->shape(), false))
    return nullptr;
  const ReduceArg &ra = r->reduce();
  auto contraction = getContractionWithReduce(view->shape(), r->shape(), ra.axes);
  if (!contraction)
    return nullptr;
  Ints newShape, newAxes;
  for (auto [i, pairs] : llvm::enumerate(*contraction)) {
    if (llvm::is_contained(ra.axes, (int64_t)i)) {
      for (size_t k = 0; k + 1 < pairs.size(); ++k)
        newShape.push_back(1);
      newShape.push_back(src->shape()[i]);
      newAxes.push_back(newShape.size() - 1);
    } else {
      for (int64_t p : pairs)
        newShape.push_back(view->shape()[p]);
    }
  }
  ReduceArg arg = ra;
  arg.axes = newAxes;
  return g.get(Op::REDUCE_AXIS, r->dtype, {g.reshape(src, newShape)}, arg);
}

} // namespace

const PatternMatcher &kernelize::viewLeft() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm = buildMergeViews();
    pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
      Graph &g = ctx.g; // view before elementwise ops
      if (view->src.size() != 1)
        return nullptr;
      const Node *e = view->src[0];
      if (!isALU(e->op) && e->op != Op::CAST && e->op != Op::BITCAST && e->op != Op::BIND &&
          e->op != Op::LOAD && e->op != Op::STORE && e->op != Op::VALID)
        return nullptr;
      NodeList src;
      for (const Node *s : e->src)
        src.push_back(g.view(s, view->viewArg()));
      return g.replace(e, src);
    });
    pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
      Graph &g = ctx.g;
      if (view->src.size() != 1 || view->src[0]->op != Op::REDUCE_AXIS)
        return nullptr;
      const Node *r = view->src[0];
      return reducePushAddOnes(g, r->src[0], r, view);
    });
    return pm;
  }();
  return rules;
}

const Node *kernelize::applySwizzle(Graph &g, const Node *u) {
  return graphRewrite(g, u, viewLeft());
}

const Node *kernelize::swizzleReduceop(Graph &g, const Node *r, const Node *src, const Node *view,
                                       bool fuse) {
  const ShapeTracker &vst = view->viewArg();
  const ReduceArg &ra = r->reduce();
  if (vst.contiguous() && view->size() == r->size() &&
      (!ra.fuse || nonOnes(r->shape(), true) == nonOnes(view->shape(), true)))
    return nullptr;
  ShapeTracker input = ShapeTracker::fromShape(src->shape());
  Ints order;
  for (int64_t i = 0; i < input.rank(); ++i)
    if (!llvm::is_contained(ra.axes, i))
      order.push_back(i);
  order.append(ra.axes.begin(), ra.axes.end());
  ShapeTracker tmp = input.permute(order);
  llvm::ArrayRef<int64_t> rshape =
      tmp.shape().take_back(ra.axes.empty() ? tmp.rank() : ra.axes.size());
  int64_t prshape = shape::prod(rshape);
  llvm::SmallVector<int64_t> rstrides = ViewAttr::stridesForShape(rshape);
  ShapeTracker nv;
  for (const View &v : vst.views) {
    Ints shape(v.shape.begin(), v.shape.end()), strides;
    shape.append(rshape.begin(), rshape.end());
    for (int64_t s : v.strides)
      strides.push_back(s * prshape);
    strides.append(rstrides.begin(), rstrides.end());
    std::optional<shape::Mask> mask;
    if (v.mask) {
      mask = *v.mask;
      for (int64_t s : rshape)
        mask->push_back({0, s});
    }
    nv.views.push_back(View::create(shape, strides, v.offset * prshape, mask));
  }
  const Node *swizzled = applySwizzle(g, g.view(src, tmp.compose(nv)));
  Ints newAxes;
  for (size_t i = 0; i < ra.axes.size(); ++i)
    newAxes.push_back(view->shape().size() + i);
  const Node *red = g.get(Op::REDUCE_AXIS, r->dtype, {fuse ? g.fuse(swizzled) : swizzled},
                          ReduceArg{ra.op, newAxes, fuse});
  return g.reshape(red, view->shape());
}

const PatternMatcher &kernelize::viewRight() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm = buildMergeViews();
    pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
      Graph &g = ctx.g; // through a reduce
      if (view->src.size() != 1 || view->src[0]->op != Op::REDUCE_AXIS)
        return nullptr;
      const Node *r = view->src[0];
      return swizzleReduceop(g, r, r->src[0], view, /*fuse=*/false);
    });
    pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *r) -> const Node * {
      Graph &g = ctx.g; // reduceop_view_right
      const Node *v = r->src[0];
      if (v->op != Op::VIEW || v->src.size() != 1 || isAlwaysContiguous(v->src[0]->op))
        return nullptr;
      const Node *src = v->src[0];
      if (!v->viewArg().contiguous() || v->size() != src->size())
        return nullptr; // tinygrad asserts
      Ints axes;
      for (size_t i = 0; i < std::min(src->shape().size(), r->shape().size()); ++i)
        if (src->shape()[i] != r->shape()[i])
          axes.push_back(i);
      return g.reshape(g.r(src, r->reduce().op, axes), r->shape());
    });
    pm.add(allOpsExcept({Op::SINK, Op::GBARRIER, Op::REDUCE_AXIS}),
           [](RewriteCtx &ctx, const Node *root) -> const Node * {
             Graph &g = ctx.g; // elementwise_view_right
             NodeList swizzles;
             for (const Node *x : root->src)
               if (x->op == Op::VIEW && !isAlwaysContiguous(x->base()->op))
                 swizzles.push_back(x);
             if (swizzles.empty())
               return nullptr;
             ShapeTracker newSt = ShapeTracker::fromShape(swizzles[0]->base()->shape());
             NodeList newSrc;
             for (const Node *x : root->src)
               newSrc.push_back(x->base()->shape() == newSt.shape()
                                    ? x->base()
                                    : applySwizzle(g, g.view(x, newSt)));
             return g.reshape(g.replace(root, newSrc), root->shape());
           });
    pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *r2) -> const Node * {
      Graph &g = ctx.g; // double reduce
      const Node *r1 = r2->src[0];
      if (r1->op != Op::REDUCE_AXIS || r1->reduce().op != r2->reduce().op)
        return nullptr;
      Ints axes = r2->reduce().axes;
      axes.append(r1->reduce().axes.begin(), r1->reduce().axes.end());
      return g.withArg(r1, ReduceArg{r1->reduce().op, axes, false});
    });
    return pm;
  }();
  return rules;
}

//===----------------------------------------------------------------------===//
// FUSE
//===----------------------------------------------------------------------===//

namespace {

PatternMatcher buildPmFuse() {
  PatternMatcher pm;
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * { // FUSE on CONTIGUOUS
    return f->src[0]->op == Op::CONTIGUOUS ? f->src[0] : nullptr;
  });
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * {
    Graph &g = ctx.g; // swizzle the reduce
    const Node *view = f->src[0];
    if (view->op != Op::VIEW || view->src.size() != 1)
      return nullptr;
    const Node *r = view->src[0]->op == Op::CAST ? view->src[0]->src[0] : view->src[0];
    if (r->op != Op::REDUCE_AXIS)
      return nullptr;
    const Node *ret = swizzleReduceop(g, r, r->src[0], view, /*fuse=*/true);
    return ret ? g.cast(ret, view->dtype) : nullptr;
  });
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * {
    Graph &g = ctx.g; // mark the reduce
    const Node *r = f->src[0];
    if (r->op != Op::REDUCE_AXIS || r->reduce().fuse)
      return nullptr;
    ReduceArg arg = r->reduce();
    arg.fuse = true;
    return g.get(Op::REDUCE_AXIS, r->dtype, {g.fuse(r->src[0])}, arg, r->tag);
  });
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * {
    Graph &g = ctx.g; // unsafe pad: realize
    const Node *view = f->src[0];
    if (view->op != Op::VIEW || view->src.size() != 1 || !isUnsafePad(view->src[0]->op) ||
        !view->viewArg().hasMask())
      return nullptr;
    return g.view(g.contiguous(view->src[0]), view->viewArg());
  });
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * {
    Graph &g = ctx.g; // elementwise
    const Node *view = f->src[0];
    if (view->op != Op::VIEW || view->src.size() != 1)
      return nullptr;
    const Node *alu = view->src[0];
    if (!isALU(alu->op) && alu->op != Op::CAST)
      return nullptr;
    NodeList src;
    for (const Node *x : alu->src)
      src.push_back(g.fuse(applySwizzle(g, g.view(x, view->viewArg()))));
    return g.replace(alu, src);
  });
  pm.add(Op::FUSE, [](RewriteCtx &ctx, const Node *f) -> const Node * {
    Graph &g = ctx.g; // push FUSE to the sources
    const Node *x = f->src[0];
    NodeList src;
    for (const Node *y : x->src)
      src.push_back(g.fuse(y));
    return g.replace(x, src);
  });
  return pm;
}

/// do_fusion: the FUSE region rewritten with its CONTIGUOUS inputs hidden.
const Node *doFusion(Graph &g, const Node *x) {
  NodeMap found, back;
  x->toposort([&](const Node *u) {
    if (u->op != Op::CONTIGUOUS)
      return true;
    const Node *stand = g.replace(u, {g.get(Op::VIEW, {}, {}, u->st())});
    found[u] = stand;
    back[stand] = u;
    return false;
  });
  static const PatternMatcher pmFuse = buildPmFuse();
  const Node *out = graphRewrite(g, g.substitute(x, found), pmFuse);
  return g.substitute(out, back);
}

/// fuse_arange: fuse the nearest expanding child of a local arange.
const Node *fuseArange(Graph &g, const Node *root) {
  if (root->src[0]->base()->op == Op::CONST)
    return nullptr;
  NodeList localArange;
  llvm::SmallVector<const Node *> topo = root->toposort([&](const Node *u) {
    if (u->op == Op::REDUCE_AXIS && u->src[0]->base()->op == Op::CONST)
      localArange.push_back(u);
    return (!isAlwaysContiguous(u->op) && u->op != Op::REDUCE_AXIS) || u == root;
  });
  if (localArange.empty())
    return nullptr;
  llvm::DenseMap<const Node *, NodeList> children;
  for (const Node *u : topo)
    for (const Node *s : u->src)
      children[s].push_back(u);
  // Skip if the aranges differ in a dimension (zip: up to the smallest rank).
  size_t rank = localArange[0]->src[0]->shape().size();
  for (const Node *r : localArange)
    rank = std::min(rank, r->src[0]->shape().size());
  for (size_t d = 0; d < rank; ++d)
    for (const Node *r : localArange)
      if (r->src[0]->shape()[d] != localArange[0]->src[0]->shape()[d])
        return nullptr;
  NodeMap fuseRep;
  for (const Node *r : localArange) {
    if (r->reduce().fuse)
      continue;
    NodeList q = children[r];
    while (!q.empty()) {
      const Node *u = q.pop_back_val();
      auto it = children.find(u);
      if (it == children.end() || it->second.empty())
        continue;
      NodeList curr = it->second;
      bool broke = false;
      for (const Node *child : curr) {
        bool otherPaths = false;
        for (const Node *s : child->toposort())
          if ((s->op == Op::REDUCE_AXIS || s->op == Op::BUFFER) && s != root && s != r)
            otherPaths = true;
        NodeList src;
        for (const Node *s : child->src)
          src.push_back(s == u ? g.fuse(s) : s);
        fuseRep[child] = g.replace(child, src);
        if (otherPaths) {
          broke = true;
          break;
        }
      }
      if (!broke)
        q.append(curr.begin(), curr.end());
    }
  }
  return fuseRep.empty() ? nullptr : g.substitute(root, fuseRep);
}

} // namespace

const PatternMatcher &kernelize::doFuse() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(Op::FUSE,
           [](RewriteCtx &ctx, const Node *x) -> const Node * { return doFusion(ctx.g, x); });
    pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *root) -> const Node * {
      return ctx.opts && ctx.opts->fuseArange ? fuseArange(ctx.g, root) : nullptr;
    });
    return pm;
  }();
  return rules;
}
