//===- Rewrite.cpp - tinygrad's PatternMatcher and graph_rewrite ----------===//

#include "uop/Kernelize/Rewrite.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir::uop;
using namespace mlir::uop::kernelize;

OpSet kernelize::ops(std::initializer_list<Op> list) {
  OpSet s;
  for (Op op : list)
    s.set((size_t)op);
  return s;
}

OpSet kernelize::allOps() {
  OpSet s;
  for (size_t i = 0; i <= (size_t)Op::MULACC; ++i)
    s.set(i);
  return s;
}

namespace {
template <typename Pred> OpSet opsWhere(Pred pred) {
  OpSet s;
  for (size_t i = 0; i <= (size_t)Op::MULACC; ++i)
    if (pred((Op)i))
      s.set(i);
  return s;
}
} // namespace

OpSet kernelize::aluOps() { return opsWhere(isALU); }
OpSet kernelize::unaryOps() { return opsWhere(isUnary); }
OpSet kernelize::movementOps() { return opsWhere(isMovement); }

const Node *PatternMatcher::rewrite(RewriteCtx &ctx, const Node *n) const {
  for (uint16_t i : byOp[(size_t)n->op])
    if (const Node *out = rules[i].fn(ctx, n); out && out != n)
      return out;
  return nullptr;
}

const Node *PatternMatcher::fixedPoint(RewriteCtx &ctx, const Node *n) const {
  for (unsigned i = 0;; ++i) {
    const Node *next = rewrite(ctx, n);
    if (!next)
      return n;
    if (i > 100000)
      llvm::report_fatal_error("kernelize: a rewrite rule loops");
    n = next;
  }
}

namespace {
// The live rewriters of this thread, innermost last, and the next id.
thread_local llvm::SmallVector<uint64_t, 8> liveRewriters;
thread_local uint64_t nextRewriterId = 1;
} // namespace

Rewriter::Rewriter(RewriteCtx &ctx, const PatternMatcher *pm, const PatternMatcher *bpm)
    : ctx(ctx), pm(pm), bpm(bpm), id(nextRewriterId++) {
  liveRewriters.push_back(id);
}

Rewriter::~Rewriter() {
  assert(liveRewriters.back() == id && "rewriters nest");
  liveRewriters.pop_back();
}

void Rewriter::set(const Node *n, const Node *v) {
  if (n->memoOwner != id && n->memoOwner != 0 && llvm::is_contained(liveRewriters, n->memoOwner)) {
    overflow[n] = v; // an enclosing rewriter's slot
    return;
  }
  n->memoOwner = id;
  n->memoValue = v;
}

const Node *Rewriter::rewrite(const Node *root) {
  struct Entry {
    const Node *n;
    int stage;
    const Node *newN;
  };
  llvm::SmallVector<Entry, 64> stack{{root, 0, root}};
  while (!stack.empty()) {
    if (stack.size() >= 200000)
      llvm::report_fatal_error("kernelize: infinite loop in graph_rewrite");
    Entry e = stack.pop_back_val();
    if (lookup(e.n))
      continue;
    if (e.stage == 0) {
      const Node *newN = e.newN;
      if (bpm)
        newN = bpm->fixedPoint(ctx, newN);
      stack.push_back({e.n, 1, newN});
      for (const Node *x : llvm::reverse(newN->src))
        stack.push_back({x, 0, x});
    } else if (e.stage == 1) {
      NodeList newSrc;
      bool same = true;
      for (const Node *x : e.newN->src) {
        newSrc.push_back(lookup(x));
        same &= newSrc.back() == x;
      }
      const Node *next;
      if (same) {
        if (!pm || !(next = pm->rewrite(ctx, e.newN))) {
          set(e.n, e.newN);
          continue;
        }
      } else {
        next = ctx.g.replace(e.newN, newSrc);
      }
      stack.push_back({e.n, 2, next});
      stack.push_back({next, 0, next});
    } else {
      set(e.n, lookup(e.newN));
    }
  }
  return lookup(root);
}

const Node *kernelize::graphRewrite(RewriteCtx &ctx, const Node *sink, const PatternMatcher &pm,
                                    bool bottomUp) {
  Rewriter r(ctx, bottomUp ? nullptr : &pm, bottomUp ? &pm : nullptr);
  return r.rewrite(sink);
}

NodeMap kernelize::graphRewriteMap(RewriteCtx &ctx, const Node *sink, const PatternMatcher &pm,
                                   bool bottomUp, const NodeMap *inputMap) {
  Rewriter r(ctx, bottomUp ? nullptr : &pm, bottomUp ? &pm : nullptr);
  llvm::SmallVector<const Node *> topo = sink->toposort();
  NodeMap out;
  out.reserve(topo.size() + (inputMap ? inputMap->size() : 0));
  for (const Node *k : topo)
    out[k] = r.rewrite(k);
  if (inputMap)
    for (auto [k, v] : *inputMap) {
      auto it = out.find(v);
      const Node *image = it == out.end() ? v : it->second;
      out[k] = image;
    }
  return out;
}
