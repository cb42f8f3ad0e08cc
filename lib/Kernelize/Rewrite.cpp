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

const Node *PatternMatcher::rewrite(const Node *n) const {
  for (const Rule &r : rules) {
    if (!r.ops.test((size_t)n->op))
      continue;
    if (const Node *out = r.fn(n); out && out != n)
      return out;
  }
  return nullptr;
}

const Node *PatternMatcher::fixedPoint(const Node *n) const {
  for (unsigned i = 0;; ++i) {
    const Node *next = rewrite(n);
    if (!next)
      return n;
    if (i > 100000)
      llvm::report_fatal_error("kernelize: a rewrite rule loops");
    n = next;
  }
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
    if (replace.count(e.n))
      continue;
    if (e.stage == 0) {
      const Node *newN = e.newN;
      if (bpm)
        newN = bpm->fixedPoint(newN);
      stack.push_back({e.n, 1, newN});
      for (const Node *x : llvm::reverse(newN->src))
        stack.push_back({x, 0, x});
    } else if (e.stage == 1) {
      NodeList newSrc;
      bool same = true;
      for (const Node *x : e.newN->src) {
        newSrc.push_back(replace.lookup(x));
        same &= newSrc.back() == x;
      }
      const Node *next;
      if (same) {
        if (!pm || !(next = pm->rewrite(e.newN))) {
          replace[e.n] = e.newN;
          continue;
        }
      } else {
        next = g.replace(e.newN, newSrc);
      }
      stack.push_back({e.n, 2, next});
      stack.push_back({next, 0, next});
    } else {
      replace[e.n] = replace.lookup(e.newN);
    }
  }
  return replace.lookup(root);
}

const Node *kernelize::graphRewrite(Graph &g, const Node *sink, const PatternMatcher &pm,
                                    bool bottomUp) {
  Rewriter r(g, bottomUp ? nullptr : &pm, bottomUp ? &pm : nullptr);
  return r.rewrite(sink);
}

NodeMap kernelize::graphRewriteMap(Graph &g, const Node *sink, const PatternMatcher &pm,
                                   bool bottomUp, const NodeMap *inputMap) {
  Rewriter r(g, bottomUp ? nullptr : &pm, bottomUp ? &pm : nullptr);
  NodeMap out;
  for (const Node *k : sink->toposort())
    out[k] = r.rewrite(k);
  if (inputMap)
    for (auto [k, v] : *inputMap) {
      auto it = out.find(v);
      out[k] = it == out.end() ? v : it->second;
    }
  return out;
}
