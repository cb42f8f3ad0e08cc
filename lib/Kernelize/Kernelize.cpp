//===- Kernelize.cpp - tinygrad's get_kernelize_map -----------------------===//
//
// The phases of kernelize.py's get_kernelize_map: simplify the tensor graph,
// decide what realizes (Grouper.cpp), mark it with GBARRIERs, group each
// realized value with its unrealized inputs into a KERNEL, order ASSIGNs,
// and build each kernel's AST (views at the edges, LOAD/STORE on
// DEFINE_GLOBALs).
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;

namespace {

bool isDontPlaceInKernel(Op op) {
  return op == Op::KERNEL || op == Op::ASSIGN || op == Op::BUFFER || op == Op::MSELECT ||
         op == Op::MSTACK || op == Op::MULTI;
}

/// create_kernel: a KERNEL computing `x` into `b` (a new buffer if null),
/// and the ASSIGN that stands for its result.
const Node *createKernel(Graph &g, const Node *x, const Node *b) {
  if (!b)
    b = g.newBuffer(*x->device(), x->size(), x->dtype);
  NodeList src{b};
  src.append(x->src.begin(), x->src.end());
  const Node *kernel = g.get(Op::KERNEL, {}, src, KernelArg{g.sink({x})});
  const Node *buffer = b->base();
  if (b->size() != b->base()->size())
    buffer = g.get(Op::BUFFER_VIEW, b->dtype, {b->base()},
                   Ints{b->size(), b->viewArg().views[0].offset});
  return g.reshape(g.assign(buffer, kernel), x->shape());
}

/// append_to_kernel: walk the kernel's sources back to realized ones.
const Node *appendToKernel(Graph &g, const Node *x) {
  NodeList newSrc;
  for (const Node *s : x->src) {
    if (isDontPlaceInKernel(s->op)) {
      if (!llvm::is_contained(newSrc, s))
        newSrc.push_back(s);
      continue;
    }
    for (const Node *ss : s->src)
      if (!llvm::is_contained(newSrc, ss))
        newSrc.push_back(ss);
  }
  if (llvm::ArrayRef(newSrc) == llvm::ArrayRef(x->src))
    return nullptr;
  return g.replace(x, newSrc);
}

/// add_gbarrier; ctx.user is the grouper's NodeSet.
const PatternMatcher &addGbarrier() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(allOpsExcept({Op::GBARRIER, Op::ASSIGN}),
           [](RewriteCtx &ctx, const Node *x) -> const Node * {
             if (!ctx.get<NodeSet>().contains(x) || x->tag != 0)
               return nullptr;
             return ctx.g.gbarrier(ctx.g.withTag(x, 1));
           });
    return pm;
  }();
  return rules;
}

/// limit_bufs: realize sources before an op reads too many buffers.
const Node *limitBufs(Graph &g, const Node *root, int64_t maxBufs) {
  NodeSet bufs;
  root->toposort([&](const Node *u) {
    bool load =
        u->op == Op::BUFFER || u->op == Op::GBARRIER || u->op == Op::ASSIGN || u->op == Op::MSTACK;
    if (load)
      bufs.insert(u);
    return !load;
  });
  if ((int64_t)bufs.size() < maxBufs - 1)
    return nullptr;
  NodeList src;
  for (const Node *s : root->src)
    src.push_back(bufs.contains(s->base()) ? s : g.gbarrier(g.withTag(s, 1)));
  return g.replace(root, src);
}

/// finalize_gbarrier + remove_tags (ctx.opts: MAX_KERNEL_BUFFERS).
PatternMatcher buildFinalizeGbarrier() {
  PatternMatcher pm;
  OpSet binaryOrTernary;
  for (size_t i = 0; i <= (size_t)Op::MULACC; ++i)
    if (isBinary((Op)i) || isTernary((Op)i))
      binaryOrTernary.set(i);
  pm.add(binaryOrTernary, [](RewriteCtx &ctx, const Node *root) -> const Node * {
    int64_t max = ctx.opts ? ctx.opts->maxKernelBuffers : 0;
    return max ? limitBufs(ctx.g, root, max) : nullptr;
  });
  pm.add(ops({Op::GBARRIER, Op::CONTIGUOUS}),
         [](RewriteCtx &ctx, const Node *x) -> const Node * { // merge
           return x->src[0]->op == Op::GBARRIER ? x->src[0] : nullptr;
         });
  pm.add(Op::GBARRIER, [](RewriteCtx &ctx, const Node *x) -> const Node * {
    Graph &g = ctx.g; // contiguous before the barrier
    return x->src[0]->op == Op::VIEW ? g.gbarrier(g.contiguous(x->src[0])) : nullptr;
  });
  pm.add(Op::GBARRIER,
         [](RewriteCtx &ctx, const Node *x) -> const Node * { // constants need no barrier
           return x->src[0]->op == Op::CONST ? x->src[0] : nullptr;
         });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *v) -> const Node * {
    Graph &g = ctx.g; // simplify views
    if (v->src.size() != 1)
      return nullptr;
    ShapeTracker st = v->viewArg().simplify();
    return st != v->viewArg() ? g.view(v->src[0], st) : nullptr;
  });
  pm.add(allOps(), [](RewriteCtx &ctx, const Node *x) -> const Node * {
    Graph &g = ctx.g; // remove_tags
    return x->tag ? g.withTag(x, 0) : nullptr;
  });
  return pm;
}

} // namespace

const PatternMatcher &kernelize::createKernels() {
  static const PatternMatcher rules = buildCreateKernels();
  return rules;
}

PatternMatcher kernelize::buildCreateKernels() {
  PatternMatcher pm;
  pm.add(Op::ASSIGN, [](RewriteCtx &ctx, const Node *x) -> const Node * {
    Graph &g = ctx.g;
    return x->src[1]->op != Op::KERNEL ? createKernel(g, x, x->src[0]) : nullptr;
  });
  pm.add(Op::GBARRIER, [](RewriteCtx &ctx, const Node *x) -> const Node * {
    Graph &g = ctx.g;
    return createKernel(g, x->src[0], nullptr);
  });
  pm.add(Op::KERNEL, [](RewriteCtx &ctx, const Node *x) -> const Node * {
    Graph &g = ctx.g;
    return appendToKernel(g, x);
  });
  return pm;
}

//===----------------------------------------------------------------------===//
// Kernel ASTs
//===----------------------------------------------------------------------===//

namespace {

const PatternMatcher &replaceGlobals() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(Op::ASSIGN, [](RewriteCtx &, const Node *a) -> const Node * {
      return a->src.size() >= 2 && a->src[0]->op == Op::BUFFER && a->src[1]->op == Op::KERNEL
                 ? a->src[0]
                 : nullptr;
    });
    return pm;
  }();
  return rules;
}

DType ptrOf(const Node *x, int64_t size) { return DType::ptr(x->dtype.scalar, size); }

/// add_buffer_ops; ctx.user is the kernel's buffers (KERNEL's sources'
/// buf_uops), whose positions number the DEFINE_GLOBALs.
PatternMatcher buildAddBufferOps() {
  PatternMatcher pm;
  pm.add(Op::BUFFER, [](RewriteCtx &ctx, const Node *x) -> const Node * { // LOAD
    Graph &g = ctx.g;
    const NodeList &bufs = ctx.get<NodeList>();
    int64_t index = llvm::find(bufs, x) - bufs.begin();
    const Node *glbl = g.get(Op::DEFINE_GLOBAL, ptrOf(x, x->size()), {}, index);
    return g.get(Op::LOAD, x->dtype.base(), {g.view(glbl, *x->st())});
  });
  pm.add(Op::SINK, [](RewriteCtx &, const Node *s) -> const Node * { // a COPY kernel is the COPY
    return s->src.size() == 1 && isMeta(s->src[0]->op) ? s->src[0] : nullptr;
  });
  pm.add(Op::SINK, [](RewriteCtx &ctx, const Node *sink) -> const Node * { // STORE
    if (llvm::any_of(sink->src, [](const Node *s) { return s->op == Op::STORE; }))
      return nullptr;
    Graph &g = ctx.g;
    const NodeList &bufs = ctx.get<NodeList>();
    NodeList stores;
    for (auto [i, x] : llvm::enumerate(sink->src)) {
      const Node *s = x->base();
      const Node *glbl = g.get(Op::DEFINE_GLOBAL, ptrOf(s, bufs[i]->size()), {}, (int64_t)i);
      stores.push_back(g.get(Op::STORE, {}, {g.view(glbl, *s->st()), s}));
    }
    return g.sink(stores);
  });
  pm.add(Op::ASSIGN, [](RewriteCtx &, const Node *x) -> const Node * { return x->src[1]; });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *self) -> const Node * { // VALID
    if (self->src.size() != 1 || self->src[0]->op != Op::CONST)
      return nullptr;
    Graph &g = ctx.g;
    const Node *valid =
        g.get(Op::VALID, {Scalar::Bool, -1}, {g.get(Op::VIEW, {}, {}, &self->viewArg())});
    const Node *c = g.constLike(self, self->base()->as<ConstValue>());
    return g.alu(Op::WHERE, {valid, c, g.constLike(c, ConstValue::ofInt(0))});
  });
  return pm;
}

/// check_load_st: a kernel that stores to buffer 0 may read it only where it
/// writes (tinygrad's "self operand of augmented assign must be contiguous").
bool loadIsSafe(const Node *glbl, const ShapeTracker &st) {
  if (glbl->intArg() != 0 || st.contiguous())
    return true;
  if (st.views.size() != 1)
    return false;
  Pairs window;
  for (auto [s, stride] : llvm::zip(st.shape(), st.views[0].strides))
    window.push_back({0, stride == 0 ? 1 : s});
  if (st.shrink(window).contiguous())
    return true;
  if (const auto &mask = st.views[0].mask)
    return ShapeTracker::fromShape(st.shape()).shrink(*mask) == st.shrink(*mask);
  return false;
}

/// fix_kernel_ops (errors in ctx.error).
PatternMatcher buildFixKernelOps() {
  PatternMatcher pm;
  pm.add(ops({Op::CONTIGUOUS, Op::MSELECT}),
         [](RewriteCtx &, const Node *x) -> const Node * { return x->src[0]; });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
    if (view->src.size() != 1 || view->src[0]->op != Op::DEVICE)
      return nullptr;
    return ctx.g.replace(view, {});
  });
  pm.add(Op::LOAD, [](RewriteCtx &ctx, const Node *load) -> const Node * {
    const Node *view = load->src[0];
    if (view->op == Op::VIEW && view->src.size() == 1 && view->src[0]->op == Op::DEFINE_GLOBAL &&
        !loadIsSafe(view->src[0], view->viewArg()) && ctx.error && ctx.error->empty())
      *ctx.error = "self operand of augmented assign must be contiguous (help: a += a.T -> "
                   "a += a.T.contiguous())";
    return nullptr;
  });
  return pm;
}

/// view_left + add_buffer_ops + fix_kernel_ops, fix_kernel_ast's last rewrite.
const PatternMatcher &bufferOps() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm = viewLeft();
    pm.append(buildAddBufferOps()).append(buildFixKernelOps());
    return pm;
  }();
  return rules;
}

const Node *fixKernelAst(RewriteCtx &ctx, const Node *k) {
  Graph &g = ctx.g;
  const Node *ast = k->as<KernelArg>().ast;
  if (isMeta(ast->op) || llvm::all_of(ast->src, [](const Node *s) { return s->op == Op::STORE; }))
    return nullptr;
  ast = graphRewrite(g, ast, replaceGlobals(), /*bottomUp=*/true);
  ast = graphRewrite(g, graphRewrite(g, ast, viewLeft()), viewRight());
  NodeList bufs;
  for (const Node *s : k->src)
    bufs.push_back(s->op == Op::ASSIGN ? s->bufUop() : s);
  RewriteCtx inner{g, ctx.opts, ctx.error, &bufs};
  ast = graphRewrite(inner, ast, bufferOps(), /*bottomUp=*/true);
  if (ast->op == Op::SINK) {
    const std::string *dev = nullptr;
    for (const Node *s : k->src) {
      const std::string *d = s->device();
      if (dev && d && *d != *dev && ctx.error && ctx.error->empty())
        *ctx.error = "all buffers of a kernel must be on the same device";
      dev = d ? d : dev;
    }
  }
  return g.withArg(k, KernelArg{ast});
}

} // namespace

const PatternMatcher &kernelize::createAst() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(Op::KERNEL, fixKernelAst);
    return pm;
  }();
  return rules;
}

/// UOp.substitute's rule: ctx.user is the NodeMap.
static const PatternMatcher &substituteRules() {
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(allOps(), [](RewriteCtx &ctx, const Node *x) -> const Node * {
      const NodeMap &map = ctx.get<NodeMap>();
      auto it = map.find(x);
      return it == map.end() ? nullptr : it->second;
    });
    return pm;
  }();
  return rules;
}

//===----------------------------------------------------------------------===//
// get_kernelize_map
//===----------------------------------------------------------------------===//

std::optional<NodeMap> kernelize::getKernelizeMap(Graph &g, const Node *sink,
                                                  const KernelizeOptions &opts,
                                                  std::string &error) {
  // merge_views + simplify (multi_pm has nothing to do without MULTI)
  static const PatternMatcher simplify = [] {
    PatternMatcher pm = doFuse();
    pm.append(mergeViews()).append(symRules()).append(replaceContiguous());
    return pm;
  }();
  NodeMap contiguousCtx;
  RewriteCtx ctx{g, &opts, &error, &contiguousCtx};
  NodeMap tensorMap = graphRewriteMap(ctx, sink, simplify);

  // GBARRIERs where the grouper realizes
  NodeSet realizes = groupRealizes(g, tensorMap[sink], opts);
  ctx.user = &realizes;
  tensorMap = graphRewriteMap(ctx, tensorMap[sink], addGbarrier(), /*bottomUp=*/true, &tensorMap);
  static const PatternMatcher finalize = buildFinalizeGbarrier();
  tensorMap = graphRewriteMap(ctx, tensorMap[sink], finalize, false, &tensorMap);

  // group into kernels
  tensorMap = graphRewriteMap(ctx, tensorMap[sink], createKernels(), false, &tensorMap);

  // A kernel that reads a buffer assigned later makes that assign wait for it.
  llvm::DenseMap<const Node *, const Node *> kernelAssign;
  NodeMap assignRep;
  for (const Node *u : tensorMap[sink]->toposort()) {
    if (u->op != Op::ASSIGN)
      continue;
    kernelAssign[u->bufUop()] = u;
    for (const Node *s : u->src[1]->src) {
      if (s->op != Op::BUFFER || s == u->bufUop())
        continue;
      auto it = kernelAssign.find(s);
      if (it == kernelAssign.end())
        continue;
      const Node *a = it->second;
      for (const Node *x : u->toposort())
        if (x->op == Op::ASSIGN && x->bufUop() == s) {
          error =
              "cycle detected in graph: a kernel must either depend on the ASSIGN or the BUFFER";
          return std::nullopt;
        }
      NodeList src(a->src.begin(), a->src.end());
      src.push_back(u);
      assignRep[a] = kernelAssign[s] = g.replace(a, src);
    }
  }
  if (!assignRep.empty()) {
    ctx.user = &assignRep;
    tensorMap =
        graphRewriteMap(ctx, tensorMap[sink], substituteRules(), /*bottomUp=*/true, &tensorMap);
  }

  // the ASTs
  ctx.user = nullptr;
  tensorMap = graphRewriteMap(ctx, tensorMap[sink], createAst(), /*bottomUp=*/true, &tensorMap);
  if (!error.empty())
    return std::nullopt;
  return tensorMap;
}
